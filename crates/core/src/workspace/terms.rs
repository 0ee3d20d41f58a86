//! What a package asks of judging beyond a workspace problem's terms: the passes of a
//! multi-pass problem, a working folder the submission may only read, the languages it may be
//! solved in, its code and compilation limits, and its submissions' expectations in the
//! format's own terms. A workspace problem has none of these (`Terms::default()`).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use crate::expect::Rule;

#[derive(Debug, Clone, Default)]
pub struct Terms {
    /// A multi-pass problem: each case runs again on the `nextpass.in` its output validator
    /// writes, at most this many times in all (`limits.validation_passes`).
    pub passes: Option<u32>,
    /// The submission may read its working folder but not write there
    /// (`allow_file_writing: false`).
    pub read_only: bool,
    /// The languages it may be solved in, by the judge's ids, with the package's names for
    /// them (`languages`); `None`: any.
    pub languages: Option<Languages>,
    /// The largest source a submission may be, in bytes (`limits.code`).
    pub code_bytes: Option<u64>,
    /// How long and in how much memory a submission compiles (`limits.compilation_time`,
    /// `compilation_memory`).
    pub compile_time: Option<Duration>,
    pub compile_memory: Option<u64>,
    /// The most an output validator or interactor may write (`limits.validation_output`).
    pub validation_output: Option<u64>,
    /// Each submission's expectations in the format's terms, by solution name; a submission
    /// that has some is held to them instead of to `Problem::expected`.
    pub rules: BTreeMap<String, Vec<Rule>>,
    /// The entry point `submissions.yaml` names (`entrypoint`), by the submission's path as
    /// it is built.
    pub entrypoints: BTreeMap<PathBuf, String>,
    /// Where a submission's expectation is stated twice and the two disagree, which decided
    /// and why, by solution name (`judge verify` says it).
    pub decided: BTreeMap<String, String>,
    /// The cases that test the validators (`data/invalid_input`, `invalid_answer`,
    /// `invalid_output`, `valid_output`).
    pub validator_cases: Vec<ValidatorCase>,
    /// `constants`: what `{{name}}` in a Markdown statement and `\constant{name}` in a
    /// LaTeX one stand for.
    pub constants: BTreeMap<String, String>,
}

/// A case that tests a validator: an input some input validator must reject,
/// or an output the output validator must reject or accept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidatorCase {
    /// Its name under `data/`: `invalid_input/negative`.
    pub name: String,
    pub kind: ValidatorCaseKind,
    pub input: PathBuf,
    /// The answer and the output, for an output validator's case.
    pub answer: Option<PathBuf>,
    pub output: Option<PathBuf>,
    pub input_flags: Vec<String>,
    pub output_flags: Vec<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum ValidatorCaseKind {
    /// Some input validator must reject the input.
    InvalidInput,
    /// The answer must be rejected when it is judged as one: by an answer validator, or by
    /// the output validator given it as the output (BAPCtools' `invalid_answer`).
    InvalidAnswer,
    /// The output validator must reject the output.
    InvalidOutput,
    /// The output validator must accept the output.
    ValidOutput,
}

/// The languages a package allows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Languages {
    /// As the package names them (`cpp`, `python3`).
    pub named: Vec<String>,
    /// The judge's language ids they stand for.
    pub ids: Vec<String>,
}

impl Terms {
    /// Why a submission in the language `id` may not be judged, when it may not.
    pub fn refuses_language(&self, id: &str) -> Option<String> {
        let l = self.languages.as_ref()?;
        (!l.ids.iter().any(|i| i == id)).then(|| {
            format!(
                "the package allows only {} (its `languages`), and this is {id}",
                l.named.join(", ")
            )
        })
    }
}
