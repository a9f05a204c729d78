//! Whose session a file is (issue 30): decided from what is certain (a title slot, entry
//! types and fields of one agent, the agent's sessions directory the file lies in), never from
//! the session id. A writer that would add what only one agent understands refuses a file that
//! says nothing certain (exit 2) until `--dialect` says; every writer takes `--dialect`, and
//! refuses one the file contradicts.

use crate::common::TestEnv;

/// pi's file as the SDK writes it (CHANGES P1): a UUIDv7 session id and nothing pi-only.
const PLAIN: &str = "pi-v7-plain.jsonl";

fn fixture_bytes() -> Vec<u8> {
    std::fs::read(crate::common::fixtures().join(PLAIN)).unwrap()
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

#[test]
fn a_pi_file_with_a_v7_id_and_nothing_pi_only_is_not_given_a_title_slot() {
    let env = TestEnv::new();
    env.fixture(PLAIN);
    let before = env.read(PLAIN);
    let out = env.run(&["-f", PLAIN, "name", "My session"]);
    assert!(out.contains("cannot tell whether oh-my-pi or pi wrote this session"), "{out}");
    assert!(out.ends_with("[exit status: 2]\n"), "{out}");
    assert_eq!(env.read(PLAIN), before, "nothing written");
    // Told, it names the session as pi does: the header stays the first line.
    insta::assert_snapshot!(env.run(&["-f", PLAIN, "name", "--dialect", "pi", "My session"]), @"My session");
    let after = text(&env.read(PLAIN));
    assert!(after.starts_with(&text(&before)), "only appended");
    assert!(after.lines().last().unwrap().starts_with(r#"{"type":"session_info","#), "{after}");
}

#[test]
fn the_agents_sessions_directory_says_whose_file_it_is() {
    let env = TestEnv::new();
    // pi's sessions directory (`~/.pi/agent/sessions/--<cwd>--/`): pi's way, no slot.
    let pi_dir = "home/.pi/agent/sessions/--w--";
    std::fs::create_dir_all(env.path().join(pi_dir)).unwrap();
    let pi = format!("{pi_dir}/{PLAIN}");
    env.write(&pi, fixture_bytes());
    insta::assert_snapshot!(env.run(&["-f", &pi, "name", "In pi's directory"]), @"In pi's directory");
    let written = text(&env.read(&pi));
    assert!(written.starts_with(r#"{"type":"session","#), "no title slot: {written}");
    assert!(written.contains(r#""type":"session_info""#));
    // oh-my-pi's (`~/.omp/agent/sessions/-<cwd>/`): oh-my-pi's way, a title slot.
    let omp_dir = "home/.omp/agent/sessions/--w--";
    std::fs::create_dir_all(env.path().join(omp_dir)).unwrap();
    let omp = format!("{omp_dir}/{PLAIN}");
    env.write(&omp, fixture_bytes());
    insta::assert_snapshot!(env.run(&["-f", &omp, "name", "In omp's directory"]), @"In omp's directory");
    assert!(text(&env.read(&omp)).starts_with(r#"{"type":"title""#), "a title slot first");
    assert!(text(&env.read(&omp)).contains(r#""type":"title_change""#));
    // A directory and a --dialect that disagree: refused, nothing written.
    let pi = format!("{pi_dir}/other.jsonl");
    env.write(&pi, fixture_bytes());
    let before = env.read(&pi);
    let out = env.run(&["-f", &pi, "name", "--dialect", "omp", "X"]);
    assert!(out.contains("this is pi's session (it lies in that agent's sessions directory); --dialect omp does not fit it"), "{out}");
    assert!(out.ends_with("[exit status: 2]\n"), "{out}");
    assert_eq!(env.read(&pi), before);
}

#[test]
fn entries_of_one_agent_decide_and_a_contradicting_dialect_is_refused() {
    let env = TestEnv::new();
    // pi's `session_info` (and `usage`, `context_edit`, `model_change {provider, modelId}`, a
    // `system` message): pi's.
    env.fixture("writers-pi.jsonl");
    // oh-my-pi's `title_change`, or one of its own entry types: oh-my-pi's.
    env.fixture("branch-omp-noslot.jsonl");
    // A title slot: oh-my-pi's.
    env.fixture("writers-slot.jsonl");
    for (file, wrong) in [
        ("writers-pi.jsonl", "omp"),
        ("branch-omp-noslot.jsonl", "pi"),
        ("writers-slot.jsonl", "pi"),
    ] {
        let before = env.read(file);
        for args in [
            &["name", "--dialect", wrong, "N"][..],
            &["label", "--dialect", wrong, "@", "x"],
            &["checkout", "--dialect", wrong, "@^"],
            &["migrate", "--dialect", wrong],
        ] {
            let out = env.run(&[&["-f", file][..], args].concat());
            assert!(
                out.contains(&format!("--dialect {wrong} does not fit it")),
                "{file} {args:?}: {out}"
            );
            assert!(out.ends_with("[exit status: 2]\n"), "{out}");
        }
        let out = env.run(&["fsck", "--repair", "--dialect", wrong, "-o", "r.jsonl", file]);
        assert!(out.contains("does not fit it"), "{out}");
        assert_eq!(env.read(file), before, "{file} untouched");
        assert!(!env.path().join("r.jsonl").exists());
    }
}

#[test]
fn every_writer_takes_dialect() {
    let env = TestEnv::new();
    env.fixture(PLAIN);
    let run = |args: &[&str]| env.run(&[&["-f", PLAIN][..], args].concat());
    for args in [
        &["label", "--dialect", "pi", "a1000002", "read"][..],
        &["checkout", "--dialect", "pi", "a1000004"],
        &["migrate", "--dialect", "pi"],
        &["fork", "--dialect", "pi", "--through", "a1000006", "-o", "f.jsonl"],
        &["branch", "--dialect", "pi", "--through", "a1000006", "-o", "b.jsonl"],
    ] {
        let out = run(args);
        assert!(!out.contains("error"), "{args:?}: {out}");
    }
    let out = env.run(&["fsck", "--repair", "--dialect", "pi", "-o", "r.jsonl", PLAIN]);
    assert!(!out.contains("error:"), "{out}");
    // The file said nothing certain; the flag did not make it say more than pi reads.
    assert!(text(&env.read(PLAIN)).starts_with(r#"{"type":"session","#));
}

/// A summary `checkout --summarize` writes is framed as the file's agent frames its own: pi's
/// `<read-files>`/`<modified-files>` blocks (pi's `formatFileOperations`), oh-my-pi's
/// `<files>` block (FORMAT §8.4).
#[test]
#[cfg_attr(windows, ignore = "gives the summarizer POSIX shell syntax")]
fn a_generated_summary_lists_the_files_as_the_files_agent_does() {
    let env = TestEnv::new();
    let summary = |dialect: &str| {
        env.fixture(PLAIN);
        let out = env.run(&[
            "-f",
            PLAIN,
            "--json",
            "checkout",
            "a1000001",
            "--summarize",
            "--dialect",
            dialect,
            "--summarizer",
            "cat > /dev/null; echo Tried the parser.",
        ]);
        let v: serde_json::Value = serde_json::from_str(out.lines().next().unwrap()).unwrap();
        v["summaryEntry"]["summary"].as_str().unwrap().to_string()
    };
    let preamble = "The user explored a different conversation branch before returning here.\nSummary of that exploration:\n\nTried the parser.\n\n";
    assert_eq!(
        summary("pi"),
        format!(
            "{preamble}<read-files>\nREADME.md\n</read-files>\n\n<modified-files>\nsrc/parse.rs\n</modified-files>"
        )
    );
    assert_eq!(
        summary("omp"),
        format!("{preamble}<files>\nREADME.md (Read)\nsrc/parse.rs (RW)\n</files>")
    );
}

/// CHANGES R8: a `system`-role message is pi's (pi 1.6.0 writes them, oh-my-pi 18.2.3 never
/// does), so `name` stores the name as pi does without being told; a `model_change` with
/// `modelId` but no `provider` is neither agent's (pi writes both, oh-my-pi `model`).
#[test]
fn a_system_message_is_pi_s_and_a_bare_model_id_is_nobody_s() {
    let env = TestEnv::new();
    env.fixture("pi-system.jsonl");
    let before = env.read("pi-system.jsonl");
    insta::assert_snapshot!(env.run(&["-f", "pi-system.jsonl", "name", "Greeting"]), @"Greeting");
    let after = env.read("pi-system.jsonl");
    assert!(after.starts_with(&before), "only appended");
    insta::assert_snapshot!(text(&after[before.len()..]), @r#"{"type":"session_info","id":"15780b2e","parentId":"b2000007","timestamp":"2026-03-01T12:00:00.000Z","name":"Greeting"}"#);

    let header = r#"{"type":"session","version":3,"id":"m1","timestamp":"2026-03-01T10:00:00.000Z","cwd":"/w"}"#;
    let change = r#"{"type":"model_change","id":"c1","parentId":null,"timestamp":"2026-03-01T10:00:01.000Z","modelId":"gpt-5"}"#;
    env.write("bare.jsonl", format!("{header}\n{change}\n"));
    let before = env.read("bare.jsonl");
    let out = env.run(&["-f", "bare.jsonl", "name", "X"]);
    assert!(out.contains("cannot tell whether oh-my-pi or pi wrote this session"), "{out}");
    assert!(out.ends_with("[exit status: 2]\n"), "{out}");
    assert_eq!(env.read("bare.jsonl"), before);
}
