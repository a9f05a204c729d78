//! Times as rows show them: `YYYY-MM-DD HH:MM:SS +HHMM` in a [`Zone`] the caller chooses (the
//! binary: the local one, or UTC with `--utc`); the library reads no environment.

use crate::clock::{Civil, civil, format_iso_millis, parse_timestamp};

/// A time zone as rows show times in it.
#[derive(Debug, Clone)]
pub struct Zone {
    tz: jiff::tz::TimeZone,
    /// The offset when it never changes (UTC, a fixed `TZ`): no lookup for each time.
    fixed: Option<i32>,
}

impl Zone {
    /// Times shown in `tz`.
    pub fn new(tz: jiff::tz::TimeZone) -> Zone {
        let fixed = tz.to_fixed_offset().ok().map(|o| o.seconds());
        Zone { tz, fixed }
    }

    /// A timestamp as `YYYY-MM-DD HH:MM:SS +HHMM` in this zone, when it is one JavaScript
    /// reads; else as written; `-` for none.
    pub fn short_time(&self, ts: Option<&str>) -> String {
        let mut out = String::with_capacity(25);
        self.push_short_time(&mut out, ts, ts.and_then(parse_timestamp));
        out
    }

    /// [`Zone::short_time`] onto the end of `out` (a row of every entry shows one), digit by
    /// digit: no allocation, no formatting machinery, for each of a million rows. `ms` is `ts`
    /// as [`parse_timestamp`] reads it, which a record keeps
    /// ([`crate::session::Record::time`]): a row's time is not read again.
    pub fn push_short_time(&self, out: &mut String, ts: Option<&str>, ms: Option<i64>) {
        let Some(ts) = ts else {
            out.push('-');
            return;
        };
        let Some(ms) = ms else {
            out.push_str(ts);
            return;
        };
        let offset = match self.fixed {
            Some(fixed) => fixed,
            None => {
                jiff::Timestamp::from_millisecond(ms).map_or(0, |t| self.tz.to_offset(t).seconds())
            }
        };
        push_at_offset(out, ts, ms, offset);
    }
}

/// [`Zone::push_short_time`] of `ts`, which reads as `ms`, at `offset` seconds east of UTC.
fn push_at_offset(out: &mut String, ts: &str, ms: i64, offset: i32) {
    // Nearly always: `toISOString`'s UTC shown at offset 0, the pieces as they stand.
    let b = ts.as_bytes();
    if offset == 0
        && b.len() >= 20
        && b[10] == b'T'
        && b[..19].is_ascii()
        && (b[19] == b'Z' || (b[19] == b'.' && b.last() == Some(&b'Z')))
    {
        out.push_str(&ts[..10]);
        out.push(' ');
        out.push_str(&ts[11..19]);
        out.push_str(" +0000");
        return;
    }
    let local = (ms.div_euclid(1000) + i64::from(offset)) * 1000;
    let t = civil(local);
    if (0..=9999).contains(&t.year) {
        push_digits(out, t.year, 4);
    } else {
        // `toISOString`'s six digits and a sign.
        let iso = format_iso_millis(local);
        out.push_str(iso.split_once('T').map_or(&iso[..], |(date, _)| date));
        out.push(' ');
        push_time_and_offset(out, t, offset);
        return;
    }
    out.push('-');
    push_digits(out, t.month, 2);
    out.push('-');
    push_digits(out, t.day, 2);
    out.push(' ');
    push_time_and_offset(out, t, offset);
}

/// `HH:MM:SS ±HHMM`.
fn push_time_and_offset(out: &mut String, t: Civil, offset: i32) {
    push_digits(out, t.hour, 2);
    out.push(':');
    push_digits(out, t.minute, 2);
    out.push(':');
    push_digits(out, t.second, 2);
    let (sign, abs) = if offset < 0 { ('-', -i64::from(offset)) } else { ('+', i64::from(offset)) };
    out.push(' ');
    out.push(sign);
    push_digits(out, abs / 3600, 2);
    push_digits(out, abs / 60 % 60, 2);
}

/// `n` (not negative) with at least `width` digits, zeros in front.
fn push_digits(out: &mut String, n: i64, width: u32) {
    let mut buf = itoa::Buffer::new();
    let digits = buf.format(n);
    for _ in digits.len()..width as usize {
        out.push('0');
    }
    out.push_str(digits);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_time_never_slices_inside_a_character() {
        let utc = Zone::new(jiff::tz::TimeZone::UTC);
        assert_eq!(utc.short_time(Some("2026-03-01T12:00:05.000Z")), "2026-03-01 12:00:05 +0000");
        assert_eq!(utc.short_time(Some("2026-03-01T12:00:05+02:00")), "2026-03-01 10:00:05 +0000");
        assert_eq!(utc.short_time(Some("2026-03-01T12:00:0é")), "2026-03-01T12:00:0é");
        assert_eq!(utc.short_time(Some("2026-03-01Té")), "2026-03-01Té");
        assert_eq!(utc.short_time(None), "-");
    }

    /// The zone is the caller's: the same instant at another offset.
    #[test]
    fn times_are_shown_in_the_zone_given() {
        let east = Zone::new(jiff::tz::TimeZone::fixed(jiff::tz::offset(2)));
        assert_eq!(east.short_time(Some("2026-03-01T23:00:05.000Z")), "2026-03-02 01:00:05 +0200");
    }

    /// What rows showed before times were written digit by digit: the ISO string of the local
    /// time, cut, and the offset through `format!`.
    fn formatted(ms: i64, offset: i32) -> String {
        let local = ms.div_euclid(1000) + i64::from(offset);
        let iso = format_iso_millis(local * 1000);
        let t = iso.find('T').unwrap();
        let (sign, abs) = if offset < 0 { ('-', -offset) } else { ('+', offset) };
        format!("{} {} {sign}{:02}{:02}", &iso[..t], &iso[t + 1..t + 9], abs / 3600, abs / 60 % 60)
    }

    proptest::proptest! {
        #[test]
        fn digits_are_what_formatting_wrote(
            ms in -70_000_000_000_000i64..300_000_000_000_000,
            offset in -50_400i32..=50_400,
        ) {
            let ts = format_iso_millis(ms);
            let mut out = String::new();
            push_at_offset(&mut out, &ts, ms, offset);
            proptest::prop_assert_eq!(out, formatted(ms, offset));
        }
    }
}
