//! One JSON value checked against a declared [`Type`]: what a test's input line or answer must
//! be for a function problem (an `int` in 32 bits, a `char` a string of one character, a tree
//! level by level with `null`s).
//!
//! Pure: text in, the value or a [`ValueError`] that says what was expected and what is there.

use serde_json::Value;

use super::signature::Type;

/// Why a text is not a value of its type.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ValueError {
    /// Not JSON at all (or more than one value).
    #[error("not JSON ({0})")]
    NotJson(String),
    /// JSON, of another shape: the path inside the value (`[2]`, `[0][1]`) and what it is.
    #[error("{}{what}", place(at))]
    Mismatch { at: String, what: String },
}

/// Reads `text` as one JSON value of type `ty`.
pub fn read(text: &str, ty: &Type) -> Result<Value, ValueError> {
    let value: Value =
        serde_json::from_str(text.trim()).map_err(|e| ValueError::NotJson(e.to_string()))?;
    check(&value, ty, &mut String::new())?;
    Ok(value)
}

/// Whether `value` is of type `ty`; `at` is the path to it inside the whole value.
pub fn check(value: &Value, ty: &Type, at: &mut String) -> Result<(), ValueError> {
    let mismatch = |what: String| {
        Err(ValueError::Mismatch {
            at: at.clone(),
            what,
        })
    };
    match ty {
        Type::Int => match value.as_i64() {
            Some(n) if i32::try_from(n).is_ok() => Ok(()),
            Some(n) => mismatch(format!("{n} is outside int's 32 bits")),
            None => mismatch(format!("{} is not an integer", kind(value))),
        },
        Type::Long => match value.as_i64() {
            Some(_) => Ok(()),
            None if value.is_number() => mismatch(format!("{value} is not a 64-bit integer")),
            None => mismatch(format!("{} is not an integer", kind(value))),
        },
        Type::Double if value.is_number() => Ok(()),
        Type::Double => mismatch(format!("{} is not a number", kind(value))),
        Type::Bool if value.is_boolean() => Ok(()),
        Type::Bool => mismatch(format!("{} is not true or false", kind(value))),
        Type::String if value.is_string() => Ok(()),
        Type::String => mismatch(format!("{} is not a string", kind(value))),
        Type::Char => match value.as_str() {
            Some(s) if s.chars().count() == 1 => Ok(()),
            Some(s) => mismatch(format!("\"{s}\" is not one character")),
            None => mismatch(format!("{} is not a string of one character", kind(value))),
        },
        Type::Array(element) => {
            let Some(items) = value.as_array() else {
                return mismatch(format!("{} is not an array", kind(value)));
            };
            for (i, item) in items.iter().enumerate() {
                let len = at.len();
                at.push_str(&format!("[{i}]"));
                check(item, element, at)?;
                at.truncate(len);
            }
            Ok(())
        }
        Type::ListNode => check(value, &Type::Array(Box::new(Type::Int)), at),
        Type::TreeNode => check_tree(value, at),
    }
}

/// A tree level by level: ints and `null`s, the root not `null`, and no more values than the
/// nodes before them have children.
fn check_tree(value: &Value, at: &mut String) -> Result<(), ValueError> {
    let mismatch = |at: &str, what: String| {
        Err(ValueError::Mismatch {
            at: at.to_string(),
            what,
        })
    };
    let Some(items) = value.as_array() else {
        return mismatch(
            at,
            format!("{} is not an array (a tree level by level)", kind(value)),
        );
    };
    for (i, item) in items.iter().enumerate() {
        if !item.is_null() {
            let len = at.len();
            at.push_str(&format!("[{i}]"));
            check(item, &Type::Int, at)?;
            at.truncate(len);
        }
    }
    if items.first().is_some_and(Value::is_null) {
        return mismatch(at, "the root is null; an empty tree is `[]`".into());
    }
    // Every node present takes the next two values as its children.
    let (mut open, mut next) = (usize::from(!items.is_empty()), 1);
    while open > 0 && next < items.len() {
        open -= 1;
        for child in items.iter().skip(next).take(2) {
            open += usize::from(!child.is_null());
        }
        next += 2;
    }
    if next < items.len() {
        return mismatch(
            at,
            format!(
                "{} values after the last node's children: no node is left to hold them",
                items.len() - next
            ),
        );
    }
    Ok(())
}

/// Where inside the value a mismatch is, as a message starts: `at [1][0]: `.
fn place(at: &str) -> String {
    match at {
        "" => String::new(),
        _ => format!("at {at}: "),
    }
}

/// What a JSON value is, for a message: `"abc"`, `an array`, `null`.
fn kind(value: &Value) -> String {
    match value {
        Value::Array(_) => "an array".into(),
        Value::Object(_) => "an object".into(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ty(text: &str) -> Type {
        Type::parse(text).unwrap()
    }

    fn ok(text: &str, t: &str) {
        assert!(
            read(text, &ty(t)).is_ok(),
            "{text} as {t}: {:?}",
            read(text, &ty(t))
        );
    }

    fn bad(text: &str, t: &str) -> String {
        read(text, &ty(t)).unwrap_err().to_string()
    }

    #[test]
    fn scalars_are_checked_to_their_range() {
        ok("2147483647", "int");
        ok(" -5 \n", "int");
        assert_eq!(
            bad("2147483648", "int"),
            "2147483648 is outside int's 32 bits"
        );
        ok("9223372036854775807", "long");
        assert_eq!(bad("1.5", "long"), "1.5 is not a 64-bit integer");
        assert_eq!(bad("\"1\"", "int"), "\"1\" is not an integer");
        ok("1", "double");
        ok("-2.5e-3", "double");
        ok("true", "bool");
        assert_eq!(bad("1", "bool"), "1 is not true or false");
        ok("\"é\"", "char");
        assert_eq!(bad("\"ab\"", "char"), "\"ab\" is not one character");
        ok("\"a b\"", "string");
        assert_eq!(bad("null", "string"), "null is not a string");
    }

    #[test]
    fn arrays_say_where_inside_they_fail() {
        ok("[]", "int[]");
        ok("[[1,2],[3]]", "int[][]");
        ok("[\"a\",\"b\"]", "char[]");
        assert_eq!(
            bad("[[1,2],[3,\"x\"]]", "int[][]"),
            "at [1][1]: \"x\" is not an integer"
        );
        assert_eq!(bad("[1,2", "int[]").split(' ').next(), Some("not"));
        assert_eq!(bad("1 2", "int").split(' ').next(), Some("not"));
        assert_eq!(bad("{}", "int[]"), "an object is not an array");
    }

    #[test]
    fn lists_and_trees_are_leetcodes() {
        ok("[1,2,3]", "ListNode");
        ok("[]", "ListNode");
        assert_eq!(
            bad("[1,null]", "ListNode"),
            "at [1]: null is not an integer"
        );
        ok("[]", "TreeNode");
        ok("[1,null,2,3]", "TreeNode");
        ok("[3,9,20,null,null,15,7]", "TreeNode");
        ok("[1,2,null,3,null,4]", "TreeNode");
        assert!(bad("[null,1]", "TreeNode").contains("root is null"));
        assert!(bad("[1,null,null,2]", "TreeNode").contains("no node is left"));
        assert_eq!(
            bad("[1,\"a\"]", "TreeNode"),
            "at [1]: \"a\" is not an integer"
        );
    }
}
