//! Tests for `sesstree prune` (issue 46), over `prune.jsonl`: an abandoned branch holding a
//! label on a kept entry, a move marker with nothing below it, a compaction on the active path,
//! and a newer branch that a label on the active path names.

use std::collections::BTreeSet;
use std::fs::File;

use proptest::prelude::*;

use crate::common::TestEnv;

const FILE: &str = "prune.jsonl";

/// The lines of a file, as a set.
fn line_set(bytes: &[u8]) -> BTreeSet<String> {
    String::from_utf8_lossy(bytes).lines().map(String::from).collect()
}

fn lines(bytes: &[u8]) -> Vec<String> {
    String::from_utf8_lossy(bytes).lines().map(String::from).collect()
}

#[test]
fn a_subtree_goes_and_its_label_on_a_kept_entry_is_set_again() {
    let env = TestEnv::new();
    env.fixture(FILE);
    let before = env.read(FILE);
    let context = env.run(&["-f", FILE, "context", "--json"]);
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "10000003"]), @r"
    prune.jsonl: removed 3 entries (564 bytes) in 1 subtree
      10000003 message (3 entries)
    set again: label plan-read on 10000002
    original kept as prune.jsonl.bak
    ");
    // Every other line byte for byte, in order, then the label entry re-created under the
    // leaf with the time of the entry it stands for.
    let old = lines(&before);
    let new = lines(&env.read(FILE));
    let kept: Vec<String> = [&old[..3], &old[6..]].concat();
    assert_eq!(new[..new.len() - 1], kept[..]);
    insta::assert_snapshot!(new.last().unwrap(), @r#"{"type":"label","id":"15780b2e","parentId":"1000000e","timestamp":"2026-01-10T09:01:40.000Z","targetId":"10000002","label":"plan-read"}"#);
    assert_eq!(env.read("prune.jsonl.bak"), before);
    insta::assert_snapshot!(env.run(&["fsck", FILE]), @"prune.jsonl: ok");
    insta::assert_snapshot!(env.run(&["-f", FILE, "label", "--list"]), @r"
    csv-idea	1000000b assistant: CSV is easy: one line per file.
    plan-read	10000002 assistant: stats prints a table from src/stats.rs.
    ");
    // The conversation the agent continues, its compaction included, is the same.
    assert_eq!(env.run(&["-f", FILE, "context", "--json"]), context);
}

#[test]
fn an_entry_on_the_active_path_is_refused_and_nothing_is_written() {
    let env = TestEnv::new();
    env.fixture(FILE);
    let before = env.read(FILE);
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "1000000a", "10000002"]), @r"
    ------- stderr -------
    error: 10000002 is on the active path (root to leaf): prune removes only branches off it, so the conversation the agent continues never changes
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "@"]), @r"
    ------- stderr -------
    error: 1000000d is on the active path (root to leaf): prune removes only branches off it, so the conversation the agent continues never changes
    [exit status: 2]
    ");
    assert_eq!(env.read(FILE), before);
    assert!(!env.path().join("prune.jsonl.bak").exists());
}

/// The leaf's label names `1000000b`: pruning its branch would leave the label entry naming
/// nothing, so it is refused; `--abandoned` leaves that branch in place instead.
#[test]
fn a_branch_a_kept_label_names_stays() {
    let env = TestEnv::new();
    env.fixture(FILE);
    let before = env.read(FILE);
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "1000000a"]), @r"
    ------- stderr -------
    error: label entry 1000000e stays, but names 1000000b, which this prune would remove: it would name nothing; leave 1000000b in place
    [exit status: 2]
    ");
    assert_eq!(env.read(FILE), before);
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "--abandoned", "--dry-run"]), @r"
    prune.jsonl: would remove 4 entries (730 bytes) in 2 subtrees
      10000003 message (3 entries)
      10000006 branch_summary (1 entry)
    would set again: label plan-read on 10000002
    ");
}

/// `compactions.jsonl`'s compaction `953d07a9` keeps entries from `2e6c9032`, off its path
/// (which `fsck` reports): that branch is what the compaction names, so it stays.
#[test]
fn a_branch_a_kept_compaction_keeps_from_stays() {
    let env = TestEnv::new();
    env.fixture("compactions.jsonl");
    let before = env.read("compactions.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "compactions.jsonl", "prune", "2e6c9032"]), @r"
    ------- stderr -------
    error: compaction entry 953d07a9 stays, but names 2e6c9032, which this prune would remove: it would name nothing; leave 2e6c9032 in place
    [exit status: 2]
    ");
    insta::assert_snapshot!(env.run(&["-f", "compactions.jsonl", "prune", "--abandoned"]), @"compactions.jsonl: nothing to prune");
    assert_eq!(env.read("compactions.jsonl"), before);
}

#[test]
fn dry_run_and_json_write_nothing() {
    let env = TestEnv::new();
    env.fixture(FILE);
    let before = env.read(FILE);
    insta::assert_snapshot!(env.run(&["-f", FILE, "--json", "prune", "--abandoned", "--dry-run"]), @r#"{"file":"prune.jsonl","removed":["10000003","10000004","10000005","10000006"],"subtrees":["10000003","10000006"],"removedBytes":730,"labelsCreated":["15780b2e"],"dryRun":true,"backup":null,"saved":null,"output":null}"#);
    // A REV inside another's subtree goes with it.
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "10000004", "10000003", "--dry-run"]), @r"
    prune.jsonl: would remove 3 entries (564 bytes) in 1 subtree
      10000003 message (3 entries)
    would set again: label plan-read on 10000002
    ");
    assert_eq!(env.read(FILE), before);
    let listing: Vec<_> =
        std::fs::read_dir(env.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(listing, [FILE], "no backup, no lock sidecar");
}

#[test]
fn older_than_keeps_the_recent_branches() {
    let env = TestEnv::new();
    env.fixture(FILE);
    // SESSTREE_NOW is 2026-03-01: the serde branch (2026-01-10) is older than 30 days, the
    // marker (2026-02-20) is not.
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "--abandoned", "--older-than", "30d", "--dry-run"]), @r"
    prune.jsonl: would remove 3 entries (564 bytes) in 1 subtree
      10000003 message (3 entries)
    would set again: label plan-read on 10000002
    ");
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "--abandoned", "--older-than", "2026-01-01", "--dry-run"]), @"prune.jsonl: nothing to prune");
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "--abandoned", "--older-than", "soon"]), @r"
    ------- stderr -------
    error: --older-than 'soon': not a date (2026-11-30), a time (2026-11-30T14:00) or a span (7d, 12h)
    [exit status: 2]
    ");
}

#[test]
fn markers_with_nothing_below_go() {
    let env = TestEnv::new();
    env.fixture(FILE);
    let before = lines(&env.read(FILE));
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "--markers", "--no-backup"]), @r"
    prune.jsonl: removed 1 entry (166 bytes) in 1 subtree
      10000006 branch_summary (1 entry)
    ");
    let after = lines(&env.read(FILE));
    assert_eq!(after, [&before[..6], &before[7..]].concat());
    assert!(!env.path().join("prune.jsonl.bak").exists());
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "--markers"]), @"prune.jsonl: nothing to prune");
}

#[test]
fn output_goes_elsewhere_and_never_over_a_file() {
    let env = TestEnv::new();
    env.fixture(FILE);
    let before = env.read(FILE);
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "10000006", "-o", "out.jsonl"]), @r"
    prune.jsonl: removed 1 entry (166 bytes) in 1 subtree
      10000006 branch_summary (1 entry)
    written to out.jsonl
    ");
    assert_eq!(env.read(FILE), before);
    assert_eq!(env.read("out.jsonl").len(), before.len() - 166);
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "10000006", "-o", "out.jsonl"]), @r"
    ------- stderr -------
    error: out.jsonl: already exists (use --force to overwrite)
    [exit status: 5]
    ");
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "10000006", "-o", FILE]), @r"
    ------- stderr -------
    error: prune.jsonl: -o names the file itself; leave -o out to prune in place
    [exit status: 2]
    ");
    // A backup already there is not overwritten: nothing is pruned.
    env.write("prune.jsonl.bak", "keep me\n");
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "10000006"]), @r"
    ------- stderr -------
    error: prune.jsonl.bak: already exists; nothing was pruned (--force overwrites it, --no-backup skips it, --save keeps the removed lines instead)
    [exit status: 5]
    ");
    assert_eq!(env.read(FILE), before);
    assert_eq!(env.read("prune.jsonl.bak"), b"keep me\n");
}

#[test]
fn saved_lines_are_restored_with_their_ids_and_parents() {
    let env = TestEnv::new();
    env.fixture(FILE);
    let before = env.read(FILE);
    let tree = env.run(&["-f", FILE, "tree", "--filter", "all"]);
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "--abandoned", "--save", "saved.jsonl"]), @r"
    prune.jsonl: removed 4 entries (730 bytes) in 2 subtrees
      10000003 message (3 entries)
      10000006 branch_summary (1 entry)
    set again: label plan-read on 10000002
    removed lines saved to saved.jsonl
    ");
    assert!(!env.path().join("prune.jsonl.bak").exists(), "--save keeps what goes instead");
    // The save file: the header, then the removed lines byte for byte.
    let old = lines(&before);
    assert_eq!(lines(&env.read("saved.jsonl")), [&old[..1], &old[3..7]].concat());
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "--restore", "saved.jsonl", "--no-backup"]), @"prune.jsonl: restored 4 entries from saved.jsonl");
    // Every original line is back; the only new one is the re-created label.
    let restored = line_set(&env.read(FILE));
    let original = line_set(&before);
    assert!(restored.is_superset(&original));
    assert_eq!(restored.len(), original.len() + 1);
    // The same tree, with the re-created label under the leaf.
    let label = "│  1000000e [label: csv-idea]\n";
    let with_label = tree.replace(label, &format!("{label}│  15780b2e [label: plan-read]\n"));
    assert_eq!(env.run(&["-f", FILE, "tree", "--filter", "all"]), with_label);
    insta::assert_snapshot!(env.run(&["fsck", FILE]), @"prune.jsonl: ok");
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "--restore", "saved.jsonl"]), @"prune.jsonl: restored 0 entries from saved.jsonl (4 already in the file)");
}

/// A prune that fails after it appended the removed lines (here: -o names a file that exists)
/// takes them off the save file again, and removes a save file it made.
#[test]
fn a_failed_prune_leaves_the_save_file_as_it_was() {
    let env = TestEnv::new();
    env.fixture(FILE);
    env.write("out.jsonl", "taken\n");
    let args = ["-f", FILE, "prune", "--abandoned", "--save", "saved.jsonl", "-o", "out.jsonl"];
    insta::assert_snapshot!(env.run(&args), @r"
    ------- stderr -------
    error: out.jsonl: already exists (use --force to overwrite)
    [exit status: 5]
    ");
    assert!(!env.path().join("saved.jsonl").exists(), "the save file this prune made stays");
    env.write("saved.jsonl", "saved before\n");
    insta::assert_snapshot!(env.run(&args), @r"
    ------- stderr -------
    error: out.jsonl: already exists (use --force to overwrite)
    [exit status: 5]
    ");
    assert_eq!(env.read("saved.jsonl"), b"saved before\n");
    assert_eq!(env.read("out.jsonl"), b"taken\n");
}

/// The labels prune sets again come in the order of the label map (`labelsById`): the order
/// a target got its label, kept when it is set again, moved to the end when it was cleared
/// first; each with the value and time of the entry that last set it. pi 1.6.0's
/// `createBranchedSession` writes its label copies in that order; pi 1.6.0, pi 0.73.1 and
/// oh-my-pi 18.2.3 read the same labels, in the same order and with the same times, from the
/// original and the result.
#[test]
#[cfg_attr(windows, ignore = "Wine renames nothing over the file a loaded session holds open")]
fn labels_set_again_keep_the_order_of_the_original() {
    let env = TestEnv::new();
    let file = "prune-labels.jsonl";
    env.fixture(file);
    let labels = env.run(&["-f", file, "label"]);
    insta::assert_snapshot!(labels, @r"
    ask-b	30000001 user: Add a --json flag to tally stats.
    plan-b	30000002 assistant: stats prints a table from src/stats.rs.
    table-b	30000003 user: Show me the table code first.
    ");
    insta::assert_snapshot!(env.run(&["-f", file, "prune", "--abandoned", "--no-backup"]), @r"
    prune-labels.jsonl: removed 9 entries (1175 bytes) in 1 subtree
      30000004 message (9 entries)
    set again: label ask-b on 30000001
    set again: label plan-b on 30000002
    set again: label table-b on 30000003
    ");
    assert_eq!(env.run(&["-f", file, "label"]), labels);
    let after = lines(&env.read(file));
    let created: Vec<serde_json::Value> =
        after[after.len() - 3..].iter().map(|l| serde_json::from_str(l).unwrap()).collect();
    let seen: Vec<(&str, &str, &str)> = created
        .iter()
        .map(|v| {
            let field = |k: &str| v[k].as_str().unwrap();
            (field("targetId"), field("label"), field("timestamp"))
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("30000001", "ask-b", "2026-03-01T09:00:25.000Z"),
            ("30000002", "plan-b", "2026-03-01T09:00:24.000Z"),
            ("30000003", "table-b", "2026-03-01T09:00:27.000Z"),
        ]
    );
}

#[test]
fn a_save_file_of_another_session_is_refused() {
    let env = TestEnv::new();
    env.fixture(FILE);
    env.fixture("linear.jsonl");
    let before = env.read(FILE);
    insta::assert_snapshot!(env.run(&["-f", FILE, "prune", "--restore", "linear.jsonl"]), @r"
    ------- stderr -------
    error: linear.jsonl: saved from session 019cadc6-9a80-73c1-99e0-f2a4b5c6d7e8, not from this one (019bab2c-1e00-7a3f-8c21-5d6e7f809a1b)
    [exit status: 2]
    ");
    assert_eq!(env.read(FILE), before);
}

#[test]
fn a_damaged_file_is_refused_and_fsck_named() {
    let env = TestEnv::new();
    env.fixture("torn-last-line.jsonl");
    let before = env.read("torn-last-line.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "torn-last-line.jsonl", "prune", "--abandoned"]), @r"
    ------- stderr -------
    error: torn-last-line.jsonl:5: truncated last line: EOF while parsing a string at line 1 column 173; prune rewrites only a file that reads cleanly (run `sesstree fsck` on it, and `fsck --repair -o` for a repaired copy)
    [exit status: 3]
    ");
    assert_eq!(env.read("torn-last-line.jsonl"), before);
}

/// oh-my-pi ≥ 18.5.0 holds the ownership lease of a session it has open (CHANGES R6): this
/// test holds it as oh-my-pi does on macOS and the BSDs (see tests/cli/lease.rs).
#[test]
#[cfg_attr(windows, ignore = "oh-my-pi's Windows lease is a named mutex, never looked for")]
fn a_session_open_in_oh_my_pi_is_refused_unless_even_if_open() {
    let env = TestEnv::new();
    env.fixture(FILE);
    let before = env.read(FILE);
    let owners = env.path().join("home/.omp/run/session-owners");
    std::fs::create_dir_all(&owners).unwrap();
    let lease = File::create(owners.join("019bab2c-1e00-7a3f-8c21-5d6e7f809a1b.lock")).unwrap();
    lease.lock().unwrap();
    let run = |args: &[&str]| {
        let out = env.cmd().env_remove("XDG_STATE_HOME").args(args).output().unwrap();
        env.render(&out).replace(&format!("pid {}", std::process::id()), "pid [PID]")
    };
    insta::assert_snapshot!(run(&["-f", FILE, "prune", "10000006"]), @r"
    ------- stderr -------
    error: prune.jsonl: session is open in oh-my-pi (pid [PID]); nothing was written (close it there, or give --even-if-open)
    [exit status: 5]
    ");
    assert_eq!(env.read(FILE), before);
    assert!(!env.path().join("prune.jsonl.bak").exists(), "the backup goes with the failed write");
    insta::assert_snapshot!(run(&["-f", FILE, "--even-if-open", "prune", "10000006", "--no-backup"]), @r"
    prune.jsonl: removed 1 entry (166 bytes) in 1 subtree
      10000006 branch_summary (1 entry)
    ");
}

/// A random tree: entry `i` hangs under an earlier one (or is a root), each a user message.
fn tree_file(parents: &[Option<usize>]) -> String {
    let mut out = String::from(
        r#"{"type":"session","version":3,"id":"s1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/w"}"#,
    );
    out.push('\n');
    for (i, parent) in parents.iter().enumerate() {
        let parent = parent.map_or("null".to_string(), |p| format!("\"{p:08x}\""));
        out.push_str(&format!(
            r#"{{"type":"message","id":"{i:08x}","parentId":{parent},"timestamp":"2026-01-01T00:00:{:02}.000Z","message":{{"role":"user","content":"m{i}"}}}}"#,
            i % 60
        ));
        out.push('\n');
    }
    out
}

fn trees() -> impl Strategy<Value = (Vec<Option<usize>>, Vec<prop::sample::Index>)> {
    (2usize..24).prop_flat_map(|n| {
        let parents = (0..n)
            .map(|i| {
                if i == 0 {
                    Just(None).boxed()
                } else {
                    prop_oneof![1 => Just(None), 8 => (0..i).prop_map(Some)].boxed()
                }
            })
            .collect::<Vec<_>>();
        (parents, prop::collection::vec(any::<prop::sample::Index>(), 1..4))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    /// For random trees and random REVs off the active path: the result is clean, and prune
    /// then restore gives back the same set of lines.
    #[test]
    fn prune_then_restore_gives_the_same_lines((parents, picks) in trees()) {
        let env = TestEnv::new();
        let text = tree_file(&parents);
        env.write("t.jsonl", &text);
        let last = parents.len() - 1;
        let mut active = BTreeSet::from([last]);
        let mut at = last;
        while let Some(p) = parents[at] {
            active.insert(p);
            at = p;
        }
        let off: Vec<usize> = (0..parents.len()).filter(|i| !active.contains(i)).collect();
        prop_assume!(!off.is_empty());
        let revs: Vec<String> = picks.iter().map(|p| format!("{:08x}", off[p.index(off.len())])).collect();
        let mut args = vec!["-f", "t.jsonl", "prune", "--save", "s.jsonl"];
        args.extend(revs.iter().map(String::as_str));
        let out = env.run(&args);
        prop_assert!(out.contains("removed"), "{out}");
        prop_assert_eq!(env.run(&["fsck", "t.jsonl"]), "t.jsonl: ok\n");
        let pruned = line_set(&env.read("t.jsonl"));
        prop_assert!(pruned.len() < parents.len() + 1);
        let out = env.run(&["-f", "t.jsonl", "prune", "--restore", "s.jsonl", "--no-backup"]);
        prop_assert!(out.contains("restored"), "{out}");
        prop_assert_eq!(line_set(&env.read("t.jsonl")), line_set(text.as_bytes()));
        prop_assert_eq!(env.run(&["fsck", "t.jsonl"]), "t.jsonl: ok\n");
    }
}

/// `stats --bytes` shows where the bytes are; what lies off the active path is what
/// `prune --abandoned` removes when no label keeps a branch.
#[test]
fn stats_bytes_shows_what_prune_would_save() {
    let env = TestEnv::new();
    env.write("demo.jsonl", std::fs::read(crate::common::demo()).unwrap());
    insta::assert_snapshot!(env.run(&["stats", "--bytes", "demo.jsonl"]), @r"
    demo.jsonl
      total:                 21.9 KiB
      message:               18.0 KiB (82.2%) in 27 lines
      compaction:            824 B (3.7%) in 1 line
      branch_summary:        777 B (3.5%) in 1 line
      label:                 414 B (1.8%) in 3 lines
      custom_message:        401 B (1.8%) in 1 line
      model_usage:           399 B (1.8%) in 1 line
      title_change:          398 B (1.8%) in 2 lines
      model_change:          182 B (0.8%) in 1 line
      thinking_level_change: 153 B (0.7%) in 1 line
      header:                457 B (2.0%)
      inline images:         0 B (0.0%) in 0 images
      tool output:           7.2 KiB (32.6%) in 13 results
      active path:           16.3 KiB (74.1%) in 29 entries
      off the path:          5.2 KiB (23.9%) in 9 entries
    ");
    let json = |args: &[&str]| -> serde_json::Value {
        let out = env.cmd().args(args).output().unwrap();
        serde_json::from_slice(&out.stdout).unwrap()
    };
    let bytes = json(&["--json", "stats", "--bytes", "demo.jsonl"]);
    let prune = json(&["-f", "demo.jsonl", "--json", "prune", "--abandoned", "--dry-run"]);
    assert_eq!(bytes["offPath"]["bytes"], prune["removedBytes"]);
    assert_eq!(
        bytes["offPath"]["count"].as_u64().unwrap(),
        prune["removed"].as_array().unwrap().len() as u64
    );
}

/// `--images` moves inline images into oh-my-pi's blob store as oh-my-pi 18.2.3 writes them
/// (`session/blob-store.ts`: `<blobs>/<sha256>` and a typed link, `blob:sha256:` in the line);
/// the blob reads back as the very base64 the line held. (A throwaway check with oh-my-pi
/// 18.2.3's own `SessionManager`, its blobs under the same HOME, gave the same context for the
/// result as for the original; the oracle's harness runs the agents under the runner's HOME.)
#[test]
#[cfg_attr(windows, ignore = "snapshots paths with /, which Windows spells with \\")]
fn images_move_into_oh_my_pis_blob_store() {
    let env = TestEnv::new();
    env.fixture("images-omp.jsonl");
    let before = env.read("images-omp.jsonl");
    let context = env.run(&["-f", "images-omp.jsonl", "context", "--json"]);
    insta::assert_snapshot!(env.run(&["-f", "images-omp.jsonl", "prune", "--images", "--dry-run"]), @"images-omp.jsonl: would move 2 images (4704 bytes) from 2 lines into $TMP/home/.omp/agent/blobs");
    assert_eq!(env.read("images-omp.jsonl"), before);
    assert!(!env.path().join("home/.omp/agent/blobs").exists(), "a dry run stores nothing");
    insta::assert_snapshot!(env.run(&["-f", "images-omp.jsonl", "prune", "--images"]), @r"
    images-omp.jsonl: moved 2 images (4704 bytes) from 2 lines into $TMP/home/.omp/agent/blobs
    original kept as images-omp.jsonl.bak
    ");
    let hash = "f996a94439a240d7a97aec374269722a73cbbe3bbe9d7a5e8a07846e72dc3af4";
    let blobs = env.path().join("home/.omp/agent/blobs");
    let blob = std::fs::read(blobs.join(hash)).unwrap();
    assert_eq!(&blob[..8], b"\x89PNG\r\n\x1a\n");
    assert_eq!(std::fs::read(blobs.join(format!("{hash}.png"))).unwrap(), blob);
    // Only the two data strings changed.
    let reference = format!("blob:sha256:{hash}");
    let old = String::from_utf8(before).unwrap();
    let data = old.split(r#""data":""#).nth(1).unwrap().split('"').next().unwrap();
    assert_eq!(
        String::from_utf8(env.read("images-omp.jsonl")).unwrap(),
        old.replace(data, &reference)
    );
    // The blob is the image, read back as the very string the line held.
    assert_eq!(sesstree::export::base64(&blob), data);
    assert_eq!(format!("{:x}", <sha2::Sha256 as sha2::Digest>::digest(&blob)), hash);
    // The context is the same but for the reference (`context --json` shows it as written).
    let after = env.run(&["-f", "images-omp.jsonl", "context", "--json"]);
    assert_eq!(after, context.replace(data, &reference));
    insta::assert_snapshot!(env.run(&["-f", "images-omp.jsonl", "prune", "--images"]), @"images-omp.jsonl: no inline image to move");
}

#[test]
fn images_are_refused_for_pi_which_has_no_blob_store() {
    let env = TestEnv::new();
    env.fixture("pi.jsonl");
    let before = env.read("pi.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "pi.jsonl", "prune", "--images"]), @r"
    ------- stderr -------
    error: pi.jsonl: a pi session; pi keeps images in the file and has no blob store, so --images is only for oh-my-pi sessions
    [exit status: 2]
    ");
    assert_eq!(env.read("pi.jsonl"), before);
}

/// pi 1.6.0 sets a branch summary's `fromId` to the leaf it left (CHANGES R5b), the tip of the
/// branch `--abandoned` removes: the result still passes `fsck`, as the agents only print it.
#[test]
fn a_summary_whose_branch_went_still_passes_fsck() {
    let env = TestEnv::new();
    let source = crate::common::fixtures().join("agents/pi-1.6.0/navigate-summary.jsonl");
    env.write("n.jsonl", std::fs::read(source).unwrap());
    let out = env.run(&["-f", "n.jsonl", "prune", "--abandoned", "-o", "out.jsonl"]);
    insta::assert_snapshot!(out, @"
    n.jsonl: removed 2 entries (661 bytes) in 1 subtree
      45adbb10 message (2 entries)
    written to out.jsonl
    ");
    insta::assert_snapshot!(env.run(&["fsck", "out.jsonl"]), @"out.jsonl: ok");
}
