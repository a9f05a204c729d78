//! A context as `context --json` prints it (SPEC §5), and as text and Markdown for people.

use std::path::Path;

use super::*;
use crate::format::{blob_file, blob_ref};
use crate::markdown::safe_markdown;

/// The `context --json` object: `leafId`, `flavor`, the tracked state and `messages` (LLM
/// messages, or the agent messages when `agent_messages` is set), moved into it, not copied.
/// For pi, `models` is pi's single `{provider, modelId}` object (or null).
pub fn into_json(mut ctx: SessionContext, agent_messages: bool) -> Value {
    let messages = take_messages(&mut ctx, agent_messages);
    let models = match ctx.flavor {
        Dialect::Omp => Value::Object(ctx.models),
        Dialect::Pi => ctx.model.map_or(Value::Null, |model| {
            obj([
                ("provider", model.provider.map(Value::String)),
                ("modelId", model.model_id.map(Value::String)),
            ])
        }),
    };
    let mcp = match ctx.flavor {
        Dialect::Omp => json!({
            "selectedMCPToolNames": ctx.mcp_tool_selection.selected_tool_names,
            "hasPersistedMCPToolSelection": ctx.mcp_tool_selection.has_persisted,
        }),
        Dialect::Pi => Value::Null,
    };
    let mut out = json!({
        "leafId": ctx.leaf_id.unwrap_or(Value::Null),
        "flavor": ctx.flavor.as_str(),
        "thinkingLevel": ctx.thinking_level,
        "configuredThinkingLevel": ctx.configured_thinking_level,
        "models": models,
        "serviceTier": ctx.service_tier.map(Value::Object),
        "mode": ctx.mode,
        "modeData": ctx.mode_data.unwrap_or(Value::Null),
        "injectedTtsrRules": ctx.injected_ttsr_rules,
        "mcpToolSelection": mcp,
    });
    // Moved in (`json!` would serialize a copy), last, as the agents' objects have it.
    out["messages"] = Value::Array(messages);
    out
}

// --- Human-readable output ------------------------------------------------------------------

/// `context --format text` (`markdown` off): a header with the state, then one block per
/// message; `context --format markdown`: a shareable transcript with one section per message.
/// pi's system messages are shown as the one prompt they fold into, first (its text, then
/// its tools). Control characters from the transcript are made visible, never passed through.
pub fn render(
    mut ctx: SessionContext,
    agent_messages: bool,
    blobs: Option<&Path>,
    markdown: bool,
) -> String {
    let mut out = String::from(if markdown { "# Session context\n\n" } else { "" });
    for (key, value) in state_lines(&ctx) {
        out.push_str(&match markdown {
            false => format!("{key}: {value}\n"),
            true => format!("- **{key}:** {}\n", inline_code(&value)),
        });
    }
    let mut messages = take_messages(&mut ctx, agent_messages);
    if ctx.flavor == Dialect::Pi {
        // One prompt for a person to read: pi's system messages folded, first.
        messages = collapse_system_messages(messages);
    }
    for (i, msg) in messages.iter().enumerate() {
        let View { role, details, parts } = describe(msg, blobs);
        let n = i + 1;
        out.push_str(&match (markdown, details.is_empty()) {
            (false, true) => format!("\n=== {n}. {role} ===\n"),
            (false, false) => format!("\n=== {n}. {role} ({}) ===\n", details.join(", ")),
            (true, true) => format!("\n## {n}. {role}\n"),
            (true, false) => {
                format!("\n## {n}. {role}\n\n*{}*\n", escape_markdown(&details.join(" · ")))
            }
        });
        for part in &parts {
            out.push_str(&if markdown { markdown_part(part) } else { text_part(part) });
            out.push('\n');
        }
    }
    sanitize(&out)
}

fn text_part(part: &Part) -> String {
    match part {
        Part::Text(text) | Part::Code { text, .. } => text.clone(),
        Part::Thinking(text) => format!("<thinking>\n{text}\n</thinking>"),
        Part::ToolCall { name, id, args } => format!("[tool call {name} {id}] {}", compact(args)),
        Part::Note(note) => format!("[{note}]"),
    }
}

/// A part as Markdown, after the blank line that separates it from what comes before.
fn markdown_part(part: &Part) -> String {
    let markdown = match part {
        // The transcript's own headings and HTML stay in their place (`crate::markdown`): a
        // summary's `## Goal` is not a section of the document.
        Part::Text(text) => safe_markdown(text),
        Part::Thinking(text) => format!(
            "<details>\n<summary>Thinking</summary>\n\n{}\n\n</details>",
            safe_markdown(text)
        ),
        Part::ToolCall { name, id, args } => {
            let pretty = serde_json::to_string_pretty(args).unwrap_or_default();
            format!(
                "**Tool call** {} ({})\n\n{}",
                inline_code(name),
                inline_code(id),
                fenced("json", &pretty)
            )
        }
        Part::Code { lang, text } => fenced(lang, text),
        Part::Note(note) => format!("*[{}]*", escape_markdown(note)),
    };
    format!("\n{markdown}")
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
            let pairs = |map: &Map<String, Value>| {
                let pairs: Vec<String> =
                    map.iter().map(|(k, v)| format!("{k}={}", js_string(Some(v)))).collect();
                pairs.join(", ")
            };
            let models = pairs(&ctx.models);
            lines.push(("models", if models.is_empty() { "(none)".to_owned() } else { models }));
            if let Some(tier) = &ctx.service_tier {
                lines.push(("service tier", pairs(tier)));
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
            let known = |part: &Option<String>| part.clone().unwrap_or_else(|| "?".to_owned());
            let model = ctx
                .model
                .as_ref()
                .map(|m| format!("{}/{}", known(&m.provider), known(&m.model_id)));
            lines.push(("model", model.unwrap_or_else(|| "(none)".to_owned())));
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

pub(super) enum Part {
    Text(String),
    Thinking(String),
    ToolCall { name: String, id: String, args: Value },
    Code { lang: &'static str, text: String },
    Note(String),
}

fn describe(msg: &Value, blobs: Option<&Path>) -> View {
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
            parts.extend(content_blocks(msg.get("content"), blobs));
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
            for part in content_blocks(msg.get("content"), blobs) {
                parts.push(match part {
                    Part::Text(text) => Part::Code { lang: "", text },
                    other => other,
                });
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
        "system" => {
            parts.push(Part::Text(system_message_text(msg)));
            let tools = tool_names(msg, "toolsAdded");
            if !tools.is_empty() {
                parts.push(Part::Note(format!("tools: {}", tools.join(", "))));
            }
        }
        "user" | "developer" | "custom" => {
            detail(&mut details, "customType");
            // The agents never show these in their chat, but the model reads them.
            if role_name == "custom" && msg.get("display") == Some(&Value::Bool(false)) {
                details.push("hidden".to_owned());
            }
            parts.extend(content_blocks(msg.get("content"), blobs));
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

/// A message's content as parts: its text, thinking and tool calls, and a note for any other
/// block.
pub(super) fn content_blocks(content: Option<&Value>, blobs: Option<&Path>) -> Vec<Part> {
    match content {
        Some(Value::String(s)) => vec![Part::Text(s.clone())],
        Some(Value::Array(blocks)) => blocks
            .iter()
            .map(|b| match str_field(b, "type") {
                Some("text") => Part::Text(js_string(b.get("text"))),
                Some("thinking") => Part::Thinking(js_string(b.get("thinking"))),
                Some("toolCall") => Part::ToolCall {
                    name: js_string(b.get("name")),
                    id: b.get("id").map_or_else(String::new, id_text),
                    args: b.get("arguments").cloned().unwrap_or(Value::Null),
                },
                Some("image") => {
                    Part::Note(image_text(str_field(b, "mimeType"), str_field(b, "data"), blobs))
                }
                Some("redactedThinking") => Part::Note("redacted thinking".to_owned()),
                Some(other) => Part::Note(format!("{other} block")),
                None => Part::Note("block without a type".to_owned()),
            })
            .collect(),
        _ => Vec::new(),
    }
}

/// An image block as one line, from its `mimeType` and `data`: its type and, for a
/// `blob:sha256:<hex>` reference, its size in `blobs`, oh-my-pi's blob store (or that it is
/// not there). The image itself is never shown, and the store is only read.
pub fn image_text(mime: Option<&str>, data: Option<&str>, blobs: Option<&Path>) -> String {
    let mime = mime.unwrap_or("(unknown type)");
    let Some(hex) = data.and_then(blob_ref) else {
        return format!("image {mime}");
    };
    let short: String = hex.chars().take(8).collect();
    let size = blobs
        .and_then(|store| blob_file(store, hex))
        .and_then(|file| std::fs::metadata(file).ok())
        .filter(std::fs::Metadata::is_file)
        .map(|m| m.len());
    match size {
        Some(n) => format!("image {mime}, {n} bytes, blob {short}"),
        None => format!("image {mime}, blob {short} not in the blob store"),
    }
}

/// A code fence longer than any backtick run inside `text`.
fn fenced(lang: &str, text: &str) -> String {
    let fence = "`".repeat(longest_backtick_run(text).max(2) + 1);
    format!("{fence}{lang}\n{text}\n{fence}")
}

pub(super) fn inline_code(text: &str) -> String {
    let ticks = "`".repeat(longest_backtick_run(text) + 1);
    let pad = if text.starts_with('`') || text.ends_with('`') { " " } else { "" };
    format!("{ticks}{pad}{text}{pad}{ticks}")
}

fn longest_backtick_run(text: &str) -> usize {
    text.split(|c| c != '`').map(str::len).max().unwrap_or(0)
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
