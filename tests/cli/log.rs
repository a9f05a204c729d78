//! Tests for `log`.
