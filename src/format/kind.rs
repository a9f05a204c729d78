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
    /// legacy `mcp_tool_selection`
    McpToolSelection,
    /// `session` (a header, or a stray second header that counts as an entry)
    Session,
    /// Any other string type.
    Other(Box<str>),
    /// No `type`, a non-string `type`, or a record that is not an object.
    Missing,
}

const NAMES: &[(&str, Kind)] = &[
    ("message", Kind::Message),
    ("model_usage", Kind::ModelUsage),
    ("thinking_level_change", Kind::ThinkingLevelChange),
    ("model_change", Kind::ModelChange),
    ("service_tier_change", Kind::ServiceTierChange),
    ("compaction", Kind::Compaction),
    ("branch_summary", Kind::BranchSummary),
    ("custom", Kind::Custom),
    ("custom_message", Kind::CustomMessage),
    ("label", Kind::Label),
    ("archive", Kind::Archive),
    ("title_change", Kind::TitleChange),
    ("ttsr_injection", Kind::TtsrInjection),
    ("session_init", Kind::SessionInit),
    ("mode_change", Kind::ModeChange),
    ("credential_pin", Kind::CredentialPin),
    ("reset_boundary", Kind::ResetBoundary),
    ("session_info", Kind::SessionInfo),
    ("mcp_tool_selection", Kind::McpToolSelection),
    ("session", Kind::Session),
];

impl Kind {
    /// The kind for a `type` string.
    pub fn from_name(name: &str) -> Kind {
        NAMES
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, k)| k.clone())
            .unwrap_or_else(|| Kind::Other(name.into()))
    }

    /// The name of a known type, as a static string: `None` for any other name.
    pub fn known_name(name: &str) -> Option<&'static str> {
        Kind::known_name_bytes(name.as_bytes())
    }

    /// [`Kind::known_name`] of a string's bytes as written: a known name has neither escapes
    /// nor anything but ASCII, so bytes that are one need no decoding.
    pub fn known_name_bytes(raw: &[u8]) -> Option<&'static str> {
        NAMES.iter().find(|(n, _)| n.as_bytes() == raw).map(|(n, _)| *n)
    }

    /// The `type` string as written (empty for [`Kind::Missing`]).
    pub fn as_str(&self) -> &str {
        match self {
            Kind::Other(name) => name,
            Kind::Missing => "",
            known => NAMES.iter().find(|(_, k)| k == known).map(|(n, _)| *n).unwrap_or(""),
        }
    }

    /// "Settings entries" that the default tree filter hides (FORMAT §9.2).
    pub fn is_setting(&self) -> bool {
        matches!(
            self,
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
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for (name, kind) in NAMES {
            assert_eq!(Kind::from_name(name), *kind);
            assert_eq!(kind.as_str(), *name);
        }
        assert_eq!(Kind::from_name("future_thing").as_str(), "future_thing");
        assert_eq!(Kind::Missing.as_str(), "");
    }
}
