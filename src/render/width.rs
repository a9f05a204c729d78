//! How wide text is on a terminal, and text cut to a width: the one rule every row, table and
//! note that fits a terminal follows.

use std::borrow::Cow;

use unicode_width::{UnicodeWidthChar as _, UnicodeWidthStr as _};

/// How many columns `text` takes.
pub fn columns(text: &str) -> usize {
    text.width()
}

/// `text` cut to `room` columns, its last one a `…` when it is cut.
pub fn fit(text: &str, room: usize) -> Cow<'_, str> {
    // A byte takes at most one column in ASCII text: most rows are not measured.
    if text.len() <= room || text.width() <= room {
        return Cow::Borrowed(text);
    }
    let mut used = 0;
    let mut out = String::with_capacity(room + 3);
    for c in text.chars() {
        let w = c.width().unwrap_or(0);
        if used + w + 1 > room {
            break;
        }
        used += w;
        out.push(c);
    }
    if room > 0 {
        out.push('…');
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_cut_to_its_room_with_an_ellipsis() {
        assert_eq!(fit("hello", 5), "hello");
        assert_eq!(fit("hello", 4), "hel…");
        assert_eq!(fit("hello", 0), "");
        // A wide character that does not fit whole is left out.
        assert_eq!(fit("ab日本", 4), "ab…");
        assert_eq!(columns("ab日本"), 6);
    }

    proptest::proptest! {
        #[test]
        fn fitted_text_takes_no_more_than_its_room(text in "\\PC{0,40}", room in 0usize..50) {
            let fitted = fit(&text, room);
            if columns(&text) <= room {
                proptest::prop_assert_eq!(&*fitted, &*text);
            } else {
                proptest::prop_assert!(columns(&fitted) <= room);
                proptest::prop_assert!(room == 0 || fitted.ends_with('…'));
            }
        }
    }
}
