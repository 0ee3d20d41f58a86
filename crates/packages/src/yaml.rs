//! YAML as the formats' files are read: a value of any type, or why not in one line of text
//! and the line of the file it is on (every message about a file names its line). Read as
//! YAML 1.2, which the package format names: only `true` and `false` (in any case) are
//! booleans, so `n`, `y`, `yes`, `no`, `on` and `off` are strings; `5_000_000` is a string;
//! and a key may be null (`~`, `null` or nothing), read as the empty string.

use std::fmt;

use serde::de::{DeserializeOwned, Deserializer, MapAccess, SeqAccess, Visitor};
use serde::Deserialize;
use serde_json::{Map, Number, Value};

/// Why a YAML file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct YamlError {
    pub(crate) message: String,
    /// 1-based, when the parser knows it.
    pub(crate) line: Option<usize>,
}

/// The one reading of YAML for every file of every format: YAML 1.2's core schema, where
/// only `true` and `false` are booleans and `5_000_000` is text, not a number.
fn options() -> serde_saphyr::Options {
    serde_saphyr::options! {
        strict_booleans: true,
        underscored_numbers_as_strings: true,
    }
}

/// `text` read as a `T`.
pub(crate) fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    let line = |e: &serde_saphyr::Error| e.location().map(|l| l.line() as usize).filter(|&l| l > 0);
    serde_saphyr::from_str_with_options::<T>(text, options()).map_err(|e| YamlError {
        message: e
            .to_string()
            .lines()
            .next()
            .unwrap_or("not YAML")
            .to_string(),
        // A value of the wrong shape may be said without its place: where the text stops
        // being YAML at all is known.
        line: line(&e).or_else(|| {
            serde_saphyr::from_str_with_options::<serde::de::IgnoredAny>(text, options())
                .err()
                .and_then(|e| line(&e))
        }),
    })
}

/// `text` read as a value of any shape (empty text is null). A map's keys may be of any
/// scalar type, as YAML allows: a null key becomes `""`, a number or a boolean its text.
pub(crate) fn value(text: &str) -> Result<Value, YamlError> {
    if text.trim().is_empty() {
        return Ok(Value::Null);
    }
    from_str::<Node>(text).map(Node::into_json)
}

/// A node as YAML has it, its keys nodes too (JSON's are strings only).
enum Node {
    Null,
    Bool(bool),
    Number(Number),
    Float(f64),
    Str(String),
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

impl Node {
    fn into_json(self) -> Value {
        match self {
            Node::Null => Value::Null,
            Node::Bool(b) => Value::Bool(b),
            Node::Number(n) => Value::Number(n),
            Node::Float(f) => Number::from_f64(f).map_or(Value::Null, Value::Number),
            Node::Str(s) => Value::String(s),
            Node::Seq(v) => Value::Array(v.into_iter().map(Node::into_json).collect()),
            Node::Map(entries) => {
                let mut map = Map::new();
                for (k, v) in entries {
                    map.insert(k.into_key(), v.into_json());
                }
                Value::Object(map)
            }
        }
    }

    fn into_key(self) -> String {
        match self.into_json() {
            Value::Null => String::new(),
            Value::String(s) => s,
            other => other.to_string(),
        }
    }
}

impl<'de> Deserialize<'de> for Node {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Node, D::Error> {
        d.deserialize_any(NodeVisitor)
    }
}

struct NodeVisitor;

impl<'de> Visitor<'de> for NodeVisitor {
    type Value = Node;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any YAML value")
    }
    fn visit_unit<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_none<E>(self) -> Result<Node, E> {
        Ok(Node::Null)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Node, D::Error> {
        Node::deserialize(d)
    }
    fn visit_bool<E>(self, b: bool) -> Result<Node, E> {
        Ok(Node::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<Node, E> {
        Ok(Node::Number(n.into()))
    }
    fn visit_u64<E>(self, n: u64) -> Result<Node, E> {
        Ok(Node::Number(n.into()))
    }
    fn visit_f64<E>(self, f: f64) -> Result<Node, E> {
        Ok(Node::Float(f))
    }
    fn visit_str<E>(self, s: &str) -> Result<Node, E> {
        Ok(Node::Str(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> Result<Node, E> {
        Ok(Node::Str(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Node, A::Error> {
        let mut out = Vec::new();
        while let Some(n) = seq.next_element()? {
            out.push(n);
        }
        Ok(Node::Seq(out))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Node, A::Error> {
        let mut out = Vec::new();
        while let Some(entry) = map.next_entry()? {
            out.push(entry);
        }
        Ok(Node::Map(out))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_names_its_line() {
        let e = from_str::<serde_json::Value>("name: a\nlimits: [1, 2\n").unwrap_err();
        assert!(e.line.is_some(), "{e:?}");
    }

    #[test]
    fn yaml_1_1_booleans_are_strings_and_a_null_key_is_read() {
        let v = value("a: n\nb: y\nc: yes\nd: no\ne: on\nf: off\ng: true\nh: False\n").unwrap();
        for (k, text) in [
            ("a", "n"),
            ("b", "y"),
            ("c", "yes"),
            ("d", "no"),
            ("e", "on"),
            ("f", "off"),
        ] {
            assert_eq!(v[k], text, "{k}");
        }
        assert_eq!(
            (v["g"].clone(), v["h"].clone()),
            (Value::Bool(true), Value::Bool(false))
        );
        let v = value("data:\n  - ~: gen.py 1\n  - '': gen.py 2\n  - 3: gen.py 3\n").unwrap();
        assert_eq!(v["data"][0][""], "gen.py 1");
        assert_eq!(v["data"][1][""], "gen.py 2");
        assert_eq!(v["data"][2]["3"], "gen.py 3");
        let v = value("a: 5_000_000\n").unwrap();
        assert_eq!(v["a"], "5_000_000");
        let typed: std::collections::BTreeMap<String, String> = from_str("x: off\n").unwrap();
        assert_eq!(typed["x"], "off");
    }
}
