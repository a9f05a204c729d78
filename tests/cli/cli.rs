//! Tests for `cli`.
