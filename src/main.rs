//! The `sesstree` binary: parse the command line, run it, and turn the outcome into one of the
//! documented exit statuses.

mod cli;

use std::process::ExitCode;

use crate::cli::exit::{Exit, classify};

fn main() -> ExitCode {
    // Before any other thread exists, so that every thread inherits the mask.
    #[cfg(unix)]
    cli::signals::block_file_size_signal();
    clap_complete::CompleteEnv::with_factory(cli::command).complete();
    let parsed = match cli::parse() {
        Ok(parsed) => parsed,
        Err(e) => {
            // Help and version go to stdout with status 0; usage errors to stderr with 2.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { Exit::Usage as u8 } else { 0 });
        }
    };
    let Err(err) = cli::run(parsed) else { return ExitCode::SUCCESS };
    let (exit, print) = classify(&err);
    if print {
        eprintln!("error: {}", cli::ui::show(&format!("{err:#}")));
        if let Some(hint) = cli::hint(&err) {
            eprintln!("hint: {hint}");
        }
    }
    ExitCode::from(exit as u8)
}
