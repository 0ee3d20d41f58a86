//! Codeforces Polygon packages: `problem.xml` ([`xml`]), the tests by their path patterns,
//! groups and points, the testlib checker (and interactor) in `files/`, and the solutions by their tags.
//!
//! Semantics follow Polygon and Codeforces: tests run in their order; without points the first
//! failure decides, with points every test runs and a group gives the points of its passed
//! tests (`each-test`) or all of them only when every test passed (`complete-group`), and
//! a group whose dependency failed is not run. A presentation error is a wrong answer, as on
//! Codeforces.

mod xml;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{dir_name, inside, samples, Format, Package};
use judge_core::compile::Source;
use judge_core::error::{Error, Location, Result};
use judge_core::grading::{GraderFlags, Group, Item, OnReject, ScoreRule, VerdictRule};
use judge_core::lang::{Languages, RustSettings};
use judge_core::model::Skipped;
use judge_core::stats::TimeLimitRule;
use judge_core::verdict::{Expectation, MemoryRule, Verdict};
use judge_core::workspace::{
    Checker, CheckerProgram, CheckerProtocol, FileIo, Interactor, InteractorProgram,
    InteractorProtocol, Problem, ProblemLimits, Solution, TestCase, DEFAULT_CHECKER_MEMORY,
    DEFAULT_CHECKER_TIME, DEFAULT_OUTPUT_LIMIT,
};
use xml::{expand, ProblemXml};

/// Polygon's solution tags and the verdicts a solution with each must get.
pub const TAGS: &[(&str, &[Verdict])] = &[
    ("main", &[Verdict::Ac]),
    ("accepted", &[Verdict::Ac]),
    ("wrong-answer", &[Verdict::Wa]),
    // Codeforces reports a presentation error as a wrong answer; so does the judge.
    ("presentation-error", &[Verdict::Wa]),
    ("time-limit-exceeded", &[Verdict::Tle]),
    (
        "time-limit-exceeded-or-accepted",
        &[Verdict::Tle, Verdict::Ac],
    ),
    (
        "time-limit-exceeded-or-memory-limit-exceeded",
        &[Verdict::Tle, Verdict::Mle],
    ),
    ("memory-limit-exceeded", &[Verdict::Mle]),
    ("failed", &[Verdict::Re]),
    (
        "rejected",
        &[
            Verdict::Wa,
            Verdict::Tle,
            Verdict::Mle,
            Verdict::Ole,
            Verdict::Re,
        ],
    ),
];

/// Whether `dir` is a Polygon package: a folder with a `problem.xml`.
pub fn is_polygon(dir: &Path) -> bool {
    dir.join("problem.xml").is_file()
}

/// Reads a Polygon package from its (canonical) folder.
pub fn load(dir: &Path, languages: &Languages) -> Result<Package> {
    // A problem.xml that is a link out of the package is refused like any other file.
    inside(dir, &dir.join("problem.xml"))?;
    let xml = xml::read(dir)?;
    let mut warnings = xml.warnings.clone();
    let cases = cases(dir, &xml, &mut warnings)?;
    let scoring = xml.tests.iter().any(|t| t.points.unwrap_or(0.0) > 0.0)
        || xml.groups.iter().any(|g| g.points.unwrap_or(0.0) > 0.0);
    let grading = (scoring || !xml.groups.is_empty()).then(|| grading(&xml, &cases, scoring));
    let checker = checker(dir, &xml)?;
    let id = xml
        .short_name
        .clone()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| dir_name(dir));
    let subs = solutions(dir, &xml, &id, languages);
    if !subs.runnable.iter().any(|s| {
        subs.expected
            .get(&s.name)
            .is_some_and(|e| e.is_only(Verdict::Ac))
    }) {
        warnings.push("no main or accepted solution the judge can run".into());
    }
    let problem = Problem {
        id: id.clone(),
        dir: dir.to_path_buf(),
        title: xml.title.clone().unwrap_or_else(|| id.clone()),
        limits: ProblemLimits {
            time: xml.time,
            memory_bytes: xml.memory_bytes,
            output_bytes: DEFAULT_OUTPUT_LIMIT,
            // Codeforces holds a program to the memory it uses, not to what it reserves.
            memory_rule: MemoryRule::Resident,
        },
        checker,
        samples: samples(&cases),
        expected: subs.expected,
        generator: None,
        // Polygon's validators check the generated tests there; the judge does not run them.
        input_validators: Vec::new(),
        // testlib's: `interactor INPUT OUTPUT ANSWER`, then the checker reads what it wrote.
        interactor: match &xml.interactor {
            Some(path) => Some(Interactor {
                program: InteractorProgram::Source(program(dir, path, "interactor")?),
                protocol: InteractorProtocol::Testlib,
                time: DEFAULT_CHECKER_TIME,
                memory_bytes: DEFAULT_CHECKER_MEMORY,
            }),
            None => None,
        },
        rust: RustSettings::default(),
        package: Default::default(),
        function: None,
        language_time: BTreeMap::new(),
        grading: grading.map(Arc::new),
        scoring,
        time_rule: TimeLimitRule {
            fixed: Some(xml.time),
            ..TimeLimitRule::DEFAULT
        },
        url: None,
        io: FileIo {
            input: xml.input_file.clone(),
            output: xml.output_file.clone(),
        },
        terms: Default::default(),
    };
    Ok(Package {
        dir: dir.to_path_buf(),
        format: Format::Polygon,
        problem,
        cases,
        submissions: subs.runnable,
        skipped: subs.skipped,
        warnings,
        scoring,
        copies: Default::default(),
    })
}

/// The tests, by their patterns. A package without its generated tests (Polygon's standard
/// package) is an error: nothing is judged on part of the tests.
fn cases(dir: &Path, xml: &ProblemXml, warnings: &mut Vec<String>) -> Result<Vec<TestCase>> {
    let name = dir_name(dir);
    if xml.tests.is_empty() {
        return Err(Error::TestData {
            at: Location::file(format!("{name}/problem.xml")),
            message: "the testset `tests` has no tests".into(),
            fix: "add tests in Polygon and download the package again".into(),
        });
    }
    let path = |pattern: &str, n: usize| {
        expand(pattern, n).expect("problem.xml's patterns are checked when read")
    };
    let not_generated = |what: String| {
        Error::TestData {
        at: Location::file(format!("{name}/{}", path(&xml.input_pattern, 1))),
        message: format!(
            "{what}: this is a standard package, which holds only the scripts that make the tests"
        ),
        fix: "download the full package from Polygon (Packages: Full), or run the package's doall.sh in a copy of it and judge the copy".into(),
    }
    };
    let missing_inputs: Vec<usize> = (1..=xml.tests.len())
        .filter(|n| !dir.join(path(&xml.input_pattern, *n)).exists())
        .collect();
    if let Some(first) = missing_inputs.first() {
        return Err(not_generated(format!(
            "{} of the {} tests have no input ({} the first, by problem.xml's input-path-pattern)",
            missing_inputs.len(),
            xml.tests.len(),
            path(&xml.input_pattern, *first)
        )));
    }
    let answered = (1..=xml.tests.len())
        .filter(|n| dir.join(path(&xml.answer_pattern, *n)).exists())
        .count();
    if answered == 0 {
        return Err(not_generated(format!(
            "none of the {} tests has its answer ({}, problem.xml's answer-path-pattern)",
            xml.tests.len(),
            xml.answer_pattern
        )));
    }
    let mut cases = Vec::new();
    for (i, test) in xml.tests.iter().enumerate() {
        let input_rel = path(&xml.input_pattern, i + 1);
        let answer_rel = path(&xml.answer_pattern, i + 1);
        let input = inside(dir, &dir.join(&input_rel))?;
        let answer = dir.join(&answer_rel);
        // A missing answer is the package's fault: its test is an IE, never the solution's.
        let answer = if answer.exists() {
            inside(dir, &answer)?
        } else {
            warnings.push(format!(
                "{answer_rel}: test {} has no answer; it is judged IE",
                i + 1
            ));
            answer
        };
        cases.push(TestCase {
            name: Path::new(&input_rel)
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or(input_rel.clone()),
            input,
            answer,
            sample: test.sample,
            description: None,
            validator_flags: Vec::new(),
            input_validator_flags: Vec::new(),
            files: None,
            static_validation: None,
        });
    }
    Ok(cases)
}

/// The tests' groups and points as a grading tree: the root takes the first failure's verdict
/// and, when tests give points, runs every test; each group is one subtree, in the order its
/// first test comes.
fn grading(xml: &ProblemXml, cases: &[TestCase], scoring: bool) -> Group {
    let flags = |score| GraderFlags {
        verdict: VerdictRule::FirstError,
        score,
        ..GraderFlags::default()
    };
    let points = |i: usize| xml.tests[i].points.unwrap_or(0.0);
    let mut root = Group {
        path: String::new(),
        on_reject: if scoring {
            OnReject::Continue
        } else {
            OnReject::Break
        },
        flags: flags(ScoreRule::Sum),
        accept_score: 0.0,
        reject_score: 0.0,
        range: None,
        case_points: BTreeMap::new(),
        requires: Vec::new(),
        custom: None,
        items: Vec::new(),
    };
    for (i, case) in cases.iter().enumerate() {
        let Some(name) = &xml.tests[i].group else {
            root.case_points.insert(case.name.clone(), points(i));
            root.items.push(Item::Case(case.name.clone()));
            continue;
        };
        if root
            .items
            .iter()
            .any(|it| matches!(it, Item::Group(g) if &g.path == name))
        {
            continue;
        }
        let declared = xml.groups.iter().find(|g| &g.name == name);
        let complete = declared.is_some_and(|g| g.complete);
        let members: Vec<usize> = (0..cases.len())
            .filter(|j| xml.tests[*j].group.as_ref() == Some(name))
            .collect();
        let mut case_points: BTreeMap<String, f64> = members
            .iter()
            .map(|j| (cases[*j].name.clone(), points(*j)))
            .collect();
        // A complete group's points given on the group alone: all of them with its last test.
        let given: f64 = case_points.values().sum();
        if let (true, 0.0, Some(p), Some(last)) = (
            complete,
            given,
            declared.and_then(|g| g.points),
            members.last(),
        ) {
            case_points.insert(cases[*last].name.clone(), p);
        }
        let total = case_points.values().sum();
        root.items.push(Item::Group(Group {
            path: name.clone(),
            on_reject: if complete {
                OnReject::Break
            } else {
                OnReject::Continue
            },
            flags: flags(if complete {
                ScoreRule::AllOrNothing
            } else {
                ScoreRule::Sum
            }),
            accept_score: 0.0,
            reject_score: 0.0,
            range: Some((0.0, total)),
            case_points,
            requires: declared.map(|g| g.dependencies.clone()).unwrap_or_default(),
            custom: None,
            items: members
                .iter()
                .map(|j| Item::Case(cases[*j].name.clone()))
                .collect(),
        }));
    }
    let total = root.case_points.values().sum::<f64>()
        + root
            .items
            .iter()
            .filter_map(|it| match it {
                Item::Group(g) => g.range.map(|r| r.1),
                Item::Case(_) => None,
            })
            .sum::<f64>();
    root.range = Some((0.0, total));
    root
}

/// The checker `<checker>` names, compiled with the headers beside it (the package's own
/// `testlib.h`), each of which must stay inside the package.
fn checker(dir: &Path, xml: &ProblemXml) -> Result<Checker> {
    Ok(Checker::Program(CheckerProgram {
        source: program(dir, &xml.checker, "checker")?,
        time: DEFAULT_CHECKER_TIME,
        memory_bytes: DEFAULT_CHECKER_MEMORY,
        protocol: CheckerProtocol::Testlib,
    }))
}

/// The source of the package's `what` (its checker, its interactor) at `path` under it, which
/// must be there, inside the package, as must the headers built beside it.
fn program(dir: &Path, path: &str, what: &str) -> Result<PathBuf> {
    let source = dir.join(path);
    if !source.is_file() {
        return Err(Error::TestData {
            at: Location::file(format!("{}/{path}", dir_name(dir))),
            message: format!("the {what} problem.xml names is not in the package"),
            fix: format!("download the package again, or correct <{what}>'s <source path>"),
        });
    }
    let source = inside(dir, &source)?;
    // The headers the build copies beside it: none may be a link out of the package.
    for (_, header) in Source::with_headers(&dir.join(path)).extras {
        inside(dir, &header)?;
    }
    Ok(source)
}

struct Solutions {
    runnable: Vec<Solution>,
    expected: BTreeMap<String, Expectation>,
    skipped: Vec<Skipped>,
}

/// The solutions of `<assets>`, named by their path under `solutions/`, each expected to get
/// what its tag says.
fn solutions(dir: &Path, xml: &ProblemXml, id: &str, languages: &Languages) -> Solutions {
    let mut out = Solutions {
        runnable: Vec::new(),
        expected: BTreeMap::new(),
        skipped: Vec::new(),
    };
    for s in &xml.solutions {
        let name = s
            .path
            .strip_prefix("solutions/")
            .unwrap_or(&s.path)
            .to_string();
        let file = dir.join(&s.path);
        let skip = |why: String| Skipped {
            solution: name.clone(),
            path: file.clone(),
            skipped: why,
        };
        let Some((_, verdicts)) = TAGS.iter().find(|(t, _)| *t == s.tag) else {
            out.skipped.push(skip(format!(
                "tag `{}` is not one the judge knows, so nothing is expected of it",
                s.tag
            )));
            continue;
        };
        let path = match inside(dir, &file) {
            Ok(p) => p,
            Err(e) => {
                out.skipped.push(skip(e.to_string()));
                continue;
            }
        };
        if s.kind.starts_with("python.2") || s.kind.starts_with("pypy.2") {
            out.skipped.push(skip(format!(
                "Python 2 ({}), which the judge does not run",
                s.kind
            )));
            continue;
        }
        if languages.of_path(&path).is_none() {
            out.skipped.push(skip(format!(
                "{}: no language claims its extension here (add it in judge.toml to judge it)",
                s.kind
            )));
            continue;
        }
        out.expected.insert(
            name.clone(),
            Expectation(verdicts.iter().copied().collect()),
        );
        out.runnable.push(Solution {
            name,
            problem: id.to_string(),
            path,
        });
    }
    out
}
