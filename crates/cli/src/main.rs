//! `bloomproof`: run the documented checks, and (to come) explain hashes and serve as
//! an adapter for the conformance protocol.

use bloomproof_conformance::front::{self, Format, Options};
use clap::{Parser, Subcommand, ValueEnum};
use std::path::PathBuf;
use std::process::ExitCode;

/// Conformance tooling for the doc-membership-v1 and fnv1a-utf16-v1 Bloom filter protocols.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every documented check of the spec folder and report each by name.
    Conformance(ConformanceArgs),
}

/// Arguments of `conformance`.
#[derive(clap::Args)]
struct ConformanceArgs {
    /// The spec folder.
    #[arg(long, default_value = "spec")]
    spec: PathBuf,
    /// Report format.
    #[arg(long, value_enum, default_value_t = FormatArg::Text)]
    format: FormatArg,
    /// Run only checks whose `<protocol>/<name>` contains this text.
    filter: Option<String>,
}

#[derive(Clone, Copy, ValueEnum)]
enum FormatArg {
    Text,
    Json,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Conformance(args) => front::conformance(&Options {
            spec_dir: args.spec,
            format: match args.format {
                FormatArg::Text => Format::Text,
                FormatArg::Json => Format::Json,
            },
            filter: args.filter,
        }),
    }
}
