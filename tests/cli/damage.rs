//! Tests for `damage`.
