//! A document checked against its published JSON Schema by walking the schema: the keywords
//! schemars writes (`$ref` into `$defs`, `type`, `properties`, `required`,
//! `additionalProperties`, `items`, `enum`, `const`, `anyOf`, `oneOf`, `allOf`, `minimum`).
//! Stricter than JSON Schema in one way: an object whose schema lists its properties is
//! closed, so a field the judge writes that the schema does not describe is an error (the
//! published schema must say every field, not only some).

use std::collections::BTreeSet;

use serde_json::Value;

/// What in `doc` breaks `schema` (empty: nothing), each with where (`/cases/0/verdict`).
pub(crate) fn errors(schema: &Value, doc: &Value) -> Vec<String> {
    let mut out = Vec::new();
    walk(schema, schema, doc, "", &BTreeSet::new(), &mut out);
    out
}

/// `allowed`: the properties an enclosing schema of the same object describes (a flattened
/// `schema` field beside an `anyOf` of the document's own shapes).
fn walk(
    root: &Value,
    schema: &Value,
    doc: &Value,
    at: &str,
    allowed: &BTreeSet<String>,
    out: &mut Vec<String>,
) {
    let s = match schema {
        Value::Bool(true) => return,
        Value::Bool(false) => return out.push(format!("{at}: nothing is allowed here")),
        Value::Object(s) => s,
        other => return out.push(format!("{at}: the schema is not one: {other}")),
    };
    if let Some(r) = s.get("$ref").and_then(Value::as_str) {
        match resolve(root, r) {
            Some(target) => walk(root, target, doc, at, allowed, out),
            None => out.push(format!("{at}: {r} names no definition")),
        }
    }
    if let Some(t) = s.get("type") {
        let types: Vec<&str> = match t {
            Value::String(one) => vec![one.as_str()],
            Value::Array(many) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        if !types.iter().any(|t| is_type(doc, t)) {
            out.push(format!("{at}: {doc} is not of type {t}"));
        }
    }
    if let Some(Value::Array(options)) = s.get("enum") {
        if !options.contains(doc) {
            out.push(format!("{at}: {doc} is not one of {options:?}"));
        }
    }
    if let Some(c) = s.get("const") {
        if c != doc {
            out.push(format!("{at}: {doc} is not {c}"));
        }
    }
    if let (Some(min), Some(n)) = (s.get("minimum").and_then(Value::as_f64), doc.as_f64()) {
        if n < min {
            out.push(format!("{at}: {n} is below the minimum {min}"));
        }
    }
    let mut here = allowed.clone();
    if let Some(Value::Object(p)) = s.get("properties") {
        here.extend(p.keys().cloned());
    }
    let combined = ["anyOf", "oneOf", "allOf"]
        .iter()
        .any(|k| s.get(*k).is_some());
    if let Value::Object(fields) = doc {
        object(root, s, fields, at, &here, combined, out);
    }
    if let (Some(items), Value::Array(list)) = (s.get("items"), doc) {
        for (i, item) in list.iter().enumerate() {
            walk(
                root,
                items,
                item,
                &format!("{at}/{i}"),
                &BTreeSet::new(),
                out,
            );
        }
    }
    combinations(root, s, doc, at, &here, out);
}

/// An object's fields: the required ones there, each described one valid, and (unless the
/// schema combines others, which then say it) none that is not described.
fn object(
    root: &Value,
    s: &serde_json::Map<String, Value>,
    fields: &serde_json::Map<String, Value>,
    at: &str,
    allowed: &BTreeSet<String>,
    combined: bool,
    out: &mut Vec<String>,
) {
    for r in s
        .get("required")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
    {
        let name = r.as_str().unwrap_or_default();
        if !fields.contains_key(name) {
            out.push(format!("{at}: the required field `{name}` is missing"));
        }
    }
    let properties = s.get("properties").and_then(Value::as_object);
    for (name, value) in fields {
        let path = format!("{at}/{name}");
        match (
            properties.and_then(|p| p.get(name)),
            s.get("additionalProperties"),
        ) {
            (Some(p), _) => walk(root, p, value, &path, &BTreeSet::new(), out),
            (None, Some(extra)) => walk(root, extra, value, &path, &BTreeSet::new(), out),
            (None, None) if properties.is_some() && !combined && !allowed.contains(name) => {
                out.push(format!("{path}: a field the schema does not describe"))
            }
            (None, None) => {}
        }
    }
}

fn combinations(
    root: &Value,
    s: &serde_json::Map<String, Value>,
    doc: &Value,
    at: &str,
    allowed: &BTreeSet<String>,
    out: &mut Vec<String>,
) {
    let branches = |key: &str| -> Vec<Vec<String>> {
        s.get(key)
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .map(|b| {
                let mut errs = Vec::new();
                walk(root, b, doc, at, allowed, &mut errs);
                errs
            })
            .collect()
    };
    for errs in branches("allOf") {
        out.extend(errs);
    }
    let any = branches("anyOf");
    if !any.is_empty() && !any.iter().any(Vec::is_empty) {
        out.push(format!("{at}: matches none of anyOf: {any:?}"));
    }
    let one = branches("oneOf");
    let matched = one.iter().filter(|e| e.is_empty()).count();
    if !one.is_empty() && matched != 1 {
        out.push(format!(
            "{at}: matches {matched} of oneOf, not one: {one:?}"
        ));
    }
}

fn resolve<'a>(root: &'a Value, reference: &str) -> Option<&'a Value> {
    root.pointer(reference.strip_prefix('#')?)
}

fn is_type(v: &Value, t: &str) -> bool {
    match t {
        "null" => v.is_null(),
        "boolean" => v.is_boolean(),
        "object" => v.is_object(),
        "array" => v.is_array(),
        "string" => v.is_string(),
        "number" => v.is_number(),
        "integer" => v.is_i64() || v.is_u64() || v.as_f64().is_some_and(|f| f.fract() == 0.0),
        _ => false,
    }
}

#[test]
fn the_checker_finds_a_wrong_type_a_missing_field_an_undescribed_one_and_a_bad_branch() {
    let schema = serde_json::json!({
        "type": "object",
        "properties": {
            "schema": {"const": "x/1"},
            "n": {"type": "integer", "minimum": 0},
            "v": {"$ref": "#/$defs/V"},
            "o": {"anyOf": [{"$ref": "#/$defs/V"}, {"type": "null"}]},
        },
        "required": ["schema", "n"],
        "$defs": {"V": {"type": "string", "enum": ["AC", "WA"]}},
    });
    let good = serde_json::json!({"schema": "x/1", "n": 3, "v": "AC", "o": null});
    assert_eq!(errors(&schema, &good), Vec::<String>::new());
    let bad = serde_json::json!({"schema": "x/2", "n": -1, "v": "XY", "o": 5, "extra": 1});
    let found = errors(&schema, &bad).join("\n");
    for what in [
        "/schema: \"x/2\" is not \"x/1\"",
        "/n: -1 is below the minimum",
        "/v: \"XY\" is not one of",
        "/o: matches none of anyOf",
        "/extra: a field the schema does not describe",
    ] {
        assert!(found.contains(what), "{what} not in:\n{found}");
    }
    let missing = serde_json::json!({"schema": "x/1"});
    assert!(errors(&schema, &missing)[0].contains("`n` is missing"));
}
