//! Session names as the agents clean, derive and rank them (FORMAT §10): the plan-title
//! humanizer, the control-character cleaning every rename goes through, and the rule that an
//! automatic name never replaces one the user chose.
//!
//! These mirror small JavaScript functions, so JavaScript's string semantics leak in: `trim()`
//! trims ECMAScript white space (not Rust's `char::is_whitespace` set), and the first-letter
//! upper-casing works on a UTF-16 code unit.

use std::fmt;
use std::str::FromStr;

/// The name in effect, as the agents read it (FORMAT §10.2), from what a file holds: a title
/// slot (`Some(None)` for an empty one) decides alone, as oh-my-pi reads it; without one, pi's
/// last `session_info` (a file that has one names like pi), else the header's title.
/// `title_change` entries are the history of renames and never name a session.
pub fn name_in_effect<T>(
    slot: Option<Option<T>>,
    session_info: Option<T>,
    header: Option<T>,
) -> Option<T> {
    match slot {
        Some(title) => title,
        None => session_info.or(header),
    }
}

/// Who set a session name (`titleSource` in the header, `source` in the slot and in
/// `title_change` entries).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TitleSource {
    /// Generated: plan approval, an automatic title, anything not typed by the user.
    Auto,
    /// An explicit rename by the user.
    User,
}

impl TitleSource {
    /// Reads the value as it appears in the file (`"auto"` or `"user"`, exactly).
    pub fn parse(s: &str) -> Option<Self> {
        match s {
            "auto" => Some(TitleSource::Auto),
            "user" => Some(TitleSource::User),
            _ => None,
        }
    }

    /// The value as written to the file.
    pub fn as_str(self) -> &'static str {
        match self {
            TitleSource::Auto => "auto",
            TitleSource::User => "user",
        }
    }
}

impl fmt::Display for TitleSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The error of parsing a [`TitleSource`] from a string other than `auto` or `user`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("invalid title source '{0}' (expected 'auto' or 'user')")]
pub struct InvalidTitleSource(pub String);

impl FromStr for TitleSource {
    type Err = InvalidTitleSource;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        TitleSource::parse(s).ok_or_else(|| InvalidTitleSource(s.to_owned()))
    }
}

/// Whether a name from `new` may replace the current name, whose source is `current` (`None`:
/// no source recorded, e.g. no name yet or a legacy header).
///
/// FORMAT §10.2 step 2: an automatic name never replaces a user name; every other combination
/// is allowed (user over user, auto over auto, anything over nothing).
pub(crate) fn may_replace(current: Option<TitleSource>, new: TitleSource) -> bool {
    !(current == Some(TitleSource::User) && new == TitleSource::Auto)
}

/// Cleans a requested session name as `setSessionName` does (FORMAT §10.2 step 3): every C0
/// and C1 control character (U+0000–U+001F, U+007F–U+009F) becomes a space, runs of spaces
/// collapse to one, and the result is trimmed. `None` when nothing is left, which the agent
/// treats as "rename refused".
pub(crate) fn clean_name(name: &str) -> Option<String> {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().map(|c| if is_control(c) { ' ' } else { c }) {
        // Only U+0020 runs collapse (the agent's `/ +/g`); a tab became a space above, but a
        // no-break space stays and is merely trimmed at the ends.
        if !(c == ' ' && out.ends_with(' ')) {
            out.push(c);
        }
    }
    Some(js_trim(&out).to_owned()).filter(|t| !t.is_empty())
}

/// `humanizePlanTitle` (FORMAT §10.3): every run of `-` and `_` becomes one space, the result
/// is trimmed, and its first character is upper-cased; the rest is left as it is. An input
/// with nothing but separators and white space gives `""`.
pub fn humanize_plan_title(title: &str) -> String {
    let words: Vec<&str> = title.split(['-', '_']).filter(|w| !w.is_empty()).collect();
    let spaced = words.join(" ");
    let mut chars = js_trim(&spaced).chars();
    let Some(first) = chars.next() else { return String::new() };
    // JavaScript upper-cases `charAt(0)`, one UTF-16 code unit. For a character outside the
    // BMP that is a lone high surrogate, which has no case, so such a character stays as is.
    let first: String =
        if u32::from(first) > 0xFFFF { first.into() } else { first.to_uppercase().collect() };
    first + chars.as_str()
}

/// The control characters `setSessionName` blanks out: C0, DEL and C1.
fn is_control(c: char) -> bool {
    matches!(c, '\u{0}'..='\u{1F}' | '\u{7F}'..='\u{9F}')
}

/// White space as ECMAScript's `String.prototype.trim` sees it (WhiteSpace and
/// LineTerminator). It differs from `char::is_whitespace`: U+FEFF counts, U+0085 does not.
fn is_js_whitespace(c: char) -> bool {
    matches!(
        c,
        '\u{9}'..='\u{D}'
            | ' '
            | '\u{A0}'
            | '\u{1680}'
            | '\u{2000}'..='\u{200A}'
            | '\u{2028}'
            | '\u{2029}'
            | '\u{202F}'
            | '\u{205F}'
            | '\u{3000}'
            | '\u{FEFF}'
    )
}

/// `String.prototype.trim`: what the agent's text inputs trim (the tree selector's label
/// prompt, for one).
pub(crate) fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_whitespace)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn humanize_matches_the_reference_table() {
        let table = [
            ("my-feature-plan", "My feature plan"),
            ("my_plan", "My plan"),
            ("a--b__c", "A b c"),
            ("foo--bar__baz", "Foo bar baz"),
            ("migrate-mcp-loader", "Migrate mcp loader"),
            ("fix_session_naming", "Fix session naming"),
            ("RefactorRouter", "RefactorRouter"),
            ("---", ""),
            ("___", ""),
            ("", ""),
            // Mixed runs and edges.
            ("-_-a_-_b-_-", "A b"),
            ("  x  ", "X"),
            // Existing spaces are not collapsed; only separator runs are.
            ("a - b", "A   b"),
            ("- \u{A0}-", ""),
            ("already Upper", "Already Upper"),
            ("9-lives", "9 lives"),
            // Upper-cased like JavaScript. Full case mapping: "ß".toUpperCase() is "SS".
            ("ßtraße", "SStraße"),
            ("élan-vital", "Élan vital"),
            // A non-BMP first character is a surrogate pair to JavaScript: left alone.
            ("\u{10428}-x", "\u{10428} x"),
            ("🚀-launch", "🚀 launch"),
        ];
        for (input, want) in table {
            assert_eq!(humanize_plan_title(input), want, "input {input:?}");
        }
    }

    #[test]
    fn clean_name_blanks_controls_and_collapses_spaces() {
        assert_eq!(clean_name("  Fix\tsession\n\nnaming  ").as_deref(), Some("Fix session naming"));
        assert_eq!(clean_name("a\u{0}\u{1F}\u{7F}\u{85}\u{9F}b").as_deref(), Some("a b"));
        assert_eq!(clean_name("\u{A0}a\u{A0}\u{A0}b\u{FEFF}").as_deref(), Some("a\u{A0}\u{A0}b"));
        assert_eq!(clean_name("\u{A0}").as_deref(), None);
        assert_eq!(clean_name("").as_deref(), None);
        assert_eq!(clean_name(" \r\n\t ").as_deref(), None);
        // U+00A0..: not control characters, kept.
        assert_eq!(clean_name("café ünï").as_deref(), Some("café ünï"));
    }

    #[test]
    fn title_source_round_trips() {
        for s in [TitleSource::Auto, TitleSource::User] {
            assert_eq!(TitleSource::parse(s.as_str()), Some(s));
            assert_eq!(s.as_str().parse::<TitleSource>(), Ok(s));
            assert_eq!(s.to_string(), s.as_str());
        }
        assert_eq!(TitleSource::parse("User"), None);
        assert_eq!(TitleSource::parse(""), None);
        assert!("nope".parse::<TitleSource>().is_err());
    }

    #[test]
    fn auto_never_replaces_user() {
        use TitleSource::{Auto, User};
        assert!(!may_replace(Some(User), Auto));
        assert!(may_replace(Some(User), User));
        assert!(may_replace(Some(Auto), Auto));
        assert!(may_replace(Some(Auto), User));
        assert!(may_replace(None, Auto));
        assert!(may_replace(None, User));
    }
}
