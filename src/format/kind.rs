//! Entry types (FORMAT §2). Unknown types are kept by name so they survive every operation.

/// The `type` of a record.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Kind {
    /// `message`
    Message,
    /// `model_usage`
    ModelUsage,
    /// `thinking_level_change`
    ThinkingLevelChange,
    /// `model_change`
    ModelChange,
    /// `service_tier_change`
    ServiceTierChange,
    /// `compaction`
    Compaction,
    /// `branch_summary`
    BranchSummary,
    /// `custom`
    Custom,
    /// `custom_message`
    CustomMessage,
    /// `label`
    Label,
    /// `archive`
    Archive,
    /// `title_change`
    TitleChange,
    /// `ttsr_injection`
    TtsrInjection,
    /// `session_init`
    SessionInit,
    /// `mode_change`
    ModeChange,
    /// `credential_pin`
    CredentialPin,
    /// `reset_boundary`
    ResetBoundary,
    /// pi-mono's `session_info`
    SessionInfo,
    /// pi's `usage` (billed usage outside model responses, CHANGES P2)
    Usage,
    /// pi's `context_edit` (drops or replaces an earlier entry's context, CHANGES P3)
    ContextEdit,
    /// legacy `mcp_tool_selection`
    McpToolSelection,
    /// `session` (a header, or a stray second header that counts as an entry)
    Session,
    /// Any other string type.
    Other(Box<str>),
    /// No `type`, a non-string `type`, or a record that is not an object.
    Missing,
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
        Kind::known(raw).map(|kind| kind.as_static())
    }

    /// The known kind named by `name`, in the order of FORMAT §2: what lines are compared with
    /// (a name is found for every line of a file, and for many of the words in it). A new kind
    /// is added here and in [`Kind::as_static`]; the compiler then names every other place
    /// that must handle it.
    fn known(name: &[u8]) -> Option<Kind> {
        Some(match name {
            b"message" => Kind::Message,
            b"model_usage" => Kind::ModelUsage,
            b"thinking_level_change" => Kind::ThinkingLevelChange,
            b"model_change" => Kind::ModelChange,
            b"service_tier_change" => Kind::ServiceTierChange,
            b"compaction" => Kind::Compaction,
            b"branch_summary" => Kind::BranchSummary,
            b"custom" => Kind::Custom,
            b"custom_message" => Kind::CustomMessage,
            b"label" => Kind::Label,
            b"archive" => Kind::Archive,
            b"title_change" => Kind::TitleChange,
            b"ttsr_injection" => Kind::TtsrInjection,
            b"session_init" => Kind::SessionInit,
            b"mode_change" => Kind::ModeChange,
            b"credential_pin" => Kind::CredentialPin,
            b"reset_boundary" => Kind::ResetBoundary,
            b"session_info" => Kind::SessionInfo,
            b"usage" => Kind::Usage,
            b"context_edit" => Kind::ContextEdit,
            b"mcp_tool_selection" => Kind::McpToolSelection,
            b"session" => Kind::Session,
            _ => return None,
        })
    }

    /// The `type` string as written (empty for [`Kind::Missing`]).
    pub fn as_str(&self) -> &str {
        match self {
            Kind::Other(name) => name,
            known => known.as_static(),
        }
    }

    /// The name of a known kind (empty for [`Kind::Other`] and [`Kind::Missing`]): the one
    /// list of the names, matched exhaustively, so that a new kind must be named here.
    const fn as_static(&self) -> &'static str {
        match self {
            Kind::Message => "message",
            Kind::ModelUsage => "model_usage",
            Kind::ThinkingLevelChange => "thinking_level_change",
            Kind::ModelChange => "model_change",
            Kind::ServiceTierChange => "service_tier_change",
            Kind::Compaction => "compaction",
            Kind::BranchSummary => "branch_summary",
            Kind::Custom => "custom",
            Kind::CustomMessage => "custom_message",
            Kind::Label => "label",
            Kind::Archive => "archive",
            Kind::TitleChange => "title_change",
            Kind::TtsrInjection => "ttsr_injection",
            Kind::SessionInit => "session_init",
            Kind::ModeChange => "mode_change",
            Kind::CredentialPin => "credential_pin",
            Kind::ResetBoundary => "reset_boundary",
            Kind::SessionInfo => "session_info",
            Kind::Usage => "usage",
            Kind::ContextEdit => "context_edit",
            Kind::McpToolSelection => "mcp_tool_selection",
            Kind::Session => "session",
            Kind::Other(_) | Kind::Missing => "",
        }
    }

    /// "Settings entries" that the default tree filter hides (FORMAT §9.2).
    pub fn is_setting(&self) -> bool {
        match self {
            Kind::Label
            | Kind::Archive
            | Kind::Custom
            | Kind::ModelChange
            | Kind::ModelUsage
            | Kind::ThinkingLevelChange
            | Kind::ServiceTierChange
            | Kind::TitleChange
            | Kind::CredentialPin
            | Kind::SessionInit
            | Kind::TtsrInjection
            | Kind::ModeChange
            | Kind::ResetBoundary
            | Kind::Usage
            | Kind::ContextEdit => true,
            Kind::Message
            | Kind::Compaction
            | Kind::BranchSummary
            | Kind::CustomMessage
            | Kind::SessionInfo
            | Kind::McpToolSelection
            | Kind::Session
            | Kind::Other(_)
            | Kind::Missing => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        // Every known kind, in the order of FORMAT §2.
        let names = "message model_usage thinking_level_change model_change service_tier_change \
            compaction branch_summary custom custom_message label archive title_change \
            ttsr_injection session_init mode_change credential_pin reset_boundary session_info \
            usage context_edit mcp_tool_selection session";
        for name in names.split(' ') {
            let kind = Kind::from_name(name);
            assert!(!matches!(kind, Kind::Other(_)), "{name} is known");
            assert_eq!(kind.as_static(), name);
            assert_eq!(kind.as_str(), name);
            assert_eq!(Kind::known_name(name.as_bytes()), Some(name));
        }
        assert_eq!(Kind::from_name("future_thing").as_str(), "future_thing");
        assert_eq!(Kind::Missing.as_str(), "");
        assert_eq!(Kind::known_name(b"future_thing"), None);
    }
}
