//! Read access to a JSON value, shared by the two shapes entries come in: a whole line parsed
//! into a [`serde_json::Value`] and the row value of [`crate::row`], which keeps only what a row
//! reads and costs a fraction of the allocations. The row functions of [`crate::row::text`] are
//! written once, against [`Json`], and read both the same.

use serde_json::Value;

/// What the row functions read of a JSON value; the methods mean what serde_json's do.
pub trait Json: Sized {
    /// `null`, for a missing member.
    fn null<'s>() -> &'s Self;
    /// The member `key` of an object (the last one, when a key is written twice).
    fn get(&self, key: &str) -> Option<&Self>;
    /// A string's text.
    fn as_str(&self) -> Option<&str>;
    /// An array's elements.
    fn as_array(&self) -> Option<&[Self]>;
    /// A finite number as `f64`.
    fn as_f64(&self) -> Option<f64>;
    /// A boolean.
    fn as_bool(&self) -> Option<bool>;
    /// Whether it is `null`.
    fn is_null(&self) -> bool;
    /// The value as a [`Value`].
    fn to_value(&self) -> Value;

    /// `f` of the value as a [`Value`]: for the few rows that print JSON text, without a copy
    /// when it is one already.
    fn with_value<R>(&self, f: impl FnOnce(&Value) -> R) -> R {
        f(&self.to_value())
    }

    /// Whether it is a string.
    fn is_string(&self) -> bool {
        self.as_str().is_some()
    }

    /// Whether it is an array.
    fn is_array(&self) -> bool {
        self.as_array().is_some()
    }
}

static NULL: Value = Value::Null;

impl Json for Value {
    fn null<'s>() -> &'s Self {
        &NULL
    }

    fn get(&self, key: &str) -> Option<&Self> {
        Value::get(self, key)
    }

    fn as_str(&self) -> Option<&str> {
        Value::as_str(self)
    }

    fn as_array(&self) -> Option<&[Self]> {
        Value::as_array(self).map(Vec::as_slice)
    }

    fn as_f64(&self) -> Option<f64> {
        Value::as_f64(self)
    }

    fn as_bool(&self) -> Option<bool> {
        Value::as_bool(self)
    }

    fn is_null(&self) -> bool {
        Value::is_null(self)
    }

    fn to_value(&self) -> Value {
        self.clone()
    }

    fn with_value<R>(&self, f: impl FnOnce(&Value) -> R) -> R {
        f(self)
    }
}
