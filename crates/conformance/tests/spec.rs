//! The documented checks of `spec/` as a libtest-mimic harness: one trial per check,
//! named `<protocol>/<check>`, so `--list`, `--exact` and name filters work. Each trial
//! runs its check on fresh in-process subjects.

use bloomproof_conformance::report::Figures;
use bloomproof_conformance::run::{Subjects, run_check};
use bloomproof_conformance::{Spec, load};
use libtest_mimic::{Failed, Trial};
use std::path::Path;
use std::process::ExitCode;

fn trials(spec: &Spec) -> Vec<Trial> {
    let mut trials = Vec::new();
    for protocol in &spec.protocols {
        for check in &protocol.checks {
            let protocol = protocol.clone();
            let name = check.name.clone();
            trials.push(Trial::test(
                format!("{}/{}", protocol.protocol, name),
                move || {
                    let mut subjects = Subjects::rust();
                    let outcome =
                        run_check(&protocol, &name, &mut subjects, &mut Figures::default());
                    if outcome.cases == 0 {
                        return Err(Failed::from("no case ran"));
                    }
                    if outcome.passed() {
                        Ok(())
                    } else {
                        Err(Failed::from(outcome.render_failures()))
                    }
                },
            ));
        }
    }
    trials
}

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
    libtest_mimic::run(&args, trials(&spec)).exit_code()
}
