//! Which raw lines a pattern may match, before any of them is parsed.
//!
//! A pattern is matched on an entry's decoded text, and a JSON writer may write any character
//! of it escaped: `"` `\` and control characters always, `/` as `\/` at will, anything as
//! `\uXXXX`. So the prefilter only ever says "maybe": it takes the literals every match must
//! hold (a prefix or suffix set, from `regex-syntax`), cuts each at the characters a writer may
//! write as a short escape (`\"`, `\\`, `\/`, `\n`…), and keeps the longest piece of each; a line
//! may match when it holds one of those pieces as written, or holds `\u` anywhere (where any
//! character may hide). Under case-insensitive matching the pieces are also cut at every
//! non-ASCII byte and at `k` and `s`, whose case folds reach beyond ASCII (K, ſ), and searched
//! ignoring ASCII case.

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use memchr::memmem;
use regex_syntax::hir::Hir;
use regex_syntax::hir::literal::{ExtractKind, Extractor};

/// The raw-line test of a pattern: no searcher when every line may match.
#[derive(Debug, Clone)]
pub struct Prefilter {
    /// Each finds the next place where a line may match; the earliest of them counts.
    searchers: Vec<Searcher>,
    /// The needles searched (but `\u`); none when every line may match.
    needles: Vec<Vec<u8>>,
}

#[derive(Debug, Clone)]
enum Searcher {
    /// One needle, as written.
    Exact(Box<memmem::Finder<'static>>),
    /// Any of several needles, ignoring ASCII case.
    Folded(AhoCorasick),
}

impl Searcher {
    fn find(&self, haystack: &[u8]) -> Option<usize> {
        match self {
            Searcher::Exact(finder) => finder.find(haystack),
            Searcher::Folded(finder) => finder.find(haystack).map(|m| m.start()),
        }
    }
}

impl Prefilter {
    /// The prefilter of the pattern `hir`, parsed case-sensitively; `ignore_case` says it is
    /// matched ignoring case.
    pub fn new(hir: &Hir, ignore_case: bool) -> Prefilter {
        let needles = [ExtractKind::Prefix, ExtractKind::Suffix]
            .into_iter()
            .filter_map(|kind| needles(hir, kind, ignore_case))
            .max_by_key(|needles| needles.iter().map(Vec::len).min().unwrap_or(0));
        let Some(needles) = needles else { return Prefilter::any() };
        let exact = |n: &[u8]| Searcher::Exact(Box::new(memmem::Finder::new(n).into_owned()));
        let mut searchers: Vec<Searcher> = if ignore_case {
            let Ok(folded) = AhoCorasickBuilder::new()
                .ascii_case_insensitive(true)
                .match_kind(MatchKind::LeftmostFirst)
                .build(&needles)
            else {
                return Prefilter::any();
            };
            vec![Searcher::Folded(folded)]
        } else {
            needles.iter().map(|n| exact(n)).collect()
        };
        // Where any character may hide.
        searchers.push(exact(b"\\u"));
        Prefilter { searchers, needles }
    }

    /// Every line may match.
    pub fn any() -> Prefilter {
        Prefilter { searchers: Vec::new(), needles: Vec::new() }
    }

    /// Whether a needle may lie outside the strings of a value serde_json writes as JSON text:
    /// one made of nothing but punctuation, digits and the letters of numbers, `true`, `false`
    /// and `null` (in either case), or any needle when every line may match. A needle holds
    /// no `"` (it is cut there), so one that may not lies inside one string of such a text.
    pub fn may_match_outside_strings(&self) -> bool {
        let outside = |b: &u8| b"{}[]:,0123456789+-.etrufalsn".contains(&b.to_ascii_lowercase());
        self.is_any() || self.needles.iter().any(|n| n.iter().all(outside))
    }

    /// Whether every line may match (no literal narrows them).
    pub fn is_any(&self) -> bool {
        self.searchers.is_empty()
    }

    /// A search through `haystack` from its start on, for the places where a line may match.
    pub fn cursor<'p, 'h>(&'p self, haystack: &'h [u8]) -> Cursor<'p, 'h> {
        Cursor { prefilter: self, haystack, next: vec![None; self.searchers.len()] }
    }

    /// Where in `haystack` the first byte is that may belong to a matching line; `None` when no
    /// line of it can match.
    pub fn find(&self, haystack: &[u8]) -> Option<usize> {
        self.cursor(haystack).next(0)
    }
}

/// The places of a haystack where a line may match, in order ([`Prefilter::cursor`]). Each
/// searcher's next find is kept until the search passes it: a rare needle beside a common one
/// is not searched for again at every find of the common one.
#[derive(Debug)]
pub struct Cursor<'p, 'h> {
    prefilter: &'p Prefilter,
    haystack: &'h [u8],
    /// Each searcher's next find at or after the last `at` (`Some(len)`: none).
    next: Vec<Option<usize>>,
}

impl Cursor<'_, '_> {
    /// The first place at or after `at` where a line may match; `at` never goes back.
    pub fn next(&mut self, at: usize) -> Option<usize> {
        let len = self.haystack.len();
        if at >= len {
            return None;
        }
        if self.prefilter.is_any() {
            return Some(at);
        }
        let mut first = len;
        for (searcher, next) in self.prefilter.searchers.iter().zip(&mut self.next) {
            let found = match *next {
                Some(p) if p >= at => p,
                _ => searcher.find(&self.haystack[at..]).map_or(len, |p| at + p),
            };
            *next = Some(found);
            first = first.min(found);
        }
        (first < len).then_some(first)
    }
}

/// The longest piece of each literal of the `kind` set, deduplicated; `None` when the set is
/// infinite or a literal has no piece (every line may match).
fn needles(hir: &Hir, kind: ExtractKind, ignore_case: bool) -> Option<Vec<Vec<u8>>> {
    let seq = Extractor::new().kind(kind).extract(hir);
    let mut needles: Vec<Vec<u8>> = Vec::new();
    for literal in seq.literals()? {
        // Invalid UTF-8 reads as U+FFFD, which the raw line does not hold as written.
        if literal.as_bytes().windows(3).any(|w| w == "\u{fffd}".as_bytes()) {
            return None;
        }
        let piece = longest_piece(literal.as_bytes(), ignore_case);
        if piece.is_empty() {
            return None;
        }
        if !needles.iter().any(|n| n == piece) {
            needles.push(piece.to_vec());
        }
    }
    (!needles.is_empty()).then_some(needles)
}

/// The longest run of `literal` without a byte a writer may escape ([`may_be_escaped`]).
fn longest_piece(literal: &[u8], ignore_case: bool) -> &[u8] {
    literal
        .split(|&b| may_be_escaped(b, ignore_case))
        .max_by_key(|piece| piece.len())
        .unwrap_or_default()
}

/// Whether a byte of a literal may stand in the raw line as something else: written as a short
/// escape, or (ignoring case) the byte of a character whose case folds leave ASCII.
fn may_be_escaped(b: u8, ignore_case: bool) -> bool {
    let short_escape = matches!(b, b'"' | b'\\' | b'/') || b < 0x20 || b == 0x7f;
    short_escape || (ignore_case && (b >= 0x80 || matches!(b | 0x20, b'k' | b's')))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hir(pattern: &str) -> Hir {
        regex_syntax::ParserBuilder::new().build().parse(pattern).unwrap()
    }

    #[test]
    fn the_longest_piece_of_each_literal_is_searched() {
        assert_eq!(longest_piece(b"say \"hello world\"", false), b"hello world");
        assert_eq!(longest_piece(b"a/b/cdef", false), b"cdef");
        assert_eq!(longest_piece("déjà vu".as_bytes(), false), "déjà vu".as_bytes());
        assert_eq!(longest_piece("déjà vu".as_bytes(), true), b" vu");
        assert_eq!(longest_piece(b"kiss", true), b"i");
        assert_eq!(longest_piece(b"\"\\", false), b"");
    }

    #[test]
    fn patterns_without_a_literal_let_every_line_through() {
        for pattern in [".*", "a|.", r"\w+", "(?s:.)", "\"\\\\"] {
            assert!(Prefilter::new(&hir(pattern), false).is_any(), "{pattern}");
        }
        for pattern in ["serde", "foo|bar", r"cargo\s+test", "(?i)needle"] {
            assert!(!Prefilter::new(&hir(pattern), false).is_any(), "{pattern}");
        }
    }

    #[test]
    fn needles_of_punctuation_digits_and_literals_may_match_outside_strings() {
        for pattern in [r#"":0,""#, "42", "true|x y", "NULL", "1e-5", r"\d+", r"\[\]", "fail|true."]
        {
            let prefilter = Prefilter::new(&hir(pattern), false);
            assert!(prefilter.may_match_outside_strings(), "{pattern}");
        }
        for pattern in ["serde", "exit_code", "a b", "fail"] {
            let prefilter = Prefilter::new(&hir(pattern), false);
            assert!(!prefilter.may_match_outside_strings(), "{pattern}");
        }
    }

    /// The characters of `k` and `s` are the only ASCII letters whose case folds leave ASCII,
    /// in the regex crate's tables: so only they are cut under case-insensitive matching.
    #[test]
    fn only_k_and_s_fold_beyond_ascii() {
        let mut beyond = Vec::new();
        for letter in ('a'..='z').chain('A'..='Z') {
            let re = regex::RegexBuilder::new(&regex::escape(&letter.to_string()))
                .case_insensitive(true)
                .build()
                .unwrap();
            let mut buf = [0; 4];
            for c in (0x80..=0x10ffff).filter_map(char::from_u32) {
                if re.is_match(c.encode_utf8(&mut buf)) {
                    beyond.push((letter.to_ascii_lowercase(), c));
                }
            }
        }
        beyond.sort();
        beyond.dedup();
        assert_eq!(beyond, [('k', '\u{212a}'), ('s', '\u{17f}')]);
        for b in 0..=0x7fu8 {
            let folds_out = matches!(b.to_ascii_lowercase(), b'k' | b's');
            assert_eq!(may_be_escaped(b, true), may_be_escaped(b, false) || folds_out, "{b}");
        }
    }
}
