//! The context a model gets from a point in a session (FORMAT §8): the state tracked along the
//! root→leaf path, the agent messages `buildSessionContext` emits, and their conversion to LLM
//! messages, for both flavours (oh-my-pi and pi-mono, FORMAT §13).
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
//! let _out = context::to_json(&ctx, false);
//! ```
//!
//! Shapes follow the reference code rather than its docs where they disagree (FORMAT §0). JSON
//! objects are built without the fields the reference leaves `undefined`, so they serialize the
//! way the agents' `JSON.stringify` would (up to key order).

use std::collections::{HashMap, HashSet};

use serde_json::{Map, Value, json};

use crate::format::{Dialect, Kind};
use crate::js::{number as js_number, string as js_string, truthy};
use crate::markdown::safe_markdown;

mod path;

pub use path::path_values;

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
    /// The messages before conversion, after the oh-my-pi post-passes: roles `user`,
    /// `assistant`, `toolResult`, `bashExecution`, `custom`, `branchSummary`,
    /// `compactionSummary`, … exactly as `buildSessionContext` returns them.
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

// --- Building -------------------------------------------------------------------------------

/// Builds the context from the root→leaf `path` (root first, every entry fully parsed). The
/// messages are moved out of the path's entries, not copied: a tool result's output can be
/// megabytes.
///
/// `leaf_id` is only reported back; `None` with a non-empty path reports the last entry's id.
/// An empty path gives the empty context. State is tracked over the whole path; which entries
/// become messages follows FORMAT §8.3 for the flavour, including (oh-my-pi) the reset boundary,
/// the remote-compaction exceptions and the dangling-tool-call and failed-turn post-passes,
/// which the reference applies inside `buildSessionContext` itself.
pub fn build(mut path: Vec<Value>, leaf_id: Option<&Value>, flavor: Dialect) -> SessionContext {
    let mut ctx = SessionContext::empty(flavor);
    ctx.leaf_id = leaf_id.cloned().or_else(|| path.last().and_then(|e| e.get("id")).cloned());
    if path.is_empty() {
        return ctx;
    }
    match flavor {
        Dialect::Omp => build_omp(&mut path, &mut ctx),
        Dialect::Pi => build_pi(&mut path, &mut ctx),
    }
    ctx
}

fn build_omp(path: &mut [Value], ctx: &mut SessionContext) {
    let mut has_explicit_default = false;
    let mut compaction_idx: Option<usize> = None;
    let mut reset_idx: Option<usize> = None;
    let mut seen_rules: HashSet<&str> = HashSet::new();

    for (i, entry) in path.iter().enumerate() {
        match kind_of(entry) {
            Kind::ThinkingLevelChange => {
                let level = str_field(entry, "thinkingLevel");
                ctx.thinking_level = level.unwrap_or("off").to_owned();
                ctx.configured_thinking_level =
                    str_field(entry, "configured").or(level).map(str::to_owned);
            }
            Kind::ModelChange => {
                // The reference skips a change without a (truthy) `model`, so pi-style
                // `{provider, modelId}` records leave the models alone.
                if let Some(model) = entry.get("model").filter(|m| truthy(Some(m))) {
                    let role = match entry.get("role") {
                        None | Some(Value::Null) => "default".to_owned(),
                        Some(role) => js_string(Some(role)),
                    };
                    if role == "default" {
                        has_explicit_default = true;
                    }
                    ctx.models.insert(role, model.clone());
                }
            }
            Kind::ServiceTierChange => {
                ctx.service_tier = coerce_service_tier(entry.get("serviceTier"));
            }
            Kind::Message => {
                // Legacy inference for files without an explicit default: a fallback or
                // downgraded assistant turn must not clobber a default the user picked.
                if let Some(msg) = entry.get("message").filter(|m| role(m) == "assistant")
                    && !has_explicit_default
                {
                    let model = format!(
                        "{}/{}",
                        js_string(msg.get("provider")),
                        js_string(msg.get("model"))
                    );
                    ctx.models.insert("default".to_owned(), Value::String(model));
                }
            }
            Kind::Compaction => compaction_idx = Some(i),
            Kind::ResetBoundary => reset_idx = Some(i),
            Kind::TtsrInjection => {
                for rule in array_field(entry, "injectedRules").iter().filter_map(Value::as_str) {
                    if seen_rules.insert(rule) {
                        ctx.injected_ttsr_rules.push(rule.to_owned());
                    }
                }
            }
            Kind::McpToolSelection => {
                ctx.mcp_tool_selection = McpToolSelection {
                    selected_tool_names: array_field(entry, "selectedToolNames")
                        .iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect(),
                    has_persisted: true,
                };
            }
            Kind::ModeChange => {
                ctx.mode = str_field(entry, "mode").unwrap_or("none").to_owned();
                ctx.mode_data = entry.get("data").cloned();
            }
            Kind::ModelUsage
            | Kind::BranchSummary
            | Kind::Custom
            | Kind::CustomMessage
            | Kind::Label
            | Kind::Archive
            | Kind::TitleChange
            | Kind::SessionInit
            | Kind::CredentialPin
            | Kind::SessionInfo
            | Kind::Session
            | Kind::Other(_)
            | Kind::Usage
            | Kind::ContextEdit
            | Kind::Missing => {}
        }
    }

    let mut out = Vec::new();
    // The later of the last reset boundary and the last compaction decides.
    let reset_start = match (reset_idx, compaction_idx) {
        (Some(r), Some(c)) if r > c => Some(r),
        (Some(r), None) => Some(r),
        _ => None,
    };
    if let Some(r) = reset_start {
        // `/clear` starts the context afresh; a compaction before it is elided too.
        for entry in &mut path[r + 1..] {
            append_omp(entry, &mut out);
        }
    } else if let Some(c) = compaction_idx {
        let compaction = &path[c];
        let remote = openai_remote_payload(compaction);
        out.push(omp_compaction_message(compaction, remote.clone()));
        let before = if remote.is_none() {
            kept_range_start(path, c)
        } else {
            // The provider replays everything up to `through` natively; only what came after
            // it (and before the compaction) is sent as messages.
            compaction
                .get("providerReplayThroughEntryId")
                .filter(|v| truthy(Some(v)))
                .and_then(|through| path.iter().position(|e| e.get("id") == Some(through)))
                .filter(|&t| t < c)
                .map(|t| t + 1)
        };
        for entry in before.map_or(&mut [][..], |start| &mut path[start..c]) {
            append_omp(entry, &mut out);
        }
        for entry in &mut path[c + 1..] {
            append_omp(entry, &mut out);
        }
    } else {
        for entry in path {
            append_omp(entry, &mut out);
        }
    }

    strip_dangling_tool_calls(&mut out);
    drop_failed_turns(&mut out);
    ctx.agent_messages = out;
}

fn build_pi(path: &mut [Value], ctx: &mut SessionContext) {
    let mut compaction_idx: Option<usize> = None;
    for (i, entry) in path.iter().enumerate() {
        match kind_of(entry) {
            Kind::ThinkingLevelChange => {
                ctx.thinking_level = str_field(entry, "thinkingLevel").unwrap_or("off").to_owned();
            }
            Kind::ModelChange => ctx.model = Some(pi_model_change(entry)),
            Kind::Message => {
                if let Some(msg) = entry.get("message").filter(|m| role(m) == "assistant") {
                    ctx.model = Some(PiModel {
                        provider: str_field(msg, "provider").map(str::to_owned),
                        model_id: str_field(msg, "model").map(str::to_owned),
                    });
                }
            }
            Kind::Compaction => compaction_idx = Some(i),
            Kind::ModelUsage
            | Kind::ServiceTierChange
            | Kind::BranchSummary
            | Kind::Custom
            | Kind::CustomMessage
            | Kind::Label
            | Kind::Archive
            | Kind::TitleChange
            | Kind::TtsrInjection
            | Kind::SessionInit
            | Kind::ModeChange
            | Kind::CredentialPin
            | Kind::ResetBoundary
            | Kind::SessionInfo
            | Kind::McpToolSelection
            | Kind::Session
            | Kind::Other(_)
            | Kind::Usage
            | Kind::ContextEdit
            | Kind::Missing => {}
        }
    }

    let mut out = Vec::new();
    let edits = context_edits(path);
    let append = |path: &mut [Value], i: usize, out: &mut Vec<Value>| {
        let entry = &mut path[i];
        match edits.get(&i) {
            Some(None) => return,
            Some(Some(content)) => {
                let holder = match kind_of(entry) {
                    Kind::Message => entry.get_mut("message"),
                    _ => Some(entry),
                };
                if let Some(Value::Object(holder)) = holder {
                    holder.insert("content".into(), content.clone());
                }
            }
            None => {}
        }
        append_pi(&mut path[i], out);
    };
    if let Some(c) = compaction_idx {
        let compaction = &path[c];
        out.push(obj([
            ("role", Some(json!("compactionSummary"))),
            ("summary", compaction.get("summary").cloned()),
            ("tokensBefore", compaction.get("tokensBefore").cloned()),
            ("timestamp", Some(entry_ms(compaction))),
        ]));
        for i in kept_range_start(path, c).map_or(0..0, |start| start..c) {
            append(path, i, &mut out);
        }
        for i in c + 1..path.len() {
            append(path, i, &mut out);
        }
    } else {
        for i in 0..path.len() {
            append(path, i, &mut out);
        }
    }
    ctx.agent_messages = out;
}

/// pi's context edits on the path (CHANGES P3), by the path position of the entry each
/// edits: the content that replaces the entry's own, or `None` where `replacement` is `null`
/// and the entry leaves the context. An edit acts only on an editable entry (a user,
/// assistant or tool-result message, or a custom message) earlier on the same path; of two
/// edits of one entry, the later wins. Role, tool ids and the rest of the entry stay.
fn context_edits(path: &[Value]) -> HashMap<usize, Option<Value>> {
    let mut at: HashMap<String, usize> = HashMap::new();
    let mut edits = HashMap::new();
    for (i, entry) in path.iter().enumerate() {
        if kind_of(entry) == Kind::ContextEdit
            && let Some(&target) = entry.get("targetId").and_then(|id| at.get(&id.to_string()))
        {
            let editable = match kind_of(&path[target]) {
                Kind::Message => {
                    let message = path[target].get("message").unwrap_or(&Value::Null);
                    matches!(role(message), "user" | "assistant" | "toolResult")
                }
                kind => kind == Kind::CustomMessage,
            };
            if editable {
                let replacement = entry.get("replacement").filter(|r| !r.is_null());
                let content = replacement.map(|r| r.get("content").cloned().unwrap_or_default());
                edits.insert(target, content);
            }
        }
        if let Some(id) = entry.get("id") {
            at.insert(id.to_string(), i);
        }
    }
    edits
}

/// pi's `model_change {provider, modelId}`. An oh-my-pi style `model: "provider/id"` is read
/// too, split at the first `/`, so `--flavor pi` on an omp file still names the model.
fn pi_model_change(entry: &Value) -> PiModel {
    let mut model = PiModel {
        provider: str_field(entry, "provider").map(str::to_owned),
        model_id: str_field(entry, "modelId").map(str::to_owned),
    };
    if model.provider.is_none()
        && model.model_id.is_none()
        && let Some((provider, id)) = str_field(entry, "model").and_then(|m| m.split_once('/'))
    {
        model = PiModel { provider: Some(provider.to_owned()), model_id: Some(id.to_owned()) };
    }
    model
}

/// Where the kept range before compaction `c` starts: at the first entry before it whose id is
/// `firstKeptEntryId` (it runs up to the compaction; without a `firstKeptEntryId`, the first
/// entry without an id, as the reference's `===` of two `undefined`s finds). `None` when no
/// entry before it matches: nothing is kept.
fn kept_range_start(path: &[Value], c: usize) -> Option<usize> {
    let first_kept = path[c].get("firstKeptEntryId");
    path[..c].iter().position(|e| e.get("id") == first_kept)
}

/// oh-my-pi `appendMessage` in LLM mode. What becomes a message is moved out of `entry`, which
/// is appended only once.
fn append_omp(entry: &mut Value, out: &mut Vec<Value>) {
    match kind_of(entry) {
        Kind::Message => {
            let Some(msg) = entry.get_mut("message").filter(|m| m.is_object()) else { return };
            if role(msg) == "assistant"
                && (truthy(msg.get("retryRecovery")) || is_empty_error_turn(msg))
            {
                return;
            }
            out.push(normalize_message(msg.take()));
        }
        Kind::CustomMessage => {
            if str_field(entry, "customType") == Some(PREWALK_PLAN)
                || !entry.get("content").is_some_and(is_custom_content)
            {
                return;
            }
            let custom_type = str_field(entry, "customType")
                .filter(|t| !t.is_empty())
                .unwrap_or(DEFAULT_CUSTOM_TYPE);
            let custom_type = json!(custom_type);
            // `attribution` is kept only when the entry had one, normalised to user/agent.
            let attribution = entry
                .get("attribution")
                .map(|a| json!(if a.as_str() == Some("user") { "user" } else { "agent" }));
            let display = json!(entry.get("display").and_then(Value::as_bool).unwrap_or(false));
            let timestamp = entry_ms(entry);
            out.push(obj([
                ("role", Some(json!("custom"))),
                ("customType", Some(custom_type)),
                ("content", take(entry, "content")),
                ("display", Some(display)),
                ("details", take(entry, "details")),
                ("attribution", attribution),
                ("timestamp", Some(timestamp)),
            ]));
        }
        Kind::BranchSummary => {
            if let Some(msg) = branch_summary_message(entry) {
                out.push(msg);
            }
        }
        Kind::ModelUsage
        | Kind::ThinkingLevelChange
        | Kind::ModelChange
        | Kind::ServiceTierChange
        | Kind::Compaction
        | Kind::Custom
        | Kind::Label
        | Kind::Archive
        | Kind::TitleChange
        | Kind::TtsrInjection
        | Kind::SessionInit
        | Kind::ModeChange
        | Kind::CredentialPin
        | Kind::ResetBoundary
        | Kind::SessionInfo
        | Kind::McpToolSelection
        | Kind::Session
        | Kind::Other(_)
        | Kind::Usage
        | Kind::ContextEdit
        | Kind::Missing => {}
    }
}

/// pi-mono `appendMessage`: no filtering of messages, custom messages kept as they are. What
/// becomes a message is moved out of `entry`, as in [`append_omp`].
fn append_pi(entry: &mut Value, out: &mut Vec<Value>) {
    match kind_of(entry) {
        Kind::Message => {
            if let Some(msg) = entry.get_mut("message").filter(|m| m.is_object()) {
                out.push(normalize_message(msg.take()));
            }
        }
        Kind::CustomMessage => {
            let timestamp = entry_ms(entry);
            out.push(obj([
                ("role", Some(json!("custom"))),
                ("customType", take(entry, "customType")),
                ("content", take(entry, "content")),
                ("display", take(entry, "display")),
                ("details", take(entry, "details")),
                ("timestamp", Some(timestamp)),
            ]));
        }
        Kind::BranchSummary => {
            if let Some(msg) = branch_summary_message(entry) {
                out.push(msg);
            }
        }
        Kind::ModelUsage
        | Kind::ThinkingLevelChange
        | Kind::ModelChange
        | Kind::ServiceTierChange
        | Kind::Compaction
        | Kind::Custom
        | Kind::Label
        | Kind::Archive
        | Kind::TitleChange
        | Kind::TtsrInjection
        | Kind::SessionInit
        | Kind::ModeChange
        | Kind::CredentialPin
        | Kind::ResetBoundary
        | Kind::SessionInfo
        | Kind::McpToolSelection
        | Kind::Session
        | Kind::Other(_)
        | Kind::Usage
        | Kind::ContextEdit
        | Kind::Missing => {}
    }
}

fn branch_summary_message(entry: &Value) -> Option<Value> {
    // An empty summary is the agents' marker for a bare leaf move; it adds nothing.
    let summary = entry.get("summary").filter(|s| truthy(Some(s)))?;
    Some(obj([
        ("role", Some(json!("branchSummary"))),
        ("summary", Some(summary.clone())),
        ("fromId", entry.get("fromId").cloned()),
        ("timestamp", Some(entry_ms(entry))),
    ]))
}

fn omp_compaction_message(compaction: &Value, provider_payload: Option<Value>) -> Value {
    obj([
        ("role", Some(json!("compactionSummary"))),
        ("summary", compaction.get("summary").cloned()),
        ("shortSummary", compaction.get("shortSummary").cloned()),
        ("tokensBefore", compaction.get("tokensBefore").cloned()),
        ("tokensAfter", compaction.get("tokensAfter").cloned()),
        ("method", compaction.get("method").cloned()),
        ("providerPayload", provider_payload),
        ("warning", compaction.get("warning").cloned()),
        ("timestamp", Some(entry_ms(compaction))),
    ])
}

/// `preserveData.openaiRemoteCompaction` as a provider replay payload, when it holds a
/// non-empty provider string and a `replacementHistory` array.
fn openai_remote_payload(compaction: &Value) -> Option<Value> {
    let remote = compaction.get("preserveData")?.get("openaiRemoteCompaction")?;
    let provider = remote.get("provider")?.as_str().filter(|p| !p.is_empty())?;
    let items = remote.get("replacementHistory").filter(|h| h.is_array())?;
    Some(json!({"type": "openaiResponsesHistory", "provider": provider, "items": items}))
}

/// A member of an object moved out of it (`null` left in its place), or `None` when it has none.
fn take(value: &mut Value, key: &str) -> Option<Value> {
    value.get_mut(key).map(Value::take)
}

/// The v2→v3 migration renames `hookMessage` to `custom`; both agents migrate on load, so a v2
/// message is seen as `custom` everywhere.
fn normalize_message(mut msg: Value) -> Value {
    if role(&msg) == "hookMessage"
        && let Some(map) = msg.as_object_mut()
    {
        map.insert("role".to_owned(), json!("custom"));
    }
    msg
}

/// A provider-rejection turn with nothing in it: `stopReason: "error"` and no block that
/// carries content. Unknown block kinds count as content.
fn is_empty_error_turn(msg: &Value) -> bool {
    if str_field(msg, "stopReason") != Some("error") {
        return false;
    }
    let has_content = |block: &Value| match str_field(block, "type") {
        Some("text") => !blank(block.get("text")),
        Some("thinking") => !blank(block.get("thinking")) || !blank(block.get("thinkingSignature")),
        Some("redactedThinking") => !blank(block.get("data")),
        Some("toolCall") => true,
        Some("fallback") => false,
        _ => true,
    };
    match msg.get("content") {
        Some(Value::Array(blocks)) => !blocks.iter().any(has_content),
        Some(Value::String(s)) => s.trim().is_empty(),
        _ => true,
    }
}

/// Post-pass 1: drop `toolCall` blocks whose result is not among the emitted messages, from
/// every assistant message. A rewritten turn also loses `redactedThinking` and its thinking
/// signatures (providers reject a modified signed turn); a turn left empty is dropped.
fn strip_dangling_tool_calls(messages: &mut Vec<Value>) {
    let paired: HashSet<String> = messages
        .iter()
        .filter(|m| role(m) == "toolResult")
        .map(|m| id_key(m.get("toolCallId")))
        .collect();
    let dangling = |b: &Value| {
        str_field(b, "type") == Some("toolCall") && !paired.contains(&id_key(b.get("id")))
    };
    messages.retain_mut(|msg| {
        if role(msg) != "assistant" {
            return true;
        }
        let Some(blocks) = msg.get_mut("content").and_then(Value::as_array_mut) else {
            return true;
        };
        if !blocks.iter().any(dangling) {
            return true;
        }
        blocks.retain(|b| !dangling(b) && str_field(b, "type") != Some("redactedThinking"));
        for block in blocks.iter_mut() {
            if str_field(block, "type") == Some("thinking")
                && truthy(block.get("thinkingSignature"))
                && let Some(map) = block.as_object_mut()
            {
                map.remove("thinkingSignature");
            }
        }
        !blocks.is_empty()
    });
}

/// Post-pass 2: drop assistant turns that ended `aborted` or `error`, with the tool results
/// after them that answer their tool calls, unless the next message is the
/// `interrupted-thinking` continuity note.
///
/// Mirrors the reference's backward walk with splices, in which "the next message" is the next
/// one still present, but in linear time: removals are marks, and "next still present" is a
/// union-find over the marks.
fn drop_failed_turns(messages: &mut Vec<Value>) {
    let n = messages.len();
    let mut alive = vec![true; n];
    // next_alive[i] leads to the first live index >= i (n is a live sentinel).
    let mut next_alive: Vec<usize> = (0..=n).collect();
    let mut results: HashMap<String, Vec<usize>> = HashMap::new();
    for (j, m) in messages.iter().enumerate() {
        if role(m) == "toolResult" {
            results.entry(id_key(m.get("toolCallId"))).or_default().push(j);
        }
    }

    fn find(next_alive: &mut [usize], i: usize) -> usize {
        let mut root = i;
        while next_alive[root] != root {
            root = next_alive[root];
        }
        let mut cur = i;
        while next_alive[cur] != root {
            let up = next_alive[cur];
            next_alive[cur] = root;
            cur = up;
        }
        root
    }

    for i in (0..n).rev() {
        let msg = &messages[i];
        if !alive[i]
            || role(msg) != "assistant"
            || !matches!(str_field(msg, "stopReason"), Some("aborted" | "error"))
        {
            continue;
        }
        let next = find(&mut next_alive, i + 1);
        if next < n && is_custom_of_type(&messages[next], INTERRUPTED_THINKING) {
            continue;
        }
        alive[i] = false;
        next_alive[i] = i + 1;
        for block in array_field(msg, "content") {
            if str_field(block, "type") != Some("toolCall") {
                continue;
            }
            if let Some(indices) = results.get_mut(&id_key(block.get("id"))) {
                // Only results after the turn pair with it; earlier ones stay.
                while let Some(&j) = indices.last().filter(|&&j| j > i) {
                    indices.pop();
                    alive[j] = false;
                    next_alive[j] = j + 1;
                }
            }
        }
    }

    let mut keep = alive.into_iter();
    messages.retain(|_| keep.next().unwrap_or(true));
}

// --- Conversion to LLM messages -------------------------------------------------------------

/// Converts the agent messages to what the provider receives (FORMAT §8.4), by the context's
/// flavour. Roles a flavour does not know are dropped, as the reference does.
pub fn to_llm_messages(ctx: &SessionContext) -> Vec<Value> {
    llm_messages(ctx.agent_messages.clone(), ctx.flavor)
}

/// [`to_llm_messages`] of messages it may take apart: a message that passes as it is (with an
/// attribution added, say) is moved, not copied.
fn llm_messages(messages: Vec<Value>, flavor: Dialect) -> Vec<Value> {
    let mut out = Vec::with_capacity(messages.len());
    let mut messages = messages.into_iter().peekable();
    while let Some(msg) = messages.next() {
        match flavor {
            Dialect::Omp => {
                let interrupted_next = role(&msg) == "assistant"
                    && messages.peek().is_some_and(|m| is_custom_of_type(m, INTERRUPTED_THINKING));
                convert_omp(msg, interrupted_next, &mut out);
            }
            Dialect::Pi => convert_pi(msg, &mut out),
        }
    }
    out
}

/// The messages `--agent-messages` selects: the agent messages as built, or their conversion.
pub fn messages(ctx: &SessionContext, agent_messages: bool) -> Vec<Value> {
    if agent_messages { ctx.agent_messages.clone() } else { to_llm_messages(ctx) }
}

/// [`messages`], taken out of the context instead of copied (its `agent_messages` are left
/// empty), for the outputs that consume it.
fn take_messages(ctx: &mut SessionContext, agent_messages: bool) -> Vec<Value> {
    let messages = std::mem::take(&mut ctx.agent_messages);
    if agent_messages { messages } else { llm_messages(messages, ctx.flavor) }
}

fn convert_omp(msg: Value, interrupted_next: bool, out: &mut Vec<Value>) {
    let ts = msg.get("timestamp").cloned();
    match role(&msg) {
        "bashExecution" => {
            if truthy(msg.get("excludeFromContext")) {
                return;
            }
            let mut content = vec![text_block(bash_text(&msg, Dialect::Omp))];
            content.extend(array_field(&msg, "images").iter().cloned());
            out.push(obj([
                ("role", Some(json!("user"))),
                ("content", Some(Value::Array(content))),
                ("attribution", Some(json!("user"))),
                ("timestamp", ts),
            ]));
        }
        "pythonExecution" => {
            if truthy(msg.get("excludeFromContext")) {
                return;
            }
            out.push(obj([
                ("role", Some(json!("user"))),
                ("content", Some(Value::Array(vec![text_block(python_text(&msg))]))),
                ("attribution", Some(json!("user"))),
                ("timestamp", ts),
            ]));
        }
        "fileMention" => convert_file_mention(&msg, out),
        "custom" => convert_custom(msg, out),
        "assistant" => {
            let user_interrupted = str_field(&msg, "stopReason") == Some("aborted")
                && str_field(&msg, "errorMessage") == Some(USER_INTERRUPT_LABEL);
            let mut msg = msg;
            if interrupted_next || user_interrupted {
                strip_interrupted_thinking(&mut msg);
            }
            let empty = msg.get("content").and_then(Value::as_array).is_some_and(Vec::is_empty);
            if user_interrupted && !interrupted_next && empty {
                return;
            }
            out.push(msg);
        }
        "branchSummary" => {
            let text = render_omp_template(OMP_BRANCH_TEMPLATE, &summary_text(&msg));
            out.push(obj([
                ("role", Some(json!("user"))),
                ("content", Some(Value::Array(vec![text_block(text)]))),
                ("attribution", Some(json!("agent"))),
                ("historyRewriteAt", ts.clone()),
                ("timestamp", ts),
            ]));
        }
        "compactionSummary" => {
            let content = match msg.get("blocks") {
                // Snapcompact archives carry their own lead-in: no template.
                Some(blocks) => {
                    let mut c = vec![text_block(summary_text(&msg))];
                    c.extend(blocks.as_array().into_iter().flatten().cloned());
                    c
                }
                None => {
                    let template = if str_field(&msg, "method") == Some("handoff") {
                        OMP_HANDOFF_TEMPLATE
                    } else {
                        OMP_COMPACTION_TEMPLATE
                    };
                    let mut c =
                        vec![text_block(render_omp_template(template, &summary_text(&msg)))];
                    c.extend(array_field(&msg, "images").iter().cloned());
                    c
                }
            };
            out.push(obj([
                ("role", Some(json!("user"))),
                ("content", Some(Value::Array(content))),
                ("attribution", Some(json!("agent"))),
                ("historyRewriteAt", msg.get("historyRewriteAt").cloned().or_else(|| ts.clone())),
                ("providerPayload", msg.get("providerPayload").cloned()),
                ("timestamp", ts),
            ]));
        }
        "user" => out.push(with_default_attribution(msg, "user")),
        "developer" => out.push(with_default_attribution(msg, "agent")),
        "toolResult" => {
            let mut converted = with_default_attribution(msg, "agent");
            if converted.get("prunedAt").is_some()
                && let Some(content) = converted.get("content").and_then(Value::as_array)
            {
                converted["content"] = Value::Array(pruned_tool_content(content));
            }
            out.push(converted);
        }
        _ => {}
    }
}

fn convert_pi(msg: Value, out: &mut Vec<Value>) {
    let ts = msg.get("timestamp").cloned();
    let user = |text: String| {
        obj([
            ("role", Some(json!("user"))),
            ("content", Some(Value::Array(vec![text_block(text)]))),
            ("timestamp", ts.clone()),
        ])
    };
    match role(&msg) {
        // `!!command` runs are kept out of the context.
        "bashExecution" if !truthy(msg.get("excludeFromContext")) => {
            out.push(user(bash_text(&msg, Dialect::Pi)));
        }
        "custom" => {
            let mut msg = msg;
            let content = take(&mut msg, "content").map_or(Value::Null, llm_content);
            out.push(obj([
                ("role", Some(json!("user"))),
                ("content", Some(content)),
                ("timestamp", ts.clone()),
            ]));
        }
        "branchSummary" => {
            out.push(user(format!(
                "{PI_BRANCH_PREFIX}{}{PI_BRANCH_SUFFIX}",
                js_string(msg.get("summary"))
            )));
        }
        "compactionSummary" => out.push(user(format!(
            "{PI_COMPACTION_PREFIX}{}{PI_COMPACTION_SUFFIX}",
            js_string(msg.get("summary"))
        ))),
        "user" | "assistant" | "toolResult" => out.push(msg),
        _ => {}
    }
}

/// `custom` → `developer` with the exceptions of FORMAT §8.4.
fn convert_custom(mut msg: Value, out: &mut Vec<Value>) {
    let Some(content) = take(&mut msg, "content").filter(is_custom_content) else { return };
    let msg = &msg;
    let ts = msg.get("timestamp").cloned();
    let custom_type = str_field(msg, "customType");
    let user_attributed = str_field(msg, "attribution") == Some("user");

    if user_attributed && matches!(custom_type, Some(COLLAB_PROMPT | SKILL_PROMPT)) {
        // A collab guest's prompt or a `/skill:` the user typed is the user speaking. (The
        // agent wraps the collab prompt in a steering envelope whose wording varies between
        // releases and is not part of the reference templates; it is sent unwrapped here.)
        out.push(obj([
            ("role", Some(json!("user"))),
            ("content", Some(llm_content(content))),
            ("attribution", Some(json!("user"))),
            ("timestamp", ts),
        ]));
        return;
    }

    let is = |block: &Value, kind| str_field(block, "type") == Some(kind);
    let content = match content {
        Value::Array(blocks) if blocks.iter().any(|b| is(b, "image")) => blocks,
        content => {
            push_custom(msg, llm_content(content), ts, out);
            return;
        }
    };
    // Only the user slot takes images on every provider: the text goes to the developer slot
    // and the images follow as a user message.
    let (images, texts): (Vec<Value>, Vec<Value>) = content
        .into_iter()
        .filter(|b| is(b, "image") || is(b, "text"))
        .partition(|b| is(b, "image"));
    let attribution = msg.get("attribution").cloned();
    if !texts.is_empty() {
        out.push(obj([
            ("role", Some(json!("developer"))),
            ("content", Some(Value::Array(texts))),
            ("attribution", attribution.clone()),
            ("timestamp", ts.clone()),
        ]));
    }
    let mut user_content =
        vec![text_block(format!("Images attached to {}.", js_string(msg.get("customType"))))];
    user_content.extend(images);
    out.push(obj([
        ("role", Some(json!("user"))),
        ("content", Some(Value::Array(user_content))),
        ("attribution", attribution),
        ("timestamp", ts),
    ]));
}

/// A custom message's content as an LLM message's: a string becomes one text block.
fn llm_content(content: Value) -> Value {
    match content {
        Value::String(s) => Value::Array(vec![text_block(s)]),
        other => other,
    }
}

/// A custom message without images as a developer message (a user one for an advisor note
/// that says so), with `content` already converted.
fn push_custom(msg: &Value, content: Value, ts: Option<Value>, out: &mut Vec<Value>) {
    let custom_type = str_field(msg, "customType");
    let advisor = custom_type == Some(ADVISOR);
    let llm_role = if advisor
        && msg.get("details").and_then(|d| d.get("messageRole")).and_then(Value::as_str)
            == Some("user")
    {
        "user"
    } else {
        "developer"
    };
    let attribution = msg
        .get("attribution")
        .filter(|a| !a.is_null())
        .cloned()
        .or_else(|| advisor.then(|| json!("agent")));
    out.push(obj([
        ("role", Some(json!(llm_role))),
        ("content", Some(content)),
        ("attribution", attribution),
        ("timestamp", ts),
    ]));
}

/// Files without an image become one developer message; image files one user message.
fn convert_file_mention(msg: &Value, out: &mut Vec<Value>) {
    let ts = msg.get("timestamp").cloned();
    let files = array_field(msg, "files");
    let wrap = |file: &Value| {
        let inner = match file.get("content").filter(|c| truthy(Some(c))) {
            Some(content) => format!("\n{}\n", js_string(Some(content))),
            None => "\n".to_owned(),
        };
        format!("<file path=\"{}\">{inner}</file>", js_string(file.get("path")))
    };
    let (image_files, text_files): (Vec<&Value>, Vec<&Value>) =
        files.iter().partition(|f| truthy(f.get("image")));
    if !text_files.is_empty() {
        let text = text_files.iter().map(|f| wrap(f)).collect::<Vec<_>>().join("\n");
        out.push(obj([
            ("role", Some(json!("developer"))),
            ("content", Some(Value::Array(vec![text_block(text)]))),
            ("attribution", Some(json!("user"))),
            ("timestamp", ts.clone()),
        ]));
    }
    if !image_files.is_empty() {
        let text = image_files.iter().map(|f| wrap(f)).collect::<Vec<_>>().join("\n");
        let mut content = vec![text_block(text)];
        content.extend(image_files.iter().filter_map(|f| f.get("image")).cloned());
        out.push(obj([
            ("role", Some(json!("user"))),
            ("content", Some(Value::Array(content))),
            ("attribution", Some(json!("user"))),
            ("timestamp", ts),
        ]));
    }
}

/// Drops the trailing run of unsigned, non-empty thinking blocks (and the empty text
/// placeholders after it) of an interrupted turn: reasoning cut off mid-stream cannot be
/// replayed.
fn strip_interrupted_thinking(msg: &mut Value) {
    let Some(blocks) = msg.get_mut("content").and_then(Value::as_array_mut) else { return };
    let mut scan_end = blocks.len();
    while scan_end > 0 {
        let block = &blocks[scan_end - 1];
        if str_field(block, "type") != Some("text") || !blank(block.get("text")) {
            break;
        }
        scan_end -= 1;
    }
    let mut run_start = scan_end;
    while run_start > 0 {
        let block = &blocks[run_start - 1];
        if str_field(block, "type") != Some("thinking")
            || blank(block.get("thinking"))
            || truthy(block.get("thinkingSignature"))
        {
            break;
        }
        run_start -= 1;
    }
    if run_start < scan_end {
        blocks.truncate(run_start);
    }
}

/// A pruned tool result keeps its text joined into the first text block, or
/// `[Output truncated]` when it had none; other blocks stay.
fn pruned_tool_content(content: &[Value]) -> Vec<Value> {
    let joined: String = content
        .iter()
        .filter(|b| str_field(b, "type") == Some("text"))
        .map(|b| js_string(b.get("text")))
        .collect();
    let text = if joined.is_empty() { "[Output truncated]".to_owned() } else { joined };
    let Some(first_text) = content.iter().position(|b| str_field(b, "type") == Some("text")) else {
        let mut out = vec![text_block(text)];
        out.extend(content.iter().cloned());
        return out;
    };
    let mut out = Vec::with_capacity(content.len());
    for (i, block) in content.iter().enumerate() {
        if str_field(block, "type") != Some("text") {
            out.push(block.clone());
        } else if i == first_text {
            out.push(text_block(text.clone()));
        }
    }
    out
}

fn with_default_attribution(mut msg: Value, default: &str) -> Value {
    if let Some(map) = msg.as_object_mut()
        && map.get("attribution").is_none_or(Value::is_null)
    {
        map.insert("attribution".to_owned(), json!(default));
    }
    msg
}

/// The user-visible text of a `!command` run (both flavours; only the output notice differs).
fn bash_text(msg: &Value, flavor: Dialect) -> String {
    let mut text = format!("Ran `{}`\n", js_string(msg.get("command")));
    match msg.get("output").filter(|o| truthy(Some(o))) {
        Some(output) => text.push_str(&format!("```\n{}\n```", js_string(Some(output)))),
        None => text.push_str("(no output)"),
    }
    if truthy(msg.get("cancelled")) {
        text.push_str("\n\n(command cancelled)");
    } else if let Some(code) = nonzero_exit_code(msg) {
        text.push_str(&format!("\n\nCommand exited with code {code}"));
    }
    match flavor {
        Dialect::Omp => text.push_str(&output_notice(msg.get("meta"))),
        Dialect::Pi => {
            if truthy(msg.get("truncated")) && truthy(msg.get("fullOutputPath")) {
                text.push_str(&format!(
                    "\n\n[Output truncated. Full output: {}]",
                    js_string(msg.get("fullOutputPath"))
                ));
            }
        }
    }
    text
}

fn python_text(msg: &Value) -> String {
    let mut text = format!("Ran Python:\n```python\n{}\n```\n", js_string(msg.get("code")));
    match msg.get("output").filter(|o| truthy(Some(o))) {
        Some(output) => text.push_str(&format!("Output:\n```\n{}\n```", js_string(Some(output)))),
        None => text.push_str("(no output)"),
    }
    if truthy(msg.get("cancelled")) {
        text.push_str("\n\n(execution cancelled)");
    } else if let Some(code) = nonzero_exit_code(msg) {
        text.push_str(&format!("\n\nExecution failed with code {code}"));
    }
    text.push_str(&output_notice(msg.get("meta")));
    text
}

/// `exitCode` when it is neither null, missing nor the number 0.
fn nonzero_exit_code(msg: &Value) -> Option<String> {
    match msg.get("exitCode") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) if n.as_f64() == Some(0.0) => None,
        Some(code) => Some(js_string(Some(code))),
    }
}

/// oh-my-pi's notice for truncated or limited output, derived from `meta`. Best effort: the
/// wording below is the mainline one (FORMAT §8.4 only says "derived from `meta`").
fn output_notice(meta: Option<&Value>) -> String {
    let Some(meta) = meta.filter(|m| truthy(Some(m))) else { return String::new() };
    let mut parts: Vec<String> = Vec::new();
    if let Some(t) = meta.get("truncation").filter(|t| truthy(Some(t)))
        && str_field(t, "noticeOwner") != Some("body")
    {
        parts.push(truncation_notice(t));
    }
    let limits = meta.get("limits");
    let limit = |key: &str| limits.and_then(|l| l.get(key)).filter(|v| truthy(Some(v)));
    if let Some(l) = limit("matchLimit") {
        parts.push(format!(
            "{} matches limit reached. Use limit={} for more",
            js_string(l.get("reached")),
            js_string(l.get("suggestion"))
        ));
    }
    for key in ["resultLimit", "headLimit"] {
        if let Some(l) = limit(key) {
            parts.push(format!(
                "{} results limit reached. Use limit={} for more",
                js_string(l.get("reached")),
                js_string(l.get("suggestion"))
            ));
        }
    }
    if let Some(c) = limit("columnTruncated") {
        parts.push(format!("Some lines truncated to {} chars", js_string(c.get("maxColumn"))));
    }
    let mut notice =
        if parts.is_empty() { String::new() } else { format!("\n\n[{}]", parts.join(". ")) };
    if let Some(d) = meta.get("diagnostics")
        && let Some(msgs) = d.get("messages").and_then(Value::as_array).filter(|m| !m.is_empty())
    {
        let lines: Vec<String> = msgs.iter().map(|m| js_string(Some(m))).collect();
        notice.push_str(&format!(
            "\n\nLSP Diagnostics ({}):\n{}",
            js_string(d.get("summary")),
            lines.join("\n")
        ));
    }
    notice
}

fn truncation_notice(t: &Value) -> String {
    let num = |key: &str| t.get(key).and_then(Value::as_f64);
    let range = |key: &str| {
        let r = t.get(key)?;
        Some((js_string(r.get("start")), js_string(r.get("end")), r))
    };
    let mut notice;
    if str_field(t, "direction") == Some("middle") {
        let total_lines = num("totalLines").unwrap_or(0.0);
        let elided_bytes = num("elidedBytes").unwrap_or_else(|| {
            (num("totalBytes").unwrap_or(0.0) - num("outputBytes").unwrap_or(0.0)).max(0.0)
        });
        let elided_lines = num("elidedLines")
            .unwrap_or_else(|| (total_lines - num("outputLines").unwrap_or(0.0)).max(0.0));
        notice = match (range("headRange"), range("tailRange")) {
            (Some((hs, he, _)), Some((ts, te, _))) => format!(
                "Showing lines {hs}-{he} and {ts}-{te} of {}; {} middle line{} ({}) elided",
                js_string(t.get("totalLines")),
                group_thousands(elided_lines),
                if elided_lines == 1.0 { "" } else { "s" },
                format_bytes(elided_bytes)
            ),
            _ => format!(
                "Showing {} of {} lines; middle elided",
                js_string(t.get("outputLines")),
                js_string(t.get("totalLines"))
            ),
        };
    } else {
        let shown = range("shownRange").filter(|(_, _, r)| {
            let (s, e) =
                (r.get("start").and_then(Value::as_f64), r.get("end").and_then(Value::as_f64));
            matches!((s, e), (Some(s), Some(e)) if e >= s)
        });
        notice = match shown {
            Some((s, e, _)) => {
                format!("Showing lines {s}-{e} of {}", js_string(t.get("totalLines")))
            }
            None => format!(
                "Showing {} of {} lines",
                js_string(t.get("outputLines")),
                js_string(t.get("totalLines"))
            ),
        };
        if str_field(t, "truncatedBy") == Some("bytes") {
            let max = num("maxBytes").or_else(|| num("outputBytes")).unwrap_or(0.0);
            notice.push_str(&format!(" ({} limit)", format_bytes(max)));
        }
    }
    if let Some(next) = t.get("nextOffset").filter(|v| !v.is_null()) {
        notice.push_str(&format!(". Use :{} to continue", js_string(Some(next))));
    }
    if let Some(id) = t.get("artifactId").filter(|v| !v.is_null()) {
        notice.push_str(&format!(". Read artifact://{} for full output", js_string(Some(id))));
    }
    notice
}

fn format_bytes(bytes: f64) -> String {
    if bytes < 1024.0 {
        js_number(bytes) + "B"
    } else if bytes < 1024.0 * 1024.0 {
        format!("{:.1}KB", bytes / 1024.0)
    } else {
        format!("{:.1}MB", bytes / (1024.0 * 1024.0))
    }
}

/// `toLocaleString()` of an integer in the `en-US` locale.
fn group_thousands(n: f64) -> String {
    let digits = js_number(n.trunc().abs());
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    if n < 0.0 { format!("-{out}") } else { out }
}

/// oh-my-pi's prompt rendering: substitute, then strip trailing whitespace from every line
/// outside code fences, then drop trailing blank lines.
fn render_omp_template(template: &str, summary: &str) -> String {
    let text = template.replace("{{summary}}", summary);
    let mut lines: Vec<&str> = Vec::new();
    let mut in_fence = false;
    for line in text.split('\n') {
        let start = line.trim_start();
        if start.starts_with("```") || start.starts_with("~~~") {
            in_fence = !in_fence;
            lines.push(line.trim_end());
        } else if in_fence {
            lines.push(line);
        } else {
            lines.push(line.trim_end());
        }
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    lines.join("\n")
}

/// The summary as the template engine sees it: a missing one renders empty.
fn summary_text(msg: &Value) -> String {
    match msg.get("summary") {
        None | Some(Value::Null) => String::new(),
        some => js_string(some),
    }
}

// --- JSON output (SPEC §5) ------------------------------------------------------------------

/// The `context --json` object: `leafId`, `flavor`, the tracked state and `messages` (LLM
/// messages, or the agent messages when `agent_messages` is set). For pi, `models` is pi's
/// single `{provider, modelId}` object (or null).
pub fn to_json(ctx: &SessionContext, agent_messages: bool) -> Value {
    json_object(ctx, messages(ctx, agent_messages))
}

/// [`to_json`] of a context it may take apart: the messages are moved into the object, not
/// copied (`context --json`).
pub fn into_json(mut ctx: SessionContext, agent_messages: bool) -> Value {
    let messages = take_messages(&mut ctx, agent_messages);
    json_object(&ctx, messages)
}

/// The `context --json` object of the context's state and `messages`.
fn json_object(ctx: &SessionContext, messages: Vec<Value>) -> Value {
    let models = match ctx.flavor {
        Dialect::Omp => Value::Object(ctx.models.clone()),
        Dialect::Pi => ctx.model.as_ref().map_or(Value::Null, pi_model_json),
    };
    let mcp = match ctx.flavor {
        Dialect::Omp => json!({
            "selectedMCPToolNames": ctx.mcp_tool_selection.selected_tool_names,
            "hasPersistedMCPToolSelection": ctx.mcp_tool_selection.has_persisted,
        }),
        Dialect::Pi => Value::Null,
    };
    let mut out = json!({
        "leafId": ctx.leaf_id.clone().unwrap_or(Value::Null),
        "flavor": ctx.flavor.as_str(),
        "thinkingLevel": ctx.thinking_level,
        "configuredThinkingLevel": ctx.configured_thinking_level,
        "models": models,
        "serviceTier": ctx.service_tier.clone().map(Value::Object),
        "mode": ctx.mode,
        "modeData": ctx.mode_data.clone().unwrap_or(Value::Null),
        "injectedTtsrRules": ctx.injected_ttsr_rules,
        "mcpToolSelection": mcp,
    });
    // Moved in (`json!` would serialize a copy), last, as the agents' objects have it.
    if let Some(map) = out.as_object_mut() {
        map.insert("messages".to_owned(), Value::Array(messages));
    }
    out
}

fn pi_model_json(model: &PiModel) -> Value {
    obj([
        ("provider", model.provider.clone().map(Value::String)),
        ("modelId", model.model_id.clone().map(Value::String)),
    ])
}

// --- Human-readable output ------------------------------------------------------------------

/// `context --format text`: a header with the state, then one block per message. Control
/// characters from the transcript are made visible, never passed through.
pub fn render_text(mut ctx: SessionContext, agent_messages: bool) -> String {
    let mut out = String::new();
    for (key, value) in state_lines(&ctx) {
        out.push_str(&format!("{key}: {value}\n"));
    }
    for (i, msg) in take_messages(&mut ctx, agent_messages).iter().enumerate() {
        let view = describe(msg);
        out.push_str(&format!("\n=== {}. {}", i + 1, view.role));
        if !view.details.is_empty() {
            out.push_str(&format!(" ({})", view.details.join(", ")));
        }
        out.push_str(" ===\n");
        for part in &view.parts {
            match part {
                Part::Text(text) => out.push_str(text),
                Part::Thinking(text) => out.push_str(&format!("<thinking>\n{text}\n</thinking>")),
                Part::ToolCall { name, id, args } => {
                    out.push_str(&format!("[tool call {name} {id}] {}", compact(args)));
                }
                Part::Code { text, .. } => out.push_str(text),
                Part::Note(note) => out.push_str(&format!("[{note}]")),
            }
            out.push('\n');
        }
    }
    sanitize(&out)
}

/// `context --format markdown`: a shareable transcript with one section per message.
pub fn render_markdown(mut ctx: SessionContext, agent_messages: bool) -> String {
    let mut out = String::from("# Session context\n\n");
    for (key, value) in state_lines(&ctx) {
        out.push_str(&format!("- **{key}:** {}\n", inline_code(&value)));
    }
    for (i, msg) in take_messages(&mut ctx, agent_messages).iter().enumerate() {
        let view = describe(msg);
        out.push_str(&format!("\n## {}. {}\n", i + 1, view.role));
        if !view.details.is_empty() {
            out.push_str(&format!("\n*{}*\n", escape_markdown(&view.details.join(" · "))));
        }
        for part in &view.parts {
            out.push('\n');
            match part {
                // The transcript's own headings and HTML stay in their place
                // (`crate::markdown`): a summary's `## Goal` is not a section of the document.
                Part::Text(text) => out.push_str(&safe_markdown(text)),
                Part::Thinking(text) => out.push_str(&format!(
                    "<details>\n<summary>Thinking</summary>\n\n{}\n\n</details>",
                    safe_markdown(text)
                )),
                Part::ToolCall { name, id, args } => {
                    let pretty = serde_json::to_string_pretty(args).unwrap_or_default();
                    out.push_str(&format!(
                        "**Tool call** {} ({})\n\n{}",
                        inline_code(name),
                        inline_code(id),
                        fenced("json", &pretty)
                    ));
                }
                Part::Code { lang, text } => out.push_str(&fenced(lang, text)),
                Part::Note(note) => out.push_str(&format!("*[{}]*", escape_markdown(note))),
            }
            out.push('\n');
        }
    }
    sanitize(&out)
}

fn state_lines(ctx: &SessionContext) -> Vec<(&'static str, String)> {
    let mut lines = vec![
        ("leaf", ctx.leaf_id.as_ref().map_or_else(|| "(none)".to_owned(), id_text)),
        ("flavor", ctx.flavor.as_str().to_owned()),
    ];
    let thinking = match &ctx.configured_thinking_level {
        Some(c) if *c != ctx.thinking_level => format!("{} (configured: {c})", ctx.thinking_level),
        _ => ctx.thinking_level.clone(),
    };
    lines.push(("thinking level", thinking));
    match ctx.flavor {
        Dialect::Omp => {
            let models: Vec<String> = ctx
                .models
                .iter()
                .map(|(role, m)| format!("{role}={}", js_string(Some(m))))
                .collect();
            lines.push((
                "models",
                if models.is_empty() { "(none)".to_owned() } else { models.join(", ") },
            ));
            if let Some(tier) = &ctx.service_tier {
                let tiers: Vec<String> =
                    tier.iter().map(|(f, t)| format!("{f}={}", js_string(Some(t)))).collect();
                lines.push(("service tier", tiers.join(", ")));
            }
            let mut mode = ctx.mode.clone();
            if let Some(data) = ctx.mode_data.as_ref().filter(|d| !d.is_null()) {
                mode.push_str(&format!(" {}", compact(data)));
            }
            lines.push(("mode", mode));
            if !ctx.injected_ttsr_rules.is_empty() {
                lines.push(("ttsr rules", ctx.injected_ttsr_rules.join(", ")));
            }
            if ctx.mcp_tool_selection.has_persisted {
                lines.push(("mcp tools", ctx.mcp_tool_selection.selected_tool_names.join(", ")));
            }
        }
        Dialect::Pi => {
            let model = ctx.model.as_ref().map_or_else(
                || "(none)".to_owned(),
                |m| {
                    format!(
                        "{}/{}",
                        m.provider.as_deref().unwrap_or("?"),
                        m.model_id.as_deref().unwrap_or("?")
                    )
                },
            );
            lines.push(("model", model));
        }
    }
    lines
}

/// One message as people read it: a role, a few details, and its parts in order.
struct View {
    role: String,
    details: Vec<String>,
    parts: Vec<Part>,
}

enum Part {
    Text(String),
    Thinking(String),
    ToolCall { name: String, id: String, args: Value },
    Code { lang: &'static str, text: String },
    Note(String),
}

fn describe(msg: &Value) -> View {
    let role_name = role(msg).to_owned();
    let mut details = Vec::new();
    let mut parts = Vec::new();
    let detail = |details: &mut Vec<String>, key: &str| {
        if let Some(v) = msg.get(key).filter(|v| !v.is_null()) {
            details.push(js_string(Some(v)));
        }
    };
    match role_name.as_str() {
        "assistant" => {
            if let (Some(p), Some(m)) = (str_field(msg, "provider"), str_field(msg, "model")) {
                details.push(format!("{p}/{m}"));
            }
            detail(&mut details, "stopReason");
            content_parts(msg.get("content"), &mut parts);
            if let Some(err) = str_field(msg, "errorMessage") {
                parts.push(Part::Note(format!("error: {err}")));
            }
        }
        "toolResult" => {
            detail(&mut details, "toolName");
            detail(&mut details, "toolCallId");
            if truthy(msg.get("isError")) {
                details.push("error".to_owned());
            }
            for block in content_blocks(msg.get("content")) {
                match block {
                    Block::Text(t) => parts.push(Part::Code { lang: "", text: t }),
                    other => parts.push(block_part(other)),
                }
            }
        }
        "bashExecution" => {
            let mut text = format!("$ {}", js_string(msg.get("command")));
            if let Some(output) = str_field(msg, "output").filter(|o| !o.is_empty()) {
                text.push('\n');
                text.push_str(output);
            }
            parts.push(Part::Code { lang: "console", text });
            if truthy(msg.get("cancelled")) {
                parts.push(Part::Note("cancelled".to_owned()));
            } else if let Some(code) = nonzero_exit_code(msg) {
                parts.push(Part::Note(format!("exit code {code}")));
            }
            if truthy(msg.get("excludeFromContext")) {
                details.push("excluded from context".to_owned());
            }
        }
        "pythonExecution" => {
            parts.push(Part::Code { lang: "python", text: js_string(msg.get("code")) });
            if let Some(output) = str_field(msg, "output").filter(|o| !o.is_empty()) {
                parts.push(Part::Code { lang: "", text: output.to_owned() });
            }
            if let Some(code) = nonzero_exit_code(msg) {
                parts.push(Part::Note(format!("exit code {code}")));
            }
        }
        "fileMention" => {
            for file in array_field(msg, "files") {
                parts.push(Part::Note(format!("file {}", js_string(file.get("path")))));
                if let Some(content) = str_field(file, "content").filter(|c| !c.is_empty()) {
                    parts.push(Part::Code { lang: "", text: content.to_owned() });
                }
            }
        }
        "branchSummary" => {
            if let Some(from) = msg.get("fromId") {
                details.push(format!("from {}", id_text(from)));
            }
            parts.push(Part::Text(summary_text(msg)));
        }
        "compactionSummary" => {
            if let Some(tokens) = msg.get("tokensBefore") {
                details.push(format!("{} tokens before", js_string(Some(tokens))));
            }
            detail(&mut details, "method");
            parts.push(Part::Text(summary_text(msg)));
        }
        "user" | "developer" | "custom" => {
            detail(&mut details, "customType");
            // The agents never show these in their chat, but the model reads them.
            if role_name == "custom" && msg.get("display") == Some(&Value::Bool(false)) {
                details.push("hidden".to_owned());
            }
            content_parts(msg.get("content"), &mut parts);
        }
        _ => parts.push(Part::Code {
            lang: "json",
            text: serde_json::to_string_pretty(msg).unwrap_or_default(),
        }),
    }
    if let Some(ms) = msg.get("timestamp").and_then(Value::as_f64) {
        details.push(format_ms(ms));
    }
    let role = if role_name.is_empty() { "(no role)".to_owned() } else { role_name };
    View { role, details, parts }
}

enum Block {
    Text(String),
    Thinking(String),
    ToolCall { name: String, id: String, args: Value },
    Other(String),
}

fn content_blocks(content: Option<&Value>) -> Vec<Block> {
    match content {
        Some(Value::String(s)) => vec![Block::Text(s.clone())],
        Some(Value::Array(blocks)) => blocks
            .iter()
            .map(|b| match str_field(b, "type") {
                Some("text") => Block::Text(js_string(b.get("text"))),
                Some("thinking") => Block::Thinking(js_string(b.get("thinking"))),
                Some("toolCall") => Block::ToolCall {
                    name: js_string(b.get("name")),
                    id: b.get("id").map_or_else(String::new, id_text),
                    args: b.get("arguments").cloned().unwrap_or(Value::Null),
                },
                Some("image") => Block::Other(format!(
                    "image {}",
                    str_field(b, "mimeType").unwrap_or("(unknown type)")
                )),
                Some("redactedThinking") => Block::Other("redacted thinking".to_owned()),
                Some(other) => Block::Other(format!("{other} block")),
                None => Block::Other("block without a type".to_owned()),
            })
            .collect(),
        _ => Vec::new(),
    }
}

fn block_part(block: Block) -> Part {
    match block {
        Block::Text(t) => Part::Text(t),
        Block::Thinking(t) => Part::Thinking(t),
        Block::ToolCall { name, id, args } => Part::ToolCall { name, id, args },
        Block::Other(note) => Part::Note(note),
    }
}

fn content_parts(content: Option<&Value>, parts: &mut Vec<Part>) {
    parts.extend(content_blocks(content).into_iter().map(block_part));
}

fn compact(value: &Value) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// A code fence longer than any backtick run inside `text`.
fn fenced(lang: &str, text: &str) -> String {
    let fence = "`".repeat(longest_backtick_run(text).max(2) + 1);
    format!("{fence}{lang}\n{text}\n{fence}")
}

fn inline_code(text: &str) -> String {
    let ticks = "`".repeat(longest_backtick_run(text) + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

fn longest_backtick_run(text: &str) -> usize {
    let (mut longest, mut run) = (0, 0);
    for c in text.chars() {
        run = if c == '`' { run + 1 } else { 0 };
        longest = longest.max(run);
    }
    longest
}

fn escape_markdown(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '*' | '_' | '`' | '[' | ']' | '<' | '>') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Transcript text is untrusted: one sanitizer for all text output (`terminal::sanitize_keep_lines`
/// keeps newlines and tabs and escapes every other control character as `\xNN`).
fn sanitize(text: &str) -> String {
    crate::terminal::sanitize_keep_lines(text).into_owned()
}

fn id_text(id: &Value) -> String {
    match id {
        Value::String(s) => s.clone(),
        other => compact(other),
    }
}

// --- Small JSON helpers that mirror JavaScript semantics ------------------------------------

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
    let mut out = Map::new();
    match v? {
        Value::Object(src) => {
            for family in TIER_FAMILIES {
                if let Some(tier) =
                    src.get(family).and_then(Value::as_str).filter(|t| TIERS.contains(t))
                {
                    out.insert(family.to_owned(), json!(tier));
                }
            }
        }
        Value::String(s) => match s.as_str() {
            "priority" => {
                for family in TIER_FAMILIES {
                    out.insert(family.to_owned(), json!("priority"));
                }
            }
            "openai-only" => {
                out.insert("openai".to_owned(), json!("priority"));
            }
            "claude-only" => {
                out.insert("anthropic".to_owned(), json!("priority"));
            }
            tier if TIERS.contains(&tier) => {
                out.insert("openai".to_owned(), json!(tier));
            }
            _ => {}
        },
        _ => {}
    }
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
    use super::*;

    const TS: &str = "2026-02-16T10:21:00.000Z";
    const TS_MS: i64 = 1_771_237_260_000;

    /// Links entries into one chain: ids `e0, e1, …` unless given, each parent the previous
    /// entry, and a fixed timestamp unless given.
    fn chain(entries: Vec<Value>) -> Vec<Value> {
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

    fn user(text: &str) -> Value {
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
    fn shape(messages: &[Value]) -> Vec<String> {
        messages
            .iter()
            .map(|m| {
                let r = role(m);
                let text = match r {
                    "user" => js_string(m.get("content")),
                    "assistant" => content_blocks(m.get("content"))
                        .into_iter()
                        .filter_map(|b| match b {
                            Block::Text(t) => Some(t),
                            Block::ToolCall { id, .. } => Some(format!("call:{id}")),
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
        let out = to_json(&ctx, false);
        assert_eq!(out["leafId"], Value::Null);
        assert_eq!(out["messages"], json!([]));
        assert_eq!(out["models"], json!({}));
        assert_eq!(out["serviceTier"], Value::Null);
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
        assert_eq!(omp(&chain(vec![user("a")])).thinking_level, "off");
        assert_eq!(omp(&chain(vec![user("a")])).configured_thinking_level, None);

        let change = |level: Value, configured: Value| json!({"type": "thinking_level_change", "thinkingLevel": level, "configured": configured});
        let ctx = omp(&chain(vec![change(json!("high"), json!("auto"))]));
        assert_eq!(
            (ctx.thinking_level.as_str(), ctx.configured_thinking_level.as_deref()),
            ("high", Some("auto"))
        );

        // configured null falls back to the level; the latest change wins.
        let ctx = omp(&chain(vec![
            change(json!("high"), json!("auto")),
            change(json!("low"), Value::Null),
        ]));
        assert_eq!(
            (ctx.thinking_level.as_str(), ctx.configured_thinking_level.as_deref()),
            ("low", Some("low"))
        );

        // A null level is "off" and leaves configured unset.
        let ctx = omp(&chain(vec![change(Value::Null, Value::Null)]));
        assert_eq!(
            (ctx.thinking_level.as_str(), ctx.configured_thinking_level.as_deref()),
            ("off", None)
        );
        assert_eq!(to_json(&ctx, false)["configuredThinkingLevel"], Value::Null);
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
        assert_eq!(
            tier(json!({"openai": "priority", "x": "flex", "google": "bogus"})),
            Some(json!({"openai": "priority"}))
        );
        assert_eq!(
            tier(json!("priority")),
            Some(json!({"openai": "priority", "anthropic": "priority", "google": "priority"}))
        );
        assert_eq!(tier(json!("openai-only")), Some(json!({"openai": "priority"})));
        assert_eq!(tier(json!("claude-only")), Some(json!({"anthropic": "priority"})));
        assert_eq!(tier(json!("flex")), Some(json!({"openai": "flex"})));
        assert_eq!(tier(json!("turbo")), None);
        assert_eq!(tier(json!({})), None);
        assert_eq!(tier(Value::Null), None);

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

        let out = to_json(&omp(&chain(vec![user("a")])), false);
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
        assert_eq!(shape(&ctx.agent_messages), ["user:after"]);
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
        let out = to_json(&ctx, false);
        assert_eq!(out["models"], json!({"provider": "openai", "modelId": "gpt-5"}));
        assert_eq!(out["flavor"], "pi");
        assert_eq!(to_json(&pi(&[]), false)["models"], Value::Null);
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
                shape(&ctx.agent_messages),
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
            assert_eq!(shape(&ctx.agent_messages), ["compactionSummary:S", "user:u2"]);
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
                shape(&ctx.agent_messages),
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
        assert_eq!(
            shape(&omp(&path).agent_messages),
            ["compactionSummary:second", "user:u1", "assistant:a1"]
        );
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
        assert_eq!(shape(&omp(&path).agent_messages), ["user:u3"]);
        // pi knows no reset boundary.
        assert_eq!(
            shape(&pi(&path).agent_messages),
            ["compactionSummary:S", "user:u1", "user:u2", "user:u3"]
        );
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
            shape(&omp(&path).agent_messages),
            ["compactionSummary:S", "user:u1", "assistant:a1", "user:u2"]
        );
        // The kept range may even reach back before the reset.
        let path = chain(vec![
            id(user("u0"), "k"),
            json!({"type": "reset_boundary"}),
            user("u1"),
            compaction("k", "S"),
        ]);
        assert_eq!(
            shape(&omp(&path).agent_messages),
            ["compactionSummary:S", "user:u0", "user:u1"]
        );
        // Only a reset: everything before it is gone.
        let path = chain(vec![user("u0"), json!({"type": "reset_boundary"}), user("u1")]);
        assert_eq!(shape(&omp(&path).agent_messages), ["user:u1"]);
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
        assert_eq!(shape(&ctx.agent_messages), ["compactionSummary:S", "user:u3"]);
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
        assert_eq!(
            shape(&omp(&path).agent_messages),
            ["compactionSummary:S", "user:u2", "user:u3"]
        );
        // ... and nothing when it is not on the path before the compaction.
        let path = chain(vec![id(user("u1"), "k"), user("u2"), remote(json!("gone")), user("u3")]);
        assert_eq!(shape(&omp(&path).agent_messages), ["compactionSummary:S", "user:u3"]);

        // An incomplete remote payload is an ordinary compaction.
        let mut c = compaction("k", "S");
        c["preserveData"] =
            json!({"openaiRemoteCompaction": {"provider": "", "replacementHistory": []}});
        let path = chain(vec![id(user("u1"), "k"), c, user("u3")]);
        let ctx = omp(&path);
        assert_eq!(shape(&ctx.agent_messages), ["compactionSummary:S", "user:u1", "user:u3"]);
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

    #[test]
    fn retry_recovery_and_empty_error_turns_are_skipped() {
        let mut recovered = say("partial");
        recovered["message"]["retryRecovery"] = json!({"attempt": 1});
        let empty_error = assistant(
            json!([{"type": "text", "text": "  "}, {"type": "thinking", "thinking": ""}, {"type": "fallback"}]),
            "error",
        );
        let path = chain(vec![user("u"), recovered.clone(), empty_error.clone(), say("ok")]);
        assert_eq!(shape(&omp(&path).agent_messages), ["user:u", "assistant:ok"]);
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
        assert_eq!(shape(&ctx.agent_messages), ["user:u", "assistant:call:c1", "toolResult:c1"]);
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
        assert_eq!(shape(&omp(&path).agent_messages), ["user:u", "user:again", "assistant:fine"]);
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
        assert_eq!(
            shape(&omp(&path).agent_messages),
            ["user:u", "assistant:half", "custom:interrupted-thinking"]
        );

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
            shape(&omp(&path).agent_messages),
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
        assert_eq!(
            shape(&omp(&path).agent_messages),
            ["assistant:call:c1", "toolResult:c1", "user:u"]
        );
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
        assert_eq!(shape(&ctx.agent_messages), ["user:end"]);
    }

    // --- conversion (omp) ---

    fn convert(messages: Vec<Value>, flavor: Dialect) -> Vec<Value> {
        let mut ctx = SessionContext::empty(flavor);
        ctx.agent_messages = messages;
        to_llm_messages(&ctx)
    }

    fn convert_one(message: Value, flavor: Dialect) -> Vec<Value> {
        convert(vec![message], flavor)
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
        assert_eq!(
            roles(custom("advisor", json!({"details": {"messageRole": "user"}}))),
            ["user/agent"]
        );
        assert_eq!(
            roles(custom("advisor", json!({"details": {"messageRole": "developer"}}))),
            ["developer/agent"]
        );
        assert_eq!(roles(custom("skill-prompt", json!({"attribution": "user"}))), ["user/user"]);
        assert_eq!(
            roles(custom("skill-prompt", json!({"attribution": "agent"}))),
            ["developer/agent"]
        );
        assert_eq!(roles(custom("collab-prompt", json!({"attribution": "user"}))), ["user/user"]);
        assert_eq!(roles(custom("ext", json!({"attribution": "user"}))), ["developer/user"]);
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
        let out = convert(
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
        let out = convert(
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
        let out = convert(vec![bare, note], Dialect::Omp);
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
        let out = to_json(&omp(&path), true);
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
        let text = render_text(omp(&path), false);
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
        let text = render_text(omp(&path), true);
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
        let md = render_markdown(omp(&path), false);
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
