//! One integration test binary for the whole CLI. Each module covers one subcommand (or one
//! concern) by running the real binary over small hand-made fixtures.

mod common;

mod cli; // global options, exit codes, colour, broken pipes
mod context; // sesstree context
mod damage; // every kind of damaged input
mod hostile; // hostile input: no panic, no hang, nothing raw on the terminal
mod humanize_title; // sesstree humanize-title
mod log; // sesstree log
mod show; // sesstree show
mod stats; // sesstree stats
mod tree; // sesstree tree

/// Every file in tests/cli must be listed above, or its tests would silently never run.
#[test]
fn no_forgotten_test_files() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli");
    let listed = include_str!("main.rs");
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else { continue };
        if path.extension().is_some_and(|e| e == "rs") && stem != "main" {
            assert!(listed.contains(&format!("mod {stem};")), "tests/cli/{stem}.rs is not listed");
        }
    }
}
