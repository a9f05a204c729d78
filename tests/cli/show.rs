//! Tests for `show`.
