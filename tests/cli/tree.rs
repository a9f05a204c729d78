//! Tests for `tree`.
