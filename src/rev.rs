//! Naming entries (SPEC §2): an id, a unique prefix of at least four characters, a label, `@`
//! for the current leaf, `-` for the position before the latest move, and `~N` / `^` suffixes
//! for ancestors.
//!
//! An exact id wins over everything. A name that is both a label and the start of an id is
//! ambiguous (exit 4, both named) unless both are the same entry: git would take the label
//! (after `git tag`, a ref beats a short hash), and that moves to the wrong entry without a word
//! when the user meant the id.
//!
//! `@` is the leaf, except that bookkeeping at the end of the leaf path is stepped over
//! ([`Session::position`], the one rule): labels (HEAD stays put after `git tag`), the
//! `title_change` or `session_info` naming the session appends, and the empty-summary marker
//! `checkout` appends to persist a move, which names the entry it marks. After `checkout X`,
//! with or without `--label`, `@` is X, as HEAD is after `git checkout`; after `name`, `@` is
//! the entry shown on top.

use crate::error::{Error, Result};
use crate::format::Kind;
use crate::id::EntryId;
use crate::session::{Session, label_text};

/// The shortest id prefix a REV may use.
pub(crate) const MIN_PREFIX: usize = 4;

/// Resolves a REV to a record index.
///
/// The whole text is first tried as an entry name, so labels and ids that contain `~` or `^`
/// still resolve; only then are ancestor suffixes peeled off.
pub fn resolve(session: &Session, rev: &str) -> Result<u32> {
    if let Some(idx) = resolve_name(session, rev, rev)? {
        return Ok(idx);
    }
    let (base, steps) = split_suffixes(rev)?;
    let mut idx = resolve_name(session, base, rev)?.ok_or_else(|| not_found(session, base, rev))?;
    for taken in 0..steps {
        idx = session.parent(idx).ok_or_else(|| {
            let above = if taken == 1 { "entry" } else { "entries" };
            Error::NotFound(format!(
                "no entry matches '{rev}': the path above {base} holds {taken} {above}"
            ))
        })?;
    }
    Ok(idx)
}

/// What `-` names: the position the latest move left, as its entry records it (`checkout`
/// writes it into the move's `details.from`), like `git checkout -`.
fn previous(session: &Session) -> Result<u32> {
    let last = (0..session.records.len() as u32)
        .rev()
        .find(|&i| session.record(i).kind == Kind::BranchSummary)
        .ok_or_else(|| {
            Error::NotFound(
                "'-': no move to go back from: the file holds no checkout (`sesstree reflog` lists the moves)"
                    .into(),
            )
        })?;
    let from = session.value(last)?.pointer("/details/from").and_then(EntryId::from_value);
    from.and_then(|from| session.lookup(&from)).ok_or_else(|| {
        let id = session.record(last).id.as_ref().map_or("?", EntryId::as_str);
        Error::NotFound(format!(
            "'-': the latest move ({id}) does not say where it came from (the agents do not \
             record it; `sesstree reflog` lists the moves)"
        ))
    })
}

/// The error for a REV whose base names no entry, with a hint where one helps: a prefix too
/// short to be one.
fn not_found(session: &Session, base: &str, rev: &str) -> Error {
    let short = base.chars().count() < MIN_PREFIX;
    if short && session.ids().any(|(id, _)| id.as_str().starts_with(base)) {
        return Error::NotFound(format!(
            "no entry matches '{rev}': an id prefix needs at least {MIN_PREFIX} characters"
        ));
    }
    Error::RevNotFound { rev: rev.to_string() }
}

/// Splits `base~2^~` into the base and the number of steps up.
fn split_suffixes(rev: &str) -> Result<(&str, u64)> {
    let cut = rev.find(['~', '^']).unwrap_or(rev.len());
    let (base, mut rest) = rev.split_at(cut);
    let mut steps: u64 = 0;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix('^') {
            // Saturating like `~N`: `@~18446744073709551615^` overflowed (found by fuzzing).
            steps = steps.saturating_add(1);
            rest = r;
        } else if let Some(r) = rest.strip_prefix('~') {
            let digits = r.bytes().take_while(u8::is_ascii_digit).count();
            let n = if digits == 0 {
                1
            } else {
                r[..digits]
                    .parse::<u64>()
                    .map_err(|_| Error::Usage(format!("'{rev}': ancestor count too large")))?
            };
            steps = steps.saturating_add(n);
            rest = &r[digits..];
        } else {
            return Err(Error::Usage(format!("'{rev}' is not a valid REV")));
        }
    }
    if base.is_empty() {
        return Err(Error::Usage(format!("'{rev}' is not a valid REV: it names no entry")));
    }
    Ok((base, steps))
}

/// Resolves a name without suffixes: `@`, an exact id, a label, a unique prefix.
fn resolve_name(session: &Session, name: &str, rev: &str) -> Result<Option<u32>> {
    if name == "-" {
        return previous(session).map(Some);
    }
    if name == "@" {
        // The position, not the raw leaf: after `checkout X` the leaf is the move's marker.
        return session
            .position()?
            .map(Some)
            .ok_or_else(|| Error::RevNotFound { rev: rev.to_string() });
    }
    // An exact id wins over a label and a prefix. A REV matches an id's text,
    // so the string "1" and the number 1 both answer to `1`; the later record wins.
    let as_string = session.lookup(&EntryId::new(name));
    let as_other = session.lookup(&EntryId::from_non_string(name));
    match (as_string, as_other) {
        (Some(_), Some(_)) => {
            // The string "1" and the number 1 are different ids with the same text.
            return Err(Error::RevAmbiguous {
                rev: rev.to_string(),
                candidates: vec![
                    format!("\"{name}\" (a string id)"),
                    format!("{name} (a number id)"),
                ],
            });
        }
        (Some(i), None) | (None, Some(i)) => return Ok(Some(i)),
        (None, None) => {}
    }
    // A label that is also the start of another entry's id would name either: git prefers
    // the ref there, which moves silently to the wrong entry when the user meant the id, so
    // both are named and neither is taken (`label` refuses such labels without --force).
    let labelled = session
        .labels()
        .iter()
        .filter(|(_, raw)| label_text(raw) == name)
        .find_map(|(target, _)| Some((session.lookup(target)?, target.as_str())));
    let mut prefixed: Vec<(u32, &str)> = if name.chars().count() < MIN_PREFIX {
        Vec::new()
    } else {
        session
            .ids()
            .filter(|(id, _)| id.as_str().starts_with(name))
            .map(|(id, idx)| (idx, id.as_str()))
            .collect()
    };
    prefixed.sort();
    match (labelled, prefixed.as_slice()) {
        (None, []) => Ok(None),
        (Some((idx, _)), []) => Ok(Some(idx)),
        (None, [(idx, _)]) => Ok(Some(*idx)),
        (Some((idx, _)), [(only, _)]) if *only == idx => Ok(Some(idx)),
        (labelled, matches) => {
            let by_label = labelled.map(|(_, id)| format!("{id} (labelled {name})"));
            let by_prefix = matches.iter().map(|(_, id)| match labelled {
                Some(_) => format!("{id} (an id starting with {name})"),
                None => id.to_string(),
            });
            Err(Error::RevAmbiguous {
                rev: rev.to_string(),
                candidates: by_label.into_iter().chain(by_prefix).collect(),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::*;

    fn session() -> Session {
        Session::from_bytes(Path::new("t"), session_lines().join("\n").into_bytes()).unwrap()
    }

    fn session_lines() -> Vec<&'static str> {
        vec![
            r#"{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}"#,
            r#"{"type":"message","id":"aaaa1111","parentId":null}"#,
            r#"{"type":"message","id":"aaaa2222","parentId":"aaaa1111"}"#,
            r#"{"type":"message","id":"bbbb3333","parentId":"aaaa2222"}"#,
            r#"{"type":"label","id":"cccc4444","parentId":"bbbb3333","targetId":"aaaa2222","label":"mid"}"#,
            r#"{"type":"label","id":"cccc5555","parentId":"cccc4444","targetId":"aaaa1111","label":"bbbb3333"}"#,
        ]
    }

    /// What a REV that names no entry says.
    fn error(s: &Session, rev: &str) -> String {
        resolve(s, rev).unwrap_err().to_string()
    }

    #[test]
    fn forms() {
        let s = session();
        // The two label entries at the end hang at bbbb3333: `@` steps over them.
        assert_eq!(resolve(&s, "@").unwrap(), 2);
        assert_eq!(resolve(&s, "@^").unwrap(), 1);
        assert_eq!(resolve(&s, "@~2").unwrap(), 0);
        assert_eq!(resolve(&s, "@~1^").unwrap(), 0);
        assert_eq!(resolve(&s, "@~").unwrap(), 1);
        assert_eq!(error(&s, "@~3"), "no entry matches '@~3': the path above @ holds 2 entries");
        assert_eq!(resolve(&s, "cccc5555~2").unwrap(), 2, "label entries are still entries");
        assert_eq!(resolve(&s, "mid").unwrap(), 1);
        assert_eq!(resolve(&s, "mid^").unwrap(), 0);
        assert_eq!(resolve(&s, "bbbb").unwrap(), 2);
        assert_eq!(resolve(&s, "aaaa1111").unwrap(), 0);
    }

    /// Found by the property test `props::writing_commands_follow_the_model`: the module doc
    /// (and the README) say `@` is the position a move marker marks, but `@` resolved to the
    /// marker itself, so after `checkout X`, `show @` showed the marker and `label @` labelled it.
    #[test]
    fn at_names_the_position_a_move_marker_marks() {
        let marker = |id: &str, parent: &str| {
            format!(
                r#"{{"type":"branch_summary","id":"{id}","parentId":{parent},"fromId":"x","summary":"","details":{{"kind":"checkout"}}}}"#
            )
        };
        let lines = [
            r#"{"type":"session","version":3,"id":"s","timestamp":"t","cwd":"/"}"#.to_string(),
            r#"{"type":"message","id":"aaaa1111","parentId":null}"#.to_string(),
            r#"{"type":"message","id":"aaaa2222","parentId":"aaaa1111"}"#.to_string(),
            marker("mmmm1111", r#""aaaa1111""#),
        ];
        let s = Session::from_bytes(Path::new("t"), lines.join("\n").into_bytes()).unwrap();
        assert_eq!(resolve(&s, "@").unwrap(), 0);
        assert_eq!(error(&s, "@^"), "no entry matches '@^': the path above @ holds 0 entries");
        assert_eq!(resolve(&s, "mmmm1111").unwrap(), 2, "the marker is still named by its id");
        // A move to before the first prompt: `@` names nothing.
        let mut root = lines.to_vec();
        root.push(marker("mmmm2222", "null"));
        let s = Session::from_bytes(Path::new("t"), root.join("\n").into_bytes()).unwrap();
        assert_eq!(error(&s, "@"), "no entry matches '@'");
    }

    /// Found by the `rev` fuzz target: a `^` after a `~N` at `u64::MAX` overflowed the step
    /// count (a panic in debug builds; in release it wrapped to 0 and named `@` itself).
    #[test]
    fn ancestor_counts_that_overflow_saturate() {
        let s = session();
        for rev in
            ["@~18446744073709551615^", "@~18446744073709551615~1", "@^~18446744073709551615"]
        {
            let holds = format!("no entry matches '{rev}': the path above @ holds 2 entries");
            assert_eq!(error(&s, rev), holds);
        }
        assert!(matches!(resolve(&s, "@~99999999999999999999"), Err(Error::Usage(_))));
    }

    #[test]
    fn exact_id_beats_label() {
        assert_eq!(resolve(&session(), "bbbb3333").unwrap(), 2);
    }

    /// See: issue 44 (a day with sesstree, second pass). `label 8a41 fa60`, then `checkout
    /// fa60` moved to 8a41… (the label) instead of fa60d15c (the id prefix), without a word.
    #[test]
    fn a_label_that_is_also_an_id_prefix_is_ambiguous() {
        let mut lines = session_lines();
        lines.push(r#"{"type":"label","id":"cccc6666","parentId":"cccc5555","targetId":"aaaa1111","label":"bbbb"}"#);
        lines.push(r#"{"type":"label","id":"cccc7777","parentId":"cccc6666","targetId":"aaaa2222","label":"aaaa2"}"#);
        let s = Session::from_bytes(Path::new("t"), lines.join("\n").into_bytes()).unwrap();
        assert_eq!(
            error(&s, "bbbb"),
            "'bbbb' is ambiguous; it matches aaaa1111 (labelled bbbb), bbbb3333 (an id starting with bbbb)"
        );
        assert_eq!(error(&s, "bbbb^").split(';').next(), Some("'bbbb^' is ambiguous"));
        // More of the id names it alone; a label on the entry its prefix names is no ambiguity.
        assert_eq!(resolve(&s, "bbbb3").unwrap(), 2);
        assert_eq!(resolve(&s, "aaaa2").unwrap(), 1);
    }

    #[test]
    fn ambiguity_and_absence() {
        let s = session();
        match resolve(&s, "aaaa") {
            Err(Error::RevAmbiguous { candidates, .. }) => {
                assert_eq!(candidates, vec!["aaaa1111", "aaaa2222"]);
            }
            other => panic!("{other:?}"),
        }
        assert_eq!(
            error(&s, "aaa"),
            "no entry matches 'aaa': an id prefix needs at least 4 characters"
        );
        assert!(matches!(resolve(&s, "zzzz"), Err(Error::RevNotFound { .. })));
        assert_eq!(error(&s, "@~9"), "no entry matches '@~9': the path above @ holds 2 entries");
        assert!(matches!(resolve(&s, "@~x"), Err(Error::Usage(_))));
        assert!(matches!(resolve(&s, "~1"), Err(Error::Usage(_))));
    }
}
