//! Building the context of a path (FORMAT §8.2–§8.3): the state tracked along it and the
//! agent messages `buildSessionContext` returns, with oh-my-pi's post-passes.

use super::*;

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
    let (compaction, reset) = track_state(&path, &mut ctx);

    let mut out = Vec::new();
    // The later of the last reset boundary and the last compaction decides.
    let (head, kept, after) = match (reset, compaction) {
        // `/clear` starts the context afresh; a compaction before it is elided too.
        (Some(r), c) if c.is_none_or(|c| r > c) => (None, 0..0, r + 1..path.len()),
        (_, Some(c)) => {
            let (summary, kept) = compaction_summary(&path, c, flavor);
            // pi 1.6.0: the system message at compaction time leads, then the summary.
            let system = path[c].get("systemMessage").filter(|m| truthy(Some(m)));
            let system = system.filter(|_| flavor == Dialect::Pi).cloned();
            out.extend(system);
            out.push(summary);
            (Some(c), kept.map_or(0..0, |start| start..c), c + 1..path.len())
        }
        _ => (None, 0..0, 0..path.len()),
    };
    // pi 1.6.0 leaves the system messages of the kept range out: the compaction's
    // `systemMessage` holds the prompt they patched.
    let kept = kept.filter(|&i| flavor == Dialect::Omp || !is_system_message(&path[i]));
    let entries: Vec<usize> = kept.chain(after).collect();
    let edits = match flavor {
        Dialect::Omp => HashMap::new(),
        Dialect::Pi => context_edits(&path, head.iter().chain(&entries)),
    };
    if let Some(edit) = head.and_then(|c| edits.get(&id_key(path[c].get("id")))) {
        out = apply_edit(out, edit);
    }
    for i in entries {
        let entry = &mut path[i];
        let messages = message(entry, flavor).into_iter().collect();
        match edits.get(&id_key(entry.get("id"))) {
            Some(edit) => out.extend(apply_edit(messages, edit)),
            None => out.extend(messages),
        }
    }

    if flavor == Dialect::Omp {
        strip_dangling_tool_calls(&mut out);
        drop_failed_turns(&mut out);
    }
    ctx.agent_messages = out;
    ctx
}

/// Tracks the state along the whole path by the flavour's rules (pi tracks only the thinking
/// level and its single model), and finds the last compaction and (oh-my-pi) reset boundary.
fn track_state(path: &[Value], ctx: &mut SessionContext) -> (Option<usize>, Option<usize>) {
    let mut has_explicit_default = false;
    let (mut compaction, mut reset) = (None, None);
    let mut seen_rules: HashSet<&str> = HashSet::new();
    for (i, entry) in path.iter().enumerate() {
        match (kind_of(entry), ctx.flavor) {
            (Kind::ThinkingLevelChange, flavor) => {
                let level = str_field(entry, "thinkingLevel");
                ctx.thinking_level = level.unwrap_or("off").to_owned();
                if flavor == Dialect::Omp {
                    ctx.configured_thinking_level =
                        str_field(entry, "configured").or(level).map(str::to_owned);
                }
            }
            (Kind::ModelChange, Dialect::Omp) => {
                // The reference skips a change without a (truthy) `model`, so pi-style
                // `{provider, modelId}` records leave the models alone.
                if let Some(model) = entry.get("model").filter(|m| truthy(Some(m))) {
                    let role = match entry.get("role") {
                        None | Some(Value::Null) => "default".to_owned(),
                        Some(role) => js_string(Some(role)),
                    };
                    has_explicit_default |= role == "default";
                    ctx.models.insert(role, model.clone());
                }
            }
            (Kind::ModelChange, Dialect::Pi) => ctx.model = Some(pi_model_change(entry)),
            (Kind::Message, flavor) => {
                let Some(msg) = entry.get("message").filter(|m| role(m) == "assistant") else {
                    continue;
                };
                match flavor {
                    // Legacy inference for files without an explicit default: a fallback or
                    // downgraded assistant turn must not clobber a default the user picked.
                    Dialect::Omp if !has_explicit_default => {
                        let model = format!(
                            "{}/{}",
                            js_string(msg.get("provider")),
                            js_string(msg.get("model"))
                        );
                        ctx.models.insert("default".to_owned(), Value::String(model));
                    }
                    Dialect::Omp => {}
                    Dialect::Pi => {
                        ctx.model = Some(PiModel {
                            provider: str_field(msg, "provider").map(str::to_owned),
                            model_id: str_field(msg, "model").map(str::to_owned),
                        });
                    }
                }
            }
            (Kind::Compaction, _) => compaction = Some(i),
            (Kind::ResetBoundary, Dialect::Omp) => reset = Some(i),
            (Kind::ServiceTierChange, Dialect::Omp) => {
                ctx.service_tier = coerce_service_tier(entry.get("serviceTier"));
            }
            (Kind::TtsrInjection, Dialect::Omp) => {
                for rule in array_field(entry, "injectedRules").iter().filter_map(Value::as_str) {
                    if seen_rules.insert(rule) {
                        ctx.injected_ttsr_rules.push(rule.to_owned());
                    }
                }
            }
            (Kind::McpToolSelection, Dialect::Omp) => {
                ctx.mcp_tool_selection = McpToolSelection {
                    selected_tool_names: array_field(entry, "selectedToolNames")
                        .iter()
                        .filter_map(|v| v.as_str().map(str::to_owned))
                        .collect(),
                    has_persisted: true,
                };
            }
            (Kind::ModeChange, Dialect::Omp) => {
                ctx.mode = str_field(entry, "mode").unwrap_or("none").to_owned();
                ctx.mode_data = entry.get("data").cloned();
            }
            // The other kinds set nothing (every kind whose row says it sets state has an arm
            // above: `every_state_kind_is_tracked`), and pi tracks only the thinking level and
            // its model.
            _ => {}
        }
    }
    (compaction, reset)
}

/// The summary message of compaction `c`, and where the range it keeps before it starts
/// (`None`: nothing before it is kept).
fn compaction_summary(path: &[Value], c: usize, flavor: Dialect) -> (Value, Option<usize>) {
    let compaction = &path[c];
    let omp = flavor == Dialect::Omp;
    let field = |key: &str| compaction.get(key).cloned();
    // pi's summary has only the summary and tokensBefore of oh-my-pi's fields.
    let omp_field = |key: &str| field(key).filter(|_| omp);
    let remote = if omp { openai_remote_payload(compaction) } else { None };
    let kept = if remote.is_none() {
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
    let summary = obj([
        ("role", Some(json!("compactionSummary"))),
        ("summary", field("summary")),
        ("shortSummary", omp_field("shortSummary")),
        ("tokensBefore", field("tokensBefore")),
        ("tokensAfter", omp_field("tokensAfter")),
        ("method", omp_field("method")),
        ("providerPayload", remote),
        ("warning", omp_field("warning")),
        ("timestamp", Some(entry_ms(compaction))),
    ]);
    (summary, kept)
}

/// Whether `entry` is a `message` entry holding a `system`-role message (pi's prompt).
fn is_system_message(entry: &Value) -> bool {
    kind_of(entry) == Kind::Message && entry.get("message").is_some_and(|m| role(m) == "system")
}

/// pi 1.6.0's context edits (`buildSessionProjection`): the `replacement` of the latest
/// `context_edit` among the context `entries` (path positions) for each target, by the target's
/// id ([`id_key`]). Edits elsewhere on the path (summarized away by the compaction) do not
/// count.
fn context_edits<'a>(
    path: &[Value],
    entries: impl Iterator<Item = &'a usize>,
) -> HashMap<String, Option<Value>> {
    entries
        .map(|&i| &path[i])
        .filter(|entry| kind_of(entry) == Kind::ContextEdit)
        .map(|edit| (id_key(edit.get("targetId")), edit.get("replacement").cloned()))
        .collect()
}

/// pi 1.6.0's `projectContextEntry`: the messages of an entry under the `replacement` of its
/// latest context edit. `null` leaves the entry out of the context, whatever it is; a
/// replacement gives a user, assistant, tool result or custom message its `content` (a string
/// as one text block for an assistant or a tool result), and leaves other messages as they
/// are. (pi throws on an edit without `replacement`; it reads here as one without `content`.)
fn apply_edit(messages: Vec<Value>, replacement: &Option<Value>) -> Vec<Value> {
    let content = match replacement {
        Some(Value::Null) => return Vec::new(),
        Some(replacement) => replacement.get("content"),
        None => None,
    };
    messages
        .into_iter()
        .map(|mut message| {
            let role = role(&message);
            if !matches!(role, "user" | "assistant" | "toolResult" | "custom") {
                return message;
            }
            let content = match content {
                Some(Value::String(text)) if matches!(role, "assistant" | "toolResult") => {
                    Some(Value::Array(vec![text_block(text.clone())]))
                }
                other => other.cloned(),
            };
            if let Some(map) = message.as_object_mut() {
                match content {
                    Some(content) => map.insert("content".to_owned(), content),
                    None => map.shift_remove("content"),
                };
            }
            message
        })
        .collect()
}

/// pi's `model_change {provider, modelId}`. An oh-my-pi style `model: "provider/id"` is read
/// too, split at the first `/`, so `--flavor pi` on an omp file still names the model.
fn pi_model_change(entry: &Value) -> PiModel {
    let field = |key| str_field(entry, key).map(str::to_owned);
    let (provider, model_id) = match (field("provider"), field("modelId")) {
        (None, None) => match str_field(entry, "model").and_then(|m| m.split_once('/')) {
            Some((provider, id)) => (Some(provider.to_owned()), Some(id.to_owned())),
            None => (None, None),
        },
        given => given,
    };
    PiModel { provider, model_id }
}

/// Where the kept range before compaction `c` starts: at the first entry before it whose id is
/// `firstKeptEntryId` (it runs up to the compaction; without a `firstKeptEntryId`, the first
/// entry without an id, as the reference's `===` of two `undefined`s finds). `None` when no
/// entry before it matches: nothing is kept.
fn kept_range_start(path: &[Value], c: usize) -> Option<usize> {
    let first_kept = path[c].get("firstKeptEntryId");
    path[..c].iter().position(|e| e.get("id") == first_kept)
}

/// `appendMessage` in LLM mode: the message `entry` becomes, if any, moved out of it (so it is
/// taken only once). oh-my-pi leaves out turns it retried or that a provider rejected empty,
/// its internal plan nudge and custom content it cannot send, and normalises a custom message;
/// pi keeps custom messages as written.
fn message(entry: &mut Value, flavor: Dialect) -> Option<Value> {
    match (kind_of(entry), flavor) {
        (Kind::Message, _) => {
            let msg = entry.get_mut("message").filter(|m| m.is_object())?;
            let skip = flavor == Dialect::Omp
                && role(msg) == "assistant"
                && (truthy(msg.get("retryRecovery")) || is_empty_error_turn(msg));
            if skip {
                return None;
            }
            let mut msg = normalize_message(msg.take());
            if flavor == Dialect::Pi {
                fill_null_content(&mut msg);
            }
            Some(msg)
        }
        (Kind::CustomMessage, _) => {
            if flavor == Dialect::Omp
                && (str_field(entry, "customType") == Some(PREWALK_PLAN)
                    || !entry.get("content").is_some_and(is_custom_content))
            {
                return None;
            }
            let (custom_type, display, attribution) = match flavor {
                Dialect::Omp => {
                    let custom_type = str_field(entry, "customType")
                        .filter(|t| !t.is_empty())
                        .unwrap_or(DEFAULT_CUSTOM_TYPE);
                    let display = entry.get("display").and_then(Value::as_bool).unwrap_or(false);
                    // `attribution` is kept only when the entry had one, normalised to
                    // user/agent.
                    let attribution = entry
                        .get("attribution")
                        .map(|a| json!(if a.as_str() == Some("user") { "user" } else { "agent" }));
                    (Some(json!(custom_type)), Some(json!(display)), attribution)
                }
                Dialect::Pi => (take(entry, "customType"), take(entry, "display"), None),
            };
            let timestamp = entry_ms(entry);
            let mut content = take(entry, "content");
            // pi 1.6.0 reads null or missing content as no blocks (`entry.content ?? []`).
            if flavor == Dialect::Pi && content.as_ref().is_none_or(Value::is_null) {
                content = Some(json!([]));
            }
            Some(obj([
                ("role", Some(json!("custom"))),
                ("customType", custom_type),
                ("content", content),
                ("display", display),
                ("details", take(entry, "details")),
                ("attribution", attribution),
                ("timestamp", Some(timestamp)),
            ]))
        }
        (Kind::BranchSummary, _) => {
            // An empty summary is the agents' marker for a bare leaf move; it adds nothing.
            let summary = entry.get("summary").filter(|s| truthy(Some(s)))?;
            Some(obj([
                ("role", Some(json!("branchSummary"))),
                ("summary", Some(summary.clone())),
                ("fromId", entry.get("fromId").cloned()),
                ("timestamp", Some(entry_ms(entry))),
            ]))
        }
        // Of the other kinds, compactions are summarized apart (only the latest counts), and
        // the rest add no message.
        _ => None,
    }
}

/// `preserveData.openaiRemoteCompaction` as a provider replay payload, when it holds a
/// non-empty provider string and a `replacementHistory` array.
fn openai_remote_payload(compaction: &Value) -> Option<Value> {
    let remote = compaction.get("preserveData")?.get("openaiRemoteCompaction")?;
    let provider = remote.get("provider")?.as_str().filter(|p| !p.is_empty())?;
    let items = remote.get("replacementHistory").filter(|h| h.is_array())?;
    Some(json!({"type": "openaiResponsesHistory", "provider": provider, "items": items}))
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

/// pi 1.6.0 (`sessionEntryToContextMessages`) reads a message whose `content` is null or
/// missing as having none: `""` for a system message, no blocks for a user, assistant or tool
/// result message. Other roles keep what they have.
fn fill_null_content(msg: &mut Value) {
    let empty = match role(msg) {
        "system" => json!(""),
        "user" | "assistant" | "toolResult" => json!([]),
        _ => return,
    };
    if let Some(map) = msg.as_object_mut()
        && map.get("content").is_none_or(Value::is_null)
    {
        map.insert("content".to_owned(), empty);
    }
}

/// A provider-rejection turn with nothing in it: `stopReason: "error"` and no block that
/// carries content. Unknown block kinds count as content.
pub(super) fn is_empty_error_turn(msg: &Value) -> bool {
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
    // next[i] leads to the first live index >= i (n is a live sentinel): i is live when
    // next[i] == i.
    let mut next: Vec<usize> = (0..=n).collect();
    let mut results: HashMap<String, Vec<usize>> = HashMap::new();
    for (j, m) in messages.iter().enumerate() {
        if role(m) == "toolResult" {
            results.entry(id_key(m.get("toolCallId"))).or_default().push(j);
        }
    }

    for i in (0..n).rev() {
        let msg = &messages[i];
        if next[i] != i
            || role(msg) != "assistant"
            || !matches!(str_field(msg, "stopReason"), Some("aborted" | "error"))
        {
            continue;
        }
        // The first live index after i, halving the path on the way.
        let mut after = i + 1;
        while next[after] != after {
            next[after] = next[next[after]];
            after = next[after];
        }
        if after < n && is_custom_of_type(&messages[after], INTERRUPTED_THINKING) {
            continue;
        }
        next[i] = i + 1;
        for block in array_field(msg, "content") {
            if str_field(block, "type") != Some("toolCall") {
                continue;
            }
            if let Some(indices) = results.get_mut(&id_key(block.get("id"))) {
                // Only results after the turn pair with it; earlier ones stay.
                while let Some(&j) = indices.last().filter(|&&j| j > i) {
                    indices.pop();
                    next[j] = j + 1;
                }
            }
        }
    }

    let mut live = (0..n).map(|i| next[i] == i);
    messages.retain(|_| live.next().unwrap_or(true));
}
