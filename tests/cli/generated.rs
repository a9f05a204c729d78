//! The committed man pages (man/) and completion scripts (completions/) must be exactly what the
//! binary generates, so that they never drift from the commands they document.
//! `SESSTREE_BLESS=1` rewrites them instead of failing.

use std::collections::BTreeMap;
use std::path::Path;

use crate::common::{TestEnv, subcommands};

const REGENERATE: &str = "regenerate with scripts/regen-docs.sh \
     (or SESSTREE_BLESS=1 cargo test --test cli generated::) and commit the result";

/// The files of a directory by name (empty when it does not exist).
fn read_dir(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let Ok(entries) = std::fs::read_dir(dir) else { return BTreeMap::new() };
    entries
        .map(|e| {
            let path = e.expect("dir entry").path();
            let name = path.file_name().expect("file name").to_string_lossy().into_owned();
            (name, std::fs::read(&path).expect("read"))
        })
        .collect()
}

/// Generates `what` into a temporary directory and compares it with `committed`.
fn check(what: &str, committed: &str) {
    let env = TestEnv::new();
    let out = env.path().join(what);
    let output = env.cmd().args(["generate", what]).arg(&out).output().expect("run");
    assert!(output.status.success(), "generate {what} failed:\n{}", env.render(&output));
    let fresh = read_dir(&out);
    assert!(!fresh.is_empty(), "generate {what} wrote nothing");

    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join(committed);
    let old = read_dir(&dir);
    if fresh == old {
        return;
    }
    if std::env::var_os("SESSTREE_BLESS").is_some_and(|v| v == "1") {
        // Start from an empty directory so that pages of removed commands go too.
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("create");
        for (name, bytes) in &fresh {
            std::fs::write(dir.join(name), bytes).expect("write");
        }
        return;
    }
    let mut problems = Vec::new();
    for (name, bytes) in &fresh {
        match old.get(name) {
            None => problems.push(format!("{committed}/{name} is missing")),
            Some(b) if b != bytes => problems.push(format!("{committed}/{name} differs")),
            Some(_) => {}
        }
    }
    for name in old.keys().filter(|n| !fresh.contains_key(*n)) {
        problems.push(format!("{committed}/{name} is no longer generated"));
    }
    panic!("{committed}/ does not match the binary:\n  {}\n{REGENERATE}", problems.join("\n  "));
}

#[test]
fn man_pages_match_the_binary() {
    check("man", "man");
}

#[test]
fn completion_scripts_match_the_binary() {
    check("completions", "completions");
}

#[test]
fn generation_is_deterministic() {
    // Twice in a row, under a different environment: the same bytes (no dates, no env values).
    let env = TestEnv::new();
    for what in ["man", "completions"] {
        let a = env.path().join(format!("{what}-a"));
        let b = env.path().join(format!("{what}-b"));
        env.cmd().args(["generate", what]).arg(&a).assert().success();
        env.cmd()
            .env("SESSTREE_FILE", "elsewhere.jsonl")
            .env("COLUMNS", "40")
            .args(["generate", what])
            .arg(&b)
            .assert()
            .success();
        assert_eq!(read_dir(&a), read_dir(&b), "generate {what} is not deterministic");
    }
}

#[test]
fn pages_and_scripts_cover_every_command() {
    let env = TestEnv::new();
    let out = env.path().join("man");
    env.cmd().args(["generate", "man"]).arg(&out).assert().success();
    let names: Vec<String> = read_dir(&out).into_keys().collect();
    // One page per visible subcommand, plus the top page; the hidden `generate` has none.
    let commands = subcommands(&env);
    let mut expected: Vec<String> = commands.iter().map(|c| format!("sesstree-{c}.1")).collect();
    expected.push("sesstree.1".to_string());
    expected.sort();
    assert_eq!(names, expected);

    let completions = env.path().join("completions");
    env.cmd().args(["generate", "completions"]).arg(&completions).assert().success();
    let scripts: Vec<String> = read_dir(&completions).into_keys().collect();
    assert_eq!(
        scripts,
        ["_sesstree", "_sesstree.ps1", "sesstree.bash", "sesstree.elv", "sesstree.fish"]
    );
    for (name, bytes) in read_dir(&completions) {
        let text = String::from_utf8(bytes).expect("utf-8");
        assert!(!text.contains("generate"), "{name} offers the hidden generate command");
    }
}

#[test]
fn every_page_has_the_extra_sections() {
    let env = TestEnv::new();
    let out = env.path().join("man");
    env.cmd().args(["generate", "man"]).arg(&out).assert().success();
    for (name, bytes) in read_dir(&out) {
        let text = String::from_utf8(bytes).expect("utf-8");
        for section in [
            ".SH NAME",
            ".SH SYNOPSIS",
            ".SH DESCRIPTION",
            ".SH OPTIONS",
            ".SH \"EXIT STATUS\"",
            ".SH ENVIRONMENT",
            ".SH FILES",
            ".SH EXAMPLES",
            ".SH \"SEE ALSO\"",
        ] {
            assert!(text.contains(section), "{name} has no {section}");
        }
        for var in ["SESSTREE_FILE", "NO_COLOR", "SESSTREE_SUMMARIZER", "TZ", "SESSTREE_PAGER"] {
            assert!(text.contains(var), "{name} does not mention {var}");
        }
        assert!(text.contains("sesstree/hooks/"), "{name} has no hooks directory");
    }
}
