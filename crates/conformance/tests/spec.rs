//! The documented checks of `spec/` as a libtest-mimic harness: one trial per check,
//! named `<protocol>/<check>`, so `--list`, `--exact` and name filters work.

use bloomproof_conformance::{load, run::Subjects, trials};
use std::path::Path;
use std::process::ExitCode;

fn main() -> ExitCode {
    let args = libtest_mimic::Arguments::from_args();
    let spec_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../spec");
    let spec = match load(&spec_dir) {
        Ok(spec) => spec,
        Err(errors) => {
            for error in errors {
                eprintln!("load error: {error}");
            }
            return ExitCode::FAILURE;
        }
    };
    libtest_mimic::run(&args, trials(&spec, Subjects::rust)).exit_code()
}
