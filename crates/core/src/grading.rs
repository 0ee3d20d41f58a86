//! Test groups and their grading, as the Kattis problem package format defines it: which cases
//! count after a failure (`on_reject`), a group's verdict and score from its children's (the
//! default grader's flags), score ranges; a group graded by a package's own graders instead
//! (`grading: custom`) asks a [`Graders`] for its result. Pure: case verdicts in, group results
//! out.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use crate::verdict::Verdict;

/// What a group does once a child fails.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum OnReject {
    /// The group's remaining children are not run (its result is final).
    #[default]
    Break,
    /// Every child is run and graded.
    Continue,
}

/// How a group's verdict comes from its children's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum VerdictRule {
    /// The worst failure, in the order JE, RTE, MLE, TLE, OLE, WA, then AC.
    #[default]
    WorstError,
    /// The first failure, in order.
    FirstError,
    AlwaysAccept,
}

/// How a group's score comes from its children's.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ScoreRule {
    #[default]
    Sum,
    Avg,
    Min,
    Max,
    /// The sum when every child is accepted, else nothing (Polygon's `complete-group`).
    AllOrNothing,
}

/// The default grader's flags (`grader_flags: min first_error ignore_sample`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct GraderFlags {
    pub verdict: VerdictRule,
    pub score: ScoreRule,
    /// At the root: the sample group does not count (the last child alone does).
    pub ignore_sample: bool,
    /// AC when any child is AC.
    pub accept_if_any_accepted: bool,
}

impl GraderFlags {
    /// Reads the flags as the default grader does: known words set what they name, the rest is ignored.
    pub fn parse(flags: &str) -> GraderFlags {
        let mut g = GraderFlags::default();
        for f in flags.split_whitespace() {
            match f {
                "worst_error" | "no_errors" => g.verdict = VerdictRule::WorstError,
                "first_error" => g.verdict = VerdictRule::FirstError,
                "always_accept" => g.verdict = VerdictRule::AlwaysAccept,
                "sum" => g.score = ScoreRule::Sum,
                "avg" => g.score = ScoreRule::Avg,
                "min" => g.score = ScoreRule::Min,
                "max" => g.score = ScoreRule::Max,
                "ignore_sample" => g.ignore_sample = true,
                "accept_if_any_accepted" => g.accept_if_any_accepted = true,
                _ => {}
            }
        }
        g
    }
}

/// A test group: its settings (inherited from its parent's where it sets none) and its
/// children, cases and groups in the order they run.
#[derive(Debug, Clone, PartialEq)]
pub struct Group {
    /// The group's path under the data folder ("" for the root, "secret/subtask1").
    pub path: String,
    pub on_reject: OnReject,
    pub flags: GraderFlags,
    /// A case's score when accepted and when not (scoring problems).
    pub accept_score: f64,
    pub reject_score: f64,
    /// The scores the group may give, when it says (`range: 0 50`).
    pub range: Option<(f64, f64)>,
    /// A case's own score when accepted, over `accept_score` (Polygon's per-test points).
    pub case_points: BTreeMap<String, f64>,
    /// Groups (by path, graded before this one) that must be accepted for this one to give
    /// points (Polygon's dependencies).
    pub requires: Vec<String>,
    /// The package's own graders grade the group (`grading: custom`), not the default grader.
    pub custom: Option<CustomGrader>,
    pub items: Vec<Item>,
}

/// A package's own graders, as the legacy format runs them: each reads the group's children's
/// results on stdin, a line `VERDICT SCORE` each, and writes the group's in the same form; the
/// group's `grader_flags` are its arguments. With several, each runs and the last one's result
/// is the group's, as in problemtools.
#[derive(Debug, Clone, PartialEq)]
pub struct CustomGrader {
    pub programs: Vec<PathBuf>,
    pub args: Vec<String>,
}

/// Why a package's graders gave a group no result: the group is IE, with this said.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GraderError {
    #[error("the group's grading is custom, and the package has no grader in graders/")]
    NoGrader,
    /// `grader`: as the workspace shows it; `excerpt`: the compiler's words, cut short.
    #[error("the grader {grader} does not compile:\n{excerpt}")]
    DoesNotCompile { grader: String, excerpt: String },
    /// `why`: how it failed (its limit, its exit code, what it wrote instead of a result).
    #[error("the grader {grader} failed: {why}")]
    Failed { grader: String, why: String },
}

/// What runs a package's own graders (the session, which runs programs).
pub trait Graders {
    /// A group's result by `grader` from its children's, or why there is none; `None` when no
    /// grader runs here.
    fn grade(
        &mut self,
        grader: &CustomGrader,
        children: &[(Verdict, f64)],
    ) -> Option<std::result::Result<(Verdict, f64), GraderError>>;
}

/// No program runs: a group with a custom grader is graded by the default grader with its
/// flags, where what a grader decides cannot change the answer (which cases run).
struct DefaultOnly;

impl Graders for DefaultOnly {
    fn grade(
        &mut self,
        _: &CustomGrader,
        _: &[(Verdict, f64)],
    ) -> Option<std::result::Result<(Verdict, f64), GraderError>> {
        None
    }
}

/// A child of a group.
#[derive(Debug, Clone, PartialEq)]
pub enum Item {
    /// A test case, by its name.
    Case(String),
    Group(Group),
}

/// A case's result as grading needs it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CaseResult {
    pub verdict: Verdict,
    /// A score the output validator gave (score.txt); the group's accept or reject score otherwise.
    pub score: Option<f64>,
}

/// A group's result.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct GroupResult {
    pub path: String,
    pub verdict: Verdict,
    pub score: f64,
    /// The most the group could give (`range`), when known.
    pub max_score: Option<f64>,
    /// Why the group's own grader gave no result (its verdict is then IE).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

/// The results of every group, children before parents, the root last.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Graded {
    pub groups: Vec<GroupResult>,
}

impl Graded {
    pub fn root(&self) -> &GroupResult {
        self.groups.last().expect("the root is graded")
    }
}

impl Group {
    /// The names of the cases, in the order they run.
    pub fn cases(&self) -> Vec<&str> {
        let mut out = Vec::new();
        for item in &self.items {
            match item {
                Item::Case(c) => out.push(c.as_str()),
                Item::Group(g) => out.extend(g.cases()),
            }
        }
        out
    }

    /// The cases that run, given the results so far: after a failure in a group that breaks
    /// on a rejection, its remaining children do not (nor, up the tree, those of every
    /// enclosing group that breaks too). `result` gives what is known of a case; `None` for
    /// a case not run yet, which counts as passing for now. A group that requires another
    /// that failed does not run at all.
    pub fn runs(&self, result: &dyn Fn(&str) -> Option<Verdict>) -> Vec<String> {
        let mut out = Vec::new();
        self.walk_runs(result, &mut out, &mut Vec::new());
        out
    }

    /// Adds the cases that run to `out`, and the paths of the groups that failed to `failed`;
    /// true when the group failed and breaks.
    fn walk_runs(
        &self,
        result: &dyn Fn(&str) -> Option<Verdict>,
        out: &mut Vec<String>,
        failed_groups: &mut Vec<String>,
    ) -> bool {
        for item in &self.items {
            let failed = match item {
                Item::Case(c) => {
                    out.push(c.clone());
                    result(c).is_some_and(|v| v != Verdict::Ac)
                }
                Item::Group(g) if g.requires.iter().any(|r| failed_groups.contains(r)) => {
                    failed_groups.push(g.path.clone());
                    true
                }
                Item::Group(g) => {
                    let before = out.len();
                    g.walk_runs(result, out, failed_groups);
                    // A subgroup fails when its grade does, with what ran of it.
                    let ran: BTreeMap<&str, Verdict> = out[before..]
                        .iter()
                        .filter_map(|c| Some((c.as_str(), result(c)?)))
                        .collect();
                    let failed = g
                        .grade_with(&|c| {
                            ran.get(c).map(|v| CaseResult {
                                verdict: *v,
                                score: None,
                            })
                        })
                        .root()
                        .verdict
                        != Verdict::Ac;
                    if failed {
                        failed_groups.push(g.path.clone());
                    }
                    failed
                }
            };
            if failed && self.on_reject == OnReject::Break {
                return true;
            }
        }
        false
    }

    /// Grades the tree from the cases' results (cases without one did not run and do not count),
    /// a group with its own graders by the default grader.
    pub fn grade_with(&self, result: &dyn Fn(&str) -> Option<CaseResult>) -> Graded {
        self.grade_by(result, &mut DefaultOnly)
    }

    /// Grades the tree as [`Group::grade_with`] does, a group with its own graders by them.
    pub fn grade_by(
        &self,
        result: &dyn Fn(&str) -> Option<CaseResult>,
        graders: &mut dyn Graders,
    ) -> Graded {
        let mut groups = Vec::new();
        self.grade_into(result, graders, &mut groups);
        Graded { groups }
    }

    /// Whether a group of the tree has graders of its own.
    pub fn has_custom(&self) -> bool {
        self.custom.is_some()
            || self.items.iter().any(|i| match i {
                Item::Group(g) => g.has_custom(),
                Item::Case(_) => false,
            })
    }

    fn grade_into(
        &self,
        result: &dyn Fn(&str) -> Option<CaseResult>,
        graders: &mut dyn Graders,
        groups: &mut Vec<GroupResult>,
    ) -> (Verdict, f64) {
        let mut children: Vec<(Verdict, f64)> = Vec::new();
        for item in &self.items {
            let r = match item {
                Item::Case(c) => match result(c) {
                    Some(r) => {
                        let score = r.score.unwrap_or(if r.verdict == Verdict::Ac {
                            self.case_points
                                .get(c)
                                .copied()
                                .unwrap_or(self.accept_score)
                        } else {
                            self.reject_score
                        });
                        (r.verdict, score)
                    }
                    None => continue,
                },
                Item::Group(g) => {
                    if g.cases().iter().all(|c| result(c).is_none()) {
                        continue;
                    }
                    g.grade_into(result, graders, groups)
                }
            };
            let failed = r.0 != Verdict::Ac;
            children.push(r);
            if failed && self.on_reject == OnReject::Break {
                break;
            }
        }
        let mut error = None;
        let (verdict, mut score) = match &self.custom {
            // A group with no result graded gives none: the grader does not run (problemtools).
            Some(grader) if !children.is_empty() => match graders.grade(grader, &children) {
                Some(Ok(r)) => r,
                Some(Err(why)) => {
                    error = Some(why.to_string());
                    (Verdict::Ie, 0.0)
                }
                None => aggregate(&children, &self.flags),
            },
            _ => aggregate(&children, &self.flags),
        };
        let unmet = |path: &String| {
            !groups
                .iter()
                .any(|g| &g.path == path && g.verdict == Verdict::Ac)
        };
        if self.requires.iter().any(unmet) {
            score = 0.0;
        }
        groups.push(GroupResult {
            path: self.path.clone(),
            verdict,
            score,
            max_score: self.range.map(|r| r.1),
            error,
        });
        (verdict, score)
    }
}

/// The default grader: a verdict and a score from the children's.
fn aggregate(children: &[(Verdict, f64)], flags: &GraderFlags) -> (Verdict, f64) {
    if children.is_empty() {
        return (Verdict::Ac, 0.0);
    }
    let children = if flags.ignore_sample {
        // The sample group is the first of at most two children; only the last one counts.
        &children[children.len() - 1..]
    } else {
        children
    };
    let verdicts: Vec<Verdict> = children.iter().map(|c| c.0).collect();
    let verdict = if flags.accept_if_any_accepted && verdicts.contains(&Verdict::Ac) {
        Verdict::Ac
    } else {
        match flags.verdict {
            VerdictRule::WorstError => verdicts
                .iter()
                .copied()
                .min_by_key(|v| severity(*v))
                .unwrap_or(Verdict::Ac),
            VerdictRule::FirstError => verdicts
                .iter()
                .copied()
                .find(|v| *v != Verdict::Ac)
                .unwrap_or(Verdict::Ac),
            VerdictRule::AlwaysAccept => Verdict::Ac,
        }
    };
    let scores = children.iter().map(|c| c.1);
    let score = match flags.score {
        ScoreRule::Sum => scores.sum(),
        ScoreRule::Avg => scores.sum::<f64>() / children.len() as f64,
        ScoreRule::Min => scores.fold(f64::INFINITY, f64::min),
        ScoreRule::Max => scores.fold(f64::NEG_INFINITY, f64::max),
        ScoreRule::AllOrNothing if verdicts.iter().all(|v| *v == Verdict::Ac) => scores.sum(),
        ScoreRule::AllOrNothing => 0.0,
    };
    (verdict, score)
}

/// The default grader's order of failures, worst first: a judge error, a crash (a memory
/// kill is one), time, output, a wrong answer, and last acceptance.
fn severity(v: Verdict) -> u8 {
    match v {
        Verdict::Ie => 0,
        Verdict::Ce => 1,
        Verdict::Re => 2,
        Verdict::Mle => 3,
        Verdict::Tle => 4,
        Verdict::Ole => 5,
        Verdict::Wa => 6,
        Verdict::Ac => 7,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn group(path: &str, on_reject: OnReject, flags: &str, items: Vec<Item>) -> Group {
        Group {
            path: path.into(),
            on_reject,
            flags: GraderFlags::parse(flags),
            accept_score: 1.0,
            reject_score: 0.0,
            range: None,
            case_points: BTreeMap::new(),
            requires: Vec::new(),
            custom: None,
            items,
        }
    }

    fn cases(names: &[&str]) -> Vec<Item> {
        names.iter().map(|n| Item::Case(n.to_string())).collect()
    }

    fn results<'a>(pairs: &'a [(&'a str, Verdict)]) -> impl Fn(&str) -> Option<CaseResult> + 'a {
        move |c| {
            pairs
                .iter()
                .find(|(n, _)| *n == c)
                .map(|(_, v)| CaseResult {
                    verdict: *v,
                    score: None,
                })
        }
    }

    #[test]
    fn pass_fail_is_the_first_failure_and_stops_there() {
        let root = group(
            "",
            OnReject::Break,
            "",
            vec![
                Item::Group(group("sample", OnReject::Break, "", cases(&["s1"]))),
                Item::Group(group(
                    "secret",
                    OnReject::Break,
                    "",
                    cases(&["1", "2", "3"]),
                )),
            ],
        );
        let verdicts = [
            ("s1", Verdict::Ac),
            ("1", Verdict::Ac),
            ("2", Verdict::Tle),
            ("3", Verdict::Wa),
        ];
        let known = |c: &str| verdicts.iter().find(|(n, _)| *n == c).map(|(_, v)| *v);
        assert_eq!(root.runs(&known), ["s1", "1", "2"]);
        let g = root.grade_with(&results(&verdicts));
        assert_eq!(g.root().verdict, Verdict::Tle);
        // A failing sample ends the run before the secret cases.
        let failed_sample = |c: &str| (c == "s1").then_some(Verdict::Wa);
        assert_eq!(root.runs(&failed_sample), ["s1"]);
    }

    #[test]
    fn continue_and_the_worst_error() {
        let root = group("", OnReject::Continue, "", cases(&["1", "2", "3"]));
        let verdicts = [("1", Verdict::Wa), ("2", Verdict::Tle), ("3", Verdict::Ac)];
        let g = root.grade_with(&results(&verdicts));
        assert_eq!(g.root().verdict, Verdict::Tle, "TLE is worse than WA");
        let root = group(
            "",
            OnReject::Continue,
            "first_error",
            cases(&["1", "2", "3"]),
        );
        assert_eq!(
            root.grade_with(&results(&verdicts)).root().verdict,
            Verdict::Wa
        );
    }

    /// The grading of a scoring problem with two subtasks, each all-or-nothing (min), the
    /// sample ignored, as the odd-echo example of the package format sets it.
    #[test]
    fn subtasks_score_by_their_minimum_and_add_up() {
        let subtask = |path: &str, names: &[&str]| Group {
            accept_score: 50.0,
            range: Some((0.0, 50.0)),
            ..group(path, OnReject::Break, "min", cases(names))
        };
        let root = Group {
            range: Some((0.0, 100.0)),
            ..group(
                "",
                OnReject::Continue,
                "ignore_sample",
                vec![
                    Item::Group(Group {
                        accept_score: 0.0,
                        range: Some((0.0, 0.0)),
                        ..group("sample", OnReject::Continue, "first_error", cases(&["s1"]))
                    }),
                    Item::Group(Group {
                        range: Some((0.0, 100.0)),
                        ..group(
                            "secret",
                            OnReject::Continue,
                            "first_error accept_if_any_accepted",
                            vec![
                                Item::Group(subtask("secret/subtask1", &["a1", "a2"])),
                                Item::Group(subtask("secret/subtask2", &["b1", "b2"])),
                            ],
                        )
                    }),
                ],
            )
        };
        let full = [
            ("s1", Verdict::Ac),
            ("a1", Verdict::Ac),
            ("a2", Verdict::Ac),
            ("b1", Verdict::Ac),
            ("b2", Verdict::Ac),
        ];
        let g = root.grade_with(&results(&full));
        assert_eq!((g.root().verdict, g.root().score), (Verdict::Ac, 100.0));
        // Only the first subtask solved: accepted (any accepted) with half the points.
        let half = [
            ("s1", Verdict::Wa),
            ("a1", Verdict::Ac),
            ("a2", Verdict::Ac),
            ("b1", Verdict::Wa),
        ];
        let g = root.grade_with(&results(&half));
        assert_eq!((g.root().verdict, g.root().score), (Verdict::Ac, 50.0));
        let sub2 = g
            .groups
            .iter()
            .find(|r| r.path == "secret/subtask2")
            .unwrap();
        assert_eq!(
            (sub2.verdict, sub2.score, sub2.max_score),
            (Verdict::Wa, 0.0, Some(50.0))
        );
        // b2 does not run once b1 failed in a group that breaks.
        let known = |c: &str| half.iter().find(|(n, _)| *n == c).map(|(_, v)| *v);
        assert!(!root.runs(&known).contains(&"b2".to_string()));
    }

    /// Polygon's grading: per-test points, a group all or nothing, another that needs it.
    #[test]
    fn per_case_points_complete_groups_and_dependencies() {
        let each = Group {
            case_points: [("a1".to_string(), 10.0), ("a2".to_string(), 5.0)].into(),
            ..group("1", OnReject::Continue, "", cases(&["a1", "a2"]))
        };
        let complete = Group {
            flags: GraderFlags {
                score: ScoreRule::AllOrNothing,
                ..GraderFlags::default()
            },
            case_points: [("b1".to_string(), 20.0), ("b2".to_string(), 30.0)].into(),
            ..group("2", OnReject::Break, "", cases(&["b1", "b2"]))
        };
        let needs_both = Group {
            requires: vec!["1".into(), "2".into()],
            accept_score: 7.0,
            ..group("3", OnReject::Continue, "", cases(&["c1"]))
        };
        let root = group(
            "",
            OnReject::Continue,
            "first_error",
            vec![
                Item::Group(each),
                Item::Group(complete),
                Item::Group(needs_both),
            ],
        );
        let all = [
            ("a1", Verdict::Ac),
            ("a2", Verdict::Ac),
            ("b1", Verdict::Ac),
            ("b2", Verdict::Ac),
            ("c1", Verdict::Ac),
        ];
        assert_eq!(root.grade_with(&results(&all)).root().score, 72.0);
        let some = [
            ("a1", Verdict::Ac),
            ("a2", Verdict::Wa),
            ("b1", Verdict::Ac),
            ("b2", Verdict::Tle),
            ("c1", Verdict::Ac),
        ];
        let g = root.grade_with(&results(&some));
        let score = |p: &str| g.groups.iter().find(|r| r.path == p).unwrap().score;
        // 10 of group 1's 15; nothing of group 2 (b1's 20 lost with b2); group 3 needs both.
        assert_eq!((score("1"), score("2"), score("3")), (10.0, 0.0, 0.0));
        assert_eq!(g.root().verdict, Verdict::Wa);
        // And group 3 does not run once a group it needs failed.
        let known = |c: &str| some.iter().find(|(n, _)| *n == c).map(|(_, v)| *v);
        assert_eq!(root.runs(&known), ["a1", "a2", "b1", "b2"]);
        let known = |c: &str| all.iter().find(|(n, _)| *n == c).map(|(_, v)| *v);
        assert_eq!(root.runs(&known), ["a1", "a2", "b1", "b2", "c1"]);
    }

    /// Answers for a package's graders, and what each was given.
    struct Scripted {
        answer: Result<(Verdict, f64), GraderError>,
        given: Vec<Vec<(Verdict, f64)>>,
    }

    impl Graders for Scripted {
        fn grade(
            &mut self,
            _: &CustomGrader,
            children: &[(Verdict, f64)],
        ) -> Option<std::result::Result<(Verdict, f64), GraderError>> {
            self.given.push(children.to_vec());
            Some(self.answer.clone())
        }
    }

    #[test]
    fn a_group_with_its_own_grader_is_graded_by_it() {
        let secret = Group {
            custom: Some(CustomGrader {
                programs: vec!["graders/half.py".into()],
                args: vec!["10".into()],
            }),
            ..group("secret", OnReject::Continue, "", cases(&["1", "2"]))
        };
        let root = group("", OnReject::Continue, "", vec![Item::Group(secret)]);
        let verdicts = [("1", Verdict::Ac), ("2", Verdict::Wa)];
        let mut graders = Scripted {
            answer: Ok((Verdict::Ac, 10.0)),
            given: Vec::new(),
        };
        let g = root.grade_by(&results(&verdicts), &mut graders);
        assert_eq!(graders.given, [[(Verdict::Ac, 1.0), (Verdict::Wa, 0.0)]]);
        assert_eq!((g.root().verdict, g.root().score), (Verdict::Ac, 10.0));
        // Where no grader runs, the default grader grades.
        assert_eq!(
            root.grade_with(&results(&verdicts)).root().verdict,
            Verdict::Wa
        );
        // A grader that fails: the group is IE, with why.
        let mut failing = Scripted {
            answer: Err(GraderError::Failed {
                grader: "graders/half.py".into(),
                why: "it wrote nothing".into(),
            }),
            given: Vec::new(),
        };
        let g = root.grade_by(&results(&verdicts), &mut failing);
        assert_eq!(g.groups[0].verdict, Verdict::Ie);
        assert_eq!(
            g.groups[0].error.as_deref(),
            Some("the grader graders/half.py failed: it wrote nothing")
        );
        assert!(root.has_custom());
    }

    #[test]
    fn grader_flags_read_as_the_default_grader_reads_them() {
        let f = GraderFlags::parse("first_error min ignore_sample something_else");
        assert_eq!(f.verdict, VerdictRule::FirstError);
        assert_eq!(f.score, ScoreRule::Min);
        assert!(f.ignore_sample && !f.accept_if_any_accepted);
        assert_eq!(GraderFlags::parse(""), GraderFlags::default());
    }
}
