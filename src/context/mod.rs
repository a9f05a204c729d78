//! The context a model gets from a point in a session (FORMAT §8): the state tracked along the
//! root→leaf path, the agent messages `buildSessionContext` emits, and their conversion to LLM
//! messages, for both flavours (oh-my-pi and pi-mono, FORMAT §13).
//!
//! Three steps, a submodule each: `build` tracks the state and collects the agent messages,
//! `llm` converts them to LLM messages, and `output` prints a context as JSON, text or
//! Markdown; `path` reads a path's entries from a session, and `system` folds pi's system
//! messages into the one prompt they patch.
//!
//! The caller resolves the path and parses the payloads of its entries
//! ([`crate::context::path_values`] reads them from a session, parsing in full only what
//! the context can show); everything here is pure (no I/O, no printing) and linear in the
//! length of the path.
//!
//! Usage:
//!
//! ```
//! use serde_json::json;
//! use sesstree::context;
//! use sesstree::format::Dialect;
//!
//! let path = vec![json!({"type": "message", "id": "a1", "parentId": null,
//!     "timestamp": "2026-02-16T10:21:00.000Z",
//!     "message": {"role": "user", "content": "hi", "timestamp": 1771237260000u64}})];
//! let ctx = context::build(path, None, Dialect::Omp);
//! assert_eq!(ctx.thinking_level, "off");
//! let llm = context::to_llm_messages(&ctx);
//! assert_eq!(llm[0]["attribution"], "user");
//! let _out = context::into_json(ctx, false);
//! ```
//!
//! Shapes follow the reference code rather than its docs where they disagree (FORMAT §0). JSON
//! objects are built without the fields the reference leaves `undefined`, so they serialize the
//! way the agents' `JSON.stringify` would (up to key order).

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use crate::format::{Dialect, Kind};
use crate::js::{number as js_number, string as js_string, truthy};

mod build;
mod llm;
mod output;
mod path;
mod system;

pub use build::build;
pub use llm::to_llm_messages;
pub use output::{image_text, into_json, render};
pub use path::path_values;
pub use system::{
    collapse_system_messages, current_system_message, system_message_text, system_update_summary,
    system_update_text, tool_names,
};

use llm::{nonzero_exit_code, summary_text, take_messages};

// --- Verbatim data of FORMAT §8.4 -----------------------------------------------------------

/// oh-my-pi `branch-summary-context.md`.
const OMP_BRANCH_TEMPLATE: &str = "Branch-return summary:\n\n<summary>\n{{summary}}\n</summary>\n";

/// oh-my-pi `compaction-summary-context.md`.
const OMP_COMPACTION_TEMPLATE: &str = "Prior model work/tool state available.\n\
MUST build on prior work; NEVER duplicate prior work.\n\
\n\
<summary>\n\
{{summary}}\n\
</summary>\n";

/// oh-my-pi `handoff-summary-context.md` (compactions with `method: "handoff"`).
const OMP_HANDOFF_TEMPLATE: &str = "Context replaced. The <handoff> below is a handoff document a \
prior instance of you wrote from the full conversation. It is your own working memory, not user \
input.\n\
- First person inside it refers to you (the prior instance).\n\
- \"Next Steps\" is your own resumed plan; re-check it against the latest user message before \
acting.\n\
- The handoff already exists and is complete: NEVER write another handoff document unless the \
user explicitly asks.\n\
MUST build on prior work; NEVER duplicate prior work.\n\
\n\
<handoff>\n\
{{summary}}\n\
</handoff>\n";

/// pi-mono (and old oh-my-pi) wrappers: plain concatenation, no trimming.
const PI_COMPACTION_PREFIX: &str = "The conversation history before this point was compacted into the following summary:\n\n<summary>\n";
const PI_COMPACTION_SUFFIX: &str = "\n</summary>";
const PI_BRANCH_PREFIX: &str =
    "The following is a summary of a branch that this conversation came back from:\n\n<summary>\n";
const PI_BRANCH_SUFFIX: &str = "</summary>";

// --- customType values and markers the reference gives meaning to ---------------------------

/// The hidden continuity note that keeps an interrupted turn in the context.
const INTERRUPTED_THINKING: &str = "interrupted-thinking";
/// An internal plan nudge that never reaches the model.
const PREWALK_PLAN: &str = "prewalk-plan";
/// The type a `custom_message` without a usable `customType` gets.
const DEFAULT_CUSTOM_TYPE: &str = "custom-message";
const SKILL_PROMPT: &str = "skill-prompt";
const COLLAB_PROMPT: &str = "collab-prompt";
const ADVISOR: &str = "advisor";
/// `errorMessage` of a turn the user aborted with Esc.
const USER_INTERRUPT_LABEL: &str = "Interrupted by user";
/// Service-tier families, in the order the reference writes them.
const TIER_FAMILIES: [&str; 3] = ["openai", "anthropic", "google"];
const TIERS: [&str; 5] = ["auto", "default", "flex", "scale", "priority"];

// --- Public types ---------------------------------------------------------------------------

/// pi-mono's single model: `{provider, modelId}` from the last `model_change` or assistant
/// message on the path.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PiModel {
    /// The provider (`anthropic`, …), when known.
    pub provider: Option<String>,
    /// The model id (`claude-sonnet-4-5`, …), when known.
    pub model_id: Option<String>,
}

/// The legacy MCP tool selection of older oh-my-pi releases (FORMAT §8.2): the latest
/// `mcp_tool_selection` entry on the path.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct McpToolSelection {
    /// `selectedToolNames` of the latest entry (`selectedMCPToolNames` in the reference).
    pub selected_tool_names: Vec<String>,
    /// Whether any such entry is on the path (`hasPersistedMCPToolSelection`).
    pub has_persisted: bool,
}

/// What `buildSessionContext` returns for one leaf (FORMAT §8.2–§8.3).
///
/// For [`Dialect::Pi`] only `thinking_level`, `model` and `agent_messages` are computed, as
/// pi-mono does; the oh-my-pi-only fields keep their defaults.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionContext {
    /// Whose rules built this context; the conversion follows the same flavour.
    pub flavor: Dialect,
    /// The leaf the context was built for (`None` for the empty context).
    pub leaf_id: Option<Value>,
    /// Latest `thinking_level_change.thinkingLevel`, `"off"` by default or when null.
    pub thinking_level: String,
    /// Latest `configured ?? thinkingLevel` (oh-my-pi).
    pub configured_thinking_level: Option<String>,
    /// Role → `"provider/modelId"` (oh-my-pi). An assistant message sets `default` only until a
    /// `model_change` with role `default` has been seen on the path.
    pub models: Map<String, Value>,
    /// pi-mono's single model (`None` until a `model_change` or assistant message).
    pub model: Option<PiModel>,
    /// Latest `service_tier_change`, normalised to a per-family map (oh-my-pi).
    pub service_tier: Option<Map<String, Value>>,
    /// Latest `mode_change.mode`, `"none"` by default.
    pub mode: String,
    /// Latest `mode_change.data`.
    pub mode_data: Option<Value>,
    /// Union of every `ttsr_injection.injectedRules`, in first-seen order.
    pub injected_ttsr_rules: Vec<String>,
    /// Legacy `mcp_tool_selection` state.
    pub mcp_tool_selection: McpToolSelection,
    /// The messages before conversion, after the oh-my-pi post-passes and pi's context edits:
    /// roles `user`, `assistant`, `toolResult`, `bashExecution`, `custom`, `branchSummary`,
    /// `compactionSummary`, pi's `system` (each in its place), … exactly as
    /// `buildSessionContext` returns them.
    pub agent_messages: Vec<Value>,
}

impl SessionContext {
    /// The empty context of FORMAT §8.1 (explicit null leaf, or no entries).
    pub fn empty(flavor: Dialect) -> Self {
        SessionContext {
            flavor,
            leaf_id: None,
            thinking_level: "off".to_owned(),
            configured_thinking_level: None,
            models: Map::new(),
            model: None,
            service_tier: None,
            mode: "none".to_owned(),
            mode_data: None,
            injected_ttsr_rules: Vec::new(),
            mcp_tool_selection: McpToolSelection::default(),
            agent_messages: Vec::new(),
        }
    }
}

// --- Small JSON helpers that mirror JavaScript semantics ------------------------------------

/// A member of an object moved out of it (`null` left in its place), or `None` when it has none.
fn take(value: &mut Value, key: &str) -> Option<Value> {
    value.get_mut(key).map(Value::take)
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// The kind of an entry, by its `type`.
fn kind_of(entry: &Value) -> Kind {
    str_field(entry, "type").map_or(Kind::Missing, Kind::from_name)
}

fn role(msg: &Value) -> &str {
    str_field(msg, "role").unwrap_or("")
}

fn str_field<'a>(v: &'a Value, key: &str) -> Option<&'a str> {
    v.get(key).and_then(Value::as_str)
}

fn array_field<'a>(v: &'a Value, key: &str) -> &'a [Value] {
    v.get(key).and_then(Value::as_array).map_or(&[], Vec::as_slice)
}

fn is_custom_of_type(msg: &Value, custom_type: &str) -> bool {
    role(msg) == "custom" && str_field(msg, "customType") == Some(custom_type)
}

/// What the reference accepts as custom-message content: a string or any array.
fn is_custom_content(content: &Value) -> bool {
    content.is_string() || content.is_array()
}

fn text_block(text: String) -> Value {
    // Not `json!`, which would serialize a copy of the text.
    obj([("type", Some(json!("text"))), ("text", Some(Value::String(text)))])
}

/// An object without the fields that are `None`, the way `JSON.stringify` drops `undefined`.
fn obj<const N: usize>(fields: [(&str, Option<Value>); N]) -> Value {
    let mut map = Map::new();
    for (key, value) in fields {
        if let Some(value) = value {
            map.insert(key.to_owned(), value);
        }
    }
    Value::Object(map)
}

/// A key for a tool-call id that keeps `"1"` and `1` apart and gives a missing id its own key.
fn id_key(id: Option<&Value>) -> String {
    id.map_or_else(|| "\u{0}undefined".to_owned(), compact)
}

/// Whether a field is missing, not a string, or only whitespace.
fn blank(v: Option<&Value>) -> bool {
    v.and_then(Value::as_str).is_none_or(|s| s.trim().is_empty())
}

/// `coerceServiceTierByFamily`: a family map keeps only known families with valid tiers;
/// legacy scalars map as `priority` → every family, `openai-only` → openai priority,
/// `claude-only` → anthropic priority, any other valid tier → openai only (the legacy scalar
/// had OpenAI semantics). Anything else, or an empty result, is `None`.
fn coerce_service_tier(v: Option<&Value>) -> Option<Map<String, Value>> {
    let tiers: Vec<(&str, &str)> = match v? {
        Value::Object(src) => TIER_FAMILIES
            .into_iter()
            .filter_map(|f| Some((f, src.get(f)?.as_str().filter(|t| TIERS.contains(t))?)))
            .collect(),
        Value::String(s) => match s.as_str() {
            "priority" => TIER_FAMILIES.map(|f| (f, "priority")).to_vec(),
            "openai-only" => vec![("openai", "priority")],
            "claude-only" => vec![("anthropic", "priority")],
            tier if TIERS.contains(&tier) => vec![("openai", tier)],
            _ => vec![],
        },
        _ => vec![],
    };
    let out: Map<String, Value> =
        tiers.into_iter().map(|(f, t)| (f.to_owned(), json!(t))).collect();
    (!out.is_empty()).then_some(out)
}

// --- Timestamps -----------------------------------------------------------------------------

/// `Date.parse(entry.timestamp)` as a JSON value: epoch milliseconds, or `null` (JavaScript's
/// NaN serializes so) when the timestamp is missing or does not parse.
fn entry_ms(entry: &Value) -> Value {
    str_field(entry, "timestamp")
        .and_then(crate::clock::parse_timestamp)
        .map_or(Value::Null, Value::from)
}

/// Epoch milliseconds as `YYYY-MM-DDTHH:MM:SS.sssZ`, for display.
fn format_ms(ms: f64) -> String {
    if !ms.is_finite() || ms.abs() > 8.64e15 {
        return js_number(ms);
    }
    crate::clock::format_iso_millis(ms as i64)
}

#[cfg(test)]
mod tests {
    use super::build::is_empty_error_turn;
    use super::llm::{format_bytes, group_thousands, llm_messages, render_omp_template};
    use super::output::{Part, content_blocks, inline_code};
    use super::*;

    const TS: &str = "2026-02-16T10:21:00.000Z";
    const TS_MS: i64 = 1_771_237_260_000;

    /// Links entries into one chain: ids `e0, e1, …` unless given, each parent the previous
    /// entry, and a fixed timestamp unless given.
    pub(super) fn chain(entries: Vec<Value>) -> Vec<Value> {
        let mut prev = Value::Null;
        entries
            .into_iter()
            .enumerate()
            .map(|(i, mut e)| {
                let map = e.as_object_mut().expect("entry object");
                map.entry("id").or_insert_with(|| json!(format!("e{i}")));
                map.insert("parentId".into(), prev.clone());
                map.entry("timestamp").or_insert_with(|| json!(TS));
                prev = map["id"].clone();
                e
            })
            .collect()
    }

    fn id(mut entry: Value, id: &str) -> Value {
        entry["id"] = json!(id);
        entry
    }

    fn msg(message: Value) -> Value {
        json!({"type": "message", "message": message})
    }

    pub(super) fn user(text: &str) -> Value {
        msg(json!({"role": "user", "content": text, "timestamp": 1}))
    }

    fn assistant(content: Value, stop: &str) -> Value {
        msg(json!({"role": "assistant", "content": content, "provider": "anthropic",
            "model": "claude-sonnet-4-5", "stopReason": stop, "timestamp": 2}))
    }

    fn say(text: &str) -> Value {
        assistant(json!([{"type": "text", "text": text}]), "stop")
    }

    fn call(call_id: &str) -> Value {
        json!({"type": "toolCall", "id": call_id, "name": "read", "arguments": {"path": "a"}})
    }

    fn result(call_id: &str) -> Value {
        msg(json!({"role": "toolResult", "toolCallId": call_id, "toolName": "read",
            "content": [{"type": "text", "text": "out"}], "isError": false, "timestamp": 3}))
    }

    fn omp(path: &[Value]) -> SessionContext {
        build(path.to_vec(), None, Dialect::Omp)
    }

    fn pi(path: &[Value]) -> SessionContext {
        build(path.to_vec(), None, Dialect::Pi)
    }

    /// A compact picture of the agent messages: the role, plus the text for users and
    /// assistants and the summary for summaries.
    fn shape(ctx: &SessionContext) -> Vec<String> {
        ctx.agent_messages
            .iter()
            .map(|m| {
                let r = role(m);
                let text = match r {
                    "user" => js_string(m.get("content")),
                    "assistant" => content_blocks(m.get("content"), None)
                        .into_iter()
                        .filter_map(|b| match b {
                            Part::Text(t) => Some(t),
                            Part::ToolCall { id, .. } => Some(format!("call:{id}")),
                            _ => None,
                        })
                        .collect::<Vec<_>>()
                        .join("+"),
                    "toolResult" => js_string(m.get("toolCallId")),
                    "branchSummary" | "compactionSummary" => summary_text(m),
                    "custom" => js_string(m.get("customType")),
                    _ => String::new(),
                };
                format!("{r}:{text}")
            })
            .collect()
    }

    fn only_text(message: &Value) -> String {
        let content = message["content"].as_array().expect("content blocks");
        assert_eq!(content.len(), 1, "one block in {message}");
        content[0]["text"].as_str().expect("text block").to_owned()
    }

    // --- state ---

    #[test]
    fn empty_path_gives_the_empty_context() {
        let ctx = omp(&[]);
        assert_eq!(ctx, SessionContext::empty(Dialect::Omp));
        assert_eq!(ctx.thinking_level, "off");
        assert_eq!(ctx.mode, "none");
        let out = into_json(ctx, false);
        assert_eq!(out["leafId"], Value::Null);
        assert_eq!(out["messages"], json!([]));
        assert_eq!(out["models"], json!({}));
        assert_eq!(out["serviceTier"], Value::Null);
    }

    /// The kinds whose row says they set state ([`Kind::sets_state`], which `path_values` reads
    /// in full before the shown range) are the kinds whose entries `build` tracks, by
    /// oh-my-pi's rules (which track all pi does and more): an example of each changes the
    /// state, and one of any other kind leaves it as the empty context has it.
    #[test]
    fn every_state_kind_is_tracked() {
        for kind in Kind::ALL {
            let mut ctx = omp(&[crate::format::kind::tests::example(kind)]);
            ctx.leaf_id = None;
            ctx.agent_messages.clear();
            let changed = ctx != SessionContext::empty(Dialect::Omp);
            assert_eq!(changed, kind.sets_state(), "{kind:?}");
        }
    }

    /// A tool result's output can be megabytes (a 10 MB one peaked at 1.5 GB when each step
    /// copied it): the messages are moved from the path into the context and on into the
    /// JSON object, in both flavours, as agent messages and as LLM messages (which add an
    /// attribution, or make a custom message's text a text block), so their text stays in the
    /// allocation it was parsed into.
    #[test]
    fn messages_are_moved_not_copied() {
        let output = "x".repeat(4096);
        let path = chain(vec![
            assistant(json!([call("c1")]), "toolUse"),
            msg(json!({"role": "toolResult", "toolCallId": "c1", "toolName": "read",
                "content": [{"type": "text", "text": output}], "timestamp": 3})),
            json!({"type": "custom_message", "customType": "note", "content": output}),
        ]);
        let text = |v: &Value| v.as_str().expect("a string").as_ptr();
        for flavor in [Dialect::Omp, Dialect::Pi] {
            for agent in [false, true] {
                let path = path.clone();
                let result = text(&path[1]["message"]["content"][0]["text"]);
                let custom = text(&path[2]["content"]);
                let ctx = build(path, None, flavor);
                assert_eq!(text(&ctx.agent_messages[1]["content"][0]["text"]), result);
                assert_eq!(text(&ctx.agent_messages[2]["content"]), custom);
                let out = into_json(ctx, agent);
                let messages = out["messages"].as_array().expect("messages");
                assert_eq!(text(&messages[1]["content"][0]["text"]), result, "{flavor:?} {agent}");
                // As an LLM message, a custom message's text is a text block's.
                let custom_text = match agent {
                    true => &messages[2]["content"],
                    false => &messages[2]["content"][0]["text"],
                };
                assert_eq!(text(custom_text), custom, "{flavor:?} {agent}");
            }
        }
    }

    #[test]
    fn leaf_id_is_reported_or_taken_from_the_path() {
        let path = chain(vec![user("a"), user("b")]);
        assert_eq!(omp(&path).leaf_id, Some(json!("e1")));
        assert_eq!(build(path, Some(&json!("x")), Dialect::Omp).leaf_id, Some(json!("x")));
    }

    #[test]
    fn thinking_level_defaults_to_off_and_tracks_configured() {
        let change = |level: Value, configured: Value| json!({"type": "thinking_level_change", "thinkingLevel": level, "configured": configured});
        let cases = [
            (vec![user("a")], ("off", None)),
            (vec![change(json!("high"), json!("auto"))], ("high", Some("auto"))),
            // configured null falls back to the level; the latest change wins.
            (
                vec![change(json!("high"), json!("auto")), change(json!("low"), Value::Null)],
                ("low", Some("low")),
            ),
            // A null level is "off" and leaves configured unset.
            (vec![change(Value::Null, Value::Null)], ("off", None)),
        ];
        for (entries, expected) in cases {
            let ctx = omp(&chain(entries));
            let got = (ctx.thinking_level.as_str(), ctx.configured_thinking_level.as_deref());
            assert_eq!(got, expected);
        }
        let ctx = omp(&chain(vec![change(Value::Null, Value::Null)]));
        assert_eq!(into_json(ctx, false)["configuredThinkingLevel"], Value::Null);
    }

    #[test]
    fn models_per_role_and_assistant_inference_until_explicit_default() {
        let change = |model: &str, role: Option<&str>| {
            let mut e =
                json!({"type": "model_change", "model": model, "resolvedModelIsFallback": false});
            if let Some(role) = role {
                e["role"] = json!(role);
            }
            e
        };
        // Assistant messages alone set the default; later ones override earlier ones.
        let mut other = say("x");
        other["message"]["provider"] = json!("openai");
        other["message"]["model"] = json!("gpt-5");
        let ctx = omp(&chain(vec![say("a"), other.clone()]));
        assert_eq!(
            ctx.models,
            json!({"default": "openai/gpt-5"}).as_object().cloned().unwrap_or_default()
        );

        // A non-default role does not stop the inference.
        let ctx = omp(&chain(vec![change("openai/gpt-5-mini", Some("smol")), say("a")]));
        assert_eq!(
            Value::Object(ctx.models),
            json!({"smol": "openai/gpt-5-mini", "default": "anthropic/claude-sonnet-4-5"})
        );

        // An explicit default (role missing means default) stops it for good.
        let ctx =
            omp(&chain(vec![say("a"), change("openai/gpt-5", None), other.clone(), say("b")]));
        assert_eq!(Value::Object(ctx.models), json!({"default": "openai/gpt-5"}));
        let ctx = omp(&chain(vec![change("openai/gpt-5", Some("default")), say("b")]));
        assert_eq!(Value::Object(ctx.models), json!({"default": "openai/gpt-5"}));

        // A pi-style change has no `model` and is ignored by the omp rules.
        let pi_change = json!({"type": "model_change", "provider": "openai", "modelId": "gpt-5"});
        let ctx = omp(&chain(vec![pi_change, say("a")]));
        assert_eq!(Value::Object(ctx.models), json!({"default": "anthropic/claude-sonnet-4-5"}));
    }

    #[test]
    fn service_tier_is_normalised_to_a_family_map() {
        let tier = |v: Value| {
            let ctx = omp(&chain(vec![json!({"type": "service_tier_change", "serviceTier": v})]));
            ctx.service_tier.map(Value::Object)
        };
        for (given, expected) in [
            (
                json!({"openai": "priority", "x": "flex", "google": "bogus"}),
                json!({"openai": "priority"}),
            ),
            (
                json!("priority"),
                json!({"openai": "priority", "anthropic": "priority", "google": "priority"}),
            ),
            (json!("openai-only"), json!({"openai": "priority"})),
            (json!("claude-only"), json!({"anthropic": "priority"})),
            (json!("flex"), json!({"openai": "flex"})),
            (json!("turbo"), Value::Null),
            (json!({}), Value::Null),
            (Value::Null, Value::Null),
        ] {
            assert_eq!(tier(given.clone()).unwrap_or_default(), expected, "{given}");
        }

        // The latest change wins, and null clears.
        let ctx = omp(&chain(vec![
            json!({"type": "service_tier_change", "serviceTier": "priority"}),
            json!({"type": "service_tier_change", "serviceTier": null}),
        ]));
        assert_eq!(ctx.service_tier, None);
    }

    #[test]
    fn mode_ttsr_and_mcp_selection() {
        let ctx = omp(&chain(vec![
            json!({"type": "mode_change", "mode": "plan", "data": {"planFile": "local://p.md"}}),
            json!({"type": "ttsr_injection", "injectedRules": ["no-console", "hard-tabs"]}),
            json!({"type": "mcp_tool_selection", "selectedToolNames": ["a.one"]}),
            json!({"type": "ttsr_injection", "injectedRules": ["hard-tabs", "tests", "no-console"]}),
            json!({"type": "mcp_tool_selection", "selectedToolNames": ["b.two", "b.three"]}),
        ]));
        assert_eq!(ctx.mode, "plan");
        assert_eq!(ctx.mode_data, Some(json!({"planFile": "local://p.md"})));
        assert_eq!(ctx.injected_ttsr_rules, ["no-console", "hard-tabs", "tests"]);
        assert_eq!(ctx.mcp_tool_selection.selected_tool_names, ["b.two", "b.three"]);
        assert!(ctx.mcp_tool_selection.has_persisted);
        // Leaving a mode: "none" and the data of that change.
        let ctx = omp(&chain(vec![
            json!({"type": "mode_change", "mode": "plan", "data": {"x": 1}}),
            json!({"type": "mode_change", "mode": "none"}),
        ]));
        assert_eq!((ctx.mode.as_str(), ctx.mode_data), ("none", None));

        let out = into_json(omp(&chain(vec![user("a")])), false);
        assert_eq!(
            out["mcpToolSelection"],
            json!({"selectedMCPToolNames": [], "hasPersistedMCPToolSelection": false})
        );
        assert_eq!(out["mode"], "none");
        assert_eq!(out["modeData"], Value::Null);
    }

    #[test]
    fn state_is_tracked_over_the_whole_path_despite_compaction_and_reset() {
        let ctx = omp(&chain(vec![
            json!({"type": "thinking_level_change", "thinkingLevel": "high", "configured": null}),
            json!({"type": "ttsr_injection", "injectedRules": ["r1"]}),
            json!({"type": "compaction", "summary": "s", "firstKeptEntryId": "none", "tokensBefore": 1}),
            json!({"type": "reset_boundary"}),
            user("after"),
        ]));
        assert_eq!(ctx.thinking_level, "high");
        assert_eq!(ctx.injected_ttsr_rules, ["r1"]);
        assert_eq!(shape(&ctx), ["user:after"]);
    }

    #[test]
    fn pi_single_model_last_change_or_assistant_wins() {
        assert_eq!(pi(&chain(vec![user("a")])).model, None);
        let change = json!({"type": "model_change", "provider": "openai", "modelId": "gpt-5"});
        let ctx = pi(&chain(vec![say("a"), change.clone()]));
        let gpt = PiModel { provider: Some("openai".into()), model_id: Some("gpt-5".into()) };
        assert_eq!(ctx.model, Some(gpt.clone()));
        // Unlike omp, a later assistant message wins over an explicit change.
        let ctx = pi(&chain(vec![change, say("a")]));
        assert_eq!(
            ctx.model,
            Some(PiModel {
                provider: Some("anthropic".into()),
                model_id: Some("claude-sonnet-4-5".into())
            })
        );
        // An omp-style change is understood too.
        let ctx = pi(&chain(vec![
            json!({"type": "model_change", "model": "openai/gpt-5", "role": "default"}),
        ]));
        assert_eq!(ctx.model, Some(gpt));
        let out = into_json(ctx, false);
        assert_eq!(out["models"], json!({"provider": "openai", "modelId": "gpt-5"}));
        assert_eq!(out["flavor"], "pi");
        assert_eq!(into_json(pi(&[]), false)["models"], Value::Null);
    }

    #[test]
    fn pi_tracks_only_thinking_and_model() {
        let ctx = pi(&chain(vec![
            json!({"type": "thinking_level_change", "thinkingLevel": "medium"}),
            json!({"type": "mode_change", "mode": "plan"}),
            json!({"type": "ttsr_injection", "injectedRules": ["r"]}),
            json!({"type": "service_tier_change", "serviceTier": "priority"}),
        ]));
        assert_eq!(ctx.thinking_level, "medium");
        assert_eq!(
            (ctx.mode.as_str(), ctx.injected_ttsr_rules.len(), ctx.service_tier),
            ("none", 0, None)
        );
    }

    // --- which entries are emitted ---

    fn compaction(first_kept: &str, summary: &str) -> Value {
        json!({"type": "compaction", "summary": summary, "shortSummary": "short",
            "firstKeptEntryId": first_kept, "tokensBefore": 42000})
    }

    #[test]
    fn compaction_summary_first_then_kept_range_then_the_rest() {
        let path = chain(vec![
            user("u1"),
            say("a1"),
            id(user("u2"), "keep"),
            say("a2"),
            compaction("keep", "S"),
            user("u3"),
        ]);
        for ctx in [omp(&path), pi(&path)] {
            assert_eq!(
                shape(&ctx),
                ["compactionSummary:S", "user:u2", "assistant:a2", "user:u3"],
                "{:?}",
                ctx.flavor
            );
        }
        let omp_summary = &omp(&path).agent_messages[0];
        assert_eq!(
            *omp_summary,
            json!({"role": "compactionSummary", "summary": "S", "shortSummary": "short",
                "tokensBefore": 42000, "timestamp": TS_MS})
        );
        let pi_summary = &pi(&path).agent_messages[0];
        assert_eq!(
            *pi_summary,
            json!({"role": "compactionSummary", "summary": "S", "tokensBefore": 42000, "timestamp": TS_MS})
        );
    }

    #[test]
    fn first_kept_entry_off_the_path_keeps_nothing_before_the_compaction() {
        // The kept id exists in the file but not on this path (or only after the compaction).
        let path = chain(vec![
            user("u1"),
            say("a1"),
            compaction("elsewhere", "S"),
            id(user("u2"), "elsewhere"),
        ]);
        for ctx in [omp(&path), pi(&path)] {
            assert_eq!(shape(&ctx), ["compactionSummary:S", "user:u2"]);
        }
    }

    #[test]
    fn only_the_latest_compaction_counts() {
        let path = chain(vec![
            id(user("u1"), "k1"),
            say("a1"),
            compaction("k1", "first"),
            id(user("u2"), "k2"),
            say("a2"),
            compaction("k2", "second"),
            user("u3"),
        ]);
        for ctx in [omp(&path), pi(&path)] {
            assert_eq!(
                shape(&ctx),
                ["compactionSummary:second", "user:u2", "assistant:a2", "user:u3"]
            );
        }
        // A kept range that spans an earlier compaction: that compaction adds nothing.
        let path = chain(vec![
            id(user("u1"), "k1"),
            compaction("k1", "first"),
            say("a1"),
            compaction("k1", "second"),
        ]);
        assert_eq!(shape(&omp(&path)), ["compactionSummary:second", "user:u1", "assistant:a1"]);
    }

    #[test]
    fn a_later_reset_boundary_wins_over_a_compaction() {
        let path = chain(vec![
            id(user("u1"), "k"),
            compaction("k", "S"),
            user("u2"),
            json!({"type": "reset_boundary"}),
            user("u3"),
        ]);
        assert_eq!(shape(&omp(&path)), ["user:u3"]);
        // pi knows no reset boundary.
        assert_eq!(shape(&pi(&path)), ["compactionSummary:S", "user:u1", "user:u2", "user:u3"]);
    }

    #[test]
    fn a_compaction_after_a_reset_boundary_wins() {
        let path = chain(vec![
            user("u0"),
            json!({"type": "reset_boundary"}),
            id(user("u1"), "k"),
            say("a1"),
            compaction("k", "S"),
            user("u2"),
        ]);
        assert_eq!(
            shape(&omp(&path)),
            ["compactionSummary:S", "user:u1", "assistant:a1", "user:u2"]
        );
        // The kept range may even reach back before the reset.
        let path = chain(vec![
            id(user("u0"), "k"),
            json!({"type": "reset_boundary"}),
            user("u1"),
            compaction("k", "S"),
        ]);
        assert_eq!(shape(&omp(&path)), ["compactionSummary:S", "user:u0", "user:u1"]);
        // Only a reset: everything before it is gone.
        let path = chain(vec![user("u0"), json!({"type": "reset_boundary"}), user("u1")]);
        assert_eq!(shape(&omp(&path)), ["user:u1"]);
    }

    #[test]
    fn openai_remote_compaction_skips_the_kept_range() {
        let remote = |extra: Value| {
            let mut c = compaction("k", "S");
            c["preserveData"] = json!({"openaiRemoteCompaction": {"provider": "openai",
                "replacementHistory": [{"type": "message"}]}});
            if let Some(through) = extra.as_str() {
                c["providerReplayThroughEntryId"] = json!(through);
            }
            c
        };
        let path = chain(vec![
            id(user("u1"), "k"),
            id(say("a1"), "t"),
            user("u2"),
            remote(Value::Null),
            user("u3"),
        ]);
        let ctx = omp(&path);
        assert_eq!(shape(&ctx), ["compactionSummary:S", "user:u3"]);
        assert_eq!(
            ctx.agent_messages[0]["providerPayload"],
            json!({"type": "openaiResponsesHistory", "provider": "openai", "items": [{"type": "message"}]})
        );
        // The payload survives the conversion.
        assert_eq!(to_llm_messages(&ctx)[0]["providerPayload"]["provider"], "openai");

        // With providerReplayThroughEntryId on the path: only the entries after it.
        let path = chain(vec![
            id(user("u1"), "k"),
            id(say("a1"), "t"),
            user("u2"),
            remote(json!("t")),
            user("u3"),
        ]);
        assert_eq!(shape(&omp(&path)), ["compactionSummary:S", "user:u2", "user:u3"]);
        // ... and nothing when it is not on the path before the compaction.
        let path = chain(vec![id(user("u1"), "k"), user("u2"), remote(json!("gone")), user("u3")]);
        assert_eq!(shape(&omp(&path)), ["compactionSummary:S", "user:u3"]);

        // An incomplete remote payload is an ordinary compaction.
        let mut c = compaction("k", "S");
        c["preserveData"] =
            json!({"openaiRemoteCompaction": {"provider": "", "replacementHistory": []}});
        let path = chain(vec![id(user("u1"), "k"), c, user("u3")]);
        let ctx = omp(&path);
        assert_eq!(shape(&ctx), ["compactionSummary:S", "user:u1", "user:u3"]);
        assert!(ctx.agent_messages[0].get("providerPayload").is_none());
    }

    #[test]
    fn branch_summaries_only_with_a_summary() {
        let path = chain(vec![
            user("u1"),
            json!({"type": "branch_summary", "fromId": "e0", "summary": ""}),
            json!({"type": "branch_summary", "fromId": "root", "summary": "went elsewhere",
                "timestamp": "2026-02-16T10:24:00.500Z"}),
        ]);
        for ctx in [omp(&path), pi(&path)] {
            assert_eq!(ctx.agent_messages.len(), 2);
            assert_eq!(
                ctx.agent_messages[1],
                json!({"role": "branchSummary", "summary": "went elsewhere", "fromId": "root",
                    "timestamp": 1_771_237_440_500_i64})
            );
        }
    }

    #[test]
    fn custom_message_entries() {
        let path = chain(vec![
            json!({"type": "custom_message", "customType": "ext", "content": "hello", "display": true,
                "details": {"d": 1}, "attribution": "user"}),
            json!({"type": "custom_message", "customType": "prewalk-plan", "content": "hidden", "display": false}),
            json!({"type": "custom_message", "customType": "ext", "content": 42, "display": true}),
            json!({"type": "custom_message", "content": [{"type": "text", "text": "t"}]}),
            json!({"type": "custom_message", "customType": "ext", "content": "x", "attribution": "robot"}),
        ]);
        let ctx = omp(&path);
        assert_eq!(
            ctx.agent_messages,
            [
                json!({"role": "custom", "customType": "ext", "content": "hello", "display": true,
                    "details": {"d": 1}, "attribution": "user", "timestamp": TS_MS}),
                json!({"role": "custom", "customType": "custom-message",
                    "content": [{"type": "text", "text": "t"}], "display": false, "timestamp": TS_MS}),
                json!({"role": "custom", "customType": "ext", "content": "x", "display": false,
                    "attribution": "agent", "timestamp": TS_MS}),
            ]
        );
        // pi keeps every custom message as written, without attribution.
        let ctx = pi(&path);
        assert_eq!(ctx.agent_messages.len(), 5);
        assert_eq!(
            ctx.agent_messages[0],
            json!({"role": "custom", "customType": "ext", "content": "hello", "display": true,
                "details": {"d": 1}, "timestamp": TS_MS})
        );
    }

    fn system(content: Value) -> Value {
        msg(json!({"role": "system", "content": content, "timestamp": 0}))
    }

    /// pi 1.6.0 `buildSessionContext`: every system message stays where it is (a patch of
    /// the prompt), in the agent messages and in the LLM messages alike; omp has none.
    #[test]
    fn pi_system_messages_stay_in_place() {
        let path = chain(vec![system(json!("p")), user("u"), system(json!("patch")), say("a")]);
        let roles = |messages: &[Value]| messages.iter().map(role).collect::<Vec<_>>().join(" ");
        let ctx = pi(&path);
        assert_eq!(roles(&ctx.agent_messages), "system user system assistant");
        assert_eq!(roles(&to_llm_messages(&ctx)), "system user system assistant");
        assert_eq!(ctx.agent_messages[2]["content"], "patch");
    }

    /// pi 1.6.0: a compaction's `systemMessage` (as stored) comes before its summary, and the
    /// system messages of the range it keeps are left out; later ones stay in place.
    #[test]
    fn pi_compaction_system_message_leads_and_kept_ones_go() {
        let mut c = compaction("k", "S");
        c["systemMessage"] = json!({"role": "system", "content": "folded", "timestamp": 9});
        let path = chain(vec![
            system(json!("p")),
            id(user("u1"), "k"),
            system(json!("kept patch")),
            say("a1"),
            c.clone(),
            system(json!("later")),
            user("u2"),
        ]);
        let ctx = pi(&path);
        assert_eq!(ctx.agent_messages[0], c["systemMessage"]);
        assert_eq!(
            shape(&ctx)[1..],
            ["compactionSummary:S", "user:u1", "assistant:a1", "system:", "user:u2"]
        );
        assert_eq!(ctx.agent_messages[4]["content"], "later");
        // Without a systemMessage only the summary leads; omp never reads one.
        c.as_object_mut().map(|m| m.remove("systemMessage"));
        let path = chain(vec![id(user("u1"), "k"), c.clone(), user("u2")]);
        assert_eq!(role(&pi(&path).agent_messages[0]), "compactionSummary");
        c["systemMessage"] = json!({"role": "system", "content": "folded"});
        let path = chain(vec![id(user("u1"), "k"), system(json!("kept")), c, user("u2")]);
        assert_eq!(shape_of(&omp(&path)), ["compactionSummary", "user", "system", "user"]);
    }

    fn shape_of(ctx: &SessionContext) -> Vec<&str> {
        ctx.agent_messages.iter().map(role).collect()
    }

    fn edit(target: &str, replacement: Value) -> Value {
        json!({"type": "context_edit", "targetId": target, "replacement": replacement})
    }

    /// pi 1.6.0 `buildSessionProjection`/`projectContextEntry`: the latest edit among the
    /// context entries wins for its target; `null` omits any entry; a replacement sets the
    /// content of a user, assistant, tool result or custom message (a string as one text block
    /// for an assistant or a tool result) and leaves other messages alone.
    #[test]
    fn pi_context_edits() {
        let path = chain(vec![
            id(user("u1"), "u1"),
            id(say("a1"), "a1"),
            id(system(json!("p")), "s1"),
            id(json!({"type": "branch_summary", "fromId": "x", "summary": "went"}), "b1"),
            id(json!({"type": "custom_message", "customType": "n", "content": "c"}), "c1"),
            edit("u1", json!({"content": "u1 edited"})),
            edit("a1", json!({"content": "a1 edited"})),
            edit("s1", json!({"content": "ignored"})),
            edit("b1", Value::Null),
            edit("c1", json!({"content": [{"type": "text", "text": "c edited"}]})),
            edit("u2", json!({"content": "ahead"})),
            id(user("u2"), "u2"),
        ]);
        let ctx = pi(&path);
        assert_eq!(
            ctx.agent_messages.iter().map(|m| m["content"].clone()).collect::<Vec<_>>(),
            [
                json!("u1 edited"),
                json!([{"type": "text", "text": "a1 edited"}]),
                json!("p"),
                json!([{"type": "text", "text": "c edited"}]),
                json!("ahead"),
            ]
        );
        // The latest edit of a target wins, even a null one after a replacement.
        let path = chain(vec![
            id(user("u1"), "u1"),
            edit("u1", json!({"content": "x"})),
            edit("u1", Value::Null),
            user("u2"),
        ]);
        assert_eq!(shape(&pi(&path)), ["user:u2"]);
        // An edit summarized away by a compaction no longer counts, and one on the
        // compaction itself acts on its messages.
        let path = chain(vec![
            edit("k", json!({"content": "gone"})),
            id(user("u1"), "k"),
            id(compaction("k", "S"), "c"),
            user("u2"),
        ]);
        assert_eq!(shape(&pi(&path)), ["compactionSummary:S", "user:u1", "user:u2"]);
        let path =
            chain(vec![id(user("u1"), "k"), id(compaction("k", "S"), "c"), edit("c", Value::Null)]);
        assert_eq!(shape(&pi(&path)), ["user:u1"]);
        // omp has no context edits.
        let path = chain(vec![id(user("u1"), "u1"), edit("u1", Value::Null)]);
        assert_eq!(shape(&omp(&path)), ["user:u1"]);
    }

    /// pi 1.6.0 `sessionEntryToContextMessages`: null content reads as `""` for a system
    /// message and as no blocks for a user, assistant or tool result message or a custom
    /// message entry; other roles, and every omp message, keep what they have.
    #[test]
    fn pi_null_content() {
        let path = chain(vec![
            system(Value::Null),
            msg(json!({"role": "user", "content": null})),
            msg(json!({"role": "assistant", "stopReason": "stop"})),
            msg(json!({"role": "toolResult", "toolCallId": "c", "content": null})),
            json!({"type": "custom_message", "customType": "n"}),
            msg(json!({"role": "developer", "content": null})),
        ]);
        let contents = |ctx: SessionContext| {
            ctx.agent_messages.iter().map(|m| m.get("content").cloned()).collect::<Vec<_>>()
        };
        let empty = Some(json!([]));
        assert_eq!(
            contents(pi(&path)),
            [
                Some(json!("")),
                empty.clone(),
                empty.clone(),
                empty.clone(),
                empty,
                Some(Value::Null)
            ]
        );
        assert_eq!(
            contents(omp(&path))[..4],
            [Some(Value::Null), Some(Value::Null), None, Some(Value::Null)]
        );
    }

    #[test]
    fn retry_recovery_and_empty_error_turns_are_skipped() {
        let mut recovered = say("partial");
        recovered["message"]["retryRecovery"] = json!({"attempt": 1});
        let empty_error = assistant(
            json!([{"type": "text", "text": "  "}, {"type": "thinking", "thinking": ""}, {"type": "fallback"}]),
            "error",
        );
        let path = chain(vec![user("u"), recovered.clone(), empty_error.clone(), say("ok")]);
        assert_eq!(shape(&omp(&path)), ["user:u", "assistant:ok"]);
        // pi keeps both (and has no post-passes).
        assert_eq!(omp(&path).agent_messages.len(), 2);
        assert_eq!(pi(&path).agent_messages.len(), 4);

        // A signature, a tool call or an unknown block is content.
        for block in [
            json!({"type": "thinking", "thinking": "", "thinkingSignature": "sig"}),
            json!({"type": "redactedThinking", "data": "xx"}),
            json!({"type": "toolCall", "id": "c", "name": "n", "arguments": {}}),
            json!({"type": "anthropicServerTool"}),
        ] {
            assert!(!is_empty_error_turn(&assistant(json!([block]), "error")["message"]));
        }
        assert!(is_empty_error_turn(&empty_error["message"]));
        assert!(!is_empty_error_turn(&say("")["message"]));
    }

    #[test]
    fn hook_message_is_a_custom_message() {
        let path =
            chain(vec![msg(json!({"role": "hookMessage", "customType": "h", "content": "c",
            "display": true, "timestamp": 5}))]);
        let ctx = omp(&path);
        assert_eq!(role(&ctx.agent_messages[0]), "custom");
        assert_eq!(
            to_llm_messages(&ctx),
            [
                json!({"role": "developer", "content": [{"type": "text", "text": "c"}], "timestamp": 5})
            ]
        );
        assert_eq!(
            to_llm_messages(&pi(&path)),
            [json!({"role": "user", "content": [{"type": "text", "text": "c"}], "timestamp": 5})]
        );
    }

    // --- post-passes ---

    #[test]
    fn dangling_tool_calls_are_stripped_with_protected_reasoning() {
        let turn = assistant(
            json!([
                {"type": "thinking", "thinking": "hmm", "thinkingSignature": "sig"},
                {"type": "redactedThinking", "data": "enc"},
                {"type": "text", "text": "reading"},
                call("c1"),
                call("c2"),
            ]),
            "toolUse",
        );
        let path = chain(vec![user("u"), turn, result("c1")]);
        let ctx = omp(&path);
        assert_eq!(
            ctx.agent_messages[1]["content"],
            json!([
                {"type": "thinking", "thinking": "hmm"},
                {"type": "text", "text": "reading"},
                call("c1"),
            ])
        );

        // A turn whose blocks were all dangling calls is dropped; an untouched turn keeps its
        // signature.
        let path = chain(vec![
            user("u"),
            assistant(
                json!([{"type": "thinking", "thinking": "t", "thinkingSignature": "s"}, call("c1")]),
                "toolUse",
            ),
            result("c1"),
            assistant(json!([call("c9")]), "toolUse"),
        ]);
        let ctx = omp(&path);
        assert_eq!(shape(&ctx), ["user:u", "assistant:call:c1", "toolResult:c1"]);
        assert_eq!(ctx.agent_messages[1]["content"][0]["thinkingSignature"], "s");
        // pi has no post-passes.
        assert_eq!(pi(&path).agent_messages.len(), 4);
    }

    #[test]
    fn failed_turns_are_dropped_with_their_tool_results() {
        let path = chain(vec![
            user("u"),
            assistant(json!([{"type": "text", "text": "trying"}, call("c1")]), "aborted"),
            result("c1"),
            user("again"),
            assistant(json!([{"type": "text", "text": "oops"}]), "error"),
            say("fine"),
        ]);
        assert_eq!(shape(&omp(&path)), ["user:u", "user:again", "assistant:fine"]);
    }

    #[test]
    fn interrupted_thinking_keeps_a_failed_turn() {
        let note = json!({"type": "custom_message", "customType": "interrupted-thinking",
            "content": "continuity", "display": false});
        let path = chain(vec![
            user("u"),
            assistant(json!([{"type": "text", "text": "half"}]), "aborted"),
            note.clone(),
        ]);
        assert_eq!(shape(&omp(&path)), ["user:u", "assistant:half", "custom:interrupted-thinking"]);

        // Dropping a later failed turn (and its result) can make the note the next message of
        // an earlier one, which is then kept, as with the reference's splicing walk.
        let path = chain(vec![
            user("u"),
            assistant(json!([{"type": "text", "text": "first"}]), "error"),
            assistant(json!([{"type": "text", "text": "second"}, call("c1")]), "aborted"),
            result("c1"),
            note,
        ]);
        assert_eq!(
            shape(&omp(&path)),
            ["user:u", "assistant:first", "custom:interrupted-thinking"]
        );
    }

    #[test]
    fn a_failed_turn_keeps_results_before_it() {
        // The same call id answered before the failed turn stays.
        let path = chain(vec![
            assistant(json!([call("c1")]), "toolUse"),
            result("c1"),
            assistant(json!([call("c1")]), "error"),
            result("c1"),
            user("u"),
        ]);
        assert_eq!(shape(&omp(&path)), ["assistant:call:c1", "toolResult:c1", "user:u"]);
    }

    #[test]
    fn long_paths_stay_linear() {
        // 10k failed turns each followed by its result: quadratic splicing would crawl.
        let mut entries = Vec::new();
        for i in 0..10_000 {
            let c = format!("c{i}");
            entries.push(assistant(json!([call(&c)]), "aborted"));
            entries.push(result(&c));
        }
        entries.push(user("end"));
        let ctx = omp(&chain(entries));
        assert_eq!(shape(&ctx), ["user:end"]);
    }

    // --- conversion (omp) ---

    fn convert_one(message: Value, flavor: Dialect) -> Vec<Value> {
        llm_messages(vec![message], flavor)
    }

    #[test]
    fn custom_becomes_developer_for_omp_and_user_for_pi() {
        let custom = json!({"role": "custom", "customType": "ext", "content": "note", "display": true,
            "timestamp": 7});
        assert_eq!(
            convert_one(custom.clone(), Dialect::Omp),
            [
                json!({"role": "developer", "content": [{"type": "text", "text": "note"}], "timestamp": 7})
            ]
        );
        assert_eq!(
            convert_one(custom, Dialect::Pi),
            [
                json!({"role": "user", "content": [{"type": "text", "text": "note"}], "timestamp": 7})
            ]
        );
    }

    #[test]
    fn custom_exceptions() {
        let custom = |custom_type: &str, extra: Value| {
            let mut m = json!({"role": "custom", "customType": custom_type, "content": "x", "display": true,
                "timestamp": 7});
            for (k, v) in extra.as_object().into_iter().flatten() {
                m[k] = v.clone();
            }
            m
        };
        let roles = |m: Value| {
            convert_one(m, Dialect::Omp)
                .iter()
                .map(|c| format!("{}/{}", role(c), js_string(c.get("attribution"))))
                .collect::<Vec<_>>()
        };
        for (custom_type, extra, expected) in [
            ("advisor", json!({"details": {"messageRole": "user"}}), "user/agent"),
            ("advisor", json!({"details": {"messageRole": "developer"}}), "developer/agent"),
            ("skill-prompt", json!({"attribution": "user"}), "user/user"),
            ("skill-prompt", json!({"attribution": "agent"}), "developer/agent"),
            ("collab-prompt", json!({"attribution": "user"}), "user/user"),
            ("ext", json!({"attribution": "user"}), "developer/user"),
        ] {
            assert_eq!(roles(custom(custom_type, extra)), [expected], "{custom_type}");
        }
        // Content that is neither a string nor an array sends nothing.
        assert!(convert_one(custom("ext", json!({"content": {"x": 1}})), Dialect::Omp).is_empty());
    }

    #[test]
    fn custom_images_split_into_developer_text_and_user_images() {
        let image = json!({"type": "image", "data": "AAAA", "mimeType": "image/png"});
        let m = json!({"role": "custom", "customType": "shot", "display": true, "timestamp": 7,
            "content": [{"type": "text", "text": "see"}, image]});
        assert_eq!(
            convert_one(m, Dialect::Omp),
            [
                json!({"role": "developer", "content": [{"type": "text", "text": "see"}], "timestamp": 7}),
                json!({"role": "user", "content": [{"type": "text", "text": "Images attached to shot."}, image],
                    "timestamp": 7}),
            ]
        );
    }

    #[test]
    fn bash_template_is_byte_exact() {
        let bash = json!({"role": "bashExecution", "command": "ls missing", "output": "ls: missing: No such file",
            "exitCode": 2, "cancelled": false, "timestamp": 9});
        let expected =
            "Ran `ls missing`\n```\nls: missing: No such file\n```\n\nCommand exited with code 2";
        for flavor in [Dialect::Omp, Dialect::Pi] {
            let out = convert_one(bash.clone(), flavor);
            assert_eq!(only_text(&out[0]), expected);
            assert_eq!(role(&out[0]), "user");
        }
        assert_eq!(convert_one(bash.clone(), Dialect::Omp)[0]["attribution"], "user");
        assert!(convert_one(bash, Dialect::Pi)[0].get("attribution").is_none());

        let quiet = json!({"role": "bashExecution", "command": "true", "output": "", "exitCode": 0,
            "cancelled": false, "timestamp": 9});
        assert_eq!(only_text(&convert_one(quiet, Dialect::Omp)[0]), "Ran `true`\n(no output)");
        let cancelled = json!({"role": "bashExecution", "command": "sleep 9", "output": "", "exitCode": null,
            "cancelled": true, "timestamp": 9});
        assert_eq!(
            only_text(&convert_one(cancelled, Dialect::Omp)[0]),
            "Ran `sleep 9`\n(no output)\n\n(command cancelled)"
        );
        let excluded = json!({"role": "bashExecution", "command": "x", "output": "y", "exitCode": 0,
            "cancelled": false, "excludeFromContext": true, "timestamp": 9});
        assert!(convert_one(excluded.clone(), Dialect::Omp).is_empty());
        assert!(convert_one(excluded, Dialect::Pi).is_empty());
    }

    #[test]
    fn bash_output_notices() {
        let mut bash = json!({"role": "bashExecution", "command": "cat big", "output": "tail", "exitCode": 0,
            "cancelled": false, "truncated": true, "fullOutputPath": "/tmp/out.txt", "timestamp": 9});
        assert_eq!(
            only_text(&convert_one(bash.clone(), Dialect::Pi)[0]),
            "Ran `cat big`\n```\ntail\n```\n\n[Output truncated. Full output: /tmp/out.txt]"
        );
        // omp derives its notice from `meta` only.
        assert_eq!(
            only_text(&convert_one(bash.clone(), Dialect::Omp)[0]),
            "Ran `cat big`\n```\ntail\n```"
        );
        bash["meta"] = json!({"truncation": {"totalLines": 500, "outputLines": 100,
            "shownRange": {"start": 401, "end": 500}, "truncatedBy": "lines", "artifactId": "7"}});
        assert_eq!(
            only_text(&convert_one(bash, Dialect::Omp)[0]),
            "Ran `cat big`\n```\ntail\n```\n\n[Showing lines 401-500 of 500. Read artifact://7 for full output]"
        );
    }

    #[test]
    fn python_template_is_byte_exact() {
        let py = json!({"role": "pythonExecution", "code": "print(1/0)", "output": "ZeroDivisionError",
            "exitCode": 1, "cancelled": false, "timestamp": 9});
        assert_eq!(
            only_text(&convert_one(py, Dialect::Omp)[0]),
            "Ran Python:\n```python\nprint(1/0)\n```\nOutput:\n```\nZeroDivisionError\n```\n\nExecution failed with code 1"
        );
        let py = json!({"role": "pythonExecution", "code": "x = 1", "output": "", "exitCode": 0,
            "cancelled": true, "timestamp": 9});
        assert_eq!(
            only_text(&convert_one(py, Dialect::Omp)[0]),
            "Ran Python:\n```python\nx = 1\n```\n(no output)\n\n(execution cancelled)"
        );
    }

    #[test]
    fn file_mentions() {
        let image = json!({"type": "image", "data": "AAAA", "mimeType": "image/png"});
        let m = json!({"role": "fileMention", "timestamp": 9, "files": [
            {"path": "a.md", "content": "# A", "lineCount": 1},
            {"path": "empty.txt", "content": ""},
            {"path": "shot.png", "content": "", "image": image},
        ]});
        assert_eq!(
            convert_one(m, Dialect::Omp),
            [
                json!({"role": "developer", "attribution": "user", "timestamp": 9, "content": [{"type": "text",
                    "text": "<file path=\"a.md\">\n# A\n</file>\n<file path=\"empty.txt\">\n</file>"}]}),
                json!({"role": "user", "attribution": "user", "timestamp": 9, "content": [
                    {"type": "text", "text": "<file path=\"shot.png\">\n</file>"}, image]}),
            ]
        );
    }

    #[test]
    fn pruned_tool_results() {
        let image = json!({"type": "image", "data": "AAAA", "mimeType": "image/png"});
        let tr = |content: Value, pruned: bool| {
            let mut m = json!({"role": "toolResult", "toolCallId": "c", "toolName": "read", "content": content,
                "isError": false, "timestamp": 9});
            if pruned {
                m["prunedAt"] = json!(123);
            }
            convert_one(m, Dialect::Omp).remove(0)
        };
        let kept =
            tr(json!([{"type": "text", "text": "a"}, image, {"type": "text", "text": "b"}]), false);
        assert_eq!(kept["content"].as_array().map(Vec::len), Some(3));
        assert_eq!(kept["attribution"], "agent");
        assert_eq!(
            tr(json!([{"type": "text", "text": "a"}, image, {"type": "text", "text": "b"}]), true)
                ["content"],
            json!([{"type": "text", "text": "ab"}, image])
        );
        assert_eq!(
            tr(json!([image]), true)["content"],
            json!([{"type": "text", "text": "[Output truncated]"}, image])
        );
        assert_eq!(
            tr(json!([]), true)["content"],
            json!([{"type": "text", "text": "[Output truncated]"}])
        );
    }

    #[test]
    fn user_developer_and_assistant_pass_through() {
        let out = llm_messages(
            vec![
                json!({"role": "user", "content": "hi", "timestamp": 1}),
                json!({"role": "user", "content": "hi", "attribution": "agent", "timestamp": 1}),
                json!({"role": "developer", "content": "rules", "timestamp": 1}),
                json!({"role": "assistant", "content": [], "stopReason": "stop", "timestamp": 1}),
                json!({"role": "somethingNew", "timestamp": 1}),
            ],
            Dialect::Omp,
        );
        assert_eq!(
            out,
            [
                json!({"role": "user", "content": "hi", "attribution": "user", "timestamp": 1}),
                json!({"role": "user", "content": "hi", "attribution": "agent", "timestamp": 1}),
                json!({"role": "developer", "content": "rules", "attribution": "agent", "timestamp": 1}),
                json!({"role": "assistant", "content": [], "stopReason": "stop", "timestamp": 1}),
            ]
        );
        // pi passes user/assistant/toolResult through untouched and drops roles it lacks.
        let out = llm_messages(
            vec![
                json!({"role": "user", "content": "hi", "timestamp": 1}),
                json!({"role": "developer", "content": "rules", "timestamp": 1}),
                json!({"role": "fileMention", "files": [], "timestamp": 1}),
            ],
            Dialect::Pi,
        );
        assert_eq!(out, [json!({"role": "user", "content": "hi", "timestamp": 1})]);
    }

    #[test]
    fn interrupted_thinking_tail_is_stripped() {
        let turn = json!({"role": "assistant", "stopReason": "aborted", "errorMessage": "Interrupted by user",
        "timestamp": 1, "content": [
            {"type": "thinking", "thinking": "signed", "thinkingSignature": "s"},
            {"type": "text", "text": "partial"},
            {"type": "thinking", "thinking": "cut off"},
            {"type": "text", "text": " "},
        ]});
        let out = convert_one(turn.clone(), Dialect::Omp);
        assert_eq!(
            out[0]["content"],
            json!([{"type": "thinking", "thinking": "signed", "thinkingSignature": "s"},
                {"type": "text", "text": "partial"}])
        );
        // A user-interrupted turn left with nothing sends nothing...
        let bare = json!({"role": "assistant", "stopReason": "aborted", "errorMessage": "Interrupted by user",
            "timestamp": 1, "content": [{"type": "thinking", "thinking": "cut off"}]});
        assert!(convert_one(bare.clone(), Dialect::Omp).is_empty());
        // ... unless the continuity note follows it.
        let note = json!({"role": "custom", "customType": "interrupted-thinking", "content": "n",
            "display": false, "timestamp": 2});
        let out = llm_messages(vec![bare, note], Dialect::Omp);
        assert_eq!(out[0]["content"], json!([]));
        assert_eq!(role(&out[1]), "developer");
        // Other turns are sent unchanged.
        let mut other = turn;
        other["errorMessage"] = json!("network");
        assert_eq!(convert_one(other.clone(), Dialect::Omp), [other]);
    }

    // --- templates ---

    fn summary_message(role_name: &str, summary: &str, method: Option<&str>) -> Value {
        let mut m = json!({"role": role_name, "summary": summary, "fromId": "root", "tokensBefore": 1,
            "timestamp": TS_MS});
        if let Some(method) = method {
            m["method"] = json!(method);
        }
        m
    }

    #[test]
    fn omp_branch_summary_template() {
        let out = convert_one(summary_message("branchSummary", "Tried X.", None), Dialect::Omp);
        assert_eq!(
            out,
            [json!({"role": "user", "content": [{"type": "text",
                "text": "Branch-return summary:\n\n<summary>\nTried X.\n</summary>"}],
                "attribution": "agent", "historyRewriteAt": TS_MS, "timestamp": TS_MS})]
        );
    }

    #[test]
    fn omp_compaction_and_handoff_templates() {
        let out = convert_one(summary_message("compactionSummary", "Did Y.", None), Dialect::Omp);
        assert_eq!(
            only_text(&out[0]),
            "Prior model work/tool state available.\nMUST build on prior work; NEVER duplicate prior work.\n\n\
             <summary>\nDid Y.\n</summary>"
        );
        assert_eq!(out[0]["attribution"], "agent");
        assert_eq!(out[0]["historyRewriteAt"], TS_MS);
        let out = convert_one(
            summary_message("compactionSummary", "Plan.", Some("handoff")),
            Dialect::Omp,
        );
        assert_eq!(
            only_text(&out[0]),
            "Context replaced. The <handoff> below is a handoff document a prior instance of you wrote \
             from the full conversation. It is your own working memory, not user input.\n\
             - First person inside it refers to you (the prior instance).\n\
             - \"Next Steps\" is your own resumed plan; re-check it against the latest user message \
             before acting.\n\
             - The handoff already exists and is complete: NEVER write another handoff document unless \
             the user explicitly asks.\n\
             MUST build on prior work; NEVER duplicate prior work.\n\n<handoff>\nPlan.\n</handoff>"
        );
    }

    #[test]
    fn omp_template_trimming_rule() {
        // Trailing whitespace goes outside fences and stays inside; trailing blank lines go.
        let summary = "Line one.   \n\t\n```\ncode   \n  \n```   \nLast\t\n\n\n";
        let out = convert_one(summary_message("branchSummary", summary, None), Dialect::Omp);
        assert_eq!(
            only_text(&out[0]),
            "Branch-return summary:\n\n<summary>\nLine one.\n\n```\ncode   \n  \n```\nLast\n\n\n\n</summary>"
        );
        // A summary that ends the text (nothing after it) loses its trailing blank lines.
        assert_eq!(render_omp_template("{{summary}}\n", "x  \n\n \n"), "x");
        // An unclosed fence protects the rest.
        assert_eq!(render_omp_template("{{summary}}\nend  ", "```\na  "), "```\na  \nend  ");
    }

    #[test]
    fn pi_wrappers_are_byte_exact() {
        let out = convert_one(summary_message("branchSummary", "Tried X.", None), Dialect::Pi);
        assert_eq!(
            out,
            [json!({"role": "user", "timestamp": TS_MS, "content": [{"type": "text", "text":
                "The following is a summary of a branch that this conversation came back from:\n\n<summary>\nTried X.</summary>"}]})]
        );
        let out =
            convert_one(summary_message("branchSummary", "Ends with newline\n", None), Dialect::Pi);
        assert!(only_text(&out[0]).ends_with("Ends with newline\n</summary>"));
        let out = convert_one(summary_message("compactionSummary", "Did Y.  ", None), Dialect::Pi);
        assert_eq!(
            only_text(&out[0]),
            "The conversation history before this point was compacted into the following summary:\n\n\
             <summary>\nDid Y.  \n</summary>"
        );
    }

    #[test]
    fn end_to_end_omp_conversion() {
        let path = chain(vec![
            id(user("u1"), "k"),
            compaction("k", "Earlier work."),
            json!({"type": "custom_message", "customType": "ext", "content": "ctx", "display": false}),
            user("u2"),
        ]);
        let llm = to_llm_messages(&omp(&path));
        let roles: Vec<&str> = llm.iter().map(role).collect();
        assert_eq!(roles, ["user", "user", "developer", "user"]);
        assert!(only_text(&llm[0]).ends_with("<summary>\nEarlier work.\n</summary>"));
        let out = into_json(omp(&path), true);
        assert_eq!(out["messages"][0]["role"], "compactionSummary");
        assert_eq!(out["flavor"], "omp");
    }

    // --- timestamps ---

    #[test]
    fn iso_timestamps() {
        // Parsing is clock::parse_timestamp's (tested there); these are the context's uses.
        assert_eq!(entry_ms(&json!({"timestamp": TS})), json!(TS_MS));
        assert_eq!(entry_ms(&json!({"timestamp": "nope"})), Value::Null);
        assert_eq!(entry_ms(&json!({})), Value::Null);
        assert_eq!(format_ms(TS_MS as f64), TS);
        assert_eq!(format_ms(-1.0), "1969-12-31T23:59:59.999Z");
    }

    #[test]
    fn javascript_value_helpers() {
        assert_eq!(group_thousands(1_234_567.0), "1,234,567");
        assert_eq!(format_bytes(512.0), "512B");
        assert_eq!(format_bytes(51_200.0), "50.0KB");
    }

    // --- human output ---

    #[test]
    fn text_rendering() {
        let path = chain(vec![
            json!({"type": "thinking_level_change", "thinkingLevel": "high", "configured": "auto"}),
            user("fix \u{1b}[31mred\u{7}"),
            assistant(
                json!([{"type": "thinking", "thinking": "look"}, {"type": "text", "text": "ok"}, call("c1")]),
                "toolUse",
            ),
            result("c1"),
        ]);
        let text = render(omp(&path), false, None, false);
        assert!(text.contains("thinking level: high (configured: auto)\n"), "{text}");
        assert!(
            text.contains("=== 1. user (1970-01-01T00:00:00.001Z) ===\nfix \\x1b[31mred\\x07\n"),
            "{text}"
        );
        assert!(
            text.contains(
                "<thinking>\nlook\n</thinking>\nok\n[tool call read c1] {\"path\":\"a\"}\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("=== 3. toolResult (read, c1, 1970-01-01T00:00:00.003Z) ===\nout\n"),
            "{text}"
        );
        assert!(!text.contains('\u{1b}'));
        // The agent view shows the summary roles.
        let path = chain(vec![
            id(user("u"), "k"),
            compaction("k", "S"),
            json!({"type": "custom_message", "customType": "ext", "content": "c", "display": false}),
        ]);
        let text = render(omp(&path), true, None, false);
        assert!(text.contains("=== 1. compactionSummary (42000 tokens before, "), "{text}");
        assert!(text.contains("=== 3. custom (ext, hidden, "), "{text}");
    }

    #[test]
    fn markdown_rendering() {
        let path = chain(vec![
            user("Add a flag"),
            assistant(json!([{"type": "text", "text": "Reading"}, call("c1")]), "toolUse"),
            msg(
                json!({"role": "toolResult", "toolCallId": "c1", "toolName": "read", "isError": false,
                "timestamp": 3, "content": [{"type": "text", "text": "```rust\nfn main() {}\n```"}]}),
            ),
        ]);
        let md = render(omp(&path), false, None, true);
        assert!(md.starts_with("# Session context\n\n- **leaf:** `e2`\n"), "{md}");
        assert!(md.contains("\n## 1. user\n"), "{md}");
        assert!(md.contains("\nAdd a flag\n"), "{md}");
        assert!(
            md.contains("**Tool call** `read` (`c1`)\n\n```json\n{\n  \"path\": \"a\"\n}\n```"),
            "{md}"
        );
        // Output that holds a fence gets a longer one.
        assert!(md.contains("\n````\n```rust\nfn main() {}\n```\n````\n"), "{md}");
        assert_eq!(inline_code("a`b"), "``a`b``");
    }
}
