//! The agent messages converted to the LLM messages each agent sends (`convertToLlm`), with
//! the summaries rendered from the agents' templates (FORMAT §8.4).

use super::*;

/// Converts the agent messages to what the provider receives (FORMAT §8.4), by the context's
/// flavour. Roles a flavour does not know are dropped, as the reference does.
pub fn to_llm_messages(ctx: &SessionContext) -> Vec<Value> {
    llm_messages(ctx.agent_messages.clone(), ctx.flavor)
}

/// [`to_llm_messages`] of messages it may take apart: a message that passes as it is (with an
/// attribution added, say) is moved, not copied.
pub(super) fn llm_messages(messages: Vec<Value>, flavor: Dialect) -> Vec<Value> {
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

/// The messages `--agent-messages` selects (the agent messages as built, or their conversion),
/// taken out of the context, not copied: its `agent_messages` are left empty.
pub(super) fn take_messages(ctx: &mut SessionContext, agent_messages: bool) -> Vec<Value> {
    let messages = std::mem::take(&mut ctx.agent_messages);
    if agent_messages { messages } else { llm_messages(messages, ctx.flavor) }
}

fn convert_omp(msg: Value, interrupted_next: bool, out: &mut Vec<Value>) {
    let ts = msg.get("timestamp").cloned();
    match role(&msg) {
        // `!!command` runs are kept out of the context.
        "bashExecution" if !truthy(msg.get("excludeFromContext")) => {
            let mut content = vec![text_block(run_text(&msg, Dialect::Omp))];
            content.extend(array_field(&msg, "images").iter().cloned());
            out.push(llm_message("user", Value::Array(content), Some(json!("user")), ts));
        }
        "pythonExecution" if !truthy(msg.get("excludeFromContext")) => {
            let content = text_content(run_text(&msg, Dialect::Omp));
            out.push(llm_message("user", content, Some(json!("user")), ts));
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
                ("content", Some(text_content(text))),
                ("attribution", Some(json!("agent"))),
                ("historyRewriteAt", ts.clone()),
                ("timestamp", ts),
            ]));
        }
        "compactionSummary" => {
            let (text, extra) = match msg.get("blocks") {
                // Snapcompact archives carry their own lead-in: no template.
                Some(blocks) => (summary_text(&msg), blocks),
                None => {
                    let template = match str_field(&msg, "method") {
                        Some("handoff") => OMP_HANDOFF_TEMPLATE,
                        _ => OMP_COMPACTION_TEMPLATE,
                    };
                    let images = msg.get("images").unwrap_or(&Value::Null);
                    (render_omp_template(template, &summary_text(&msg)), images)
                }
            };
            let mut content = vec![text_block(text)];
            content.extend(extra.as_array().into_iter().flatten().cloned());
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
    let user = |text: String| llm_message("user", text_content(text), None, ts.clone());
    match role(&msg) {
        // `!!command` runs are kept out of the context.
        "bashExecution" if !truthy(msg.get("excludeFromContext")) => {
            out.push(user(run_text(&msg, Dialect::Pi)));
        }
        "custom" => {
            let mut msg = msg;
            let content = take(&mut msg, "content").map_or(Value::Null, llm_content);
            out.push(llm_message("user", content, None, ts.clone()));
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
        "system" | "user" | "assistant" | "toolResult" => out.push(msg),
        _ => {}
    }
}

/// `custom` → `developer` with the exceptions of FORMAT §8.4.
fn convert_custom(mut msg: Value, out: &mut Vec<Value>) {
    let Some(content) = take(&mut msg, "content").filter(is_custom_content) else { return };
    let msg = &msg;
    let ts = msg.get("timestamp").cloned();
    if str_field(msg, "attribution") == Some("user")
        && matches!(str_field(msg, "customType"), Some(COLLAB_PROMPT | SKILL_PROMPT))
    {
        // A collab guest's prompt or a `/skill:` the user typed is the user speaking. (The
        // agent wraps the collab prompt in a steering envelope whose wording varies between
        // releases and is not part of the reference templates; it is sent unwrapped here.)
        out.push(llm_message("user", llm_content(content), Some(json!("user")), ts));
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
        out.push(llm_message("developer", Value::Array(texts), attribution.clone(), ts.clone()));
    }
    let mut user_content =
        vec![text_block(format!("Images attached to {}.", js_string(msg.get("customType"))))];
    user_content.extend(images);
    out.push(llm_message("user", Value::Array(user_content), attribution, ts));
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
    let advisor = str_field(msg, "customType") == Some(ADVISOR);
    let to_user = msg.pointer("/details/messageRole").and_then(Value::as_str) == Some("user");
    let llm_role = if advisor && to_user { "user" } else { "developer" };
    let attribution = msg
        .get("attribution")
        .filter(|a| !a.is_null())
        .cloned()
        .or_else(|| advisor.then(|| json!("agent")));
    out.push(llm_message(llm_role, content, attribution, ts));
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
        out.push(llm_message("developer", text_content(text), Some(json!("user")), ts.clone()));
    }
    if !image_files.is_empty() {
        let text = image_files.iter().map(|f| wrap(f)).collect::<Vec<_>>().join("\n");
        let mut content = vec![text_block(text)];
        content.extend(image_files.iter().filter_map(|f| f.get("image")).cloned());
        out.push(llm_message("user", Value::Array(content), Some(json!("user")), ts));
    }
}

/// An LLM message of `role` with `content`, and `attribution` when it has one.
fn llm_message(role: &str, content: Value, attribution: Option<Value>, ts: Option<Value>) -> Value {
    obj([
        ("role", Some(json!(role))),
        ("content", Some(content)),
        ("attribution", attribution),
        ("timestamp", ts),
    ])
}

/// Content of one text block.
fn text_content(text: String) -> Value {
    Value::Array(vec![text_block(text)])
}

/// Drops the trailing run of unsigned, non-empty thinking blocks (and the empty text
/// placeholders after it) of an interrupted turn: reasoning cut off mid-stream cannot be
/// replayed.
fn strip_interrupted_thinking(msg: &mut Value) {
    let Some(blocks) = msg.get_mut("content").and_then(Value::as_array_mut) else { return };
    let placeholder = |b: &Value| str_field(b, "type") == Some("text") && blank(b.get("text"));
    let cut_off = |b: &Value| {
        str_field(b, "type") == Some("thinking")
            && !blank(b.get("thinking"))
            && !truthy(b.get("thinkingSignature"))
    };
    let scan_end = blocks.iter().rposition(|b| !placeholder(b)).map_or(0, |i| i + 1);
    let run_start = blocks[..scan_end].iter().rposition(|b| !cut_off(b)).map_or(0, |i| i + 1);
    if run_start < scan_end {
        blocks.truncate(run_start);
    }
}

/// A pruned tool result keeps its text joined into the first text block, or
/// `[Output truncated]` when it had none; other blocks stay.
fn pruned_tool_content(content: &[Value]) -> Vec<Value> {
    let is_text = |b: &&Value| str_field(b, "type") == Some("text");
    let joined: String = content.iter().filter(is_text).map(|b| js_string(b.get("text"))).collect();
    let text = if joined.is_empty() { "[Output truncated]".to_owned() } else { joined };
    // Only other blocks come before the first text block: it stays in its place.
    let mut out: Vec<Value> = content.iter().filter(|b| !is_text(b)).cloned().collect();
    out.insert(content.iter().position(|b| is_text(&b)).unwrap_or(0), text_block(text));
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

/// The user-visible text of a `!command` run (both flavours; only the output notice differs)
/// or of an oh-my-pi Python run: what ran, its output and how it ended.
fn run_text(msg: &Value, flavor: Dialect) -> String {
    let (mut text, output_label, [cancelled, failed]) = if role(msg) == "pythonExecution" {
        let code = js_string(msg.get("code"));
        (
            format!("Ran Python:\n```python\n{code}\n```\n"),
            "Output:\n",
            ["execution", "Execution failed"],
        )
    } else {
        let command = js_string(msg.get("command"));
        (format!("Ran `{command}`\n"), "", ["command", "Command exited"])
    };
    match msg.get("output").filter(|o| truthy(Some(o))) {
        Some(output) => {
            text.push_str(&format!("{output_label}```\n{}\n```", js_string(Some(output))));
        }
        None => text.push_str("(no output)"),
    }
    if truthy(msg.get("cancelled")) {
        text.push_str(&format!("\n\n({cancelled} cancelled)"));
    } else if let Some(code) = nonzero_exit_code(msg) {
        text.push_str(&format!("\n\n{failed} with code {code}"));
    }
    match flavor {
        Dialect::Omp => text.push_str(&output_notice(msg.get("meta"))),
        Dialect::Pi if truthy(msg.get("truncated")) && truthy(msg.get("fullOutputPath")) => {
            let path = js_string(msg.get("fullOutputPath"));
            text.push_str(&format!("\n\n[Output truncated. Full output: {path}]"));
        }
        Dialect::Pi => {}
    }
    text
}

/// `exitCode` when it is neither null, missing nor the number 0.
pub(super) fn nonzero_exit_code(msg: &Value) -> Option<String> {
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
    for (key, what) in
        [("matchLimit", "matches"), ("resultLimit", "results"), ("headLimit", "results")]
    {
        if let Some(l) = limit(key) {
            parts.push(format!(
                "{} {what} limit reached. Use limit={} for more",
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
    let (output_lines, total) = (js_string(t.get("outputLines")), js_string(t.get("totalLines")));
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
                "Showing lines {hs}-{he} and {ts}-{te} of {total}; {} middle line{} ({}) elided",
                group_thousands(elided_lines),
                if elided_lines == 1.0 { "" } else { "s" },
                format_bytes(elided_bytes)
            ),
            _ => format!("Showing {output_lines} of {total} lines; middle elided"),
        };
    } else {
        let shown = range("shownRange").filter(|(_, _, r)| {
            let (s, e) =
                (r.get("start").and_then(Value::as_f64), r.get("end").and_then(Value::as_f64));
            matches!((s, e), (Some(s), Some(e)) if e >= s)
        });
        notice = match shown {
            Some((s, e, _)) => format!("Showing lines {s}-{e} of {total}"),
            None => format!("Showing {output_lines} of {total} lines"),
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

pub(super) fn format_bytes(bytes: f64) -> String {
    if bytes < 1024.0 {
        js_number(bytes) + "B"
    } else if bytes < 1024.0 * 1024.0 {
        format!("{:.1}KB", bytes / 1024.0)
    } else {
        format!("{:.1}MB", bytes / (1024.0 * 1024.0))
    }
}

/// `toLocaleString()` of an integer in the `en-US` locale.
pub(super) fn group_thousands(n: f64) -> String {
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
pub(super) fn render_omp_template(template: &str, summary: &str) -> String {
    let text = template.replace("{{summary}}", summary);
    let mut lines: Vec<&str> = Vec::new();
    let mut in_fence = false;
    for line in text.split('\n') {
        let start = line.trim_start();
        let fence = start.starts_with("```") || start.starts_with("~~~");
        in_fence ^= fence;
        lines.push(if in_fence && !fence { line } else { line.trim_end() });
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    lines.join("\n")
}

/// The summary as the template engine sees it: a missing one renders empty.
pub(super) fn summary_text(msg: &Value) -> String {
    match msg.get("summary") {
        None | Some(Value::Null) => String::new(),
        some => js_string(some),
    }
}
