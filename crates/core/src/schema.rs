//! The machine-readable documents: each one's name and version (`judge.run/1`), the `schema`
//! field that says it in every document written, and its JSON Schema, made from the types that
//! write it.
//!
//! A document is its type's JSON with one field more, `"schema"`, first: nothing else of its
//! shape changes, so a reader that ignores the field reads it as before, and a reader of stored
//! documents (the history, a batch's results file, the cluster's messages) reads one written
//! before the field existed too. The version is raised with any change of a document's shape;
//! the published schemas (the guide's "Machine-readable output") are checked against what these
//! types generate, so such a change is a decision, not an accident.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::Serialize;

use crate::verdict::{Expectation, Limits, Verdict};

/// A type written as a document of its own: what its `schema` field says. Each document's
/// module says it of its type (`model`: `judge.run/1`).
pub trait Document: Serialize + JsonSchema {
    /// Its name and version: `judge.run/1`.
    const SCHEMA: &'static str;
}

/// A document with its `schema` field first, then its own fields, unchanged.
#[derive(Debug, Serialize)]
pub struct Tagged<'a, T> {
    schema: &'static str,
    #[serde(flatten)]
    doc: &'a T,
}

/// `doc` with its `schema` field, to serialize.
pub fn tagged<T: Document>(doc: &T) -> Tagged<'_, T> {
    Tagged {
        schema: T::SCHEMA,
        doc,
    }
}

/// Each of `docs` with its `schema` field: a list printed as one JSON array (`judge verify
/// --json`, `judge history --json`) tags its entries, since an array has no field to add.
pub fn tagged_all<T: Document>(docs: &[T]) -> Vec<Tagged<'_, T>> {
    docs.iter().map(tagged).collect()
}

/// `doc` with its `schema` field, as a JSON value (to be extended, or kept inside another).
pub fn to_value<T: Document>(doc: &T) -> serde_json::Value {
    serde_json::to_value(tagged(doc)).expect("a document is plain data")
}

impl<T: Document> JsonSchema for Tagged<'_, T> {
    fn schema_name() -> Cow<'static, str> {
        T::schema_name()
    }

    fn schema_id() -> Cow<'static, str> {
        format!("judge::schema::Tagged<{}>", T::schema_id()).into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        let mut schema = T::json_schema(generator);
        let object = schema.ensure_object();
        let field = serde_json::json!({
            "description": "The document's format and its version.",
            "const": T::SCHEMA,
        });
        let properties = object
            .entry("properties")
            .or_insert_with(|| serde_json::json!({}));
        if let Some(p) = properties.as_object_mut() {
            p.insert("schema".into(), field);
        }
        let required = object
            .entry("required")
            .or_insert_with(|| serde_json::json!([]));
        if let Some(r) = required.as_array_mut() {
            r.insert(0, "schema".into());
        }
        schema
    }
}

/// One kind of document: its name and version, what it is, and its JSON Schema.
#[derive(Debug, Clone, Copy)]
pub struct Format {
    /// `judge.run/1`.
    pub name: &'static str,
    /// Where it is written: "`judge run --json`".
    pub written_by: &'static str,
    pub schema: fn() -> serde_json::Value,
}

impl Format {
    /// A document of type `T`, printed alone.
    pub fn one<T: Document + 'static>(written_by: &'static str) -> Format {
        Format {
            name: T::SCHEMA,
            written_by,
            schema: root::<Tagged<'static, T>>,
        }
    }

    /// A JSON array of documents of type `T`.
    pub fn list<T: Document + 'static>(written_by: &'static str) -> Format {
        Format {
            name: T::SCHEMA,
            written_by,
            schema: root::<Vec<Tagged<'static, T>>>,
        }
    }

    /// The file the guide publishes its schema in: `judge.run/1` -> `judge.run.v1.json`.
    pub fn file_name(&self) -> String {
        format!("{}.json", self.name.replace('/', ".v"))
    }
}

/// The JSON Schema (draft 2020-12) of `T` as it is written.
pub fn root<T: JsonSchema + ?Sized>() -> serde_json::Value {
    schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<T>()
        .to_value()
}

// The types whose JSON is written by their own `Serialize`: their schemas are written here, by
// hand, beside the rest of the documents' rules rather than in the modules that decide them.

impl JsonSchema for Verdict {
    fn schema_name() -> Cow<'static, str> {
        "Verdict".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        let codes: Vec<&str> = Verdict::ALL.iter().map(|v| v.code()).collect();
        schemars::json_schema!({
            "description": "A verdict's code.",
            "type": "string",
            "enum": codes,
        })
    }
}

impl JsonSchema for Expectation {
    fn schema_name() -> Cow<'static, str> {
        "Expectation".into()
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        schemars::json_schema!({
            "description": "An expected verdict, or several accepted alike: \"AC\", \"TLE or AC\".",
            "type": "string",
        })
    }
}

/// The shape [`Limits`]' own `Serialize` writes.
#[derive(JsonSchema)]
#[schemars(rename = "Limits")]
#[allow(dead_code)]
struct LimitsJson {
    /// The CPU time limit.
    time_ms: u64,
    /// The wall-clock cap.
    wall_ms: u64,
    memory_kb: u64,
    output_kb: u64,
}

impl JsonSchema for Limits {
    fn schema_name() -> Cow<'static, str> {
        LimitsJson::schema_name()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        LimitsJson::json_schema(generator)
    }
}
