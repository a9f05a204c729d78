//! JavaScript's semantics for the values of a session file, where the agents' own code (which
//! is JavaScript) decides what sesstree must reproduce: truthiness, `String(v)`, how a number
//! prints, `Math.round`.

use std::fmt::Write as _;

use serde_json::Value;

/// JavaScript truthiness (`undefined`, `null`, `false`, `0`, `""` are false).
pub(crate) fn truthy(v: Option<&Value>) -> bool {
    match v {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(Value::Number(n)) => n.as_f64().is_some_and(|f| f != 0.0),
        Some(Value::String(s)) => !s.is_empty(),
        Some(_) => true,
    }
}

/// JavaScript `String(v)` for the values session files hold (`undefined` for a missing one).
pub fn string(v: Option<&Value>) -> String {
    match v {
        None => "undefined".to_owned(),
        Some(Value::Null) => "null".to_owned(),
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::Number(n)) => match (n.as_i64(), n.as_u64(), n.as_f64()) {
            (Some(i), _, _) => i.to_string(),
            (_, Some(u), _) => u.to_string(),
            (_, _, Some(f)) => number(f),
            _ => n.to_string(),
        },
        Some(Value::String(s)) => s.clone(),
        Some(Value::Array(items)) => items
            .iter()
            .map(|i| if i.is_null() { String::new() } else { string(Some(i)) })
            .collect::<Vec<_>>()
            .join(","),
        Some(Value::Object(_)) => "[object Object]".to_owned(),
    }
}

/// A number as JavaScript prints the integral values that matter here (`2`, not `2.0`).
pub fn number(x: f64) -> String {
    let mut out = String::new();
    push_number(&mut out, x);
    out
}

/// [`number`] onto the end of `out`; integers without the formatting machinery (a `read` row
/// is made for every call of a file).
pub(crate) fn push_number(out: &mut String, x: f64) {
    if x.fract() == 0.0 && x.abs() < 1e15 {
        out.push_str(itoa::Buffer::new().format(x as i64));
    } else {
        // Integral values up to 1e21 print their digits in both languages; Rust's `Display`
        // writes no exponent, and neither does JavaScript below 1e21.
        let _ = write!(out, "{x}");
    }
}

/// `Math.round`: halves round up (towards +∞), where Rust's `round` rounds them away from
/// zero.
pub fn round(x: f64) -> f64 {
    (x + 0.5).floor()
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    #[test]
    fn values_read_as_javascript_reads_them() {
        assert_eq!(string(Some(&json!(2.0))), "2");
        assert_eq!(string(Some(&json!(2.5))), "2.5");
        assert_eq!(string(None), "undefined");
        assert_eq!(string(Some(&json!([1, null, "a"]))), "1,,a");
        assert!(!truthy(Some(&json!(0))) && !truthy(Some(&json!(""))) && truthy(Some(&json!({}))));
        for (x, printed) in [(12.0, "12"), (-3.0, "-3"), (1e15, "1000000000000000"), (0.5, "0.5")] {
            assert_eq!(number(x), printed);
        }
        assert_eq!((round(2.5), round(-2.5), round(1.4)), (3.0, -2.0, 1.0));
    }
}
