//! Arbitrary strings as REVs against a small fixed session: resolving never panics, and what it
//! resolves to is a record; an exact id always resolves to its own entry.
#![no_main]

use std::sync::OnceLock;

use libfuzzer_sys::fuzz_target;
use sesstree::{Error, Session, rev};

/// Ids and labels chosen to collide with REV syntax: prefixes, `~`, `^`, `@`, digits, non-ASCII.
const SESSION: &str = r#"{"type":"session","version":3,"id":"s","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/"}
{"type":"message","id":"aaaa1111","parentId":null,"timestamp":"2026-01-01T00:00:01.000Z","message":{"role":"user","content":"a"}}
{"type":"message","id":"aaaa2222","parentId":"aaaa1111","timestamp":"2026-01-01T00:00:02.000Z","message":{"role":"assistant","content":[]}}
{"type":"message","id":"a~1^","parentId":"aaaa2222","timestamp":"2026-01-01T00:00:03.000Z","message":{"role":"user","content":"b"}}
{"type":"message","id":1234,"parentId":"a~1^","timestamp":"2026-01-01T00:00:04.000Z","message":{"role":"user","content":"c"}}
{"type":"message","id":"1234","parentId":1234,"timestamp":"2026-01-01T00:00:05.000Z","message":{"role":"user","content":"d"}}
{"type":"message","id":"ééé€x","parentId":"1234","timestamp":"2026-01-01T00:00:06.000Z","message":{"role":"user","content":"e"}}
{"type":"message","id":"@","parentId":"ééé€x","timestamp":"2026-01-01T00:00:07.000Z","message":{"role":"user","content":"f"}}
{"type":"label","id":"l1","parentId":"@","timestamp":"2026-01-01T00:00:08.000Z","targetId":"aaaa2222","label":"mid~2"}
{"type":"label","id":"l2","parentId":"l1","timestamp":"2026-01-01T00:00:09.000Z","targetId":"a~1^","label":"aaaa1111"}
{"type":"label","id":"l3","parentId":"l2","timestamp":"2026-01-01T00:00:10.000Z","targetId":"1234","label":{"x":"y"}}
"#;

fn session() -> &'static Session {
    static S: OnceLock<Session> = OnceLock::new();
    S.get_or_init(|| sesstree_fuzz::load(SESSION.as_bytes().to_vec()))
}

fuzz_target!(|data: &[u8]| {
    let s = session();
    let text = String::from_utf8_lossy(data);
    match rev::resolve(s, &text) {
        Ok(idx) => assert!((idx as usize) < s.records.len()),
        Err(Error::RevNotFound { .. } | Error::RevAmbiguous { .. } | Error::Usage(_)) => {}
        Err(e) => panic!("unexpected error kind for {text:?}: {e:?}"),
    }
    // An exact id wins over labels and prefixes; `@` always names the leaf, even when an
    // entry's id is `@` (as git's HEAD does). The string id "1234" and the number id 1234 both
    // answer to `1234`: that is ambiguous.
    let exact: Vec<(bool, u32)> = s
        .ids()
        .filter(|(id, _)| id.as_str() == text)
        .map(|(id, idx)| (id.is_string(), idx))
        .collect();
    match exact[..] {
        _ if text == "@" => {}
        [(_, idx)] => assert_eq!(rev::resolve(s, &text).ok(), Some(idx), "exact id {text:?}"),
        [_, _] => assert!(
            matches!(rev::resolve(s, &text), Err(Error::RevAmbiguous { .. })),
            "string and number id {text:?}"
        ),
        _ => {}
    }
});
