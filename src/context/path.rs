//! The path [`build`](fn@crate::context::build) is built from, read from a session: the entries from the
//! root to a target, parsed in full where the context may show them and reduced to what its
//! state reads everywhere else.
//!
//! A context shows only the entries after the latest compaction on the path (and the ones that
//! compaction keeps), yet tracks state (models, thinking level, mode …) over the whole path. On
//! a long session almost every entry lies before that compaction, and parsing those in full
//! would hold the whole conversation in memory to read a model name from it. So the entries
//! before the first one a context can show are given to `build` as follows:
//!
//! - entries that set state (model, thinking level, mode …: [`Kind::sets_state`]) are parsed
//!   in full (they are few and small);
//! - of the messages between two of those only the last assistant turn is kept, with only
//!   `type`, `id` and the message's `role`, `provider` and `model`
//!   ([`message_model`]): each turn replaces the model the one before it set, and
//!   `build` reads nothing of other messages before the shown range. They are read from the
//!   end, so a long conversation costs a line or two per state change, not a parse per message;
//! - nothing else is read: `build` reads labels, custom entries and summaries only where they
//!   are shown, and of compactions and reset boundaries only the last on the path.
//!
//! `build` gives the same context on this path as on the fully parsed one (a differential test
//! holds them together). Version-1 files, whose ids exist only in memory, are parsed in full.

use serde_json::Value;

use crate::error::Result;
use crate::format::kind::Kind;
use crate::json::pick::{Keep, Pick, pick};
use crate::json::scan::Scanner;
use crate::session::Session;

/// The root→`target` path for [`build`](fn@crate::context::build), reduced as the module says.
pub fn path_values(session: &Session, target: u32) -> Result<Vec<Value>> {
    let path = session.path_to_root(target);
    let shown_from = if session.is_v1() { 0 } else { first_shown(session, &path)? };
    let mut out = Vec::with_capacity(path.len() - shown_from);
    let mut lines = session.lines();
    let mut scanner = Scanner::new();
    let sets_state = |idx: u32| session.record(idx).kind.sets_state();
    let is_message = |idx: u32| session.record(idx).kind == Kind::Message;
    let mut i = 0;
    while i < shown_from {
        if sets_state(path[i]) {
            out.push(session.value(path[i])?);
            i += 1;
            continue;
        }
        // A run of entries that set no state: each assistant turn in it replaces what the one
        // before set, and nothing else in it counts, so only its last assistant turn is read,
        // from the end.
        let end = (i..shown_from).find(|&j| sets_state(path[j])).unwrap_or(shown_from);
        for &idx in path[i..end].iter().rev().filter(|&&idx| is_message(idx)) {
            let value = match message_model(&mut scanner, lines.line(idx)?) {
                Some(reduced) => reduced,
                None => session.value(idx)?,
            };
            let message = value.get("message");
            if message.and_then(|m| m.get("role")).and_then(Value::as_str) == Some("assistant") {
                out.push(value);
                break;
            }
        }
        i = end;
    }
    for &idx in &path[shown_from..] {
        out.push(session.value(idx)?);
    }
    Ok(out)
}

/// What the context's state reads of a `message` entry (the model of assistant turns): `type`,
/// `id` and the message's `role`, `provider` and `model`, without the content. `None` when the
/// scanner does not take the line or it is no `message` object; the caller then parses it in
/// full.
fn message_model(scanner: &mut Scanner, bytes: &[u8]) -> Option<Value> {
    const KEEP: &[Pick<'_>] = &[
        Pick("type", Keep::Whole),
        Pick("id", Keep::Whole),
        Pick(
            "message",
            Keep::Members(&[
                Pick("role", Keep::Whole),
                Pick("provider", Keep::Whole),
                Pick("model", Keep::Whole),
            ]),
        ),
    ];
    let value = pick(scanner, bytes, KEEP)?;
    (value.get("type").and_then(Value::as_str) == Some("message")).then_some(value)
}

/// The position in `path` from which a context may show entries: the kept range of the latest
/// compaction (its `firstKeptEntryId`, or `providerReplayThroughEntryId` when earlier), else
/// the compaction itself; 0 (everything) when there is no compaction, or when the compaction
/// names an entry by something other than a string id, which only a full parse could match.
fn first_shown(session: &Session, path: &[u32]) -> Result<usize> {
    let Some(c) = path.iter().rposition(|&idx| session.record(idx).kind == Kind::Compaction) else {
        return Ok(0);
    };
    let compaction = session.value(path[c])?;
    let mut first = c;
    for key in ["firstKeptEntryId", "providerReplayThroughEntryId"] {
        let named = match compaction.get(key) {
            None | Some(Value::Null) => continue,
            Some(Value::String(id)) => id,
            Some(_) => return Ok(0),
        };
        let found = path[..c].iter().position(|&idx| {
            session.record(idx).id.as_ref().is_some_and(|id| id.is_string() && id.as_str() == named)
        });
        if let Some(p) = found {
            first = first.min(p);
        }
    }
    Ok(first)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use proptest::prelude::*;
    use serde_json::json;

    use super::*;
    use crate::context::tests::{chain, user};
    use crate::context::{build, into_json};
    use crate::format::Dialect;

    fn session(entries: &[Value]) -> Session {
        let mut lines = vec![json!({"type": "session", "version": 3, "id": "s", "cwd": "/"})];
        lines.extend(entries.iter().cloned());
        let text: Vec<String> = lines.iter().map(Value::to_string).collect();
        Session::from_bytes(Path::new("t.jsonl"), text.join("\n").into_bytes()).unwrap()
    }

    /// The context from the reduced path against the one from the fully parsed path.
    fn check(entries: &[Value]) -> std::result::Result<(), TestCaseError> {
        let s = session(entries);
        let Some(target) = s.records.len().checked_sub(1).map(|i| i as u32) else {
            return Ok(());
        };
        let full: Vec<Value> =
            s.path_to_root(target).into_iter().map(|i| s.value(i).unwrap()).collect();
        let reduced = path_values(&s, target).unwrap();
        prop_assert!(reduced.len() <= full.len());
        for flavor in [Dialect::Omp, Dialect::Pi] {
            for agent in [false, true] {
                prop_assert_eq!(
                    into_json(build(reduced.clone(), None, flavor), agent),
                    into_json(build(full.clone(), None, flavor), agent)
                );
            }
        }
        Ok(())
    }

    fn assistant(model: &str) -> Value {
        json!({"type": "message", "message": {"role": "assistant", "provider": "p", "model": model,
            "content": [{"type": "text", "text": "a long answer"}], "stopReason": "stop",
            "timestamp": 2}})
    }

    #[test]
    fn entries_before_the_latest_compaction_are_reduced() {
        let entries = chain(vec![
            user("one"),
            assistant("m1"),
            json!({"type": "thinking_level_change", "thinkingLevel": "high"}),
            assistant("m2"),
            assistant("m3"),
            user("two"),
            json!({"type": "compaction", "summary": "s", "firstKeptEntryId": "e5",
                "tokensBefore": 10}),
            user("three"),
        ]);
        check(&entries).unwrap();
        let s = session(&entries);
        let reduced = path_values(&s, 7).unwrap();
        // user one dropped, m1 kept (a state entry follows it), m2 replaced by m3, then the
        // kept range (e5) in full.
        let ids: Vec<&str> = reduced.iter().filter_map(|e| e["id"].as_str()).collect();
        assert_eq!(ids, ["e1", "e2", "e4", "e5", "e6", "e7"]);
        assert_eq!(
            reduced[2]["message"],
            json!({"role": "assistant", "provider": "p", "model": "m3"})
        );
        assert_eq!(reduced[3], s.value(5).unwrap());
    }

    /// Labels, custom entries, summaries and earlier compactions before the shown range are not
    /// read, and the assistant turns on either side of them are one run.
    #[test]
    fn entries_that_set_no_state_are_not_read_before_the_shown_range() {
        let entries = chain(vec![
            assistant("m1"),
            json!({"type": "label", "targetId": "e0", "label": "x"}),
            json!({"type": "custom", "customType": "c", "data": {}}),
            json!({"type": "compaction", "summary": "old", "firstKeptEntryId": "e0"}),
            json!({"type": "branch_summary", "summary": "b", "fromId": "e0"}),
            assistant("m2"),
            json!({"type": "custom_message", "customType": "c", "content": "x"}),
            json!({"type": "mode_change", "mode": "plan"}),
            json!({"type": "session_info", "name": "n"}),
            user("two"),
            json!({"type": "compaction", "summary": "s", "firstKeptEntryId": "e9"}),
            user("three"),
        ]);
        check(&entries).unwrap();
        let s = session(&entries);
        let reduced = path_values(&s, 11).unwrap();
        let ids: Vec<&str> = reduced.iter().filter_map(|e| e["id"].as_str()).collect();
        assert_eq!(ids, ["e5", "e7", "e9", "e10", "e11"]);
        assert_eq!(reduced[0]["message"]["model"], "m2");
    }

    #[test]
    fn without_a_compaction_everything_is_parsed_in_full() {
        let entries = chain(vec![user("one"), assistant("m1"), user("two")]);
        let s = session(&entries);
        let full: Vec<Value> = (0..3).map(|i| s.value(i).unwrap()).collect();
        assert_eq!(path_values(&s, 2).unwrap(), full);
    }

    #[test]
    fn a_compaction_naming_a_non_string_id_keeps_everything() {
        let entries = chain(vec![
            user("one"),
            json!({"type": "compaction", "summary": "s", "firstKeptEntryId": 7}),
            user("two"),
        ]);
        let s = session(&entries);
        assert_eq!(path_values(&s, 2).unwrap().len(), 3);
        check(&entries).unwrap();
    }

    fn arb_entry() -> impl Strategy<Value = Value> {
        let id = prop_oneof![
            (0..12u32).prop_map(|i| json!(format!("e{i}"))),
            Just(json!(3)),
            Just(Value::Null)
        ];
        prop_oneof![
            4 => "[a-z ]{0,8}".prop_map(|t| user(&t)),
            4 => prop_oneof![Just("m1"), Just("m2")].prop_map(assistant),
            1 => Just(json!({"type": "message", "message": {"role": "assistant",
                "content": [{"type": "toolCall", "id": "c1", "name": "bash",
                "arguments": {"command": "ls"}}], "stopReason": "toolUse"}})),
            1 => Just(json!({"type": "message", "message": {"role": "toolResult",
                "toolCallId": "c1", "content": "out"}})),
            1 => Just(json!({"type": "message", "message": {"role": "assistant",
                "provider": 5, "stopReason": "error", "content": []}})),
            1 => Just(json!({"type": "message", "message": "not an object"})),
            2 => (id.clone(), id).prop_map(|(kept, through)| json!({"type": "compaction",
                "summary": "s", "tokensBefore": 5, "firstKeptEntryId": kept,
                "providerReplayThroughEntryId": through})),
            1 => prop_oneof![Just("low"), Just("high")].prop_map(|l|
                json!({"type": "thinking_level_change", "thinkingLevel": l})),
            1 => Just(json!({"type": "model_change", "model": "x/y", "role": "default"})),
            1 => Just(json!({"type": "model_change", "provider": "x", "modelId": "z"})),
            1 => Just(json!({"type": "reset_boundary"})),
            1 => Just(json!({"type": "mode_change", "mode": "plan", "data": {"a": 1}})),
            1 => Just(json!({"type": "ttsr_injection", "injectedRules": ["r1"]})),
            1 => Just(json!({"type": "label", "targetId": "e1", "label": "x"})),
            1 => Just(json!({"type": "branch_summary", "summary": "b", "fromId": "e0"})),
            1 => Just(json!({"type": "custom_message", "customType": "c", "content": "x",
                "display": true})),
            1 => Just(json!({"type": "custom", "customType": "c", "data": {"a": 1}})),
            1 => Just(json!({"type": "session_info", "name": "n"})),
            1 => Just(json!({"type": "service_tier_change", "serviceTier": "flex"})),
            1 => Just(json!({"type": "mcp_tool_selection", "selectedToolNames": ["t"]})),
            1 => Just(json!({"type": "some_future_kind", "thinkingLevel": "high"})),
            1 => Just(json!({"message": {"role": "assistant", "provider": "p", "model": "m9"}})),
        ]
    }

    proptest! {
        #[test]
        fn the_reduced_path_builds_the_same_context(
            kinds in proptest::collection::vec(arb_entry(), 0..14)
        ) {
            check(&chain(kinds))?;
        }
    }
}
