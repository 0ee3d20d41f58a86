//! `problem.toml`: its schema, and errors that name the file, the line and the fix.

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use super::checker::{Checker, CheckerProtocol, DEFAULT_CHECKER_MEMORY, DEFAULT_CHECKER_TIME};
use super::validator::{InputValidator, ValidatorKind};
use crate::check::CheckerMode;
use crate::error::{Error, Location, Result};
use crate::function::{Function, Param, Signature, SignatureError, Type};
use crate::grading::Group;
use crate::lang::{Config, RustSettings, TimeRule, TimeRuleError};
use crate::stats::TimeLimitRule;
use crate::units::{format_bytes, format_duration, parse_duration, parse_size};
use crate::verdict::{Expectation, MemoryRule};

use super::interactor::{Interactor, InteractorProgram, InteractorProtocol};
use super::programs::{parse_checker, parse_interactor, program_file};
use super::raw::{line_of, RawProblem};

/// Default output limit when `problem.toml` names none.
pub const DEFAULT_OUTPUT_LIMIT: u64 = 64 << 20;

/// One problem, as `problems/ID/problem.toml` describes it.
#[derive(Debug, Clone)]
pub struct Problem {
    pub id: String,
    pub dir: PathBuf,
    pub title: String,
    pub limits: ProblemLimits,
    /// How an output is judged against the answer.
    pub checker: Checker,
    pub samples: Vec<String>,
    /// Expected verdict of each reference solution, by solution name.
    pub expected: BTreeMap<String, Expectation>,
    /// A program printing one random input for `SEED [SIZE]` (`generator = "gen.rs"`).
    pub generator: Option<PathBuf>,
    /// What says an input is valid (`judge validate`): `input_validator = "validate.rs"`, or a
    /// package's `input_validators/`.
    pub input_validators: Vec<InputValidator>,
    /// Rust's edition and toolchain for this problem (`[rust]`), over the workspace's.
    pub rust: RustSettings,
    /// More time for some languages (`[language_time]`: `python = "3x + 2s"`).
    pub language_time: BTreeMap<String, TimeRule>,
    /// Test groups and how they are graded (a package's); `None`: one flat list, where the
    /// first case that fails decides.
    pub grading: Option<Arc<Group>>,
    /// The groups give points (a scoring package): scores are shown and checked.
    pub scoring: bool,
    /// How the time limit is justified and checked (`judge verify`): problemtools' defaults
    /// with the limit fixed, or a package's own settings.
    pub time_rule: TimeLimitRule,
    /// Where the problem comes from (`url`), as imported; an import of another URL never
    /// merges into it.
    pub url: Option<String>,
    /// Named files the program reads and writes instead of stdin and stdout.
    pub io: FileIo,
    /// The program the solution talks with, for an interactive problem.
    pub interactor: Option<Interactor>,
    /// What a package asks beyond these (none for a workspace problem).
    pub terms: super::Terms,
    /// A package's programs besides its checker and input validators, and how its format
    /// builds programs (a workspace problem has none of them).
    pub package: PackagePrograms,
    /// The function a solution may define instead of being a whole program (`[function]`).
    pub function: Option<Function>,
}

/// A package's programs besides its checker and input validators, and how its format builds
/// programs where that differs from a workspace's.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackagePrograms {
    /// Python 3 runs on PyPy 3, as the format's own tools run it (when `pypy3` is installed;
    /// the package says where it is not).
    pub pypy: bool,
    /// The package's `include/` folder: the files of `include/default/` and of the language's
    /// own folder (`include/cpp/`) are copied into every submission before it is built.
    pub include: Option<PathBuf>,
    /// The package's static validator: run on each submission's files, once per static
    /// validation case.
    pub static_validator: Option<PathBuf>,
    /// Its answer validators (`answer_validators/`): each run as `validator INPUT [ARGS] <
    /// ANSWER` on every case's answer by `judge validate`; exit 42 means valid.
    pub answer_validators: Vec<InputValidator>,
}

/// A problem that reads or writes named files instead of stdin and stdout (`input_file`,
/// `output_file`): the input is put in the program's working folder under its name, and the
/// named output file is what is checked.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileIo {
    pub input: Option<String>,
    pub output: Option<String>,
}

impl Problem {
    /// A problem of no files, only `limits`: what a program is built and run for when no
    /// problem asked for it (an execution service's code, a data set's problem before its
    /// tests are placed). Tokens compared, nothing else.
    pub fn bare(id: &str, dir: &Path, limits: ProblemLimits) -> Problem {
        Problem {
            id: id.into(),
            dir: dir.to_path_buf(),
            title: id.to_string(),
            limits,
            checker: Checker::default(),
            samples: Vec::new(),
            expected: BTreeMap::new(),
            generator: None,
            input_validators: Vec::new(),
            rust: RustSettings::default(),
            language_time: BTreeMap::new(),
            grading: None,
            scoring: false,
            time_rule: TimeLimitRule::DEFAULT,
            url: None,
            io: Default::default(),
            interactor: None,
            terms: Default::default(),
            package: PackagePrograms::default(),
            function: None,
        }
    }

    /// What the solution `name` must get: its expected verdict, and its expectations in a
    /// package's own terms (which decide when there are some).
    pub fn expectation_of(&self, name: &str) -> (Option<&Expectation>, &[crate::expect::Rule]) {
        (
            self.expected.get(name),
            self.terms.rules.get(name).map_or(&[], Vec::as_slice),
        )
    }

    /// Whether the solution `name` sets the time limit (bounds it from below): one of its
    /// rules says so, in a package with rules; else it is in `accepted/`.
    pub fn sets_time_limit(&self, name: &str) -> bool {
        if self.terms.rules.is_empty() {
            return name.starts_with("accepted/");
        }
        self.terms
            .rules
            .get(name)
            .is_some_and(|rules| rules.iter().any(|r| r.lower_bound()))
    }

    /// The problem with the judge replaying its sample interactions in place of its
    /// interactor (`judge run --replay`).
    pub fn replaying(&self) -> Problem {
        Problem {
            interactor: Some(Interactor {
                program: InteractorProgram::Replay,
                protocol: InteractorProtocol::Kattis { flags: Vec::new() },
                time: DEFAULT_CHECKER_TIME,
                memory_bytes: DEFAULT_CHECKER_MEMORY,
            }),
            // The replay decides alone: a checker judges what the problem's interactor writes.
            checker: Checker::default(),
            // The expected verdicts, groups and scores are the tests'; a replay is checked
            // against the samples alone.
            expected: BTreeMap::new(),
            grading: None,
            scoring: false,
            ..self.clone()
        }
    }

    /// The checker as `judge list` shows it: "tokens", "float (absolute 1e-6, relative 1e-6)",
    /// "custom (checker.rs)".
    pub fn checker_summary(&self) -> String {
        let summary = self.compare_summary();
        match &self.interactor {
            None => summary,
            Some(i) => {
                let by = match &i.program {
                    InteractorProgram::Source(source) => format!(
                        "an interactor decides ({}, {} protocol)",
                        source.strip_prefix(&self.dir).unwrap_or(source).display(),
                        i.protocol
                    ),
                    InteractorProgram::Replay => "the sample interaction replayed".to_string(),
                };
                match self.checker.program() {
                    Some(_) => format!("{summary}, after {by}"),
                    None => format!("none: {by}"),
                }
            }
        }
    }

    /// How an output is compared, leaving an interactor aside.
    fn compare_summary(&self) -> String {
        match &self.checker {
            Checker::Builtin { mode, options } => {
                let mut s = mode.to_string();
                if matches!(mode, CheckerMode::Float | CheckerMode::Json) {
                    s.push_str(&format!(
                        " (absolute {:e}, relative {:e})",
                        options.float_absolute, options.float_relative
                    ));
                }
                if options.case_insensitive {
                    s.push_str(", case-insensitive");
                }
                if *mode == CheckerMode::Json && options.order == crate::check::Order::Any {
                    s.push_str(", the returned array in any order");
                }
                s
            }
            Checker::Kattis(flags) => {
                let flags = flags.to_string();
                if flags.is_empty() {
                    "kattis (the default validator)".into()
                } else {
                    format!("kattis ({flags})")
                }
            }
            Checker::Program(p) => {
                let name = p.source.strip_prefix(&self.dir).unwrap_or(&p.source);
                match &p.protocol {
                    CheckerProtocol::Testlib => format!("custom ({})", name.display()),
                    CheckerProtocol::Kattis { .. } => {
                        format!("custom ({}, Kattis output validator)", name.display())
                    }
                }
            }
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ProblemLimits {
    pub time: Duration,
    pub memory_bytes: u64,
    pub output_bytes: u64,
    /// Resident memory for the workspace's problems; address space too for a package's, as
    /// its own tools judge it.
    pub memory_rule: MemoryRule,
}

pub(super) fn parse_problem(
    id: &str,
    dir: &Path,
    shown: &str,
    text: &str,
    config: &Config,
) -> Result<Problem> {
    let raw: RawProblem = toml::from_str(text).map_err(|e| {
        let line = e.span().map(|s| line_of(text, s.start));
        let message = e.message().trim().to_string();
        Error::Config {
            at: Location::file(shown).with_line(line),
            fix: fix_for(&message),
            message,
        }
    })?;
    let at = At { shown, text };
    let limits = at.limits(&raw)?;
    let expected = at.expected(&raw)?;
    // The interactor first: what it says of a checker beside it is the better message.
    let interactor = parse_interactor(&raw, dir, shown, text, config)?;
    let checker = parse_checker(&raw, dir, shown, text, config)?;
    let (generator, input_validators) = at.programs(&raw, dir, config)?;
    let rust = at.rust(&raw)?;
    let language_time = at.language_time(&raw, config)?;
    let io = at.file_io(&raw)?;
    let function = at.function(&raw)?;
    Ok(Problem {
        id: id.to_string(),
        dir: dir.to_path_buf(),
        title: raw.title,
        time_rule: TimeLimitRule {
            fixed: Some(limits.time),
            ..TimeLimitRule::DEFAULT
        },
        limits,
        checker,
        samples: raw.samples,
        expected,
        generator,
        input_validators,
        rust,
        language_time,
        grading: None,
        scoring: false,
        url: raw.url,
        io,
        interactor,
        terms: Default::default(),
        package: PackagePrograms::default(),
        function,
    })
}

/// `problem.toml` as shown in errors, and its text, for errors that name a span's line.
#[derive(Clone, Copy)]
struct At<'a> {
    shown: &'a str,
    text: &'a str,
}

impl At<'_> {
    fn bad(self, span: std::ops::Range<usize>, message: String, fix: &str) -> Error {
        Error::Config {
            at: Location::file(self.shown).with_line(line_of(self.text, span.start)),
            message,
            fix: fix.to_string(),
        }
    }

    /// `time_limit`, `memory_limit` and `output_limit`.
    fn limits(self, raw: &RawProblem) -> Result<ProblemLimits> {
        let time = parse_duration(raw.time_limit.get_ref()).map_err(|m| {
            self.bad(
                raw.time_limit.span(),
                format!("time_limit: {m}"),
                "write a positive duration such as \"1s\" or \"500ms\"",
            )
        })?;
        let memory = parse_size(raw.memory_limit.get_ref()).map_err(|m| {
            self.bad(
                raw.memory_limit.span(),
                format!("memory_limit: {m}"),
                "write a positive size such as \"256MiB\" or \"1GiB\"",
            )
        })?;
        let output = match &raw.output_limit {
            Some(s) => parse_size(s.get_ref()).map_err(|m| {
                self.bad(
                    s.span(),
                    format!("output_limit: {m}"),
                    "write a positive size such as \"64MiB\"",
                )
            })?,
            None => DEFAULT_OUTPUT_LIMIT,
        };
        Ok(ProblemLimits {
            time,
            memory_bytes: memory,
            output_bytes: output,
            memory_rule: MemoryRule::Resident,
        })
    }

    /// `[expected]`: each solution's expected verdict.
    fn expected(self, raw: &RawProblem) -> Result<BTreeMap<String, Expectation>> {
        let mut expected = BTreeMap::new();
        for (name, value) in &raw.expected {
            let e = value.get_ref().parse::<Expectation>().map_err(|m| {
                self.bad(
                    value.span(),
                    format!("expected verdict of `{name}`: {m}"),
                    "write a verdict such as \"AC\", \"TLE\" or \"TLE or AC\"",
                )
            })?;
            expected.insert(name.clone(), e);
        }
        Ok(expected)
    }

    /// `generator` and `input_validator`: programs of the problem's folder.
    fn programs(
        self,
        raw: &RawProblem,
        dir: &Path,
        config: &Config,
    ) -> Result<(Option<PathBuf>, Vec<InputValidator>)> {
        let generator = match &raw.generator {
            Some(g) => Some(program_file(
                "generator",
                g,
                dir,
                (self.shown, self.text),
                config,
                "it prints one input for the seed given as its first argument",
            )?),
            None => None,
        };
        let input_validators = match &raw.input_validator {
            Some(v) => vec![InputValidator {
                name: v.get_ref().clone(),
                kind: ValidatorKind::Program(program_file(
                    "input_validator",
                    v,
                    dir,
                    (self.shown, self.text),
                    config,
                    "it reads an input on stdin and exits with 42 when the input is valid",
                )?),
            }],
            None => Vec::new(),
        };
        Ok((generator, input_validators))
    }

    /// `[rust]`, checked.
    fn rust(self, raw: &RawProblem) -> Result<RustSettings> {
        let Some(r) = &raw.rust else {
            return Ok(RustSettings::default());
        };
        r.get_ref().validate().map_err(|m| {
            self.bad(
                r.span(),
                format!("[rust]: {m}"),
                "write edition = \"2021\" and toolchain = \"1.75\" (a toolchain rustup has installed)",
            )
        })?;
        Ok(r.get_ref().clone())
    }

    /// `[language_time]`: a time rule per language the workspace knows.
    fn language_time(
        self,
        raw: &RawProblem,
        config: &Config,
    ) -> Result<BTreeMap<String, TimeRule>> {
        let mut language_time = BTreeMap::new();
        for (language, rule) in &raw.language_time {
            if config.languages.get(language).is_none() {
                let ids: Vec<&str> = config.languages.all().map(|l| l.id.as_str()).collect();
                return Err(self.bad(
                    rule.span(),
                    format!("language_time: there is no language `{language}`"),
                    &format!("use one of: {}", ids.join(", ")),
                ));
            }
            let parsed: TimeRule = rule.get_ref().parse().map_err(|m: TimeRuleError| {
                self.bad(
                    rule.span(),
                    format!("language_time.{language}: {m}"),
                    "write a rule such as \"3x + 2s\" (three times the limit, plus 2 s)",
                )
            })?;
            language_time.insert(language.clone(), parsed);
        }
        Ok(language_time)
    }

    /// `[function]`: the signature, each part checked where it is written.
    fn function(self, raw: &RawProblem) -> Result<Option<Function>> {
        let Some(f) = &raw.function else {
            return Ok(None);
        };
        let bad = |span, key: &str, e: SignatureError| {
            self.bad(span, format!("[function] {key}: {e}"), signature_fix(&e))
        };
        for param in f.params.get_ref() {
            Param::parse(param.get_ref()).map_err(|e| bad(param.span(), "params", e))?;
        }
        Type::parse(f.returns.get_ref()).map_err(|e| bad(f.returns.span(), "returns", e))?;
        let params: Vec<String> = f
            .params
            .get_ref()
            .iter()
            .map(|p| p.get_ref().clone())
            .collect();
        let signature = Signature::parse(f.name.get_ref(), &params, f.returns.get_ref()).map_err(
            |e| match e {
                SignatureError::Repeated(_) => bad(f.params.span(), "params", e),
                _ => bad(f.name.span(), "name", e),
            },
        )?;
        let stdio = [
            ("interactor", raw.interactor.as_ref().map(|i| i.span())),
            ("input_file", raw.input_file.as_ref().map(|i| i.span())),
            ("output_file", raw.output_file.as_ref().map(|i| i.span())),
        ];
        if let Some((key, Some(span))) = stdio.into_iter().find(|(_, span)| span.is_some()) {
            return Err(self.bad(
                span,
                format!("`{key}` and [function] do not go together: a function's harness reads its arguments on stdin and prints what it returns on stdout"),
                &format!("remove `{key}`, or remove [function]"),
            ));
        }
        Ok(Some(Function {
            signature,
            order: f.order(),
        }))
    }

    /// `input_file` and `output_file`: plain names, and not the same one.
    fn file_io(self, raw: &RawProblem) -> Result<FileIo> {
        let mut io = FileIo::default();
        for (key, value, slot) in [
            ("input_file", &raw.input_file, &mut io.input),
            ("output_file", &raw.output_file, &mut io.output),
        ] {
            if let Some(name) = value {
                if let Err(m) = check_io_name(name.get_ref()) {
                    return Err(self.bad(
                        name.span(),
                        format!("{key}: `{}` {m}", name.get_ref()),
                        "write a plain file name such as \"input.txt\"",
                    ));
                }
                *slot = Some(name.get_ref().clone());
            }
        }
        if let (Some(name), Some(output)) = (&io.input, &raw.output_file) {
            if name == output.get_ref() {
                return Err(self.bad(
                    output.span(),
                    format!("output_file: `{name}` is also the input_file"),
                    "name two different files, such as \"input.txt\" and \"output.txt\"",
                ));
            }
        }
        Ok(io)
    }
}

/// Whether `name` can be the name of a file in the program's working folder: one plain name,
/// no folder, nothing hidden or special.
pub fn check_io_name(name: &str) -> std::result::Result<(), &'static str> {
    if name.is_empty() || name.len() > 100 {
        return Err("is not a file name (1 to 100 characters)");
    }
    if name.contains(['/', '\\']) || name.starts_with('.') {
        return Err("is not a plain file name (no folder, not hidden)");
    }
    if name.chars().any(|c| c.is_control()) {
        return Err("has a control character in it");
    }
    Ok(())
}

/// A fix for the toml crate's own messages (syntax, unknown keys, types).
/// How to write a declaration that reads.
fn signature_fix(e: &SignatureError) -> &'static str {
    match e {
        SignatureError::UnknownType(_)
        | SignatureError::NodeArray(_)
        | SignatureError::TooDeep(_) => {
            "write a type such as \"int\", \"long[]\", \"string[][]\", \"ListNode\" or \"TreeNode\""
        }
        SignatureError::BadParam(_) => {
            "write each parameter as \"name: type\", such as \"nums: int[]\""
        }
        SignatureError::BadName(_) => "name it as LeetCode does, such as \"twoSum\"",
        SignatureError::Repeated(_) => "give each parameter a name of its own",
    }
}

fn fix_for(message: &str) -> String {
    if message.starts_with("missing field") {
        let field = message.split('`').nth(1).unwrap_or("");
        let example = match field {
            "title" => "title = \"N-Queens II\"",
            "time_limit" => "time_limit = \"1s\"",
            "memory_limit" => "memory_limit = \"256MiB\"",
            "name" => "name = \"twoSum\"",
            "params" => "params = [\"nums: int[]\", \"target: int\"]",
            "returns" => "returns = \"int[]\"",
            _ => "",
        };
        // The one table's missing keys are those of [function]'s; the others are at the top.
        let table = match field {
            "name" | "params" | "returns" => " under [function]",
            _ => "",
        };
        if !example.is_empty() {
            return format!("add a line `{example}`{table}");
        }
    }
    if message.starts_with("unknown field") {
        return "remove or correct the key; the guide's \"problem.toml\" section (docs/src/workspace.md) lists every key"
            .into();
    }
    if message.starts_with("unknown variant") {
        return "use one of the values listed above".into();
    }
    "correct the file; the guide's \"problem.toml\" section (docs/src/workspace.md) shows a complete example".into()
}

impl fmt::Display for ProblemLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "time {} · memory {} · output {}",
            format_duration(self.time),
            format_bytes(self.memory_bytes),
            format_bytes(self.output_bytes)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::check::CompareOptions;

    fn parse(text: &str) -> Result<Problem> {
        parse_problem(
            "p",
            Path::new("problems/p"),
            "problems/p/problem.toml",
            text,
            &Config::default(),
        )
    }

    #[test]
    fn problem_toml_errors_name_the_line_and_the_fix() {
        let ok = "title = \"T\"\ntime_limit = \"1s\"\nmemory_limit = \"256MiB\"\n";
        let p = parse(ok).unwrap();
        assert_eq!(p.limits.output_bytes, DEFAULT_OUTPUT_LIMIT);
        assert_eq!(p.checker, Checker::default());

        let err =
            parse("title = \"T\"\ntime_limit = \"0s\"\nmemory_limit = \"256MiB\"\n").unwrap_err();
        let text = err.to_string();
        assert!(text.contains("problem.toml:2"), "{text}");
        assert!(text.contains("more than zero"), "{text}");

        let err = parse("title = \"T\"\ntime_limt = \"1s\"\nmemory_limit = \"1MiB\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains(":2") && err.contains("unknown field"), "{err}");

        let err = parse("title = \"T\"\nmemory_limit = \"1MiB\"\n")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("time_limit = \\\"1s\\\"") || err.contains("time_limit = \"1s\""),
            "{err}"
        );

        let err = parse("title = 3\ntime_limit = \"1s\"\nmemory_limit = \"1MiB\"\n")
            .unwrap_err()
            .to_string();
        assert!(err.contains(":1"), "{err}");

        let err = parse(&format!("{ok}checker = \"fuzzy\"\n"))
            .unwrap_err()
            .to_string();
        assert!(err.contains(":4") && err.contains("fuzzy"), "{err}");

        let err = parse(&format!("{ok}generator = \"../gen.rs\"\n"))
            .unwrap_err()
            .to_string();
        assert!(err.contains(":4") && err.contains("generator"), "{err}");

        let err = parse(&format!("{ok}[expected]\nfast = \"ACE\"\n"))
            .unwrap_err()
            .to_string();
        assert!(err.contains(":5") && err.contains("fast"), "{err}");
    }

    #[test]
    fn checker_keys_and_their_combinations() {
        let ok = "title = \"T\"\ntime_limit = \"1s\"\nmemory_limit = \"256MiB\"\n";
        let p = parse(&format!(
            "{ok}checker = \"lines\"\ncase_insensitive = true\n"
        ))
        .unwrap();
        let Checker::Builtin { mode, options } = p.checker.clone() else {
            panic!("a built-in checker")
        };
        assert_eq!(mode, CheckerMode::Lines);
        assert!(options.case_insensitive);
        assert_eq!(p.checker_summary(), "lines, case-insensitive");
        let p = parse(&format!(
            "{ok}checker = \"float\"\nfloat_absolute = 1e-9\nfloat_relative = 0\n"
        ))
        .unwrap();
        let Checker::Builtin { options, .. } = p.checker.clone() else {
            panic!("a built-in checker")
        };
        assert_eq!(options.float_absolute, 1e-9);
        assert_eq!(options.float_relative, 0.0);
        assert_eq!(p.checker_summary(), "float (absolute 1e-9, relative 0e0)");
        let p = parse(&format!("{ok}checker = \"float\"\n")).unwrap();
        assert_eq!(
            p.checker,
            Checker::Builtin {
                mode: CheckerMode::Float,
                options: CompareOptions::default()
            }
        );

        let err = |extra: &str| parse(&format!("{ok}{extra}")).unwrap_err().to_string();
        let e = err("float_absolute = 1e-6\n");
        assert!(e.contains("problem.toml:4"), "{e}");
        assert!(
            e.contains("`float_absolute` applies only to checker = \"float\""),
            "{e}"
        );
        assert!(e.contains("set `checker = \"float\"`"), "{e}");
        let e = err("checker = \"float\"\nfloat_relative = -1e-6\n");
        assert!(e.contains(":5") && e.contains("zero or more"), "{e}");
        let e = err("checker = \"float\"\nfloat_absolute = nan\n");
        assert!(e.contains(":5") && e.contains("not a tolerance"), "{e}");
        let e = err("checker = \"exact\"\ncase_insensitive = true\n");
        assert!(e.contains(":5") && e.contains("case_insensitive"), "{e}");
        let e = err("checker_program = \"checker.rs\"\n");
        assert!(
            e.contains(":4") && e.contains("set `checker = \"custom\"`"),
            "{e}"
        );
        let e = err("checker = \"tokens\"\nchecker_time_limit = \"1s\"\n");
        assert!(e.contains(":5") && e.contains("checker_time_limit"), "{e}");
        let e = err("checker = \"custom\"\n");
        assert!(e.contains(":4"), "{e}");
        assert!(e.contains("add `checker_program = \"checker.EXT\"`"), "{e}");
        let e = err("checker = \"custom\"\nchecker_program = \"nowhere.rs\"\n");
        assert!(
            e.contains(":5") && e.contains("there is no `nowhere.rs` in problems/p/"),
            "{e}"
        );
        let e = err("checker = \"custom\"\nchecker_program = \"checker.ws\"\n");
        assert!(
            e.contains(":5") && e.contains("no language claims `checker.ws`"),
            "{e}"
        );
        let e = err("[language_time]\nwhitespace = \"2x\"\n");
        assert!(
            e.contains(":5") && e.contains("no language `whitespace`"),
            "{e}"
        );
        let e = err("[language_time]\npython = \"fast\"\n");
        assert!(
            e.contains(":5") && e.contains("language_time.python"),
            "{e}"
        );
        let e = err("[rust]\nedition = \"2022\"\n");
        assert!(e.contains("not a Rust edition"), "{e}");
        let e = err("case_insensitive = \"yes\"\n");
        assert!(e.contains(":4"), "{e}");
    }

    #[test]
    fn named_input_and_output_files() {
        let ok = "title = \"T\"\ntime_limit = \"1s\"\nmemory_limit = \"256MiB\"\n";
        let p = parse(ok).unwrap();
        assert_eq!(p.io, FileIo::default());
        let p = parse(&format!(
            "{ok}url = \"https://example.org/p\"\ninput_file = \"input.txt\"\noutput_file = \"output.txt\"\n"
        ))
        .unwrap();
        assert_eq!(p.io.input.as_deref(), Some("input.txt"));
        assert_eq!(p.io.output.as_deref(), Some("output.txt"));
        assert_eq!(p.url.as_deref(), Some("https://example.org/p"));
        let p = parse(&format!("{ok}output_file = \"cownav.out\"\n")).unwrap();
        assert_eq!(
            (p.io.input, p.io.output.as_deref()),
            (None, Some("cownav.out"))
        );

        let err = |extra: &str| parse(&format!("{ok}{extra}")).unwrap_err().to_string();
        let e = err("input_file = \"../in.txt\"\n");
        assert!(
            e.contains(":4") && e.contains("not a plain file name"),
            "{e}"
        );
        let e = err("input_file = \"\"\n");
        assert!(e.contains(":4") && e.contains("input_file"), "{e}");
        let e = err("output_file = \".hidden\"\n");
        assert!(e.contains(":4") && e.contains("output_file"), "{e}");
        let e = err("input_file = \"a.txt\"\noutput_file = \"a.txt\"\n");
        assert!(e.contains(":5") && e.contains("also the input_file"), "{e}");
    }

    #[test]
    fn a_custom_checker_is_found_in_the_problem_folder() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("check.rs"), "fn main() {}\n").unwrap();
        let text = "title = \"T\"\ntime_limit = \"1s\"\nmemory_limit = \"256MiB\"\nchecker = \"custom\"\nchecker_program = \"check.rs\"\nchecker_time_limit = \"2s\"\n";
        let p = parse_problem(
            "p",
            dir.path(),
            "problems/p/problem.toml",
            text,
            &Config::default(),
        )
        .unwrap();
        let Checker::Program(c) = p.checker.clone() else {
            panic!("a checker program")
        };
        assert_eq!(c.source, dir.path().join("check.rs"));
        assert_eq!(c.time, Duration::from_secs(2));
        assert_eq!(c.memory_bytes, DEFAULT_CHECKER_MEMORY);
        assert_eq!(p.checker_summary(), "custom (check.rs)");
        let e = parse_problem(
            "p",
            dir.path(),
            "problems/p/problem.toml",
            &text.replace("\"2s\"", "\"0s\""),
            &Config::default(),
        )
        .unwrap_err()
        .to_string();
        assert!(e.contains(":6") && e.contains("checker_time_limit"), "{e}");
    }

    #[test]
    fn interactor_keys_are_checked() {
        let ok = "title = \"T\"\ntime_limit = \"1s\"\nmemory_limit = \"256MiB\"\n";
        let err = parse(&format!("{ok}interactor_protocol = \"kattis\"\n"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(":4") && err.contains("has no interactor"),
            "{err}"
        );
        let err = parse(&format!("{ok}interactor = \"i.rs\"\nchecker = \"exact\"\n"))
            .unwrap_err()
            .to_string();
        assert!(
            err.contains(":5") && err.contains("fix: remove `checker`"),
            "{err}"
        );
        let err = parse(&format!(
            "{ok}interactor = \"i.rs\"\ninteractor_protocol = \"kattis\"\nchecker = \"custom\"\n"
        ))
        .unwrap_err()
        .to_string();
        assert!(err.contains("a Kattis interactor accepts"), "{err}");
        // Its flags pass the checker's keys; the missing file is the error left.
        let err = parse(&format!(
            "{ok}interactor = \"i.rs\"\ninteractor_protocol = \"kattis\"\nvalidator_flags = \"x\"\n"
        ))
        .unwrap_err()
        .to_string();
        assert!(
            err.contains(":4") && err.contains("there is no `i.rs`"),
            "{err}"
        );
    }
}
