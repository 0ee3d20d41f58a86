//! The package's terms beyond a problem's limits, gathered from problem.yaml and the
//! submissions' expectations: what each submission must get, which may not be judged here
//! (and why), the languages, the code and compilation limits, the passes of a multi-pass
//! problem, a working folder the submissions may only read.

use std::path::Path;

use super::expect::{self, Expectations};
use super::meta::Meta;
use super::programs::Submissions;
use judge_core::error::Result;
use judge_core::lang::Languages;
use judge_core::model::Skipped;
use judge_core::workspace::{Languages as Allowed, Terms};

/// The terms of the package in `dir`; `subs` loses the submissions that may not be judged
/// (listed as skipped, with why) and has their sources with the constants in.
pub(super) fn gather(
    meta: &Meta,
    expectations: &Expectations,
    subs: &mut Submissions,
    languages: &Languages,
    cache: &Path,
) -> Result<Terms> {
    let allowed = meta.languages.as_ref().map(|named| Allowed {
        named: named.clone(),
        ids: named.iter().flat_map(|c| expect::language_ids(c)).collect(),
    });
    let mut terms = Terms {
        passes: meta.passes,
        read_only: !meta.file_writing,
        languages: allowed,
        code_bytes: meta.code_kib.map(|k| k << 10),
        compile_time: meta.compilation_time,
        compile_memory: meta.compilation_memory_mib.map(|m| m << 20),
        validation_output: Some(meta.validation_output_mib << 20),
        rules: Default::default(),
        entrypoints: Default::default(),
        decided: Default::default(),
        validator_cases: Vec::new(),
        constants: meta.constants.0.clone(),
    };
    let mut kept = Vec::new();
    for mut s in std::mem::take(&mut subs.runnable) {
        let skip = |why: String| Skipped {
            solution: s.name.clone(),
            path: s.path.clone(),
            skipped: why,
        };
        let language = languages.of_path(&s.path).map(|l| l.id.clone());
        let said = expectations.language_of(&s.name);
        if let (Some(said), Some(id)) = (said, &language) {
            if !expect::language_ids(said).contains(id) {
                subs.skipped.push(skip(format!(
                    "submissions.yaml says it is in {said}, and the judge reads it as {id}"
                )));
                subs.expected.remove(&s.name);
                continue;
            }
        }
        if let Some(why) = language
            .as_deref()
            .and_then(|id| terms.refuses_language(id))
        {
            subs.skipped.push(skip(why));
            subs.expected.remove(&s.name);
            continue;
        }
        let mut rules = expectations.rules_of(&s.name, meta.format);
        // DOMjudge's comment in the source overrides the folder, as DOMjudge has it.
        let source = std::fs::read(&s.path).unwrap_or_default();
        if let Some(results) = expect::expected_results(&String::from_utf8_lossy(&source)) {
            match results {
                Ok(e) => {
                    let folder = s.name.split('/').next().unwrap_or_default();
                    if let Some(said) = expect::tag_over_folder(&e, folder) {
                        terms.decided.insert(s.name.clone(), said);
                    }
                    subs.expected.insert(s.name.clone(), e);
                    rules.retain(|r| !r.source.starts_with("folder "));
                    rules.retain(|r| r.source != format!("submissions.yaml: {folder}"));
                }
                Err(unknown) => {
                    subs.skipped.push(skip(unknown.to_string()));
                    subs.expected.remove(&s.name);
                    continue;
                }
            }
        }
        if !rules.is_empty() {
            terms.rules.insert(s.name.clone(), rules);
        }
        let built = meta.constants.program(&s.path, cache)?;
        if built != s.path {
            subs.copies.insert(s.path.clone(), built.clone());
            s.path = built;
        }
        if let Some(entry) = expectations.entrypoint_of(&s.name) {
            terms.entrypoints.insert(s.path.clone(), entry.to_string());
        }
        kept.push(s);
    }
    subs.runnable = kept;
    Ok(terms)
}
