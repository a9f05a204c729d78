//! Entry types (FORMAT §2) and what sesstree knows of each, in one table: a new kind is one
//! row of `kinds!` below (plus what its row and payload read, `row/entry.rs`). Unknown types
//! are kept by name so they survive every operation.

/// What an entry is to a reader. Kinds of one class are read alike wherever they are not named
/// one by one; the conversation's classes (message, custom message, summary) are read kind by
/// kind where a payload is shown or sent to the model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// A turn of the conversation: a user, assistant, tool or other role's message.
    Message,
    /// An extension's message, which reaches the model as a `custom` role message.
    CustomMessage,
    /// What stands for a stretch of the conversation: a compaction or a branch summary.
    Summary,
    /// What changes the agent's state or records an event outside a turn (model, thinking
    /// level, usage, extension state, …).
    Setting,
    /// A name for the session or a label on an entry, appended at the leaf: `@` steps over it
    /// ([`crate::session::Session::position`]).
    Bookkeeping,
    /// What no current agent reads: a legacy type, a stray header, an unknown type, a record
    /// without one.
    Opaque,
}

/// Which agents write a kind: a kind only one of them writes tells which wrote the file
/// (CHANGES R8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Writers {
    /// pi and oh-my-pi.
    Both,
    /// pi only (pi 1.6.0 `session-manager.js`; `session_info` since pi-mono).
    Pi,
    /// oh-my-pi only (18.2.3 `src/session/session-entries.ts`).
    Omp,
    /// No agent any more: older oh-my-pi wrote it.
    Legacy,
    /// Not known: a type sesstree does not know, or none.
    Unknown,
}

/// One row of the table: what sesstree knows of a kind.
struct Row {
    name: &'static str,
    class: Class,
    writers: Writers,
    sets_state: bool,
    setting: bool,
}

/// The table of kinds. Each row is `Variant "type" Class Writers state setting;`, where
/// `state` says that the context tracks what the entry sets along the whole path (FORMAT
/// §8.2) and `setting` that the default tree filter hides it (FORMAT §9.2). The row makes the
/// variant, its place in [`Kind::ALL`], its name both ways, and its properties.
macro_rules! kinds {
    ($($(#[$doc:meta])* $variant:ident $name:literal $class:ident $writers:ident $state:literal
        $setting:literal;)*) => {
        /// The `type` of a record.
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub enum Kind {
            $(#[doc = concat!("`", $name, "`")] $(#[$doc])* $variant,)*
            /// Any other string type.
            Other(Box<str>),
            /// No `type`, a non-string `type`, or a record that is not an object.
            Missing,
        }

        impl Kind {
            /// Every known kind, in the table's order: what tests that must cover every kind
            /// iterate, so that a new kind cannot be left out of them.
            pub const ALL: &[Kind] = &[$(Kind::$variant),*];

            /// The known kind named by `name`, compared in the table's order: what lines are
            /// compared with (a name is found for every line of a file, and for many of the
            /// words in it), so the most frequent kinds come first.
            fn known(name: &[u8]) -> Option<Kind> {
                $(if name == $name.as_bytes() {
                    return Some(Kind::$variant);
                })*
                None
            }

            /// The kind's row of the table (an empty-named opaque row for [`Kind::Other`] and
            /// [`Kind::Missing`]).
            const fn row(&self) -> Row {
                match self {
                    $(Kind::$variant => Row {
                        name: $name,
                        class: Class::$class,
                        writers: Writers::$writers,
                        sets_state: $state,
                        setting: $setting,
                    },)*
                    Kind::Other(_) | Kind::Missing => Row {
                        name: "",
                        class: Class::Opaque,
                        writers: Writers::Unknown,
                        sets_state: false,
                        setting: false,
                    },
                }
            }
        }
    };
}

// In the order of FORMAT §2, then pi's kinds, the legacy one and the header.
kinds! {
//  variant             type                     class          writers  state  setting
    Message             "message"                Message        Both     false  false;
    ModelUsage          "model_usage"            Setting        Omp      false  true;
    ThinkingLevelChange "thinking_level_change"  Setting        Both     true   true;
    ModelChange         "model_change"           Setting        Both     true   true;
    ServiceTierChange   "service_tier_change"    Setting        Omp      true   true;
    Compaction          "compaction"             Summary        Both     false  false;
    BranchSummary       "branch_summary"         Summary        Both     false  false;
    Custom              "custom"                 Setting        Both     false  true;
    CustomMessage       "custom_message"         CustomMessage  Both     false  false;
    Label               "label"                  Bookkeeping    Both     false  true;
    /// (from an unmerged oh-my-pi pull request, #8301: no released agent writes it, CHANGES R7)
    Archive             "archive"                Setting        Omp      false  true;
    TitleChange         "title_change"           Bookkeeping    Omp      false  true;
    TtsrInjection       "ttsr_injection"         Setting        Omp      true   true;
    SessionInit         "session_init"           Setting        Omp      false  true;
    ModeChange          "mode_change"            Setting        Omp      true   true;
    CredentialPin       "credential_pin"         Setting        Omp      false  true;
    ResetBoundary       "reset_boundary"         Setting        Omp      false  true;
    /// (pi's session name; a setting, as pi 1.6.0's and 0.73.1's tree selector hide it by default)
    SessionInfo         "session_info"           Bookkeeping    Pi       false  true;
    /// (pi's billed usage outside model responses, CHANGES P2)
    Usage               "usage"                  Setting        Pi       false  true;
    /// (pi's: drops or replaces an earlier entry's context, CHANGES P3)
    ContextEdit         "context_edit"           Setting        Pi       false  true;
    /// (older oh-my-pi's MCP tool selection, tracked as context state)
    McpToolSelection    "mcp_tool_selection"     Opaque         Legacy   true   false;
    /// (a header, or a stray second header that counts as an entry)
    Session             "session"                Opaque         Both     false  false;
}

impl Kind {
    /// The kind for a `type` string.
    pub(crate) fn from_name(name: &str) -> Kind {
        Kind::known(name.as_bytes()).unwrap_or_else(|| Kind::Other(name.into()))
    }

    /// The name of a known type, as a static string, from a string's bytes as written (a known
    /// name has neither escapes nor anything but ASCII, so bytes that are one need no decoding):
    /// `None` for any other name.
    pub(crate) fn known_name(raw: &[u8]) -> Option<&'static str> {
        Kind::known(raw).map(|kind| kind.row().name)
    }

    /// The `type` string as written (empty for [`Kind::Missing`]).
    pub fn as_str(&self) -> &str {
        match self {
            Kind::Other(name) => name,
            known => known.row().name,
        }
    }

    /// What an entry of this kind is to a reader.
    pub const fn class(&self) -> Class {
        self.row().class
    }

    /// Which agents write this kind.
    pub const fn writers(&self) -> Writers {
        self.row().writers
    }

    /// Whether the context tracks what an entry of this kind sets along the whole path, before
    /// the first entry it shows too (FORMAT §8.2).
    pub const fn sets_state(&self) -> bool {
        self.row().sets_state
    }

    /// "Settings entries" that the default tree filter hides (FORMAT §9.2).
    pub const fn is_setting(&self) -> bool {
        self.row().setting
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use serde_json::Value;

    use super::*;

    /// One entry of each known kind, as the agents write them: FORMAT §2.1's examples, pi's
    /// kinds as pi 1.6.0's `session-manager.js` appends them, the legacy one and a header.
    const EXAMPLES: &[&str] = &[
        r#"{"type":"message","id":"a1b2c3d4","parentId":null,"timestamp":"2026-02-16T10:21:00.000Z","message":{"role":"user","content":"Add a --json flag","timestamp":1771237260000}}"#,
        r#"{"type":"thinking_level_change","id":"d4e5f6a7","parentId":"c3d4e5f6","timestamp":"2026-02-16T10:22:00.000Z","thinkingLevel":"high","configured":"auto"}"#,
        r#"{"type":"model_change","id":"e5f6a7b8","parentId":"d4e5f6a7","timestamp":"2026-02-16T10:22:01.000Z","model":"openai/gpt-5","role":"default","resolvedModelIsFallback":false}"#,
        r#"{"type":"service_tier_change","id":"f6a7b8c9","parentId":"e5f6a7b8","timestamp":"2026-02-16T10:22:02.000Z","serviceTier":{"openai":"priority"}}"#,
        r#"{"type":"mode_change","id":"a7b8c9d0","parentId":"f6a7b8c9","timestamp":"2026-02-16T10:22:03.000Z","mode":"plan","data":{"planFile":"local://auth-plan.md"}}"#,
        r#"{"type":"compaction","id":"b8c9d0e1","parentId":"a7b8c9d0","timestamp":"2026-02-16T10:23:00.000Z","summary":"Conversation summary","shortSummary":"Short recap","firstKeptEntryId":"c3d4e5f6","tokensBefore":42000}"#,
        r#"{"type":"branch_summary","id":"c9d0e1f2","parentId":"a1b2c3d4","timestamp":"2026-02-16T10:24:00.000Z","fromId":"a1b2c3d4","summary":"The user explored …","details":{"readFiles":["src/a.rs"],"modifiedFiles":[]}}"#,
        r#"{"type":"custom","customType":"com.example.state","data":{"n":1},"id":"e1f2a3b4","parentId":"c9d0e1f2","timestamp":"2026-02-16T10:25:00.000Z"}"#,
        r#"{"type":"custom_message","customType":"my-extension","content":"Injected context","display":true,"details":{"debug":false},"attribution":"agent","id":"f2a3b4c5","parentId":"e1f2a3b4","timestamp":"2026-02-16T10:26:00.000Z"}"#,
        r#"{"type":"label","id":"a3b4c5d6","parentId":"f2a3b4c5","timestamp":"2026-02-16T10:27:00.000Z","targetId":"a1b2c3d4","label":"checkpoint"}"#,
        r#"{"type":"archive","id":"c5d6e7f8","parentId":"b4c5d6e7","timestamp":"2026-02-16T10:28:00.000Z","targetId":"0a1b2c3d","archived":true}"#,
        r#"{"type":"title_change","id":"d6e7f8a9","parentId":"c5d6e7f8","timestamp":"2026-02-16T10:29:00.000Z","title":"Json flag","source":"auto","previousTitle":"Old name","trigger":"plan-approved"}"#,
        r#"{"type":"ttsr_injection","id":"e7f8a9b0","parentId":"d6e7f8a9","timestamp":"2026-02-16T10:30:00.000Z","injectedRules":["no-console","hard-tabs"]}"#,
        r#"{"type":"credential_pin","id":"f8a9b0c1","parentId":"e7f8a9b0","timestamp":"2026-02-16T10:31:00.000Z","provider":"anthropic","hash":"3f1c"}"#,
        r#"{"type":"session_init","id":"a9b0c1d2","parentId":null,"timestamp":"2026-02-16T10:32:00.000Z","systemPrompt":["…"],"task":"List files.","tools":["read"]}"#,
        r#"{"type":"model_usage","id":"b0c1d2e3","parentId":"a1b2c3d4","timestamp":"2026-02-16T10:33:00.000Z","purpose":"auto-thinking","role":"smol","api":"anthropic-messages","provider":"anthropic","model":"claude-haiku-4-5","usage":{"input":11,"output":2,"cacheRead":3,"cacheWrite":0,"totalTokens":16,"cost":{"input":0.0011,"output":0.0004,"cacheRead":0.00003,"cacheWrite":0,"total":0.00153}},"stopReason":"stop"}"#,
        r#"{"type":"reset_boundary","id":"c1d2e3f4","parentId":"f8a9b0c1","timestamp":"2026-02-16T10:34:00.000Z"}"#,
        r#"{"type":"session_info","id":"d2e3f4a5","parentId":"c1d2e3f4","timestamp":"2026-02-16T10:35:00.000Z","name":"Json flag"}"#,
        r#"{"type":"usage","id":"e3f4a5b6","parentId":"d2e3f4a5","timestamp":"2026-02-16T10:36:00.000Z","kind":"compaction","provider":"anthropic","model":"claude-haiku-4-5","usage":{"input":11,"output":2,"cacheRead":0,"cacheWrite":0,"totalTokens":13,"cost":{"input":0.0011,"output":0.0004,"cacheRead":0,"cacheWrite":0,"total":0.0015}}}"#,
        r#"{"type":"context_edit","id":"f4a5b6c7","parentId":"e3f4a5b6","timestamp":"2026-02-16T10:37:00.000Z","targetId":"a1b2c3d4","replacement":null}"#,
        r#"{"type":"mcp_tool_selection","id":"a5b6c7d8","parentId":"f4a5b6c7","timestamp":"2026-02-16T10:38:00.000Z","selectedToolNames":["read"]}"#,
        r#"{"type":"session","version":3,"id":"0191d0c8-7d3c-7000-8000-000000000000","timestamp":"2026-02-16T10:20:00.000Z","cwd":"/work"}"#,
    ];

    /// The example entry of `kind` (one of [`EXAMPLES`]): what tests that must hold for every
    /// kind of [`Kind::ALL`] run on. Panics for a kind without one, so that they fail until a
    /// new kind has its example.
    pub(crate) fn example(kind: &Kind) -> Value {
        EXAMPLES
            .iter()
            .map(|line| serde_json::from_str::<Value>(line).expect("an example is JSON"))
            .find(|entry| entry["type"] == kind.as_str())
            .unwrap_or_else(|| panic!("no example entry of kind `{}`: add one", kind.as_str()))
    }

    #[test]
    fn every_kind_has_one_example() {
        for kind in Kind::ALL {
            example(kind);
        }
        assert_eq!(EXAMPLES.len(), Kind::ALL.len());
    }

    /// The names of the kinds in `ALL` that `keep` keeps.
    fn names(keep: impl Fn(&Kind) -> bool) -> Vec<&'static str> {
        Kind::ALL.iter().filter(|k| keep(k)).map(|k| k.row().name).collect()
    }

    #[test]
    fn names_round_trip() {
        for kind in Kind::ALL {
            let name = kind.as_str();
            assert!(!name.is_empty(), "{kind:?} has a name");
            assert_eq!(&Kind::from_name(name), kind);
            assert_eq!(Kind::known_name(name.as_bytes()), Some(name));
        }
        let mut unique = names(|_| true);
        unique.sort_unstable();
        unique.dedup();
        assert_eq!(unique.len(), Kind::ALL.len(), "every name is one kind's");
        assert_eq!(Kind::from_name("future_thing").as_str(), "future_thing");
        assert_eq!(Kind::Missing.as_str(), "");
        assert_eq!(Kind::known_name(b"future_thing"), None);
        for unknown in [Kind::from_name("future_thing"), Kind::Missing] {
            assert_eq!(unknown.class(), Class::Opaque);
            assert_eq!(unknown.writers(), Writers::Unknown);
            assert!(!unknown.sets_state() && !unknown.is_setting());
        }
    }

    /// The conversation's kinds are read kind by kind where a payload is shown or sent to the
    /// model: a new one needs its own arm in `context::build::message`, `export::view_of` and
    /// `grep::text`, which fall through to "nothing to read" for every other kind.
    #[test]
    fn the_conversations_kinds_are_the_ones_read_by_name() {
        let conversation =
            |k: &Kind| matches!(k.class(), Class::Message | Class::CustomMessage | Class::Summary);
        assert_eq!(
            names(conversation),
            ["message", "compaction", "branch_summary", "custom_message"]
        );
    }

    #[test]
    fn settings_are_format_9_2s_and_pis() {
        // FORMAT §9.2's thirteen, then pi's usage, context_edit and session_info (pi 1.6.0's
        // tree selector, dist/modes/interactive/components/tree-selector.js, hides these three
        // by default; 0.73.1's session_info too).
        let mut settings = names(Kind::is_setting);
        settings.sort_unstable();
        let mut want = [
            "label",
            "archive",
            "custom",
            "model_change",
            "model_usage",
            "thinking_level_change",
            "service_tier_change",
            "title_change",
            "credential_pin",
            "session_init",
            "ttsr_injection",
            "mode_change",
            "reset_boundary",
            "usage",
            "context_edit",
            "session_info",
        ];
        want.sort_unstable();
        assert_eq!(settings, want);
    }
}
