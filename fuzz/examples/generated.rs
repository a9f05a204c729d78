//! Prints the session file the `plan` target generates from a fuzz input, to triage findings:
//! `cargo run --example generated -- artifacts/plan/crash-…`
use std::io::Write;

fn main() {
    let path = std::env::args().nth(1).expect("a fuzz input file");
    let data = std::fs::read(path).expect("readable input");
    let (bytes, _) = sesstree_fuzz::generate(&mut sesstree_fuzz::Bytes::new(&data));
    std::io::stdout().write_all(&bytes).expect("stdout");
}
