//! `--redact`: API-key-shaped strings and the home directory taken out of what is exported.

use std::borrow::Cow;

use regex::Regex;

/// What `--redact` replaces with.
pub const REDACTED: &str = "[REDACTED]";

/// Replaces secrets and the home directory in transcript text.
#[derive(Debug, Clone)]
pub struct Redactor {
    keys: Regex,
    home: Option<String>,
}

/// The shapes of the keys and tokens people paste or tools print: provider API keys
/// (OpenAI, Anthropic, Google, AWS, GitHub, GitLab, Slack, Stripe, Hugging Face), JWTs, and
/// `Bearer` tokens.
const KEYS: &str = concat!(
    r"sk-(?:ant-|proj-|or-)?[A-Za-z0-9_\-]{20,}",
    r"|gh[pousr]_[A-Za-z0-9]{30,}",
    r"|github_pat_[A-Za-z0-9_]{30,}",
    r"|glpat-[A-Za-z0-9_\-]{20,}",
    r"|AKIA[0-9A-Z]{16}",
    r"|AIza[0-9A-Za-z_\-]{35}",
    r"|xox[abprs]-[A-Za-z0-9\-]{10,}",
    r"|(?:sk|rk|pk)_(?:live|test)_[A-Za-z0-9]{16,}",
    r"|hf_[A-Za-z0-9]{30,}",
    r"|eyJ[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}\.[A-Za-z0-9_\-]{10,}",
    r"|(?i:bearer)\s+[A-Za-z0-9._~+/\-]{20,}=*",
);

impl Redactor {
    /// A redactor that also replaces `home` (a directory, without its trailing `/`) by `~`.
    pub fn new(home: Option<&str>) -> Redactor {
        let home = home.map(|h| h.trim_end_matches('/')).filter(|h| h.len() > 1).map(str::to_owned);
        Redactor { keys: Regex::new(KEYS).expect("the key shapes are a valid pattern"), home }
    }

    /// `text` with its secrets and home directory replaced.
    pub fn apply<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let mut out = self.keys.replace_all(text, REDACTED);
        if let Some(home) = &self.home
            && out.contains(home.as_str())
        {
            let mut s = String::with_capacity(out.len());
            let mut rest: &str = &out;
            while let Some(at) = rest.find(home.as_str()) {
                let after = &rest[at + home.len()..];
                s.push_str(&rest[..at]);
                // `/home/ann` but not `/home/anna`.
                if after.is_empty() || after.starts_with(['/', '"', '\'', ' ', '\n', ':', ')']) {
                    s.push('~');
                } else {
                    s.push_str(home);
                }
                rest = after;
            }
            s.push_str(rest);
            out = Cow::Owned(s);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_home_are_replaced() {
        let r = Redactor::new(Some("/home/ann/"));
        let text = "key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123 in /home/ann/src and /home/anna, \
                    AKIAABCDEFGHIJKLMNOP, ghp_abcdefghijklmnopqrstuvwxyz0123456789, Authorization: Bearer abcdefghijklmnopqrstuvwxyz.0123";
        assert_eq!(
            r.apply(text),
            "key [REDACTED] in ~/src and /home/anna, [REDACTED], [REDACTED], Authorization: [REDACTED]"
        );
    }

    #[test]
    fn ordinary_text_is_left_alone() {
        let r = Redactor::new(None);
        let text = "the task-list in sk-short and a skeleton";
        assert!(matches!(r.apply(text), Cow::Borrowed(_)));
    }
}
