//! One integration test binary for the whole CLI. Each module covers one subcommand (or one
//! concern) by running the real binary over small hand-made fixtures.

mod common;

mod branch; // sesstree branch
mod checkout; // sesstree checkout: moves, summaries, the summarizer
mod claude; // Claude Code transcripts: read by every reader, refused by writers
mod cli; // global options, exit codes, colour, broken pipes
mod codex; // Codex rollouts: read by every reader, rollbacks as branches, imported
mod complete; // shell completion of commands, entry ids and labels
mod concurrency; // write safety: concurrent writers, torn lines, changed files, refusals
mod context; // sesstree context
mod damage; // every kind of damaged input
mod default_session; // no -f: the current directory's newest session
mod dialect; // whose session a file is, --dialect on every writer
mod diff; // sesstree diff
mod examples; // every example of --help runs
mod export; // sesstree export: Markdown transcripts, targets, a hostile transcript
mod faults; // fault injection: killed writers, full disk, read-only file, size limit
mod fsck; // sesstree fsck, fsck --repair
mod generated; // man/ and completions/ match the binary
mod grep; // sesstree grep, and the FILE:REV it prints
mod hooks; // the hooks of checkout
mod hostile; // hostile input: no panic, no hang, nothing raw on the terminal
mod hostile_output; // no raw control characters from the file in text output
mod humanize_title; // sesstree humanize-title
mod injection; // no injection: file text only on stdin, permissions, -o targets
mod interrupt; // interrupted writers leave nothing behind; stale temporary files are swept
mod label; // sesstree label
mod lane_format; // pi's lane-based v4 files: named, refused, never written
mod lease; // oh-my-pi's ownership lease: writers refuse a session open in oh-my-pi
mod log; // sesstree log
mod ls; // sesstree ls
mod migrate; // sesstree migrate
mod name; // sesstree name
mod others; // Claude Code's and Codex's directories in ls and grep
mod pi_entries; // entry types of today's pi: usage, context_edit
mod props; // property tests: random trees and command sequences against a model
mod prune; // sesstree prune: subtrees, abandoned branches, markers, save and restore
mod readme; // the command tour in docs/ shows real output
mod reflog; // sesstree reflog, checkout -
mod show; // sesstree show
mod stats; // sesstree stats
mod tree; // sesstree tree
mod tree_interactive; // sesstree tree -i, driven in tmux

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
