//! Time as the session files hold it: `new Date().toISOString()` strings (UTC, milliseconds,
//! `Z`) and epoch milliseconds, converted without a date crate. Also the [`Clock`] every
//! writer takes its "now" from, so tests can pin it (the CLI reads `SESSTREE_NOW`; the library
//! never reads the environment itself).

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The largest distance from the epoch a JavaScript `Date` can hold (±100,000,000 days);
/// `Date.parse` gives NaN beyond it.
pub const MAX_TIME_MS: i64 = 8_640_000_000_000_000;

const MS_PER_DAY: i64 = 86_400_000;

/// Formats epoch milliseconds as `Date.prototype.toISOString` does:
/// `2026-02-16T10:20:30.123Z`. Years outside 0–9999 use the expanded form with a sign and six
/// digits (`+010000-01-01T00:00:00.000Z`, `-000001-…`), as JavaScript does. JavaScript throws
/// beyond [`MAX_TIME_MS`]; here the same layout simply continues with more digits.
pub fn format_iso_millis(epoch_ms: i64) -> String {
    let Civil { year, month, day, hour, minute, second, milli } = civil(epoch_ms);
    let year = if (0..=9999).contains(&year) {
        format!("{year:04}")
    } else if year < 0 {
        format!("-{:06}", year.unsigned_abs())
    } else {
        format!("+{year:06}")
    };
    format!("{year}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}.{milli:03}Z")
}

/// A moment's date and time of day in UTC, in the proleptic Gregorian calendar JavaScript's
/// `Date` uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Civil {
    /// The year (0 is 1 BC).
    pub year: i64,
    /// 1–12.
    pub month: i64,
    /// 1–31.
    pub day: i64,
    /// 0–23.
    pub hour: i64,
    /// 0–59.
    pub minute: i64,
    /// 0–59.
    pub second: i64,
    /// 0–999.
    pub milli: i64,
}

/// The date and time of day of epoch milliseconds.
pub fn civil(epoch_ms: i64) -> Civil {
    let days = epoch_ms.div_euclid(MS_PER_DAY);
    let in_day = epoch_ms.rem_euclid(MS_PER_DAY);
    let (year, month, day) = civil_from_days(days);
    Civil {
        year,
        month,
        day,
        hour: in_day / 3_600_000,
        minute: in_day / 60_000 % 60,
        second: in_day / 1000 % 60,
        milli: in_day % 1000,
    }
}

/// The timestamp part of a session file name (FORMAT §1.4): the ISO string with every `:` and
/// `.` replaced by `-`, e.g. `2026-02-16T10-20-30-000Z`.
pub(crate) fn file_stamp(epoch_ms: i64) -> String {
    format_iso_millis(epoch_ms).replace([':', '.'], "-")
}

/// Reads a timestamp into epoch milliseconds, or `None` where JavaScript's `Date.parse` would
/// give NaN (such entries keep their file order when children are sorted).
///
/// Accepted is the ECMAScript date-time string format, which is what the agents write and what
/// every JavaScript engine reads alike:
///
/// * `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, read as UTC midnight;
/// * one of those, then `THH:mm`, optionally `:ss` and a fraction of any length (digits past
///   the milliseconds are ignored, not rounded), then `Z` or `±HH:mm` (or `±HHmm`, which
///   the engines also take);
/// * `T24:00` (with zero seconds and fraction) as the end of the day;
/// * years as four digits or as `+YYYYYY` / `-YYYYYY` (but not `-000000`).
///
/// Fields are range-checked against the real calendar (no 30 February), and the result must lie
/// within [`MAX_TIME_MS`] of the epoch (V8 rolls 30 February over into March; JavaScriptCore,
/// which the agents run on, refuses it, and so does this). A date-time without an offset means
/// local time in JavaScript, which depends on the machine, so it gives `None`; so do the
/// looser, engine-specific forms (lowercase `t`, a space instead of `T`, surrounding spaces).
pub fn parse_timestamp(s: &str) -> Option<i64> {
    // Nearly every timestamp is `toISOString`'s; anything else the general reading takes.
    iso_millis(s.as_bytes()).or_else(|| read_timestamp(s))
}

/// [`parse_timestamp`] of any form, field by field.
fn read_timestamp(s: &str) -> Option<i64> {
    let mut p = Cursor { bytes: s.as_bytes(), pos: 0 };

    let year = if p.eat(b'+') {
        p.digits(6)?
    } else if p.eat(b'-') {
        -p.digits(6).filter(|&digits| digits != 0)?
    } else {
        p.digits(4)?
    };
    let (mut month, mut day) = (1, 1);
    if p.eat(b'-') {
        month = p.digits(2)?;
        if p.eat(b'-') {
            day = p.digits(2)?;
        }
    }
    let date_ms = date_ms(year, month, day)?;

    if p.at_end() {
        return clip(date_ms);
    }
    if !p.eat(b'T') {
        return None;
    }
    let hour = p.digits(2)?;
    p.eat(b':').then_some(())?;
    let minute = p.digits(2)?;
    let (mut second, mut milli, mut fraction_is_zero) = (0, 0, true);
    if p.eat(b':') {
        second = p.digits(2)?;
        if p.eat(b'.') {
            let n = p.bytes[p.pos..].iter().take_while(|b| b.is_ascii_digit()).count();
            let fraction = &p.bytes[p.pos..p.pos + n];
            p.pos += n;
            if fraction.is_empty() {
                return None;
            }
            // Milliseconds are the first three digits, padded: ".1" is 100 ms.
            let digit = |i: usize| fraction.get(i).map_or(0, |b| i64::from(b - b'0'));
            milli = digit(0) * 100 + digit(1) * 10 + digit(2);
            fraction_is_zero = fraction.iter().all(|&b| b == b'0');
        }
    }
    let end_of_day = hour == 24 && minute == 0 && second == 0 && fraction_is_zero;
    if !(hour < 24 || end_of_day) || minute > 59 || second > 59 {
        return None;
    }

    let offset_ms = match p.bytes.get(p.pos)? {
        b'Z' => {
            p.pos += 1;
            0
        }
        &sign @ (b'+' | b'-') => {
            p.pos += 1;
            let hours = p.digits(2)?;
            // `+01:00` is the standard form; both V8 and JavaScriptCore also take `+0100`.
            p.eat(b':');
            let minutes = p.digits(2)?;
            if hours > 23 || minutes > 59 {
                return None;
            }
            let offset = hours * 3_600_000 + minutes * 60_000;
            if sign == b'-' { -offset } else { offset }
        }
        _ => return None,
    };
    if !p.at_end() {
        return None;
    }
    let time_ms = hour * 3_600_000 + minute * 60_000 + second * 1000 + milli;
    clip(date_ms + time_ms - offset_ms)
}

/// [`parse_timestamp`] of the form `toISOString` writes for years 0–9999,
/// `YYYY-MM-DDTHH:mm:ss.sssZ`, read at fixed places: the loader reads one for every entry, and
/// the general reading costs about 90 instructions more (320 against 230, most of which is
/// the day count). `None` for anything else (`T24:00` too), which the general reading then
/// decides.
fn iso_millis(bytes: &[u8]) -> Option<i64> {
    let b: &[u8; 24] = bytes.try_into().ok()?;
    if b[4] != b'-' || b[7] != b'-' || b[10] != b'T' || b[13] != b':' || b[16] != b':' {
        return None;
    }
    if b[19] != b'.' || b[23] != b'Z' {
        return None;
    }
    let digit = |i: usize| {
        let d = b[i].wrapping_sub(b'0');
        (d < 10).then_some(i64::from(d))
    };
    let two = |i: usize| Some(digit(i)? * 10 + digit(i + 1)?);
    let year = two(0)? * 100 + two(2)?;
    let (month, day) = (two(5)?, two(8)?);
    let (hour, minute, second) = (two(11)?, two(14)?, two(17)?);
    let milli = digit(20)? * 100 + two(21)?;
    if hour > 23 || minute > 59 || second > 59 {
        return None;
    }
    let time_ms = ((hour * 60 + minute) * 60 + second) * 1000 + milli;
    Some(date_ms(year, month, day)? + time_ms)
}

/// Midnight (UTC) of a date, or `None` for a month or day that the calendar does not have.
fn date_ms(year: i64, month: i64, day: i64) -> Option<i64> {
    if !(1..=12).contains(&month) || day < 1 || day > days_in_month(year, month) {
        return None;
    }
    Some(days_from_civil(year, month, day) * MS_PER_DAY)
}

/// JavaScript's TimeClip: a time outside the `Date` range is NaN.
fn clip(ms: i64) -> Option<i64> {
    (-MAX_TIME_MS..=MAX_TIME_MS).contains(&ms).then_some(ms)
}

/// A byte cursor over a timestamp string.
struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl Cursor<'_> {
    fn at_end(&self) -> bool {
        self.pos == self.bytes.len()
    }

    fn eat(&mut self, byte: u8) -> bool {
        let hit = self.bytes.get(self.pos) == Some(&byte);
        self.pos += usize::from(hit);
        hit
    }

    /// Exactly `n` ASCII digits as a number (n ≤ 6, so no overflow).
    fn digits(&mut self, n: usize) -> Option<i64> {
        let field = self.bytes.get(self.pos..self.pos + n)?;
        let value = field.iter().try_fold(0, |value, &b| {
            b.is_ascii_digit().then(|| value * 10 + i64::from(b - b'0'))
        })?;
        self.pos += n;
        Some(value)
    }
}

/// The proleptic Gregorian date of a day count from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`), valid for the whole `i64` millisecond range.
fn civil_from_days(days: i64) -> (i64, i64, i64) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The day count from 1970-01-01 of a proleptic Gregorian date (`days_from_civil`).
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let yoe = year.rem_euclid(400);
    let mp = (month + 9) % 12;
    let doy = (153 * mp + 2) / 5 + day - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

fn days_in_month(year: i64, month: i64) -> i64 {
    match month {
        2 if year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Where "now" comes from: the system clock, or a pinned instant for reproducible output.
///
/// A pinned clock returns its instant on the first call and **advances by 1 ms on every
/// further call**. Entries written in one run then get distinct, increasing timestamps, as
/// they would in real time, so sorting siblings by time agrees with file order; and because
/// each run builds a fresh clock, the same command gives the same bytes every time. A caller
/// that needs one instant in two places (a `title_change` entry and the slot's `updatedAt`)
/// takes it once and reuses it.
#[derive(Debug)]
pub struct Clock {
    /// The next instant to hand out, when pinned.
    pinned: Option<AtomicI64>,
}

impl Clock {
    /// The system clock.
    pub fn system() -> Self {
        Clock { pinned: None }
    }

    /// A clock pinned to `epoch_ms` (then advancing 1 ms per call).
    pub fn pinned(epoch_ms: i64) -> Self {
        Clock { pinned: Some(AtomicI64::new(epoch_ms)) }
    }

    /// A clock pinned to an ISO timestamp such as the value of `SESSTREE_NOW`; `None` when
    /// [`parse_timestamp`] does not accept it.
    pub fn pinned_at(iso: &str) -> Option<Self> {
        parse_timestamp(iso).map(Clock::pinned)
    }

    /// The current time in epoch milliseconds.
    pub fn now_millis(&self) -> i64 {
        match &self.pinned {
            Some(next) => next.fetch_add(1, Ordering::Relaxed),
            None => system_millis(),
        }
    }

    /// The current time as an entry `timestamp` (`2026-02-16T10:20:30.123Z`).
    pub fn now_iso(&self) -> String {
        format_iso_millis(self.now_millis())
    }
}

fn system_millis() -> i64 {
    // A clock set before 1970 is odd but representable; never panic over it.
    match SystemTime::now().duration_since(UNIX_EPOCH) {
        Ok(after) => i64::try_from(after.as_millis()).unwrap_or(i64::MAX),
        Err(before) => i64::try_from(before.duration().as_millis()).map_or(i64::MIN, |ms| -ms),
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    proptest! {
        /// The fixed-place reading of `toISOString`'s form gives what the general reading
        /// gives, and takes every such string with fields in range (bytes drawn near the
        /// form: digits, the separators, and a few that break it).
        #[test]
        fn iso_millis_reads_as_the_general_reading(
            bytes in proptest::collection::vec(
                prop_oneof![
                    4 => proptest::char::range('0', '9'),
                    1 => proptest::sample::select(vec!['-', ':', 'T', '.', 'Z', 'x']),
                ],
                24,
            ),
            template in any::<bool>(),
        ) {
            let mut text: Vec<char> = bytes;
            if template {
                for (i, c) in [(4, '-'), (7, '-'), (10, 'T'), (13, ':'), (16, ':'), (19, '.'), (23, 'Z')] {
                    text[i] = c;
                }
            }
            let text: String = text.into_iter().collect();
            let fast = iso_millis(text.as_bytes());
            prop_assert!(fast.is_none() || fast == read_timestamp(&text), "{text}");
            prop_assert_eq!(parse_timestamp(&text), read_timestamp(&text), "{}", text);
        }

        #[test]
        fn iso_millis_takes_every_to_iso_string(ms in 0i64..253_402_300_800_000) {
            let text = format_iso_millis(ms);
            prop_assert_eq!(iso_millis(text.as_bytes()), Some(ms), "{}", text);
        }
    }

    #[test]
    fn iso_millis_leaves_the_edges_to_the_general_reading() {
        let cases = [
            ("2024-02-29T23:59:59.999Z", Some(1_709_251_199_999)),
            ("2023-02-29T00:00:00.000Z", None),
            ("2026-04-31T00:00:00.000Z", None),
            ("2026-00-10T00:00:00.000Z", None),
            ("2026-13-10T00:00:00.000Z", None),
            ("2026-01-00T00:00:00.000Z", None),
            ("2026-01-01T23:60:00.000Z", None),
            ("2026-01-01T23:59:60.000Z", None),
            ("0000-01-01T00:00:00.000Z", Some(-62_167_219_200_000)),
        ];
        for (text, ms) in cases {
            assert_eq!(iso_millis(text.as_bytes()), ms, "{text}");
            assert_eq!(read_timestamp(text), ms, "{text}");
        }
        // The end of a day: not the fixed-place form's, but a valid time.
        assert_eq!(iso_millis(b"2026-01-01T24:00:00.000Z"), None);
        assert_eq!(parse_timestamp("2026-01-01T24:00:00.000Z"), Some(1_767_312_000_000));
        // Other forms go to the general reading.
        assert_eq!(parse_timestamp("2026-01-01T00:00:00.000+01:00"), Some(1_767_222_000_000));
        assert_eq!(iso_millis(b"2026-01-01T00:00:00Z"), None);
    }

    #[test]
    fn formats_like_to_iso_string() {
        // Pairs checked against node's `new Date(ms).toISOString()`.
        let cases = [
            (0, "1970-01-01T00:00:00.000Z"),
            (-1, "1969-12-31T23:59:59.999Z"),
            (1_771_237_230_123, "2026-02-16T10:20:30.123Z"),
            (1_709_164_800_000, "2024-02-29T00:00:00.000Z"),
            (253_402_300_799_999, "9999-12-31T23:59:59.999Z"),
            (253_402_300_800_000, "+010000-01-01T00:00:00.000Z"),
            (-62_167_219_200_000, "0000-01-01T00:00:00.000Z"),
            (-62_167_219_200_001, "-000001-12-31T23:59:59.999Z"),
            (-62_198_755_200_000, "-000001-01-01T00:00:00.000Z"),
            (MAX_TIME_MS, "+275760-09-13T00:00:00.000Z"),
            (-MAX_TIME_MS, "-271821-04-20T00:00:00.000Z"),
        ];
        for (ms, want) in cases {
            assert_eq!(format_iso_millis(ms), want, "{ms}");
            assert_eq!(parse_timestamp(want), Some(ms), "{want}");
        }
        // No panic at the extremes of i64.
        assert!(format_iso_millis(i64::MAX).ends_with('Z'));
        assert!(format_iso_millis(i64::MIN).starts_with('-'));
    }

    #[test]
    fn file_stamp_replaces_colons_and_dots() {
        assert_eq!(file_stamp(1_771_237_230_000), "2026-02-16T10-20-30-000Z");
        assert_eq!(file_stamp(1_771_237_230_123), "2026-02-16T10-20-30-123Z");
    }

    #[test]
    fn parses_what_date_parse_accepts() {
        // Values checked against node's `Date.parse`.
        let cases = [
            ("2026-02-16T10:20:30.123Z", 1_771_237_230_123),
            ("2026-02-16T10:20:30Z", 1_771_237_230_000),
            ("2026-02-16T10:20Z", 1_771_237_200_000),
            ("2026-02-16T10:20:30.1Z", 1_771_237_230_100),
            ("2026-02-16T10:20:30.123456789Z", 1_771_237_230_123),
            ("2026-02-16T10:20:30.999999Z", 1_771_237_230_999),
            ("2026-02-16", 1_771_200_000_000),
            ("2026-02", 1_769_904_000_000),
            ("2026", 1_767_225_600_000),
            ("2026T10:20Z", 1_767_262_800_000),
            ("2026-02T10:20Z", 1_769_941_200_000),
            ("+002026-02-16T10:20:30Z", 1_771_237_230_000),
            ("+002026", 1_767_225_600_000),
            ("-002026-02-16", -126_097_603_200_000),
            ("2024-02-29", 1_709_164_800_000),
            ("2026-02-16T24:00:00Z", 1_771_286_400_000),
            ("2026-02-16T24:00:00.000Z", 1_771_286_400_000),
            ("2026-02-16T24:00Z", 1_771_286_400_000),
            ("2026-02-16T10:20:30+01:00", 1_771_233_630_000),
            ("2026-02-16T10:20:30+0100", 1_771_233_630_000),
            ("2026-02-16T10:20:30+23:59", 1_771_150_890_000),
            ("2026-02-16T10:20:30.123+05:30", 1_771_217_430_123),
            ("2026-02-16T10:20:30.1234+01:00", 1_771_233_630_123),
            ("2026-02-16T10:20:30.123-00:00", 1_771_237_230_123),
            ("1969-12-31T23:59:59.999Z", -1),
            ("0000-01-01", -62_167_219_200_000),
            ("+275760-09-13T00:00:00.000Z", MAX_TIME_MS),
            ("-271821-04-20T00:00:00Z", -MAX_TIME_MS),
        ];
        for (s, want) in cases {
            assert_eq!(parse_timestamp(s), Some(want), "{s}");
        }
    }

    #[test]
    fn rejects_what_date_parse_rejects_or_leaves_to_the_engine() {
        let cases = [
            // NaN in every engine.
            "-000000-01-01T00:00:00Z",
            "2026-02-16T24:00:01Z",
            "2026-02-16T24:00:00.0001Z",
            "2026-02-16T10:20:30+01",
            "2026-02-16T10:20:30+01:0",
            "2026-02-16T10:20:30+010",
            "2026-02-16T10:20:30.Z",
            "2026-02-16T10:20:60Z",
            "2026-02-16T10:20:30+24:00",
            "2026-02-16T10:20:30+00:60",
            "2026-13-01",
            "2026-00-10",
            "2026-02-16T1:20:30Z",
            "2026-02-16T10:20:30.123ZZ",
            "+275760-09-13T00:00:00.001Z",
            "-271821-04-19T23:59:59.999Z",
            "-271821-04-20T00:00:00+01:00",
            "",
            "garbage",
            "2026-02-16T",
            // Not a real date (V8 rolls over, JavaScriptCore and SpiderMonkey refuse).
            "2026-02-30",
            "2026-02-29T00:00:00Z",
            "2026-04-31",
            // Local time: depends on the machine's zone.
            "2026-02-16T10:20:30",
            "2026-02-16T10:20",
            // Engine-specific legacy forms.
            "2026-02-16t10:20:30z",
            "2026-02-16 10:20:30Z",
            " 2026-02-16",
            "2026-2-16",
            "2026-02-16Z",
            "275760-09-13",
            // Non-ASCII digits are not digits.
            "２０２６-02-16",
        ];
        for s in cases {
            assert_eq!(parse_timestamp(s), None, "{s}");
        }
    }

    #[test]
    fn format_and_parse_round_trip() {
        // A spread of instants across the whole range, from a fixed LCG.
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        for _ in 0..5_000 {
            x = x.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
            let span = 2 * MAX_TIME_MS as u64 + 1;
            let ms = (x % span) as i64 - MAX_TIME_MS;
            assert_eq!(parse_timestamp(&format_iso_millis(ms)), Some(ms), "{ms}");
        }
        // Every 9973rd day across the range, and every day around the epoch and around 1 BC,
        // where the year numbering and leap rules have their edges.
        let days = (-100_000_000..=100_000_000).step_by(9973).chain(-2_000..2_000);
        let days = days.chain(-721_000..-718_000);
        for day in days {
            let ms = day * MS_PER_DAY;
            assert_eq!(parse_timestamp(&format_iso_millis(ms)), Some(ms), "{ms}");
        }
    }

    #[test]
    fn pinned_clock_advances_one_millisecond_per_call() {
        let clock = Clock::pinned_at("2026-02-16T10:20:30.000Z").unwrap();
        assert!(clock.pinned.is_some());
        assert_eq!(clock.now_iso(), "2026-02-16T10:20:30.000Z");
        assert_eq!(clock.now_iso(), "2026-02-16T10:20:30.001Z");
        assert_eq!(clock.now_millis(), 1_771_237_230_002);
        assert!(Clock::pinned_at("yesterday").is_none());
    }

    #[test]
    fn system_clock_is_recent() {
        let clock = Clock::system();
        assert!(clock.pinned.is_none());
        // After 2025-01-01: the build machine's clock is not that wrong.
        assert!(clock.now_millis() > 1_735_689_600_000);
    }
}
