//! pi's system messages (CHANGES R1): the first declares the prompt and the tools, each later
//! one patches them. Ported from pi-ai 1.6.0 `utils/transcript.js` and `utils/text.js`, which
//! the context, `show` and `export` share to show a person the one prompt in effect.

use super::*;

/// `contentText`: a string as it is, else the text blocks' texts, one per line.
fn content_text(content: Option<&Value>) -> String {
    match content {
        Some(Value::String(text)) => text.clone(),
        Some(Value::Array(blocks)) => blocks
            .iter()
            .filter(|b| str_field(b, "type") == Some("text"))
            // `Array.join` writes a missing or null text as nothing.
            .map(|b| {
                b.get("text")
                    .filter(|t| !t.is_null())
                    .map_or_else(String::new, |t| js_string(Some(t)))
            })
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// `getCurrentTools`: the tools after every system message's removals (by name) and
/// additions (by name, a later one replacing an earlier one in its place), in order.
fn current_tools(messages: &[Value]) -> Vec<Value> {
    let mut tools = Map::new();
    for message in messages.iter().filter(|m| role(m) == "system") {
        for tool in array_field(message, "toolsRemoved") {
            tools.shift_remove(&id_key(tool.get("name")));
        }
        for tool in array_field(message, "toolsAdded") {
            tools.insert(id_key(tool.get("name")), tool.clone());
        }
    }
    tools.into_iter().map(|(_, tool)| tool).collect()
}

/// `getCurrentSystemMessage`: every system message of `messages` replayed into one. The
/// texts of their `content` are joined by a blank line, `sections` are set by name (`null`
/// deletes one), the tools are those `current_tools` replays, the timestamp the first one given. `None`
/// when there is no system message and no tool.
pub fn current_system_message(messages: &[Value]) -> Option<Value> {
    let mut content = Vec::new();
    let mut sections = Map::new();
    let mut timestamp: Option<&Value> = None;
    for message in messages.iter().filter(|m| role(m) == "system") {
        if timestamp.is_none() {
            timestamp = message.get("timestamp").filter(|t| !t.is_null());
        }
        let text = content_text(message.get("content"));
        if !text.is_empty() {
            content.push(text);
        }
        for (name, value) in
            message.get("sections").and_then(Value::as_object).into_iter().flatten()
        {
            match value {
                Value::Null => sections.shift_remove(name),
                value => sections.insert(name.clone(), value.clone()),
            };
        }
    }
    let tools = current_tools(messages);
    if timestamp.is_none() && tools.is_empty() {
        return None;
    }
    Some(obj([
        ("role", Some(json!("system"))),
        ("content", Some(Value::String(content.join("\n\n")))),
        ("sections", (!sections.is_empty()).then_some(Value::Object(sections))),
        ("toolsAdded", (!tools.is_empty()).then_some(Value::Array(tools))),
        ("timestamp", Some(timestamp.cloned().unwrap_or(json!(0)))),
    ]))
}

/// `collapseSystemMessages`: the messages as a provider without mid-conversation system
/// messages gets them: the folded system message first, the others without theirs.
pub fn collapse_system_messages(messages: Vec<Value>) -> Vec<Value> {
    let head = current_system_message(&messages);
    head.into_iter().chain(messages.into_iter().filter(|m| role(m) != "system")).collect()
}

/// `getSystemMessageText`: a system message as one prompt, its content then its sections,
/// the non-empty ones joined by a blank line.
pub fn system_message_text(message: &Value) -> String {
    let content = content_text(message.get("content"));
    let sections = message.get("sections").and_then(Value::as_object);
    let sections = sections.into_iter().flatten().filter_map(|(_, v)| v.as_str());
    let parts: Vec<&str> = std::iter::once(content.as_str()).chain(sections).collect();
    parts.into_iter().filter(|p| !p.is_empty()).collect::<Vec<_>>().join("\n\n")
}

/// `renderSystemMessageUpdate`: what a later system message changes, as text: its content,
/// then each section it sets (`Updated system prompt section "NAME":` and the text) or deletes
/// (`Removed system prompt section "NAME".`), joined by a blank line.
pub fn system_update_text(message: &Value) -> String {
    let content = content_text(message.get("content"));
    let sections = message.get("sections").and_then(Value::as_object).into_iter().flatten();
    let sections = sections.map(|(name, value)| match value {
        Value::Null => format!("Removed system prompt section \"{name}\"."),
        value => format!("Updated system prompt section \"{name}\":\n\n{}", js_string(Some(value))),
    });
    let content = (!content.is_empty()).then_some(content);
    content.into_iter().chain(sections).collect::<Vec<_>>().join("\n\n")
}

/// What a later system message changes, in a few words, as pi 1.6.0's HTML export says it
/// (`describeSystemUpdate`): `instructions` for content, each section set (`NAME`) or deleted
/// (`-NAME`), and `tools +ADDED -REMOVED`.
pub fn system_update_summary(message: &Value) -> String {
    let mut parts = Vec::new();
    if !content_text(message.get("content")).is_empty() {
        parts.push("instructions".to_owned());
    }
    for (name, value) in message.get("sections").and_then(Value::as_object).into_iter().flatten() {
        parts.push(if value.is_null() { format!("-{name}") } else { name.clone() });
    }
    let added = tool_names(message, "toolsAdded").into_iter().map(|n| format!("+{n}"));
    let removed = tool_names(message, "toolsRemoved").into_iter().map(|n| format!("-{n}"));
    let tools: Vec<String> = added.chain(removed).collect();
    if !tools.is_empty() {
        parts.push(format!("tools {}", tools.join(" ")));
    }
    parts.join(", ")
}

/// The names of the tools a system message's `key` (`toolsAdded`, `toolsRemoved`) lists.
pub fn tool_names(message: &Value, key: &str) -> Vec<String> {
    array_field(message, key).iter().map(|t| js_string(t.get("name"))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(name: &str) -> Value {
        json!({"name": name, "description": name, "parameters": {}})
    }

    /// The patch stream of pi 1.6.0's own test data (tests/fixtures/pi-1.6.0/
    /// pi-system-patches.jsonl): what `getCurrentSystemMessage` gives for it.
    #[test]
    fn folds_like_get_current_system_message() {
        let messages = [
            json!({"role": "system", "content": "You are pi.", "sections": {"rules": "Be brief.",
                "env": "cwd /w"}, "toolsAdded": [tool("read"), tool("bash")], "timestamp": 5}),
            json!({"role": "user", "content": "Hello.", "timestamp": 6}),
            json!({"role": "system", "content": [{"type": "text", "text": "Also"}, {"type": "image"},
                {"type": "text", "text": "be kind."}], "sections": {"env": null, "skills": "none"},
                "toolsAdded": [tool("edit")], "toolsRemoved": [{"name": "bash"}], "timestamp": 7}),
            json!({"role": "system", "content": "", "sections": {"rules": "Be very brief."}, "toolsAdded": [tool("read")]}),
        ];
        let folded = current_system_message(&messages).unwrap();
        assert_eq!(
            folded,
            json!({"role": "system", "content": "You are pi.\n\nAlso\nbe kind.",
                "sections": {"rules": "Be very brief.", "skills": "none"},
                "toolsAdded": [tool("read"), tool("edit")], "timestamp": 5})
        );
        assert_eq!(
            system_message_text(&folded),
            "You are pi.\n\nAlso\nbe kind.\n\nBe very brief.\n\nnone"
        );
        let collapsed = collapse_system_messages(messages.to_vec());
        assert_eq!(collapsed.iter().map(role).collect::<Vec<_>>(), ["system", "user"]);
        assert_eq!(collapsed[0], folded);
        assert_eq!(tool_names(&folded, "toolsAdded"), ["read", "edit"]);
    }

    #[test]
    fn a_patch_reads_as_pi_renders_it() {
        let patch = json!({"role": "system", "content": "Also be kind.",
            "sections": {"env": null, "skills": "none"},
            "toolsAdded": [tool("edit")], "toolsRemoved": [{"name": "bash"}]});
        assert_eq!(
            system_update_text(&patch),
            "Also be kind.\n\nRemoved system prompt section \"env\".\n\n\
             Updated system prompt section \"skills\":\n\nnone"
        );
        assert_eq!(system_update_summary(&patch), "instructions, -env, skills, tools +edit -bash");
        let tools_only =
            json!({"role": "system", "content": "", "toolsRemoved": [{"name": "read"}]});
        assert_eq!(system_update_text(&tools_only), "");
        assert_eq!(system_update_summary(&tools_only), "tools -read");
    }

    #[test]
    fn no_system_message_folds_to_none() {
        assert_eq!(current_system_message(&[json!({"role": "user", "content": "x"})]), None);
        // A system message without a timestamp and without tools folds to nothing, as in pi.
        assert_eq!(current_system_message(&[json!({"role": "system", "content": "x"})]), None);
        let only_tools = [json!({"role": "system", "content": "", "toolsAdded": [tool("read")]})];
        assert_eq!(current_system_message(&only_tools).unwrap()["timestamp"], 0);
    }
}
