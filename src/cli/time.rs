//! The time zone rows show times in, chosen once from the environment (the local one, or UTC
//! with `--utc`; the output layer writes the times, [`sesstree::render::time`]), and the times
//! that --since, --until and --older-than take.

use sesstree::render::time::Zone;

/// The time zone times are shown in: the local one (`TZ`, else the system's), or UTC with
/// `--utc`. Set once by [`set_utc`] before a command runs.
static ZONE: std::sync::OnceLock<Zone> = std::sync::OnceLock::new();

fn chosen(utc: bool) -> Zone {
    Zone::new(if utc { jiff::tz::TimeZone::UTC } else { jiff::tz::TimeZone::system() })
}

/// Shows times in UTC (`--utc`) or in the local time zone, for the rest of the process.
pub fn set_utc(utc: bool) {
    let _ = ZONE.set(chosen(utc));
}

/// The zone times are shown in ([`set_utc`]).
pub fn zone() -> &'static Zone {
    ZONE.get_or_init(|| chosen(false))
}

/// A timestamp as rows show it, in [`zone`].
pub fn short_time(ts: Option<&str>) -> String {
    zone().short_time(ts)
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
