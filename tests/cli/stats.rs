//! Tests for `stats`.
