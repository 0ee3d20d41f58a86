//! Parquet files written by the tests themselves, from JSON rows, as a Hugging Face export
//! lays them out: every column nullable, a JSON object a struct, a list a three-level `LIST`,
//! strings UTF-8, integers `int64`, other numbers `double`. The schema is told from the rows
//! and the values shredded into columns by hand (repetition and definition levels), so that no
//! binary file is kept in the repository and the reader is tested on what a real writer makes.

use std::path::Path;
use std::sync::Arc;

use parquet::basic::Compression;
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use serde_json::Value;

/// A column's type, told from the values it holds.
#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// Only nulls seen so far: a string column when nothing else comes.
    Unknown,
    Str,
    Int,
    Float,
    Bool,
    List(Box<Kind>),
    Struct(Vec<(String, Kind)>),
}

/// One leaf column: its values (nulls left out), each slot's levels.
struct Leaf {
    kind: Kind,
    repeated: bool,
    values: Vec<Value>,
    defs: Vec<i16>,
    reps: Vec<i16>,
}

/// Writes `rows` (JSON objects) to `path` as one Parquet file, snappy-compressed (what most of
/// Hugging Face's files are).
pub(crate) fn write(path: &Path, rows: &[Value]) {
    write_compressed(path, rows, Compression::SNAPPY);
}

/// [`write`], compressed with `compression` (zstd and gzip are what the other files are).
pub(crate) fn write_compressed(path: &Path, rows: &[Value], compression: Compression) {
    let fields = match rows.iter().fold(Kind::Unknown, |k, r| merge(k, kind(r))) {
        Kind::Struct(fields) => fields,
        other => panic!("Parquet rows must be JSON objects, not {other:?}"),
    };
    let mut text = String::from("message schema {\n");
    for (name, k) in &fields {
        schema(&mut text, name, k);
    }
    text.push('}');
    let mut leaves = Vec::new();
    for (_, k) in &fields {
        leaves_of(k, false, &mut leaves);
    }
    for row in rows {
        let mut at = 0;
        for (name, k) in &fields {
            let n = count(k);
            shred(k, row.get(name), 0, 0, 0, &mut leaves[at..at + n]);
            at += n;
        }
    }
    let schema = Arc::new(parquet::schema::parser::parse_message_type(&text).unwrap());
    let props = WriterProperties::builder()
        .set_compression(compression)
        .build();
    let file = std::fs::File::create(path).unwrap();
    let mut writer = SerializedFileWriter::new(file, schema, Arc::new(props)).unwrap();
    let mut group = writer.next_row_group().unwrap();
    let mut leaves = leaves.into_iter();
    while let Some(mut column) = group.next_column().unwrap() {
        let leaf = leaves.next().unwrap();
        let reps = leaf.repeated.then_some(&leaf.reps[..]);
        let defs = Some(&leaf.defs[..]);
        let v = &leaf.values;
        match leaf.kind {
            Kind::Int => column.typed::<Int64Type>().write_batch(
                &v.iter().map(|x| x.as_i64().unwrap()).collect::<Vec<_>>(),
                defs,
                reps,
            ),
            Kind::Float => column.typed::<DoubleType>().write_batch(
                &v.iter().map(|x| x.as_f64().unwrap()).collect::<Vec<_>>(),
                defs,
                reps,
            ),
            Kind::Bool => column.typed::<BoolType>().write_batch(
                &v.iter().map(|x| x.as_bool().unwrap()).collect::<Vec<_>>(),
                defs,
                reps,
            ),
            _ => column.typed::<ByteArrayType>().write_batch(
                &v.iter()
                    .map(|x| ByteArray::from(x.as_str().unwrap()))
                    .collect::<Vec<_>>(),
                defs,
                reps,
            ),
        }
        .unwrap();
        column.close().unwrap();
    }
    group.close().unwrap();
    writer.close().unwrap();
}

/// Writes the JSON Lines file `jsonl` as the Parquet file `path`: the same rows, another file.
pub(crate) fn from_jsonl(jsonl: &Path, path: &Path) {
    let text = std::fs::read_to_string(jsonl).unwrap();
    let rows: Vec<Value> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    write(path, &rows);
}

fn kind(value: &Value) -> Kind {
    match value {
        Value::Null => Kind::Unknown,
        Value::Bool(_) => Kind::Bool,
        Value::Number(n) if n.is_i64() => Kind::Int,
        Value::Number(_) => Kind::Float,
        Value::String(_) => Kind::Str,
        Value::Array(items) => Kind::List(Box::new(
            items.iter().fold(Kind::Unknown, |k, i| merge(k, kind(i))),
        )),
        Value::Object(fields) => Kind::Struct(
            fields
                .iter()
                .map(|(name, v)| (name.clone(), kind(v)))
                .collect(),
        ),
    }
}

/// The type that holds both: the fields of two structs together, an integer column with a
/// float in it a float column.
fn merge(a: Kind, b: Kind) -> Kind {
    match (a, b) {
        (Kind::Unknown, k) | (k, Kind::Unknown) => k,
        (Kind::Int, Kind::Float) | (Kind::Float, Kind::Int) => Kind::Float,
        (Kind::List(a), Kind::List(b)) => Kind::List(Box::new(merge(*a, *b))),
        (Kind::Struct(mut a), Kind::Struct(b)) => {
            for (name, k) in b {
                match a.iter_mut().find(|(n, _)| *n == name) {
                    Some((_, mine)) => *mine = merge(std::mem::replace(mine, Kind::Unknown), k),
                    None => a.push((name, k)),
                }
            }
            Kind::Struct(a)
        }
        (a, b) if a == b => a,
        (a, b) => panic!("a column holds both {a:?} and {b:?}"),
    }
}

fn schema(text: &mut String, name: &str, kind: &Kind) {
    match kind {
        Kind::Unknown | Kind::Str => text.push_str(&format!("optional binary {name} (UTF8);\n")),
        Kind::Int => text.push_str(&format!("optional int64 {name};\n")),
        Kind::Float => text.push_str(&format!("optional double {name};\n")),
        Kind::Bool => text.push_str(&format!("optional boolean {name};\n")),
        Kind::List(item) => {
            text.push_str(&format!(
                "optional group {name} (LIST) {{\nrepeated group list {{\n"
            ));
            schema(text, "element", item);
            text.push_str("}\n}\n");
        }
        Kind::Struct(fields) => {
            text.push_str(&format!("optional group {name} {{\n"));
            for (n, k) in fields {
                schema(text, n, k);
            }
            text.push_str("}\n");
        }
    }
}

/// The leaf columns under `kind`, in the schema's order.
fn leaves_of(kind: &Kind, repeated: bool, out: &mut Vec<Leaf>) {
    match kind {
        Kind::List(item) => leaves_of(item, true, out),
        Kind::Struct(fields) => fields.iter().for_each(|(_, k)| leaves_of(k, repeated, out)),
        leaf => out.push(Leaf {
            kind: if *leaf == Kind::Unknown {
                Kind::Str
            } else {
                leaf.clone()
            },
            repeated,
            values: Vec::new(),
            defs: Vec::new(),
            reps: Vec::new(),
        }),
    }
}

fn count(kind: &Kind) -> usize {
    match kind {
        Kind::List(item) => count(item),
        Kind::Struct(fields) => fields.iter().map(|(_, k)| count(k)).sum(),
        _ => 1,
    }
}

/// One value shredded into the leaves under its column (Dremel's rule): a null or an empty
/// list a slot at the levels reached, a list's items after its first repeating at `depth`.
fn shred(kind: &Kind, value: Option<&Value>, rep: i16, def: i16, depth: i16, leaves: &mut [Leaf]) {
    let Some(value) = value.filter(|v| !v.is_null()) else {
        return slots(leaves, rep, def);
    };
    let def = def + 1;
    match kind {
        Kind::Struct(fields) => {
            let mut at = 0;
            for (name, k) in fields {
                let n = count(k);
                shred(k, value.get(name), rep, def, depth, &mut leaves[at..at + n]);
                at += n;
            }
        }
        Kind::List(item) => {
            let items = value.as_array().unwrap();
            if items.is_empty() {
                return slots(leaves, rep, def);
            }
            for (i, v) in items.iter().enumerate() {
                let r = if i == 0 { rep } else { depth + 1 };
                shred(item, Some(v), r, def + 1, depth + 1, leaves);
            }
        }
        _ => {
            let leaf = &mut leaves[0];
            leaf.values.push(value.clone());
            leaf.defs.push(def);
            leaf.reps.push(rep);
        }
    }
}

fn slots(leaves: &mut [Leaf], rep: i16, def: i16) {
    for leaf in leaves {
        leaf.defs.push(def);
        leaf.reps.push(rep);
    }
}
