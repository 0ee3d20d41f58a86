//! YAML as the formats' files are read: a value of any type, or why not in one line of text
//! and the line of the file it is on (every message about a file names its line).

use serde::de::DeserializeOwned;

/// Why a YAML file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct YamlError {
    pub(crate) message: String,
    /// 1-based, when the parser knows it.
    pub(crate) line: Option<usize>,
}

/// `text` read as a `T`.
pub(crate) fn from_str<T: DeserializeOwned>(text: &str) -> Result<T, YamlError> {
    let line = |e: &serde_saphyr::Error| e.location().map(|l| l.line() as usize).filter(|&l| l > 0);
    serde_saphyr::from_str::<T>(text).map_err(|e| YamlError {
        message: e
            .to_string()
            .lines()
            .next()
            .unwrap_or("not YAML")
            .to_string(),
        // A value of the wrong shape may be said without its place: where the text stops
        // being YAML at all is known.
        line: line(&e).or_else(|| {
            serde_saphyr::from_str::<serde::de::IgnoredAny>(text)
                .err()
                .and_then(|e| line(&e))
        }),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_error_names_its_line() {
        let e = from_str::<serde_json::Value>("name: a\nlimits: [1, 2\n").unwrap_err();
        assert!(e.line.is_some(), "{e:?}");
    }
}
