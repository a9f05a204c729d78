//! A validating JSON scanner for one line, fast on the lines session files are made of: a few
//! top-level keys and kilobytes of string payload (tool output, code) dense with escapes.
//!
//! It works in two passes over the line:
//!
//! 1. [`Scanner::index`] classifies 64 bytes at a time into bit masks (quotes, backslashes,
//!    control characters; by SSE2 or portably, see below), works out which bytes are escaped
//!    (by bit arithmetic, without a branch per backslash), and so which quotes are escaped and
//!    which bytes are inside strings. It checks every escape sequence and that no raw control
//!    character sits inside a string, and keeps one bit per unescaped quote and one per
//!    backslash: where a short string ends, and whether a span holds an escape, are then a
//!    shift and a mask of two words.
//! 2. A cursor walks the structure (objects, arrays, numbers, literals) byte by byte but jumps
//!    over each string to its closing quote through those bits, so a 10 KB tool result costs a
//!    few word tests instead of a byte loop that stops at every `\n` escape.
//!
//! Nesting is tracked on an explicit stack, so any depth is fine. Strings are not decoded unless
//! a caller asks for one, and their UTF-8 is checked only then: serde_json does the same for the
//! values it skips, and the loader's lossy fallback covers invalid UTF-8 in the fields it reads.
//! The grammar is serde_json's (RFC 8259; whitespace is space, tab, LF and CR), so a line is
//! accepted here exactly when serde_json accepts it, but for invalid UTF-8 in an object key that
//! nobody reads (serde_json rejects it, and the loader then reads the line lossily to the same
//! envelope); differential tests hold the two together.
//! The scanner only says yes or no: callers that need serde_json's description of a problem ask
//! serde_json for it on the (rare) failing line.
//!
//! The classifier of pass 1 has two paths: SSE2, 16 bytes at a time, on x86-64; and a portable
//! one in plain Rust, eight bytes at a time, everywhere else (aarch64: Apple silicon, ARM
//! Linux). The cargo feature `portable-scanner` makes x86-64 take the portable path, so that it
//! is tested and measured where CI runs; test builds on x86-64 have both and check that they
//! index every line alike. Everything past the classifier is shared.

use std::borrow::Cow;

/// The line is not valid JSON (or not the shape the caller asked for). No detail: callers
/// re-run serde_json on the line for its message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Invalid;

/// Result of the scanning steps.
pub(crate) type Scan<T> = std::result::Result<T, Invalid>;

/// Reusable buffers for scanning many lines without allocating per line.
#[derive(Debug, Default)]
pub struct Scanner {
    quotes: Vec<u64>,
    backslashes: Vec<u64>,
    stack: Vec<bool>,
    /// The deepest [`Line::skip_value`] has nested since [`Scanner::index`].
    deepest: std::cell::Cell<usize>,
}

/// One line after [`Scanner::index`]: the bytes plus the positions of its unescaped quotes
/// and of its backslashes.
#[derive(Debug, Clone, Copy)]
pub struct Line<'a, 'q> {
    /// The line's bytes.
    pub bytes: &'a [u8],
    quotes: &'q [u64],
    backslashes: &'q [u64],
    deepest: &'q std::cell::Cell<usize>,
}

/// The three byte classes of a 64-byte block, one bit per byte (bit `i` = byte `i`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Masks {
    quote: u64,
    backslash: u64,
    control: u64,
}

/// How pass 1 finds the quotes, backslashes and control characters of a 64-byte block. Two
/// implementations: SSE2 on x86-64 and a portable one everywhere else (or on x86-64 too, with
/// the `portable-scanner` feature); [`Native`] is the one a build uses. Tests build both
/// on x86-64 and check they agree.
trait Classify {
    /// The three byte classes of the block.
    fn classify(block: &[u8; 64]) -> Masks;
    /// The bytes of the block equal to `a` or `b`, one bit per byte.
    fn either_mask(block: &[u8; 64], a: u8, b: u8) -> u64;
}

/// The control characters (below 0x20) of a block that has some, one bit per byte: both
/// classifiers first test whether there are any.
#[cold]
#[inline(never)]
fn control_mask(block: &[u8; 64]) -> u64 {
    block.iter().enumerate().fold(0, |mask, (i, &c)| mask | u64::from(c < 0x20) << i)
}

/// The classifier this build's scanner uses: the one place the choice is made.
#[cfg(all(target_arch = "x86_64", not(feature = "portable-scanner")))]
type Native = sse2::Sse2;
/// The classifier this build's scanner uses: the one place the choice is made.
#[cfg(any(not(target_arch = "x86_64"), feature = "portable-scanner"))]
type Native = portable::Portable;

/// The SSE2 classifier: what x86-64 runs (and tests compare the portable one with).
#[cfg(all(target_arch = "x86_64", any(test, not(feature = "portable-scanner"))))]
mod sse2 {
    use super::{Classify, Masks, control_mask};

    /// SSE2 (the x86-64 baseline), 16 bytes at a time.
    pub(super) struct Sse2;

    impl Classify for Sse2 {
        #[inline(always)]
        fn classify(block: &[u8; 64]) -> Masks {
            use safe_arch::{
                cmp_eq_mask_i8_m128i, load_unaligned_m128i, min_u8_m128i, move_mask_i8_m128i,
                set_splat_i8_m128i,
            };
            let quote = set_splat_i8_m128i(b'"' as i8);
            let backslash = set_splat_i8_m128i(b'\\' as i8);
            let below_space = set_splat_i8_m128i(0x1f);
            let mut m = Masks { quote: 0, backslash: 0, control: 0 };
            // Control characters are rare anywhere in a line (only whitespace may sit outside
            // strings): the smallest byte of each place of the block's four chunks says whether
            // there are any, and only then is the block looked at again for where they are.
            let mut smallest = set_splat_i8_m128i(-1);
            for (j, chunk) in block.chunks_exact(16).enumerate() {
                let Ok(chunk) = <&[u8; 16]>::try_from(chunk) else { continue };
                let v = load_unaligned_m128i(chunk);
                let bits = |mask| u64::from(move_mask_i8_m128i(mask) as u16) << (16 * j);
                m.quote |= bits(cmp_eq_mask_i8_m128i(v, quote));
                m.backslash |= bits(cmp_eq_mask_i8_m128i(v, backslash));
                smallest = min_u8_m128i(smallest, v);
            }
            // Unsigned `x < 0x20` is `min(x, 0x1f) == x`.
            let below = cmp_eq_mask_i8_m128i(min_u8_m128i(smallest, below_space), smallest);
            if move_mask_i8_m128i(below) != 0 {
                m.control = control_mask(block);
            }
            m
        }

        #[inline(always)]
        fn either_mask(block: &[u8; 64], a: u8, b: u8) -> u64 {
            use safe_arch::{
                bitor_m128i, cmp_eq_mask_i8_m128i, load_unaligned_m128i, move_mask_i8_m128i,
                set_splat_i8_m128i,
            };
            let (a, b) = (set_splat_i8_m128i(a as i8), set_splat_i8_m128i(b as i8));
            block.chunks_exact(16).enumerate().fold(0, |mask, (j, chunk)| {
                let Ok(chunk) = <&[u8; 16]>::try_from(chunk) else { return mask };
                let v = load_unaligned_m128i(chunk);
                let eq = bitor_m128i(cmp_eq_mask_i8_m128i(v, a), cmp_eq_mask_i8_m128i(v, b));
                mask | u64::from(move_mask_i8_m128i(eq) as u16) << (16 * j)
            })
        }
    }
}

/// The portable classifier: what every other architecture runs, and x86-64 with the feature.
#[cfg(any(test, not(target_arch = "x86_64"), feature = "portable-scanner"))]
mod portable {
    use super::{Classify, Masks, control_mask};

    /// Plain Rust, eight bytes at a time: what aarch64 (Apple silicon, ARM Linux) runs.
    pub(super) struct Portable;

    const LOW7: u64 = 0x7f7f_7f7f_7f7f_7f7f;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    const ONES: u64 = 0x0101_0101_0101_0101;

    /// The high bit of each zero byte of `x`, and no other bit: exact per byte (no false
    /// positives from borrows, which the masked add cannot make).
    #[inline(always)]
    fn zero_bytes(x: u64) -> u64 {
        !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7)
    }

    /// The bytes of `x` equal to `byte`, one bit per byte in the low eight bits: the high bits
    /// of [`zero_bytes`] gathered by one multiplication.
    #[inline(always)]
    fn equal(x: u64, byte: u8) -> u64 {
        gather(zero_bytes(x ^ (ONES * u64::from(byte))))
    }

    #[inline(always)]
    fn gather(high_bits: u64) -> u64 {
        ((high_bits >> 7).wrapping_mul(0x0102_0408_1020_4080)) >> 56
    }

    /// The block's eight words, each with the place of its first byte.
    #[inline(always)]
    fn words(block: &[u8; 64]) -> impl Iterator<Item = (u64, usize)> + '_ {
        block.chunks_exact(8).enumerate().filter_map(|(j, chunk)| {
            Some((u64::from_le_bytes(<[u8; 8]>::try_from(chunk).ok()?), 8 * j))
        })
    }

    impl Classify for Portable {
        #[inline(always)]
        fn classify(block: &[u8; 64]) -> Masks {
            let mut m = Masks { quote: 0, backslash: 0, control: 0 };
            // Control characters are rare (see the SSE2 classifier): whether there are any is
            // three operations a word, and where they are is looked for only then. Subtracting
            // 0x20 from each byte sets the high bit of every byte below 0x20; a borrow can set
            // it elsewhere only above such a byte, and bytes that had it are masked out: the
            // test is exact for the word.
            let mut below_space = 0;
            for (x, place) in words(block) {
                m.quote |= equal(x, b'"') << place;
                m.backslash |= equal(x, b'\\') << place;
                below_space |= x.wrapping_sub(ONES * 0x20) & !x;
            }
            if below_space & HIGH != 0 {
                m.control = control_mask(block);
            }
            m
        }

        #[inline(always)]
        fn either_mask(block: &[u8; 64], a: u8, b: u8) -> u64 {
            words(block).fold(0, |mask, (x, place)| {
                let either =
                    zero_bytes(x ^ (ONES * u64::from(a))) | zero_bytes(x ^ (ONES * u64::from(b)));
                mask | gather(either) << place
            })
        }
    }
}

/// Bit `i` of the result is the XOR of bits `0..=i`: 1 from an opening quote up to (not
/// including) its closing quote.
#[inline(always)]
fn prefix_xor(mut x: u64) -> u64 {
    x ^= x << 1;
    x ^= x << 2;
    x ^= x << 4;
    x ^= x << 8;
    x ^= x << 16;
    x ^= x << 32;
    x
}

/// What may follow a backslash: `SIMPLE` for `"\\/bfnrt`, `UNICODE` for `u` (four hex digits
/// follow), 0 for anything else. A table, because a `match` on the byte compiles to a jump
/// table whose indirect branch mispredicts on every change of escape (`\n`, `\"`, `\t` …).
static ESCAPES: [u8; 256] = {
    let mut table = [0u8; 256];
    let simple = b"\"\\/bfnrt";
    let mut i = 0;
    while i < simple.len() {
        table[simple[i] as usize] = SIMPLE;
        i += 1;
    }
    table[b'u' as usize] = UNICODE;
    table
};
const SIMPLE: u8 = 1;
const UNICODE: u8 = 2;

#[inline(always)]
fn is_ws(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r')
}

/// A word of bits and the next one (zero past the end), as one number.
#[inline(always)]
fn two_words(first: u64, next: Option<&u64>) -> u128 {
    u128::from(next.copied().unwrap_or(0)) << 64 | u128::from(first)
}

impl Scanner {
    /// A scanner with empty buffers.
    pub fn new() -> Scanner {
        Scanner::default()
    }

    /// Pass 1: finds the unescaped quotes and checks escapes and control characters inside
    /// strings. The structure is checked by the [`Line`] methods, which take the returned
    /// stack for walking nested values.
    pub fn index<'a, 's>(&'s mut self, bytes: &'a [u8]) -> Scan<(Line<'a, 's>, &'s mut Vec<bool>)> {
        self.index_with::<Native>(bytes)
    }

    /// [`Scanner::index`] with the classifier `C`.
    #[inline(always)]
    fn index_with<'a, 's, C: Classify>(
        &'s mut self,
        bytes: &'a [u8],
    ) -> Scan<(Line<'a, 's>, &'s mut Vec<bool>)> {
        // One word of each kind a block, written in place (a push checked the capacity). Every
        // word is written below, so the words of an earlier line are not zeroed first: only
        // those a longer line adds are.
        let words = bytes.len().div_ceil(64);
        self.quotes.resize(words, 0);
        self.backslashes.resize(words, 0);
        let mut slots = self.quotes.iter_mut().zip(self.backslashes.iter_mut());
        // Whether the next block starts escaped (the last one ended with an escaping `\`) and
        // inside a string (all ones) or not (zero).
        let mut carry = (0u64, 0u64);
        let mut blocks = bytes.chunks_exact(64);
        let mut base = 0;
        for (block, slot) in (&mut blocks).zip(&mut slots) {
            let Ok(block) = <&[u8; 64]>::try_from(block) else { return Err(Invalid) };
            index_block::<C>(bytes, base, block, slot, &mut carry)?;
            base += 64;
        }
        let rest = blocks.remainder();
        if !rest.is_empty() {
            // Pad with spaces: neither quotes, backslashes nor control characters.
            let mut block = [b' '; 64];
            block[..rest.len()].copy_from_slice(rest);
            index_block::<C>(bytes, base, &block, slots.next().ok_or(Invalid)?, &mut carry)?;
        }
        // A line that ends in an escaping backslash.
        if carry.0 != 0 {
            return Err(Invalid);
        }
        self.deepest.set(0);
        let line = Line {
            bytes,
            quotes: &self.quotes,
            backslashes: &self.backslashes,
            deepest: &self.deepest,
        };
        Ok((line, &mut self.stack))
    }

    /// How deep the values skipped since the last [`Scanner::index`] nest, counted from the
    /// value each skip started at (`[[1]]` is 2): what a caller that walked a whole line needs
    /// to tell whether a full parse's depth limit would refuse it.
    pub fn deepest(&self) -> usize {
        self.deepest.get()
    }

    /// Both passes for a line that must be one JSON value (and nothing but whitespace).
    pub fn validate(&mut self, bytes: &[u8]) -> Scan<()> {
        let (line, stack) = self.index(bytes)?;
        let start = line.ws(0);
        let end = line.skip_value(start, stack)?;
        line.end(end)
    }
}

/// Pass 1 on the block at `base` of `bytes`: its unescaped quotes and its backslashes into
/// `slot`. `carry` holds [`block_quotes`]'s two carries.
#[inline(always)]
fn index_block<C: Classify>(
    bytes: &[u8],
    base: usize,
    block: &[u8; 64],
    (quotes, backslashes): (&mut u64, &mut u64),
    carry: &mut (u64, u64),
) -> Scan<()> {
    let masks = C::classify(block);
    *quotes = block_quotes::<C>(bytes, base, block, masks, &mut carry.0, &mut carry.1)?;
    *backslashes = masks.backslash;
    Ok(())
}

/// Every other bit, from bit 1: the odd bytes of a block.
const ODD_BITS: u64 = 0xaaaa_aaaa_aaaa_aaaa;

/// Pass 1 on one block: checks its escapes and control characters and returns its unescaped
/// quotes. `escaped_carry` is 1 when the block before ended with an escaping backslash.
#[inline(always)]
fn block_quotes<C: Classify>(
    bytes: &[u8],
    base: usize,
    block: &[u8; 64],
    m: Masks,
    escaped_carry: &mut u64,
    in_string_carry: &mut u64,
) -> Scan<u64> {
    // Which bytes are escaped, without a branch per backslash (simdjson's way): a run of
    // backslashes escapes the byte after it when the run is odd. Subtracting the run's first
    // bit from the odd bits lets the borrow run along the backslashes, which turns an odd run
    // starting on an odd byte into the same pattern as one starting on an even byte.
    let potential = m.backslash & !*escaped_carry;
    let codes = ((potential << 1 | ODD_BITS).wrapping_sub(potential)) ^ ODD_BITS;
    let escaped = codes ^ (m.backslash | *escaped_carry);
    *escaped_carry = (codes & m.backslash) >> 63;
    // Escaped quotes and backslashes are fine. Code text escapes mostly newlines and tabs, so
    // only a block with some other escape is looked at for `n`s and `t`s, and only the rest
    // one by one.
    let mut odd = escaped & !(m.quote | m.backslash);
    if odd != 0 {
        odd &= !C::either_mask(block, b'n', b't');
        while odd != 0 {
            let at = odd.trailing_zeros() as usize;
            odd &= odd - 1;
            let code = base + at;
            match bytes.get(code).map_or(0, |&c| ESCAPES[c as usize]) {
                SIMPLE => {}
                UNICODE => {
                    let digits = bytes.get(code + 1..code + 5).ok_or(Invalid)?;
                    if !digits.iter().all(u8::is_ascii_hexdigit) {
                        return Err(Invalid);
                    }
                }
                _ => return Err(Invalid),
            }
        }
    }
    let quotes = m.quote & !escaped;
    let in_string = prefix_xor(quotes) ^ *in_string_carry;
    // Raw control characters are never allowed inside strings. Outside strings, the structure
    // pass rejects all but whitespace.
    if m.control & in_string != 0 {
        return Err(Invalid);
    }
    *in_string_carry = ((in_string as i64) >> 63) as u64;
    Ok(quotes)
}

impl<'a, 'q> Line<'a, 'q> {
    /// [`Scanner::deepest`], while the line is in use.
    pub fn deepest(&self) -> usize {
        self.deepest.get()
    }

    /// The first position at or after `i` that is not whitespace.
    #[inline(always)]
    pub(crate) fn ws(&self, mut i: usize) -> usize {
        while let Some(&c) = self.bytes.get(i) {
            if !is_ws(c) {
                break;
            }
            i += 1;
        }
        i
    }

    /// The byte at `i`, if any.
    #[inline(always)]
    pub fn at(&self, i: usize) -> Option<u8> {
        self.bytes.get(i).copied()
    }

    /// Whether the bytes at `i` start with `prefix`.
    #[inline(always)]
    pub(crate) fn has_at(&self, i: usize, prefix: &[u8]) -> bool {
        self.bytes.get(i..).is_some_and(|rest| rest.starts_with(prefix))
    }

    /// Checks that only whitespace follows `i`.
    pub fn end(&self, i: usize) -> Scan<()> {
        if self.ws(i) == self.bytes.len() { Ok(()) } else { Err(Invalid) }
    }

    /// The position of the first unescaped quote at or after `from`.
    #[inline(always)]
    fn next_quote(&self, from: usize) -> Scan<usize> {
        let word = from / 64;
        // The 64 bytes from `from` at least, in one test: a short string found this way does
        // not branch on whether it crosses into the next word.
        let first = *self.quotes.get(word).ok_or(Invalid)?;
        let window = two_words(first, self.quotes.get(word + 1)) >> (from % 64);
        let at = if window != 0 {
            from + window.trailing_zeros() as usize
        } else {
            // A long string: word by word from the third.
            let mut word = word + 2;
            loop {
                let bits = *self.quotes.get(word).ok_or(Invalid)?;
                if bits != 0 {
                    break word * 64 + bits.trailing_zeros() as usize;
                }
                word += 1;
            }
        };
        if at < self.bytes.len() { Ok(at) } else { Err(Invalid) }
    }

    /// Whether the bytes in `span` (which lies within the line) hold a backslash. Most strings
    /// a row reads are short (keys, types, ids, times): those take one test of the backslash
    /// bits, where a byte loop whose length changed from string to string mispredicted its end.
    #[inline]
    pub(crate) fn has_backslash(&self, (start, end): (usize, usize)) -> bool {
        debug_assert!(end <= self.bytes.len(), "span {start}..{end} past the line");
        let len = end.saturating_sub(start);
        if len == 0 {
            return false;
        }
        if len <= 64 {
            let word = start / 64;
            let first = self.backslashes.get(word).copied().unwrap_or(0);
            let window = two_words(first, self.backslashes.get(word + 1)) >> (start % 64);
            return window as u64 & (u64::MAX >> (64 - len)) != 0;
        }
        self.bytes.get(start..end).is_some_and(|raw| memchr::memchr(b'\\', raw).is_some())
    }

    /// The string starting with the quote at `i`: the position of its closing quote.
    #[inline(always)]
    pub(crate) fn string_end(&self, i: usize) -> Scan<usize> {
        // The opening quote must be an unescaped one.
        if self.quotes.get(i / 64).is_none_or(|w| w >> (i % 64) & 1 == 0) {
            return Err(Invalid);
        }
        self.next_quote(i + 1)
    }

    /// Skips a number starting at `i`; returns the position after it.
    fn number(&self, mut i: usize) -> Scan<usize> {
        if self.at(i) == Some(b'-') {
            i += 1;
        }
        match self.at(i) {
            Some(b'0') => i += 1,
            Some(b'1'..=b'9') => i = self.digits(i + 1),
            _ => return Err(Invalid),
        }
        if self.at(i) == Some(b'.') {
            let end = self.digits(i + 1);
            if end == i + 1 {
                return Err(Invalid);
            }
            i = end;
        }
        if matches!(self.at(i), Some(b'e' | b'E')) {
            i += 1;
            if matches!(self.at(i), Some(b'+' | b'-')) {
                i += 1;
            }
            let end = self.digits(i);
            if end == i {
                return Err(Invalid);
            }
            i = end;
        }
        Ok(i)
    }

    /// The end of the run of digits at `i` (`i` itself when there are none). Eight bytes are
    /// tested at a time: a byte loop's end mispredicted on numbers of every length (token
    /// counts, costs).
    fn digits(&self, mut i: usize) -> usize {
        const ONES: u64 = 0x0101_0101_0101_0101;
        while let Some(word) = self.bytes.get(i..i + 8) {
            let Ok(word) = <[u8; 8]>::try_from(word) else { break };
            // Digits become 0..=9; a byte that was not one has its top bit set after adding
            // 0x76 to its low seven bits (which cannot carry into the next byte), or before.
            let x = u64::from_le_bytes(word) ^ (ONES * u64::from(b'0'));
            let not_digits = (((x & (ONES * 0x7f)) + ONES * 0x76) | x) & (ONES * 0x80);
            if not_digits != 0 {
                return i + not_digits.trailing_zeros() as usize / 8;
            }
            i += 8;
        }
        while matches!(self.at(i), Some(b'0'..=b'9')) {
            i += 1;
        }
        i
    }

    /// Skips a scalar (number or literal) at `i`.
    fn scalar(&self, i: usize) -> Scan<usize> {
        let literal = |word: &[u8]| {
            if self.bytes.get(i..i + word.len()) == Some(word) {
                Ok(i + word.len())
            } else {
                Err(Invalid)
            }
        };
        match self.at(i) {
            Some(b't') => literal(b"true"),
            Some(b'f') => literal(b"false"),
            Some(b'n') => literal(b"null"),
            _ => self.number(i),
        }
    }

    /// Skips the value starting at `i` (not whitespace) and returns the position after it.
    /// Containers are walked with `stack` (`true` = object), so depth costs no recursion.
    pub(crate) fn skip_value(&self, mut i: usize, stack: &mut Vec<bool>) -> Scan<usize> {
        // Most values skipped are strings: those take one test of the quote bits.
        if self.at(i) == Some(b'"') {
            return Ok(self.string_end(i)? + 1);
        }
        stack.clear();
        'value: loop {
            match self.at(i) {
                // Within the walk, a value starts after a `:`, a `,` or a `[` (and whitespace):
                // a quote there is never escaped, so it opens a string.
                Some(b'"') => i = self.next_quote(i + 1)? + 1,
                Some(b'{') => {
                    i = self.ws(i + 1);
                    if self.at(i) == Some(b'}') {
                        // An empty object nests one level too.
                        self.deepest.set(self.deepest.get().max(stack.len() + 1));
                        i += 1;
                    } else {
                        stack.push(true);
                        self.deepest.set(self.deepest.get().max(stack.len()));
                        i = self.key_colon(i)?.1;
                        continue 'value;
                    }
                }
                Some(b'[') => {
                    i = self.ws(i + 1);
                    if self.at(i) == Some(b']') {
                        self.deepest.set(self.deepest.get().max(stack.len() + 1));
                        i += 1;
                    } else {
                        stack.push(false);
                        self.deepest.set(self.deepest.get().max(stack.len()));
                        continue 'value;
                    }
                }
                _ => i = self.scalar(i)?,
            }
            // After a value: close containers or go on to the next member.
            loop {
                let Some(&in_object) = stack.last() else { return Ok(i) };
                i = self.ws(i);
                match (self.at(i), in_object) {
                    (Some(b','), true) => {
                        i = self.key_colon(self.ws(i + 1))?.1;
                        continue 'value;
                    }
                    (Some(b','), false) => {
                        i = self.ws(i + 1);
                        continue 'value;
                    }
                    (Some(b'}'), true) | (Some(b']'), false) => {
                        stack.pop();
                        i += 1;
                    }
                    _ => return Err(Invalid),
                }
            }
        }
    }

    /// At a key's opening quote: skips the key and the colon, returns the key's closing quote
    /// and the value's position.
    #[inline(always)]
    fn key_colon(&self, i: usize) -> Scan<(usize, usize)> {
        if self.at(i) != Some(b'"') {
            return Err(Invalid);
        }
        // The walk reaches a key after a `{` or a `,` (and whitespace): a quote there is never
        // escaped, so it is an opening quote without asking the quote bits.
        let end = self.next_quote(i + 1)?;
        // As the agents write their lines: the colon right after the key, and the value
        // right after the colon.
        if let Some(&[b':', c]) = self.bytes.get(end + 1..end + 3)
            && !is_ws(c)
        {
            return Ok((end, end + 2));
        }
        let colon = self.ws(end + 1);
        if self.at(colon) != Some(b':') {
            return Err(Invalid);
        }
        Ok((end, self.ws(colon + 1)))
    }

    /// Walks the members of the object starting at `i` (its `{`), calling `member` with the
    /// key's raw span (between the quotes) and the value's position; `member` returns the
    /// position after the value. Returns the position after the object.
    pub fn object(
        &self,
        i: usize,
        mut member: impl FnMut(&Line<'a, 'q>, (usize, usize), usize) -> Scan<usize>,
    ) -> Scan<usize> {
        if self.at(i) != Some(b'{') {
            return Err(Invalid);
        }
        let mut i = self.ws(i + 1);
        if self.at(i) == Some(b'}') {
            return Ok(i + 1);
        }
        loop {
            let (key_end, value) = self.key_colon(i)?;
            i = self.ws(member(self, (i + 1, key_end), value)?);
            match self.at(i) {
                Some(b',') => i = self.ws(i + 1),
                Some(b'}') => return Ok(i + 1),
                _ => return Err(Invalid),
            }
        }
    }

    /// Walks the elements of the array starting at `i` (its `[`), like [`Line::object`].
    pub(crate) fn array(
        &self,
        i: usize,
        mut element: impl FnMut(&Line<'a, 'q>, usize) -> Scan<usize>,
    ) -> Scan<usize> {
        if self.at(i) != Some(b'[') {
            return Err(Invalid);
        }
        let mut i = self.ws(i + 1);
        if self.at(i) == Some(b']') {
            return Ok(i + 1);
        }
        loop {
            i = self.ws(element(self, i)?);
            match self.at(i) {
                Some(b',') => i = self.ws(i + 1),
                Some(b']') => return Ok(i + 1),
                _ => return Err(Invalid),
            }
        }
    }

    /// The decoded text of the string whose content is `span` (between the quotes): borrowed
    /// when it has no escapes. Fails on invalid UTF-8 and on escapes that do not make a string
    /// (a lone surrogate), as serde_json does.
    pub fn text(&self, span: (usize, usize)) -> Scan<Cow<'a, str>> {
        let raw = self.bytes.get(span.0..span.1).ok_or(Invalid)?;
        if !self.has_backslash(span) {
            return std::str::from_utf8(raw).map(Cow::Borrowed).map_err(|_| Invalid);
        }
        // The quotes around the span; checked, so a span at the very start fails, not panics.
        let quoted = self.bytes.get(span.0.checked_sub(1).ok_or(Invalid)?..span.1 + 1);
        let quoted = quoted.ok_or(Invalid)?;
        serde_json::from_slice::<String>(quoted).map(Cow::Owned).map_err(|_| Invalid)
    }

    /// The first `max_chars` characters of the string whose content is `span`, and whether that
    /// is all of it: a long string is decoded only as far as a caller reads it. Fails where
    /// [`Line::text`] fails on that prefix.
    pub(crate) fn text_prefix(
        &self,
        span: (usize, usize),
        max_chars: usize,
    ) -> Scan<(Cow<'a, str>, bool)> {
        let raw = self.bytes.get(span.0..span.1).ok_or(Invalid)?;
        // No character takes less than one byte, so a short string is read whole.
        if raw.len() <= max_chars {
            return self.text(span).map(|t| (t, true));
        }
        // Nearly always: the first `max_chars` bytes are ASCII without escapes, and are the
        // prefix as they stand.
        let head = &raw[..max_chars];
        if head.is_ascii() && !self.has_backslash((span.0, span.0 + max_chars)) {
            let head = std::str::from_utf8(head).map_err(|_| Invalid)?;
            return Ok((Cow::Borrowed(head), false));
        }
        // Most text is ASCII: one byte a character, plus room for a few that are not.
        let mut out = String::with_capacity(max_chars + max_chars / 8);
        let mut count = 0;
        let mut i = 0;
        while i < raw.len() {
            if count == max_chars {
                // Something is left, and every byte left makes at least one more character.
                return Ok((Cow::Owned(out), false));
            }
            let plain_end = memchr::memchr(b'\\', &raw[i..]).map_or(raw.len(), |p| i + p);
            // Plain bytes: at most `max_chars - count` more characters are taken, and a cut
            // inside them is at a character boundary of a valid prefix.
            let room = max_chars - count;
            let plain = &raw[i..plain_end];
            let ascii = &plain[..plain.len().min(room)];
            if ascii.is_ascii() {
                // One byte a character (nearly all text): the first `room` bytes are enough.
                out.push_str(std::str::from_utf8(ascii).map_err(|_| Invalid)?);
                count += ascii.len();
                i += ascii.len();
            } else {
                let plain = &plain[..plain.len().min(room * 4)];
                let text = match std::str::from_utf8(plain) {
                    Ok(text) => text,
                    // A cut in the middle of a character: keep the valid part.
                    Err(e) if e.error_len().is_none() && plain.len() < plain_end - i => {
                        std::str::from_utf8(&plain[..e.valid_up_to()]).map_err(|_| Invalid)?
                    }
                    Err(_) => return Err(Invalid),
                };
                match text.char_indices().nth(room) {
                    Some((at, _)) => {
                        out.push_str(&text[..at]);
                        return Ok((Cow::Owned(out), false));
                    }
                    None => {
                        out.push_str(text);
                        count += text.chars().count();
                        i += text.len();
                    }
                }
            }
            if i < plain_end {
                continue;
            }
            if i == raw.len() {
                break;
            }
            if count == max_chars {
                continue;
            }
            // An escape; pass 1 checked its form. A surrogate pair takes two.
            let simple = match raw.get(i + 1) {
                Some(b'n') => Some('\n'),
                Some(b't') => Some('\t'),
                Some(b'r') => Some('\r'),
                Some(b'b') => Some('\u{8}'),
                Some(b'f') => Some('\u{c}'),
                Some(&c @ (b'"' | b'\\' | b'/')) => Some(char::from(c)),
                _ => None,
            };
            if let Some(c) = simple {
                out.push(c);
                count += 1;
                i += 2;
                continue;
            }
            // `\uXXXX`, or a surrogate pair of two; a lone surrogate fails, as in serde_json.
            if raw.get(i + 1) != Some(&b'u') {
                return Err(Invalid);
            }
            let hex = |at: usize| {
                let digits = std::str::from_utf8(raw.get(at..at + 4)?).ok()?;
                u32::from_str_radix(digits, 16).ok()
            };
            let unit = hex(i + 2).ok_or(Invalid)?;
            let (code, len) = match unit {
                0xD800..=0xDBFF => {
                    let low = (raw.get(i + 6..i + 8) == Some(b"\\u"))
                        .then(|| hex(i + 8))
                        .flatten()
                        .filter(|low| (0xDC00..=0xDFFF).contains(low))
                        .ok_or(Invalid)?;
                    (0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00), 12)
                }
                0xDC00..=0xDFFF => return Err(Invalid),
                unit => (unit, 6),
            };
            out.push(char::from_u32(code).ok_or(Invalid)?);
            count += 1;
            i += len;
        }
        Ok((Cow::Owned(out), true))
    }

    /// The raw text of `start..end` (a value as written), checked to be UTF-8.
    pub fn raw(&self, start: usize, end: usize) -> Scan<&'a str> {
        let raw = self.bytes.get(start..end).ok_or(Invalid)?;
        std::str::from_utf8(raw).map_err(|_| Invalid)
    }
}

#[cfg(test)]
pub(crate) use tests::arb_json;

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    fn valid(s: &[u8]) -> bool {
        Scanner::new().validate(s).is_ok()
    }

    #[test]
    fn backslashes_are_found_in_short_and_long_spans() {
        // Spans of every length up to two words and past, from every place of the first block
        // and from places in the others (the last word has no next one), in a line of 200
        // bytes with one escape (`\n`) or none.
        let mut scanner = Scanner::new();
        let plain = vec![b'a'; 200];
        let (line, _) = scanner.index(&plain).unwrap();
        let starts = (0..64).chain((64..200).step_by(7)).chain([191, 199, 200]);
        let spans = starts.flat_map(|start| {
            [0, 1, 7, 8, 9, 63, 64, 65, 100]
                .into_iter()
                .map(move |len| (start, (start + len).min(200)))
        });
        for span in spans.clone() {
            assert!(!line.has_backslash(span), "{span:?}");
        }
        for at in 0..199 {
            let mut with = plain.clone();
            with[at..at + 2].copy_from_slice(b"\\n");
            let (line, _) = scanner.index(&with).unwrap();
            for span in spans.clone() {
                let expect = (span.0..span.1).contains(&at);
                assert_eq!(line.has_backslash(span), expect, "{span:?}, backslash at {at}");
            }
        }
    }

    #[test]
    fn a_reused_scanner_reads_a_shorter_line_as_a_new_one_does() {
        // `index` does not zero the words an earlier line left: every word of the new line
        // must be written again, the last (partial) block's too.
        let long: Vec<u8> = br#""\"\\"#.iter().copied().cycle().take(300).collect();
        let mut reused = Scanner::new();
        for len in 0..=200 {
            let short: Vec<u8> = br#"{"a":"x\ny"}"#.iter().copied().cycle().take(len).collect();
            reused.index(&long).ok();
            let verdict = reused.index(&short).map(|_| ());
            let mut new = Scanner::new();
            assert_eq!(verdict, new.index(&short).map(|_| ()), "{len}");
            if verdict.is_ok() {
                assert_eq!(reused.quotes, new.quotes, "quotes of a line of {len}");
                assert_eq!(reused.backslashes, new.backslashes, "backslashes of a line of {len}");
            }
        }
    }

    #[test]
    fn a_line_that_ends_in_an_escaping_backslash_is_refused_at_any_length() {
        // Pass 1 on its own: the structure walk would refuse these too (the string is open).
        for len in [1, 2, 63, 64, 65, 127, 128, 129] {
            for run in 1..=len.min(66) {
                let mut line = vec![b'a'; len - run];
                line.extend(std::iter::repeat_n(b'\\', run));
                let expect = if run % 2 == 1 { Err(Invalid) } else { Ok(()) };
                let got = Scanner::new().index(&line).map(|_| ());
                assert_eq!(got, expect, "{len} bytes, a run of {run}");
            }
        }
    }

    #[test]
    fn digit_runs_end_at_the_first_byte_that_is_not_a_digit() {
        // Runs of 0 to 19 digits, ended by each byte value or by the end of the line.
        for run in 0..20 {
            for end in (0..=255u8).map(Some).chain([None]) {
                let mut line = vec![b'7'; run];
                line.extend(end);
                line.extend(b"123");
                let mut scanner = Scanner::new();
                let Ok((line, _)) = scanner.index(&line) else { continue };
                let expect = line.bytes.iter().position(|c| !c.is_ascii_digit());
                assert_eq!(line.digits(0), expect.unwrap_or(line.bytes.len()), "{run} {end:?}");
            }
        }
    }

    #[test]
    fn accepts_what_json_accepts() {
        for s in [
            &br#"{}"#[..],
            br#" { "a" : [ 1 , -2.5e+3 , true , false , null , "x" , { } , [ ] ] } "#,
            br#""\u00e9\n\t\"\\\/\b\f\r""#,
            b"0",
            b"-0.0E-0",
            br#"[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]"#,
            "\"é ✓ 𝄞\"".as_bytes(),
        ] {
            assert!(valid(s), "{}", String::from_utf8_lossy(s));
            assert!(serde_json::from_slice::<serde::de::IgnoredAny>(s).is_ok());
        }
    }

    #[test]
    fn rejects_what_json_rejects() {
        for s in [
            &b""[..],
            b"{",
            b"{\"a\"}",
            b"{\"a\":}",
            b"{\"a\":1,}",
            b"[1,]",
            b"[1 2]",
            b"01",
            b"-",
            b"1.",
            b"1e",
            b".5",
            b"tru",
            b"\"abc",
            b"\"a\x01b\"",
            b"\"\\x\"",
            b"\"\\u12g4\"",
            b"\"\\u12",
            b"{} {}",
            b"{\"a\":1}}",
            b"[}",
            b"{]",
            b"\x0b{}",
            b"{\"a\" \x0c: 1}",
            b"\\\"\"",
        ] {
            assert!(!valid(s), "{}", String::from_utf8_lossy(s));
            assert!(serde_json::from_slice::<serde::de::IgnoredAny>(s).is_err());
        }
    }

    proptest! {
        #[test]
        fn text_prefixes_are_prefixes_of_the_text(
            s in "([a-zé𝄞 ]|\\\\n|\\\\u00e9|\\\\ud834\\\\udd1e|\\\\ud834|\\\\\\\\){0,80}",
            n in 0usize..60,
        ) {
            let quoted = format!("\"{s}\"");
            let mut scanner = Scanner::new();
            let (line, _) = scanner.index(quoted.as_bytes()).unwrap();
            let span = (1, quoted.len() - 1);
            let full = line.text(span);
            let prefix = line.text_prefix(span, n);
            match (full, prefix) {
                (Ok(full), Ok((prefix, complete))) => {
                    let expect: String = full.chars().take(n).collect();
                    prop_assert_eq!(&*prefix, expect.as_str());
                    prop_assert_eq!(complete, full.chars().count() <= n);
                }
                // A lone surrogate past the prefix is never decoded.
                (Err(_), Ok((prefix, complete))) => {
                    prop_assert!(!complete);
                    prop_assert_eq!(prefix.chars().count(), n);
                }
                (Err(_), Err(_)) => {}
                (Ok(_), Err(_)) => prop_assert!(false, "prefix failed where the text decodes"),
            }
        }
    }

    #[test]
    fn a_plain_prefix_is_not_copied() {
        let quoted = format!("\"{}\"", "ab".repeat(150));
        let mut scanner = Scanner::new();
        let (line, _) = scanner.index(quoted.as_bytes()).unwrap();
        let span = (1, quoted.len() - 1);
        let (prefix, complete) = line.text_prefix(span, 200).unwrap();
        assert!(matches!(prefix, Cow::Borrowed(_)) && !complete);
        assert_eq!(prefix, "ab".repeat(100));
        // An escape or a character that is not ASCII within the prefix is decoded into a copy.
        for odd in ["\\n", "é"] {
            let quoted = format!("\"{}{odd}{}\"", "a".repeat(150), "b".repeat(150));
            let (line, _) = scanner.index(quoted.as_bytes()).unwrap();
            let (prefix, _) = line.text_prefix((1, quoted.len() - 1), 200).unwrap();
            assert!(matches!(prefix, Cow::Owned(_)), "{odd}");
            assert_eq!(prefix.chars().count(), 200);
        }
    }

    #[test]
    fn deep_nesting_needs_no_recursion() {
        let mut s = "[".repeat(1_000_000);
        s.push_str(&"]".repeat(1_000_000));
        assert!(valid(s.as_bytes()));
        s.pop();
        assert!(!valid(s.as_bytes()));
    }

    #[test]
    fn control_characters_are_found_at_every_place_of_a_block() {
        let string = |at: usize, c: u8| {
            let mut line = br#"{"k":""#.to_vec();
            line.extend(std::iter::repeat_n(b'a', 140));
            line.extend(br#""}"#);
            line[6 + at] = c;
            line
        };
        for at in 0..140 {
            // Inside a string, every control character is refused; the bytes just above pass.
            for c in [0x00, b'\t', b'\n', 0x1f] {
                assert!(!valid(&string(at, c)), "{c:#x} at {at}");
                // With a high byte at the same place of another 16-byte chunk: the block's
                // smallest byte is an unsigned minimum.
                let mut line = string(at, c);
                line[6 + if at >= 16 { at - 16 } else { at + 16 }] = 0x80;
                assert!(!valid(&line), "{c:#x} at {at}, 0x80 16 bytes away");
            }
            // (The scanner leaves UTF-8 to the readers of a string: high bytes pass here.)
            for c in [b' ', 0x7f, 0x80, 0xff] {
                assert!(valid(&string(at, c)), "{c:#x} at {at}");
            }
            // Outside strings, whitespace may be anywhere, and other control characters not.
            let mut line = b"[".to_vec();
            line.extend(std::iter::repeat_n(b' ', at));
            line.extend(b"\t1]");
            assert!(valid(&line), "a tab at {at}");
            line[1 + at] = 0x01;
            assert!(!valid(&line), "0x01 at {at}");
        }
    }

    #[test]
    fn escapes_across_block_boundaries() {
        // Runs of backslashes ending at every offset around the 64-byte boundary.
        // Runs longer than a block, too, and lines that end in the run.
        for pad in (0..6).chain(55..70).chain(120..135) {
            for run in (1..6).chain(62..67).chain(127..131) {
                for tail in ["\"x\"", "n\"", "u12ab\"", "u12\"", "", "\"", "q\""] {
                    let mut s = String::from("\"");
                    s.push_str(&"a".repeat(pad));
                    s.push_str(&"\\".repeat(run));
                    s.push_str(tail);
                    let expect = serde_json::from_str::<serde::de::IgnoredAny>(&s).is_ok();
                    assert_eq!(valid(s.as_bytes()), expect, "pad {pad} run {run} tail {tail}");
                }
            }
        }
    }

    #[test]
    fn every_escape_is_checked_at_every_place_of_a_block() {
        // Each byte after a backslash, at each place around two block boundaries, with and
        // without an escape before it in the same block; `\u` with its digits split across
        // blocks, too.
        for at in 0..140 {
            for code in 0..=255u8 {
                for before in ["", "\\n"] {
                    let mut s = format!("\"{before}").into_bytes();
                    s.resize(at.max(s.len()), b'a');
                    s.extend([b'\\', code]);
                    s.extend(b"12ab\"");
                    let expect = serde_json::from_slice::<serde::de::IgnoredAny>(&s).is_ok();
                    assert_eq!(valid(&s), expect, "{:?}", String::from_utf8_lossy(&s));
                }
            }
        }
    }

    #[test]
    fn whitespace_around_a_key_and_its_colon_is_read_like_serde_json() {
        // Keys and colons as the agents write them (nothing between) and with whitespace, or
        // something else, at each of the places around them: before the key, between the key
        // and its colon, and between the colon and the value; in an object walked member by
        // member and in one skipped whole.
        let places: &[&str] = &["", " ", "\t", "\r\n", "  \n", "x", ",", ":", "\"", "}"];
        let values = ["1", "\"v\"", "[2]", "{}", "{\"b\":null}", "tru"];
        let objects = places.iter().flat_map(|before| {
            places.iter().flat_map(move |after_key| {
                places.iter().flat_map(move |after_colon| {
                    values.map(|value| format!("{{{before}\"a\"{after_key}:{after_colon}{value}}}"))
                })
            })
        });
        let expect = |line: &str| serde_json::from_str::<serde::de::IgnoredAny>(line).is_ok();
        let mut scanner = Scanner::new();
        for object in objects {
            let walked = scanner.index(object.as_bytes()).and_then(|(line, stack)| {
                let end =
                    line.object(line.ws(0), |line, _, value| line.skip_value(value, stack))?;
                line.end(end)
            });
            assert_eq!(walked.is_ok(), expect(&object), "{object}");
            for line in [object.clone(), format!("[{object},{object}]")] {
                assert_eq!(valid(line.as_bytes()), expect(&line), "{line}");
            }
        }
    }

    /// Bytes that build and break JSON.
    fn json_soup() -> impl Strategy<Value = Vec<u8>> {
        let piece = prop_oneof![
            Just(&b"{"[..]),
            Just(&b"}"[..]),
            Just(&b"["[..]),
            Just(&b"]"[..]),
            Just(&b":"[..]),
            Just(&b","[..]),
            Just(&b"\""[..]),
            Just(&b"\\"[..]),
            Just(&b"\\u00e9"[..]),
            Just(&b"\\ud83d\\ude00"[..]),
            Just(&b"\\n"[..]),
            Just(&b" "[..]),
            Just(&b"\t"[..]),
            Just(&b"\x01"[..]),
            Just(&b"\xff"[..]),
            Just(&b"0"[..]),
            Just(&b"-1.5e3"[..]),
            Just(&b"true"[..]),
            Just(&b"null"[..]),
            Just(&b"abc"[..]),
            Just("é".as_bytes()),
        ];
        proptest::collection::vec(piece, 0..200).prop_map(|p| p.concat())
    }

    proptest! {
        #[test]
        fn agrees_with_serde_json_on_soup(s in json_soup()) {
            let serde = serde_json::from_slice::<serde::de::IgnoredAny>(&s).is_ok();
            prop_assert_eq!(valid(&s), serde, "{}", String::from_utf8_lossy(&s));
        }

        /// Compact, as the agents write lines, or pretty (whitespace between every token,
        /// `": "` after each key), with one byte changed.
        #[test]
        fn agrees_with_serde_json_on_valid_json_with_one_byte_changed(
            v in arb_json(), pretty in any::<bool>(), at in any::<prop::sample::Index>(),
            byte in any::<u8>(),
        ) {
            let s = if pretty { serde_json::to_vec_pretty(&v) } else { serde_json::to_vec(&v) };
            let mut s = s.unwrap_or_default();
            prop_assert!(valid(&s));
            if !s.is_empty() {
                let i = at.index(s.len());
                s[i] = byte;
                let serde = serde_json::from_slice::<serde::de::IgnoredAny>(&s).is_ok();
                prop_assert_eq!(valid(&s), serde, "{}", String::from_utf8_lossy(&s));
            }
        }
    }

    /// Arbitrary JSON values with strings long enough to cross blocks.
    pub fn arb_json() -> impl Strategy<Value = serde_json::Value> {
        use serde_json::Value;
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::Bool),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
            "[ -~\\n\\t\"\\\\é\\u{1}]{0,150}".prop_map(Value::String),
        ];
        leaf.prop_recursive(6, 64, 8, |inner| {
            prop_oneof![
                proptest::collection::vec(inner.clone(), 0..8).prop_map(Value::Array),
                proptest::collection::vec(("[a-z\"\\\\]{0,6}", inner), 0..8)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    #[test]
    fn only_x86_64_without_the_feature_classifies_with_sse2() {
        let portable = cfg!(any(not(target_arch = "x86_64"), feature = "portable-scanner"));
        let native = std::any::TypeId::of::<Native>();
        assert_eq!(native == std::any::TypeId::of::<super::portable::Portable>(), portable);
    }

    /// Both classifiers, side by side (test builds on x86-64 have both).
    #[cfg(target_arch = "x86_64")]
    mod both_paths {
        use proptest::prelude::*;

        use super::super::portable::Portable;
        use super::super::sse2::Sse2;
        use super::super::*;
        use super::{arb_json, json_soup};

        /// What the scanner makes of a line with the classifier `C`: the verdict of pass 1
        /// with the bits it keeps, the end of a string opened at each byte, and the verdict of
        /// both passes with the depth they reached.
        #[derive(Debug, PartialEq)]
        struct Reading {
            index: Scan<(Vec<u64>, Vec<u64>)>,
            string_ends: Vec<Scan<usize>>,
            validate: Scan<()>,
            deepest: usize,
        }

        fn read<C: Classify>(bytes: &[u8]) -> Reading {
            let mut scanner = Scanner::new();
            let (index, string_ends, validate) = match scanner.index_with::<C>(bytes) {
                Ok((line, stack)) => {
                    let words = (line.quotes.to_vec(), line.backslashes.to_vec());
                    let ends = (0..bytes.len()).map(|i| line.string_end(i)).collect();
                    let end = line.skip_value(line.ws(0), stack);
                    (Ok(words), ends, end.and_then(|end| line.end(end)))
                }
                Err(e) => (Err(e), Vec::new(), Err(e)),
            };
            Reading { index, string_ends, validate, deepest: scanner.deepest() }
        }

        fn agree(bytes: &[u8]) -> Result<(), TestCaseError> {
            let sse2 = read::<Sse2>(bytes);
            let portable = read::<Portable>(bytes);
            prop_assert_eq!(sse2, portable, "{:?}", String::from_utf8_lossy(bytes));
            Ok(())
        }

        /// Bytes that matter to pass 1 (quotes, backslashes, what may follow one, control
        /// characters and the bytes just above them, bytes of invalid UTF-8), and any byte.
        fn pass_one_byte() -> impl Strategy<Value = u8> {
            prop_oneof![
                4 => Just(b'"'),
                4 => Just(b'\\'),
                2 => prop::sample::select(&b"ntu0aF/bfr"[..]),
                1 => prop::sample::select(&[0x00, b'\t', b'\n', 0x1f, b' ', 0x7f][..]),
                1 => prop::sample::select(&[0x80, 0xc3, 0xe0, 0xff][..]),
                1 => prop::sample::select(&b"{}[]:,"[..]),
                3 => any::<u8>(),
            ]
        }

        /// Lines of those bytes, with runs of them laid over the block boundaries (from a few
        /// bytes before one): most are refused by pass 1, at any place of a block.
        fn pass_one_line() -> impl Strategy<Value = Vec<u8>> {
            let run = proptest::collection::vec(pass_one_byte(), 1..8);
            let across = proptest::collection::vec((1..7usize, 0..8usize, run), 0..4);
            let line = proptest::collection::vec(pass_one_byte(), 0..420);
            (line, across).prop_map(|(mut line, across)| {
                for (block, before, run) in across {
                    let at = block * 64 - before;
                    for (slot, byte) in line.iter_mut().skip(at).zip(run) {
                        *slot = byte;
                    }
                }
                line
            })
        }

        /// Lines that pass 1 mostly accepts though they are seldom JSON: quotes, escapes of
        /// every kind and runs of escaped backslashes between fillers of any length (so they
        /// fall at every place of a block; high bytes make invalid UTF-8), now and then a wild
        /// byte, and sometimes a run of backslashes at the end.
        fn pass_one_pieces() -> impl Strategy<Value = Vec<u8>> {
            let filler = proptest::collection::vec(
                prop::sample::select(&b"a {}[]:,ntu1\x80\xc3\xff"[..]),
                0..80,
            );
            let piece = prop_oneof![
                3 => Just(b"\"".to_vec()),
                3 => prop::sample::select(
                    vec![&br#"\""#[..], br"\\", br"\n", br"\t", br"\/", br"\u00e9", br"\uD83D"],
                )
                .prop_map(<[u8]>::to_vec),
                1 => (1..40usize).prop_map(|n| br"\\".repeat(n)),
                4 => filler,
                1 => any::<u8>().prop_map(|byte| vec![byte]),
            ];
            let trailing = prop_oneof![3 => Just(0), 1 => 1..4usize];
            (proptest::collection::vec(piece, 0..30), trailing).prop_map(|(pieces, trailing)| {
                let mut line = pieces.concat();
                line.extend(std::iter::repeat_n(b'\\', trailing));
                line
            })
        }

        proptest! {
            #[test]
            fn the_classifiers_agree_on_every_block(
                block in proptest::collection::vec(pass_one_byte(), 64),
                a in pass_one_byte(),
                b in any::<u8>(),
            ) {
                let block: [u8; 64] = block.try_into().expect("64 bytes");
                prop_assert_eq!(Sse2::classify(&block), Portable::classify(&block));
                for (a, b) in [(b'n', b't'), (a, b)] {
                    let (sse2, portable) =
                        (Sse2::either_mask(&block, a, b), Portable::either_mask(&block, a, b));
                    prop_assert_eq!(sse2, portable, "{:?} or {:?}", char::from(a), char::from(b));
                }
            }

            /// Compact or pretty, shifted by up to a block so that every string starts at
            /// every place of a block, with one byte changed or not.
            #[test]
            fn both_paths_read_json_alike(
                v in arb_json(), pretty in any::<bool>(), shift in 0..64usize,
                change in proptest::option::of((any::<prop::sample::Index>(), pass_one_byte())),
            ) {
                let s = if pretty { serde_json::to_vec_pretty(&v) } else { serde_json::to_vec(&v) };
                let mut s = [vec![b' '; shift], s.unwrap_or_default()].concat();
                if let Some((at, byte)) = change {
                    let i = at.index(s.len());
                    s[i] = byte;
                }
                agree(&s)?;
            }

            #[test]
            fn both_paths_read_arbitrary_bytes_alike(s in pass_one_line()) {
                agree(&s)?;
            }

            #[test]
            fn both_paths_read_strings_and_escapes_alike(s in pass_one_pieces()) {
                agree(&s)?;
            }

            #[test]
            fn both_paths_read_json_soup_alike(s in json_soup()) {
                agree(&s)?;
            }
        }
    }
}
