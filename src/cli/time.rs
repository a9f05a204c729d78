//! Times as rows show them: in the local time zone, or in UTC with `--utc`.

/// The time zone times are shown in: the local one (`TZ`, else the system's), or UTC with
/// `--utc`. Set once by [`set_utc`] before a command runs.
static ZONE: std::sync::OnceLock<Zone> = std::sync::OnceLock::new();

/// A time zone as rows show times in it.
#[derive(Debug)]
struct Zone {
    tz: jiff::tz::TimeZone,
    /// The offset when it never changes (UTC, a fixed `TZ`): no lookup for each time.
    fixed: Option<i32>,
}

impl Zone {
    fn new(utc: bool) -> Zone {
        let tz = if utc { jiff::tz::TimeZone::UTC } else { jiff::tz::TimeZone::system() };
        let fixed = tz.to_fixed_offset().ok().map(|o| o.seconds());
        Zone { tz, fixed }
    }
}

/// Shows times in UTC (`--utc`) or in the local time zone, for the rest of the process.
pub fn set_utc(utc: bool) {
    let _ = ZONE.set(Zone::new(utc));
}

fn zone() -> &'static Zone {
    ZONE.get_or_init(|| Zone::new(false))
}

/// A timestamp as `YYYY-MM-DD HH:MM:SS +HHMM` in the zone times are shown in ([`set_utc`]),
/// when it is one JavaScript reads; else as written.
pub fn short_time(ts: Option<&str>) -> String {
    let mut out = String::with_capacity(25);
    push_short_time(&mut out, ts, ts.and_then(sesstree::clock::parse_timestamp));
    out
}

/// [`short_time`] onto the end of `out` (a row of every entry shows one), digit by digit: no
/// allocation, no formatting machinery, for each of a million rows. `ms` is `ts` as
/// [`sesstree::clock::parse_timestamp`] reads it, which a record keeps
/// ([`sesstree::session::Record::time`]): a row's time is not read again.
pub fn push_short_time(out: &mut String, ts: Option<&str>, ms: Option<i64>) {
    let Some(ts) = ts else {
        out.push('-');
        return;
    };
    let Some(ms) = ms else {
        out.push_str(ts);
        return;
    };
    let zone = zone();
    let offset = match zone.fixed {
        Some(fixed) => fixed,
        None => jiff::Timestamp::from_millisecond(ms).map_or(0, |t| zone.tz.to_offset(t).seconds()),
    };
    push_at_offset(out, ts, ms, offset);
}

/// [`push_short_time`] of `ts`, which reads as `ms`, at `offset` seconds east of UTC.
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
    let t = sesstree::clock::civil(local);
    if (0..=9999).contains(&t.year) {
        push_digits(out, t.year, 4);
    } else {
        // `toISOString`'s six digits and a sign.
        let iso = sesstree::clock::format_iso_millis(local);
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
fn push_time_and_offset(out: &mut String, t: sesstree::clock::Civil, offset: i32) {
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

/// The epoch milliseconds of a --since / --until: a date (local midnight), a civil time
/// (local), an instant with its offset, or a span back from `now`.
pub fn when(flag: &str, text: &str, now: i64) -> anyhow::Result<i64> {
    use jiff::tz::TimeZone;
    let tz = TimeZone::system();
    let millis = |ts: jiff::Timestamp| ts.as_millisecond();
    if let Ok(ts) = text.parse::<jiff::Timestamp>() {
        return Ok(millis(ts));
    }
    if let Ok(time) = text.parse::<jiff::civil::DateTime>()
        && let Ok(zoned) = time.to_zoned_datetime(tz.clone())
    {
        return Ok(millis(zoned.timestamp()));
    }
    if let Ok(date) = text.parse::<jiff::civil::Date>()
        && let Ok(zoned) = date.to_zoned_datetime(tz.clone())
    {
        return Ok(millis(zoned.timestamp()));
    }
    if let Ok(span) = text.parse::<jiff::Span>()
        && let Ok(now) = jiff::Timestamp::from_millisecond(now)
        && let Ok(back) = now.to_zoned_datetime(tz).checked_sub(span)
    {
        return Ok(millis(back.timestamp()));
    }
    Err(sesstree::Error::Usage(format!(
        "{flag} '{}': not a date (2026-11-30), a time (2026-11-30T14:00) or a span (7d, 12h)",
        crate::cli::ui::show(text)
    ))
    .into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_time_never_slices_inside_a_character() {
        set_utc(true);
        assert_eq!(short_time(Some("2026-03-01T12:00:05.000Z")), "2026-03-01 12:00:05 +0000");
        assert_eq!(short_time(Some("2026-03-01T12:00:05+02:00")), "2026-03-01 10:00:05 +0000");
        assert_eq!(short_time(Some("2026-03-01T12:00:0é")), "2026-03-01T12:00:0é");
        assert_eq!(short_time(Some("2026-03-01Té")), "2026-03-01Té");
        assert_eq!(short_time(None), "-");
    }

    /// What rows showed before times were written digit by digit: the ISO string of the local
    /// time, cut, and the offset through `format!`.
    fn formatted(ms: i64, offset: i32) -> String {
        let local = ms.div_euclid(1000) + i64::from(offset);
        let iso = sesstree::clock::format_iso_millis(local * 1000);
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
            let ts = sesstree::clock::format_iso_millis(ms);
            let mut out = String::new();
            push_at_offset(&mut out, &ts, ms, offset);
            proptest::prop_assert_eq!(out, formatted(ms, offset));
        }
    }
}
