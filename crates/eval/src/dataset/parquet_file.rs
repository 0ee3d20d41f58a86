//! A Parquet file's rows made the JSON values the JSON reader sees (a struct an object, a list
//! an array, a string a string), so that every format reads one kind of record whatever file
//! it came in. The record reader alone: no Arrow.

use std::path::Path;

use parquet::file::reader::{FileReader, SerializedFileReader};
use parquet::record::{Field, Row};
use serde_json::{Map, Value};

/// Parquet's magic bytes, at the start and the end of every file.
const MAGIC: &[u8] = b"PAR1";

/// Whether `raw` is a Parquet file (its first bytes are its magic).
pub(super) fn is_parquet(raw: &[u8]) -> bool {
    raw.starts_with(MAGIC)
}

/// Every row of the file at `path`, in order; the message says what is wrong with the file (a
/// footer that does not decode, a page that does not, a value no JSON holds).
pub(super) fn rows(path: &Path) -> Result<Vec<Value>, String> {
    let file = std::fs::File::open(path).map_err(|e| format!("cannot open the file: {e}"))?;
    let reader = SerializedFileReader::new(file)
        .map_err(|e| format!("the file is not Parquet that can be read: {e}"))?;
    let rows = reader
        .get_row_iter(None)
        .map_err(|e| format!("the file's rows cannot be read: {e}"))?;
    rows.enumerate()
        .map(|(i, row)| {
            let row = row.map_err(|e| format!("row {} does not decode: {e}", i + 1))?;
            object(&row).map_err(|e| format!("row {}: {e}", i + 1))
        })
        .collect()
}

/// A row or a struct: an object of its columns, a null one kept as `null` (as the JSON of the
/// same data set writes it).
fn object(row: &Row) -> Result<Value, String> {
    let mut out = Map::new();
    for (name, field) in row.get_column_iter() {
        let value = value(field).map_err(|e| format!("column `{name}`: {e}"))?;
        out.insert(name.clone(), value);
    }
    Ok(Value::Object(out))
}

fn value(field: &Field) -> Result<Value, String> {
    Ok(match field {
        Field::Null => Value::Null,
        Field::Bool(b) => Value::Bool(*b),
        Field::Byte(n) => (*n).into(),
        Field::Short(n) => (*n).into(),
        Field::Int(n) => (*n).into(),
        Field::Long(n) => (*n).into(),
        Field::UByte(n) => (*n).into(),
        Field::UShort(n) => (*n).into(),
        Field::UInt(n) => (*n).into(),
        Field::ULong(n) => (*n).into(),
        Field::Float16(x) => number(f64::from(*x))?,
        Field::Float(x) => number(f64::from(*x))?,
        Field::Double(x) => number(*x)?,
        Field::Str(s) => Value::String(s.clone()),
        // A string column written without its UTF-8 annotation is still the data set's text.
        Field::Bytes(b) => match std::str::from_utf8(b.data()) {
            Ok(s) => Value::String(s.to_string()),
            Err(_) => return Err("binary data that is not UTF-8 text".into()),
        },
        // Dates, times and decimals: nothing judged reads them; their text, as Parquet's
        // own tools print it.
        Field::Decimal(_)
        | Field::Date(_)
        | Field::TimeMillis(_)
        | Field::TimeMicros(_)
        | Field::TimestampMillis(_)
        | Field::TimestampMicros(_) => Value::String(field.to_string()),
        Field::Group(row) => object(row)?,
        Field::ListInternal(list) => Value::Array(
            list.elements()
                .iter()
                .map(value)
                .collect::<Result<Vec<_>, _>>()?,
        ),
        Field::MapInternal(map) => {
            let mut out = Map::new();
            for (key, v) in map.entries() {
                let key = match key {
                    Field::Str(s) => s.clone(),
                    other => other.to_string(),
                };
                out.insert(key, value(v)?);
            }
            Value::Object(out)
        }
    })
}

/// A float as JSON has it: a NaN or an infinity has no JSON number, and a test's value is
/// never silently made another.
fn number(x: f64) -> Result<Value, String> {
    serde_json::Number::from_f64(x)
        .map(Value::Number)
        .ok_or_else(|| format!("the number {x}, which JSON cannot hold"))
}
