//! `bloomproof`: run the documented checks, explain every stage of a hash, serve as an
//! adapter for the conformance protocol, and serve the explorer page.

mod explain;

use bloomproof::adapter;
use bloomproof::front::{self, Options};
use clap::{Parser, Subcommand};
use std::path::PathBuf;
use std::process::ExitCode;

/// mimalloc: about a fifth less time for the suite than the system allocator (it
/// allocates and frees many short strings and views, and some of 2 MiB).
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Checks that an implementation of a Bloom filter protocol (doc-membership-v1,
/// fnv1a-utf16-v1) gives exactly the bytes the spec says, in Rust or in any language.
#[derive(Parser)]
#[command(
    version,
    about = "bloomproof checks that an implementation of the doc-membership-v1 or fnv1a-utf16-v1 Bloom filter protocol gives exactly the bytes the spec says. Your implementation can be in any language: you write a small adapter program that answers JSON requests on stdin, and bloomproof runs every check against it.",
    after_help = "Start here:\n  bloomproof conformance                                  every check, against the built-in Rust implementation\n  bloomproof conformance --impl 'python3 my_adapter.py'   every check, against your adapter\n  bloomproof spec show ADAPTER.md                         how an adapter answers\n  bloomproof spec checks                                  every check's name (a FILTER for conformance)"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run every documented check of the spec (the one built into this binary, or
    /// --spec DIR) and report each by name.
    Conformance(Options),
    /// The spec built into this binary: write it out.
    #[command(subcommand)]
    Spec(SpecCommand),
    /// Print every stage of one hash: framed message, digest, reduction, positions, bits.
    #[command(subcommand)]
    Explain(explain::Target),
    /// Print the stages and positions of one hash as JSON.
    #[command(subcommand)]
    Positions(explain::Target),
    /// Run the suite against several implementations side by side, cross-read what
    /// each writes with every other, and write the results matrix (a page, JSON, a
    /// summary and badges).
    Matrix(bloomproof::matrix::MatrixArgs),
    /// Answer the adapter protocol (JSON lines on stdin/stdout) with the Rust
    /// implementation; its rules: `bloomproof spec show ADAPTER.md`.
    Adapter,
    /// Serve the interactive fnv1a-utf16-v1 explorer page on this machine and print its URL
    /// (or, with --export DIR, write it as static files).
    #[cfg(feature = "explore")]
    Explore(ExploreArgs),
}

/// Subcommands of `spec`.
#[derive(Subcommand)]
enum SpecCommand {
    /// Write the spec built into this binary (every protocol's checks.json and
    /// cases.json, accumulated.json, adapter-protocol.json, rules.json, the schemas,
    /// and the documents: README.md, ADAPTER.md, each PROTOCOL.md, SESSION.md) under
    /// DIR, and print its version.
    Export(ExportArgs),
    /// Print one document the suite enforces (ADAPTER.md, SESSION.md,
    /// doc-membership-v1/PROTOCOL.md, fnv1a-utf16-v1/PROTOCOL.md, README.md); without
    /// NAME, list them.
    Show {
        /// The document, by its name in the spec folder or its file name alone.
        name: Option<String>,
    },
    /// Print every rule id of spec/rules.json with its class, its document, the source
    /// passage it restates or the reason it was decided so, and the cases that pin it
    /// (a known gap with its reason).
    Rules {
        /// Only the rules whose id, or one of whose cases' names, contains this text
        /// (case ignored): `DOC-HASH-MESSAGE`, `08-sha256`.
        filter: Option<String>,
    },
    /// Print the name of every check a conformance run can hold (what its FILTER
    /// matches) with what the check asserts.
    Checks,
}

/// Arguments of `spec export`.
#[derive(clap::Args)]
struct ExportArgs {
    /// The folder to write; it must be new or empty unless --force is given.
    dir: PathBuf,
    /// Write into a folder that is not empty, overwriting files of the same names.
    #[arg(long)]
    force: bool,
}

/// Arguments of `explore`.
#[cfg(feature = "explore")]
#[derive(clap::Args)]
struct ExploreArgs {
    /// The port to listen on; 0 picks a free one.
    #[arg(long, default_value_t = 0)]
    port: u16,
    /// Open the page in the default browser once listening.
    #[arg(long)]
    open: bool,
    /// The address to listen on. Only a loopback address (127.0.0.1, ::1) is
    /// accepted unless --allow-remote is given.
    #[arg(long, default_value = "127.0.0.1")]
    host: std::net::IpAddr,
    /// Allow a --host that is not a loopback address. Warning: whoever can reach
    /// that address can then use the explorer (requests must still name this
    /// server's address in Host, and writes must come from its own page).
    #[arg(long)]
    allow_remote: bool,
    /// Write the page as static files into DIR instead of serving it: the page
    /// as served (for any static file server) and bloomproof-explorer.html, one
    /// self-contained file that also works opened from disk. The page needs no
    /// server: its session model runs in the browser.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["port", "open", "host", "allow_remote"])]
    export: Option<std::path::PathBuf>,
    /// With --export: write into a folder that is not empty, overwriting the
    /// page's files and leaving other files.
    #[arg(long, requires = "export")]
    force: bool,
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Conformance(options) => front::conformance(&options),
        Command::Spec(SpecCommand::Export(args)) => {
            match bloomproof_conformance::embedded::export(&args.dir, args.force) {
                Ok(count) => written(front::write_stdout(&format!(
                    "wrote {count} spec files under {} (spec version {})\n",
                    args.dir.display(),
                    bloomproof_conformance::embedded::embedded_version()
                ))),
                Err(message) => bad_input(&message),
            }
        }
        Command::Spec(SpecCommand::Show { name: None }) => {
            let names: Vec<&str> = bloomproof_conformance::embedded::DOCUMENTS
                .iter()
                .map(|(name, _)| *name)
                .collect();
            written(front::write_stdout(&format!("{}\n", names.join("\n"))))
        }
        Command::Spec(SpecCommand::Show { name: Some(name) }) => {
            match bloomproof_conformance::embedded::document(&name) {
                Ok(text) => written(front::write_stdout(text)),
                Err(message) => bad_input(&message),
            }
        }
        Command::Spec(SpecCommand::Rules { filter }) => {
            with_embedded_spec(|spec| front::rules_text(spec, filter.as_deref()))
        }
        Command::Spec(SpecCommand::Checks) => {
            with_embedded_spec(|spec| Ok(front::checks_text(spec)))
        }
        Command::Explain(target) => match explain::explain(&target) {
            Ok(text) => written(front::write_stdout(&text)),
            Err(message) => bad_input(&message),
        },
        Command::Positions(target) => match explain::positions(&target) {
            Ok(json) => written(front::write_stdout(&format!("{json:#}\n"))),
            Err(message) => bad_input(&message),
        },
        Command::Matrix(args) => bloomproof::matrix::matrix(&args),
        Command::Adapter => {
            let stdin = std::io::stdin().lock();
            let stdout = std::io::stdout().lock();
            match adapter::serve(stdin, stdout) {
                Ok(()) => ExitCode::SUCCESS,
                Err(err) => {
                    eprintln!("bloomproof adapter: {err}");
                    ExitCode::from(2)
                }
            }
        }
        #[cfg(feature = "explore")]
        Command::Explore(args) => {
            if let Some(dir) = &args.export {
                return match bloomproof_explorer::export_site(dir, args.force) {
                    Ok(files) => written(front::write_stdout(&format!(
                        "wrote {} files to {}; open {} in a browser, or serve the folder with any static file server\n",
                        files.len(),
                        dir.display(),
                        dir.join(bloomproof_explorer::site::STANDALONE_NAME)
                            .display()
                    ))),
                    Err(message) => bad_input(&message),
                };
            }
            let options = bloomproof_explorer::Options {
                host: args.host,
                port: args.port,
                open: args.open,
                allow_remote: args.allow_remote,
                ..bloomproof_explorer::Options::default()
            };
            // A non-loopback --host without --allow-remote is a usage error: exit 2.
            if let Err(message) = options.check() {
                return bad_input(&message);
            }
            match bloomproof_explorer::run(options) {
                Ok(()) => ExitCode::SUCCESS,
                Err(message) => {
                    eprintln!("error: {message}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// Loads the spec built into this binary and prints what `text` makes of it; a spec
/// that does not load, or an error of `text`, is a usage error (exit 2).
fn with_embedded_spec(
    text: impl FnOnce(&bloomproof_conformance::load::Spec) -> Result<String, String>,
) -> ExitCode {
    match bloomproof_conformance::load_embedded() {
        Ok(spec) => match text(&spec) {
            Ok(text) => written(front::write_stdout(&text)),
            Err(message) => bad_input(&message),
        },
        Err(errors) => bad_input(
            &errors
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n"),
        ),
    }
}

/// Exit code 0 once the output was written, 2 when it could not be (the error is
/// already on stderr).
fn written(result: std::io::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(_) => ExitCode::from(2),
    }
}

/// One clear line on stderr, exit code 2.
fn bad_input(message: &str) -> ExitCode {
    eprintln!("bloomproof: error: {message}");
    ExitCode::from(2)
}
