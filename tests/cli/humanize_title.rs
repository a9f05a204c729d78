//! Tests for `humanize_title`.
