//! cph's `.prob` files (the VS Code extension Competitive Programming Helper): the problem it
//! received from Competitive Companion, as JSON, with the tests the user has edited since and
//! the source file it belongs to (`srcPath`). They live in `.cph/` beside the sources, one per
//! source: `.cph/.A.cpp_HASH.prob`.

use std::path::Path;

use serde::Deserialize;

use super::companion::{self, file_name};
use super::{has_extension, id, read_text, Draft, Format};
use crate::error::{Error, Result};

/// A `.prob` file.
pub(super) struct ProbFile;

/// What cph adds to Competitive Companion's object: the source, and whether the user made the
/// problem by hand (then `url` is the source's path, not a page).
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Extra {
    #[serde(default)]
    src_path: Option<String>,
    #[serde(default)]
    local: Option<bool>,
}

impl Format for ProbFile {
    fn name(&self) -> &'static str {
        "a cph problem file (.prob)"
    }

    fn detect(&self, path: &Path) -> bool {
        path.is_file() && has_extension(path, &["prob"])
    }

    fn read(&self, path: &Path) -> Result<Vec<Draft>> {
        let bad = |message: String| Error::Import {
            path: path.display().to_string(),
            message,
            fix: "give a .prob file as cph wrote it (in the .cph folder beside the source)".into(),
        };
        let value = companion::json(read_text(path)?.as_bytes()).map_err(|m| bad(m.to_string()))?;
        let extra: Extra = serde_json::from_value(value.clone())
            .map_err(|e| bad(format!("not a cph problem: {e}")))?;
        let origin = format!("the cph file {}", file_name(path));
        let (mut draft, _) = companion::payload(value, &origin).map_err(|m| {
            bad(m
                .to_string()
                .replace("Competitive Companion's JSON", "a cph problem"))
        })?;
        // A problem made in cph by hand has no page: its source's name is the better id.
        let source_stem = extra
            .src_path
            .as_deref()
            .and_then(|s| Path::new(s).file_stem())
            .map(|s| id::slug(&s.to_string_lossy()))
            .filter(|s| !s.is_empty());
        if draft.url.is_none() || extra.local == Some(true) {
            draft.url = None;
            if let Some(stem) = source_stem {
                draft.id = stem;
            }
            if let Some(t) = draft.title.strip_prefix("Local: ") {
                draft.title = t.to_string();
            }
        }
        Ok(vec![draft])
    }
}
