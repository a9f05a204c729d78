//! Generators of entries and lines for the property tests of the payload view and of the rows
//! read through it: the shapes the agents write, and around them.

use proptest::prelude::*;
use serde_json::{Map, Value, json};

use crate::format::Kind;

/// Text that is long, or blank for a long stretch, or both.
fn arb_text() -> impl Strategy<Value = String> {
    prop_oneof![
        "[a-z \\n\\t]{0,20}",
        ("[ \\n\\t\u{a0}]{190,230}", "[a-z ]{0,5}").prop_map(|(a, b)| a + &b),
        "[a-zé \\n]{150,260}",
    ]
}

fn arb_args() -> impl Strategy<Value = Value> {
    let scalar = prop_oneof![
        arb_text().prop_map(Value::String),
        any::<i32>().prop_map(Value::from),
        Just(Value::Null),
    ];
    let key = proptest::sample::select(
        &["path", "file_path", "offset", "limit", "command", "pattern", "paths", "other", "a"][..],
    );
    let value = scalar.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec(("[a-z]{0,3}", inner), 0..4)
                .prop_map(|kv| Value::Object(kv.into_iter().collect())),
        ]
    });
    let paths = proptest::collection::vec("[a-z/]{0,6}", 0..3)
        .prop_map(|p| Value::Array(p.into_iter().map(Value::String).collect()));
    let value = prop_oneof![3 => value, 1 => paths];
    prop_oneof![
        4 => proptest::collection::vec((key, value.clone()), 0..5).prop_map(|kv| {
            Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
        }),
        1 => value,
    ]
}

fn arb_block() -> impl Strategy<Value = Value> {
    let name = proptest::sample::select(
        &["read", "write", "edit", "bash", "grep", "glob", "ls", "task", ""][..],
    );
    prop_oneof![
        arb_text().prop_map(|t| json!({"type": "text", "text": t})),
        arb_text().prop_map(|t| json!({"type": "thinking", "thinking": t})),
        (prop_oneof![Just("c1"), Just("c2"), Just("c3")], name, arb_args()).prop_map(
            |(id, name, args)| json!({"type": "toolCall", "id": id, "name": name, "arguments": args})
        ),
        Just(json!({"type": "text", "text": 5})),
        Just(json!("loose")),
    ]
}

pub(crate) fn arb_entry() -> impl Strategy<Value = Value> {
    let role = proptest::sample::select(
        &["user", "assistant", "toolResult", "developer", "bashExecution", "custom"][..],
    );
    let content = prop_oneof![
        arb_text().prop_map(Value::String),
        proptest::collection::vec(arb_block(), 0..4).prop_map(Value::Array),
        Just(json!({"text": "obj"})),
    ];
    let stop = prop_oneof![
        Just(json!("stop")),
        Just(json!("toolUse")),
        Just(json!("error")),
        Just(json!("aborted")),
        Just(json!(null))
    ];
    prop_oneof![
        (role, content.clone(), stop, arb_text(), any::<bool>()).prop_map(
            |(role, content, stop, text, user)| json!({"type": "message", "id": "e",
                "timestamp": "2026-01-01T00:00:00.000Z",
                "message": {"role": role, "content": content, "stopReason": stop,
                    "toolCallId": "c1", "toolName": "read", "command": text,
                    "errorMessage": text, "customType": "skill-prompt",
                    "attribution": if user { "user" } else { "agent" },
                    "usage": {"input": 1}, "details": {"diff": text}}})
        ),
        (content, arb_text()).prop_map(|(content, text)| json!({"type": "custom_message",
            "customType": "skill-prompt", "attribution": "user", "content": content,
            "details": {"notes": [{"note": text}]}})),
        arb_text().prop_map(|t| json!({"type": "branch_summary", "summary": t})),
    ]
}

/// A user, assistant or tool-result message in the shapes the agents write, and near them:
/// in every order of their members.
pub(crate) fn arb_message() -> impl Strategy<Value = Value> {
    let role = prop_oneof![
        3 => Just("user"),
        3 => Just("assistant"),
        3 => Just("toolResult"),
        1 => Just("developer"),
    ];
    let content = prop_oneof![
        arb_text().prop_map(Value::String),
        proptest::collection::vec(arb_block(), 0..4).prop_map(Value::Array),
        Just(json!({"text": "obj"})),
    ];
    let string = |words: &'static [&'static str]| {
        prop_oneof![
            4 => proptest::sample::select(words).prop_map(Value::from),
            1 => arb_text().prop_map(Value::String),
            1 => arb_any(),
        ]
    };
    let field = prop_oneof![
        string(&["stop", "toolUse", "error", "aborted", "length"]).prop_map(|v| ("stopReason", v)),
        string(&["", "overloaded"]).prop_map(|v| ("errorMessage", v)),
        string(&["c1", "c2"]).prop_map(|v| ("toolCallId", v)),
        string(&["read", "", "bash"]).prop_map(|v| ("toolName", v)),
        arb_any().prop_map(|v| ("usage", v)),
        Just(("isError", json!(false))),
    ];
    let time = prop_oneof![
        3 => Just(Some(json!("2026-01-01T00:00:00.000Z"))),
        1 => Just(None),
        1 => arb_any().prop_map(Some),
    ];
    let fields = proptest::collection::vec(field, 0..4);
    (role, content, fields, any::<bool>(), time).prop_map(
        |(role, content, fields, role_first, time)| {
            let mut message = Map::new();
            if role_first {
                message.insert("role".into(), role.into());
            }
            message.insert("content".into(), content);
            message.extend(fields.into_iter().map(|(k, v)| (k.to_owned(), v)));
            message.insert("role".into(), role.into());
            let mut entry = Map::new();
            entry.insert("type".into(), "message".into());
            entry.insert("id".into(), "e1".into());
            entry.insert("parentId".into(), Value::Null);
            if let Some(time) = time {
                entry.insert("timestamp".into(), time);
            }
            entry.insert("message".into(), Value::Object(message));
            Value::Object(entry)
        },
    )
}

/// A message of exactly the usual shape: the role first and one of the three, string
/// fields, a string timestamp, blocks of every kind (a user's without tool calls).
pub(crate) fn arb_usual_message() -> impl Strategy<Value = Value> {
    let role = prop_oneof![Just("user"), Just("assistant"), Just("toolResult")];
    let blocks = proptest::collection::vec(arb_block(), 0..4).prop_map(Value::Array);
    let content = prop_oneof![arb_text().prop_map(Value::String), blocks];
    let stop = proptest::sample::select(&["stop", "toolUse", "error", "aborted", "length"][..]);
    let error = proptest::sample::select(&["", "overloaded", "a\nb"][..]);
    (role, content, stop, error, arb_text()).prop_map(|(role, mut content, stop, error, name)| {
        if let (Value::Array(blocks), "user") = (&mut content, role) {
            blocks.retain(|b| b.get("type") != Some(&json!("toolCall")));
        }
        json!({"type": "message", "id": "e1", "parentId": "e0",
            "timestamp": "2026-01-01T00:00:00.000Z",
            "message": {"role": role, "content": content, "stopReason": stop,
                "errorMessage": error, "toolCallId": "c1", "toolName": name,
                "usage": {"input": 1, "cost": {"total": 0.5}}}})
    })
}

/// A message line written as text, in the shapes the agents write and around them: keys
/// written twice or with an escape, words with escapes, whitespace between tokens, any
/// value where a string is read, lone surrogates, invalid UTF-8 (`¤` stands for a byte
/// 0xff) and trailing data, none of which `serde_json` writes.
pub(crate) fn arb_line() -> impl Strategy<Value = Vec<u8>> {
    fn obj(members: Vec<(String, String)>, ws: &str) -> String {
        let members: Vec<String> =
            members.into_iter().map(|(k, v)| format!("{ws}{k}{ws}:{ws}{v}")).collect();
        format!("{{{}}}", members.join(","))
    }
    fn key(name: &'static str) -> impl Strategy<Value = String> {
        prop_oneof![
            16 => Just(format!("\"{name}\"")),
            1 => Just(format!("\"\\u{:04x}{}\"", u32::from(name.as_bytes()[0]), &name[1..])),
            1 => Just(format!("\"{name} \"")),
        ]
    }
    fn string(words: &'static [&'static str]) -> impl Strategy<Value = String> {
        let odd = proptest::sample::select(
            &[
                "null",
                "1",
                "[]",
                "{}",
                "[1,\"\\ud800\"]",
                "{\"a\":1}",
                "\"\\ud800\"",
                "\"a¤b\"",
                "\"\\u00e9\\n\"",
            ][..],
        );
        prop_oneof![
            10 => proptest::sample::select(words).prop_map(|w| format!("\"{w}\"")),
            1 => odd.prop_map(str::to_owned),
        ]
    }
    fn member(
        name: &'static str,
        value: impl Strategy<Value = String>,
    ) -> impl Strategy<Value = (String, String)> {
        (key(name), value)
    }
    let args = proptest::sample::select(
        &[
            "{\"path\":\"/home/al/a\",\"offset\":3}",
            "{\"command\":\"ls\\nx\"}",
            "{\"paths\":[\"a\",1],\"pattern\":\"p\"}",
            "{\"n\":[1,{\"k\":\"v\"}]}",
            "7",
        ][..],
    )
    .prop_map(str::to_owned);
    let kinds = &["text", "toolCall", "thinking", "image", "t\\u0065xt"][..];
    let block_member = prop_oneof![
        3 => member("type", string(kinds)),
        2 => member("text", string(&["hi", "a\\nb", "  ", ""])),
        1 => member("id", string(&["c1", "c2"])),
        1 => member("name", string(&["read", "bash", "task", ""])),
        1 => member("arguments", args),
        1 => member("thinking", string(&["hm"])),
    ];
    let block = prop_oneof![
        6 => proptest::collection::vec(block_member, 1..5).prop_map(|m| obj(m, "")),
        1 => string(&["loose"]),
    ];
    let content = prop_oneof![
        2 => proptest::collection::vec(block, 0..4).prop_map(|b| format!("[{}]", b.join(","))),
        1 => string(&["hello", "  ", "a\\tb"]),
    ];
    let roles = &["user", "assistant", "toolResult", "developer", "us\\u0065r"][..];
    let message_member = prop_oneof![
        4 => member("content", content),
        2 => member("stopReason", string(&["stop", "toolUse", "error", "aborted"])),
        1 => member("errorMessage", string(&["", "boom"])),
        1 => member("toolCallId", string(&["c1", "c2"])),
        1 => member("toolName", string(&["read", ""])),
        1 => member("usage", Just("{\"input\":1}".to_owned())),
        1 => member("role", string(roles)),
    ];
    let message = (string(roles), proptest::collection::vec(message_member, 0..5))
        .prop_map(|(role, mut members)| {
            members.insert(0, ("\"role\"".to_owned(), role));
            obj(members, "")
        })
        .boxed();
    let top_member = prop_oneof![
        1 => member("id", string(&["a"])),
        1 => member("parentId", string(&["b"])),
        1 => member("timestamp", string(&["2026-01-01T00:00:00.000Z", "t"])),
        1 => member("type", string(&["message", "label", "m\\u0065ssage"])),
        1 => member("message", message.clone()),
    ];
    let ws = proptest::sample::select(&["", "", " ", "\n\t"][..]);
    let tail = proptest::sample::select(&["", "", "", "", "", "", " ", "1", ","][..]);
    (message, proptest::collection::vec(top_member, 0..2), ws, tail).prop_map(
        |(message, extra, ws, tail)| {
            let mut members = vec![
                ("\"type\"".to_owned(), "\"message\"".to_owned()),
                ("\"id\"".to_owned(), "\"e1\"".to_owned()),
                ("\"timestamp\"".to_owned(), "\"2026-01-01T00:00:00.000Z\"".to_owned()),
                ("\"message\"".to_owned(), message),
            ];
            members.extend(extra);
            let line = format!("{}{tail}", obj(members, ws));
            // `¤` (0xc2 0xa4) stands for a byte that is not UTF-8.
            let mut bytes = Vec::with_capacity(line.len());
            for piece in line.split('¤') {
                bytes.extend_from_slice(piece.as_bytes());
                bytes.push(0xff);
            }
            bytes.pop();
            bytes
        },
    )
}

/// Any value, arrays and objects too, with the keys rows read inside the fields they keep:
/// what an odd or hostile line may hold where a row expects a string.
fn arb_any() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i32>().prop_map(Value::from),
        "[a-z ]{0,8}".prop_map(Value::String),
        prop_oneof![Just("text"), Just("recovered"), Just("user"), Just("a/b")]
            .prop_map(Value::from),
    ];
    let key = proptest::sample::select(
        &["status", "note", "type", "text", "notes", "advisor", "severity", "x"][..],
    );
    leaf.prop_recursive(3, 24, 4, move |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
            proptest::collection::vec((key.clone(), inner), 0..4).prop_map(|kv| {
                Value::Object(kv.into_iter().map(|(k, v)| (k.to_owned(), v)).collect())
            }),
        ]
    })
}

/// An entry of any known type ([`Kind::ALL`]), its fields holding any value, or one of the
/// shapes rows read inside.
pub(crate) fn arb_odd_entry() -> impl Strategy<Value = Value> {
    let kind = proptest::sample::select(Kind::ALL).prop_map(|kind| kind.as_str().to_owned());
    let text = || "[a-z ]{0,6}".prop_map(Value::String);
    let blocks = proptest::collection::vec(
        (text(), arb_any()).prop_map(|(t, x)| json!({"type": "text", "text": t, "x": x})),
        0..3,
    )
    .prop_map(Value::Array);
    let notes = proptest::collection::vec(
        (text(), text(), text())
            .prop_map(|(n, a, s)| json!({"note": n, "advisor": a, "severity": s})),
        0..3,
    )
    .prop_map(|notes| json!({"notes": notes}));
    let field = prop_oneof![
        arb_any().prop_map(|v| ("timestamp", v)),
        arb_any().prop_map(|v| ("customType", v)),
        prop_oneof![blocks, arb_any()].prop_map(|v| ("content", v)),
        prop_oneof![notes, arb_any()].prop_map(|v| ("details", v)),
        arb_any().prop_map(|v| ("attribution", v)),
        arb_any().prop_map(|v| ("tokensBefore", v)),
        arb_any().prop_map(|v| ("summary", v)),
        arb_any().prop_map(|v| ("model", v)),
        arb_any().prop_map(|v| ("modelId", v)),
        arb_any().prop_map(|v| ("role", v)),
        arb_any().prop_map(|v| ("purpose", v)),
        arb_any().prop_map(|v| ("provider", v)),
        arb_any().prop_map(|v| ("thinkingLevel", v)),
        arb_any().prop_map(|v| ("label", v)),
        arb_any().prop_map(|v| ("serviceTier", v)),
        arb_any().prop_map(|v| ("title", v)),
        arb_any().prop_map(|v| ("mode", v)),
        arb_any().prop_map(|v| ("targetId", v)),
        arb_any().prop_map(|v| ("archived", v)),
        arb_any().prop_map(|v| ("kind", v)),
        arb_any().prop_map(|v| ("replacement", v)),
        prop_oneof![proptest::collection::vec(text(), 0..3).prop_map(Value::Array), arb_any()]
            .prop_map(|v| ("injectedRules", v)),
    ];
    let status = prop_oneof![Just(json!("recovered")), Just(json!("superseded")), arb_any()];
    let recovery = (status, text()).prop_map(|(s, n)| json!({"status": s, "note": n}));
    let message_field = prop_oneof![
        arb_any().prop_map(|v| ("content", v)),
        arb_any().prop_map(|v| ("toolCallId", v)),
        arb_any().prop_map(|v| ("toolName", v)),
        arb_any().prop_map(|v| ("command", v)),
        prop_oneof![Just(json!("error")), arb_any()].prop_map(|v| ("stopReason", v)),
        arb_any().prop_map(|v| ("errorMessage", v)),
        prop_oneof![recovery, arb_any()].prop_map(|v| ("retryRecovery", v)),
        arb_any().prop_map(|v| ("customType", v)),
        arb_any().prop_map(|v| ("attribution", v)),
    ];
    let role = proptest::sample::select(
        &["user", "assistant", "toolResult", "bashExecution", "custom"][..],
    );
    (
        kind,
        proptest::collection::vec(field, 0..5),
        role,
        proptest::collection::vec(message_field, 0..6),
    )
        .prop_map(|(kind, fields, role, message_fields)| {
            let mut entry = Map::new();
            entry.insert("type".into(), kind.into());
            let mut message = Map::new();
            message.insert("role".into(), role.into());
            message.extend(message_fields.into_iter().map(|(k, v)| (k.to_owned(), v)));
            entry.insert("message".into(), Value::Object(message));
            entry.extend(fields.into_iter().map(|(k, v)| (k.to_owned(), v)));
            Value::Object(entry)
        })
}
