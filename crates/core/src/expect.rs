//! A submission's expectations as the problem package format states them (2025-09's
//! `submissions.yaml` and its default folders): on a part of the test data (a group, or a glob
//! of case names), the verdicts permitted on every case, one required on some case, a score, a
//! judge message; each checked against a run, and each a bound on the time limit or not.
//!
//! The format knows four verdicts. The judge's finer ones map onto them as the format's own
//! tools map them: a memory-limit or output-limit kill is a run-time error (problemtools runs
//! submissions under `RLIMIT_AS` and `RLIMIT_FSIZE`, whose kills it reports as RTE).

use std::collections::BTreeSet;
use std::fmt;
use std::time::Duration;

use serde::{Serialize, Serializer};

use crate::grading::Graded;
use crate::model::SolutionReport;
use crate::verdict::Verdict;

/// The format's four verdicts of a test case.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum SpecVerdict {
    Ac,
    Wa,
    Tle,
    Rte,
}

impl SpecVerdict {
    /// The judge's verdict as the format's: None for a compilation error or the judge's own
    /// error, which the format's verdicts do not cover.
    pub fn of(v: Verdict) -> Option<SpecVerdict> {
        Some(match v {
            Verdict::Ac => SpecVerdict::Ac,
            Verdict::Wa => SpecVerdict::Wa,
            Verdict::Tle => SpecVerdict::Tle,
            Verdict::Re | Verdict::Mle | Verdict::Ole => SpecVerdict::Rte,
            Verdict::Ce | Verdict::Ie => return None,
        })
    }

    pub fn parse(s: &str) -> Option<SpecVerdict> {
        Some(match s.trim() {
            "AC" => SpecVerdict::Ac,
            "WA" => SpecVerdict::Wa,
            "TLE" => SpecVerdict::Tle,
            "RTE" => SpecVerdict::Rte,
            _ => return None,
        })
    }

    pub fn code(self) -> &'static str {
        match self {
            SpecVerdict::Ac => "AC",
            SpecVerdict::Wa => "WA",
            SpecVerdict::Tle => "TLE",
            SpecVerdict::Rte => "RTE",
        }
    }
}

impl fmt::Display for SpecVerdict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl Serialize for SpecVerdict {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.code())
    }
}

/// Whether a rule bounds the time limit (`use_for_time_limit`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum TimeUse {
    /// As its verdicts say: a rule that permits no TLE bounds the limit from below, one that
    /// requires exactly TLE from above.
    #[default]
    Inferred,
    /// `false`: never.
    Off,
    /// `lower`: as `permitted: [AC, WA, RTE]` would.
    Lower,
    /// `upper`: as `required: [TLE]` would.
    Upper,
}

/// One expectation on one submission.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Rule {
    /// Where it was stated, as the verify table names it: `submissions.yaml: wrong_answer`,
    /// `folder wrong_answer/`, `@EXPECTED_RESULTS@`.
    pub source: String,
    /// The part of the test data it is about: a glob over the names of groups and cases
    /// under `data/` (a case is matched when it or a group holding it is); `None`: all.
    pub cases: Option<String>,
    pub permitted: Option<BTreeSet<SpecVerdict>>,
    pub required: Option<BTreeSet<SpecVerdict>>,
    /// The score (of the submission, or of the group `cases` names), inclusive.
    pub score: Option<(f64, f64)>,
    /// Must appear in the judge message of at least one case.
    pub message: Option<String>,
    pub time_use: TimeUse,
}

impl Rule {
    /// A rule with verdict sets only, from `source`, on every case.
    pub fn verdicts(
        source: &str,
        permitted: Option<&[SpecVerdict]>,
        required: Option<&[SpecVerdict]>,
    ) -> Rule {
        Rule {
            source: source.to_string(),
            cases: None,
            permitted: permitted.map(|p| p.iter().copied().collect()),
            required: required.map(|r| r.iter().copied().collect()),
            score: None,
            message: None,
            time_use: TimeUse::Inferred,
        }
    }

    /// The rule bounds the limit from below: its cases may not time out.
    pub fn lower_bound(&self) -> bool {
        match self.time_use {
            TimeUse::Off | TimeUse::Upper => false,
            TimeUse::Lower => true,
            TimeUse::Inferred => self
                .permitted
                .as_ref()
                .is_some_and(|p| !p.contains(&SpecVerdict::Tle)),
        }
    }

    /// The rule bounds the limit from above: one of its cases must time out.
    pub fn upper_bound(&self) -> bool {
        match self.time_use {
            TimeUse::Off | TimeUse::Lower => false,
            TimeUse::Upper => true,
            TimeUse::Inferred => self
                .required
                .as_ref()
                .is_some_and(|r| r.len() == 1 && r.contains(&SpecVerdict::Tle)),
        }
    }

    /// Whether the rule is about the case `name` (a path under `data/`, no extension).
    pub fn covers(&self, name: &str) -> bool {
        self.cases.as_deref().is_none_or(|p| path_glob(p, name))
    }

    /// What the rule asks, in a few words: `permitted AC WA, required WA`.
    pub fn summary(&self) -> String {
        let set =
            |s: &BTreeSet<SpecVerdict>| s.iter().map(|v| v.code()).collect::<Vec<_>>().join(" ");
        let mut parts = Vec::new();
        if let Some(c) = &self.cases {
            parts.push(format!("on {c}:"));
        }
        if let Some(p) = &self.permitted {
            parts.push(format!("permitted {}", set(p)));
        }
        if let Some(r) = &self.required {
            parts.push(format!("required {}", set(r)));
        }
        if let Some((lo, hi)) = self.score {
            parts.push(if lo == hi {
                format!("score {lo}")
            } else {
                format!("score {lo}..{hi}")
            });
        }
        if let Some(m) = &self.message {
            parts.push(format!("message \"{m}\""));
        }
        match self.time_use {
            TimeUse::Off => parts.push("not for the time limit".into()),
            TimeUse::Lower => parts.push("lower bound of the time limit".into()),
            TimeUse::Upper => parts.push("upper bound of the time limit".into()),
            TimeUse::Inferred => {}
        }
        parts.join(", ").replace(":,", ":")
    }
}

/// Whether the path glob `pattern` matches `name` or a folder holding it: `*` matches within
/// one name (never a `/`), `{a,b}` either; both are split on `/` and compared name by name.
pub fn path_glob(pattern: &str, name: &str) -> bool {
    let parts: Vec<&str> = name.split('/').collect();
    expand_braces(pattern).iter().any(|p| {
        let pat: Vec<&str> = p.trim_end_matches('/').split('/').collect();
        pat.len() <= parts.len()
            && pat
                .iter()
                .zip(&parts)
                .all(|(p, n)| crate::text::glob_match(p, n))
    })
}

/// `{a,b}c` as `ac` and `bc` (nested braces too); a pattern without braces as itself.
pub fn expand_braces(pattern: &str) -> Vec<String> {
    let Some(open) = pattern.find('{') else {
        return vec![pattern.to_string()];
    };
    // The matching close brace, and the commas at depth one between.
    let mut depth = 0;
    let mut commas = Vec::new();
    let mut close = None;
    for (i, c) in pattern.char_indices().skip_while(|(i, _)| *i < open) {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    close = Some(i);
                    break;
                }
            }
            ',' if depth == 1 => commas.push(i),
            _ => {}
        }
    }
    let Some(close) = close else {
        return vec![pattern.to_string()];
    };
    let (head, tail) = (&pattern[..open], &pattern[close + 1..]);
    let mut bounds = vec![open];
    bounds.extend(&commas);
    bounds.push(close);
    let mut out = Vec::new();
    for w in bounds.windows(2) {
        let alt = &pattern[w[0] + 1..w[1]];
        for rest in expand_braces(&format!("{alt}{tail}")) {
            out.push(format!("{head}{rest}"));
        }
    }
    out
}

/// A rule a run broke, and where.
#[derive(Debug, Clone, PartialEq, Serialize, schemars::JsonSchema)]
pub struct Broken {
    /// Where the rule was stated.
    pub source: String,
    /// What it asks.
    pub rule: String,
    /// Where it broke: `case secret/3 got TLE, not permitted`.
    pub why: String,
}

/// A run, as the rules read it: each case's verdict at the time limit and its judge message.
pub struct Run<'a> {
    pub report: &'a SolutionReport,
    /// Each case's verdict at the limit (in the order of `report.cases`).
    pub verdicts: &'a [Verdict],
    /// The groups graded at the limit, for a score.
    pub graded: Option<&'a Graded>,
}

/// The rules `rules` that the run breaks, each with where.
pub fn check(rules: &[Rule], run: &Run<'_>) -> Vec<Broken> {
    rules
        .iter()
        .filter_map(|rule| {
            broken(rule, run).map(|why| Broken {
                source: rule.source.clone(),
                rule: rule.summary(),
                why,
            })
        })
        .collect()
}

fn broken(rule: &Rule, run: &Run<'_>) -> Option<String> {
    let report = run.report;
    if report.verdict == Verdict::Ce {
        return Some("it does not compile".into());
    }
    let covered: Vec<(usize, &str)> = report
        .cases
        .iter()
        .enumerate()
        .filter(|(_, c)| rule.covers(&c.name))
        .map(|(i, c)| (i, c.name.as_str()))
        .collect();
    // The format's `required` defaults to every verdict, so a rule about a part of the test
    // data needs a case there, as BAPCtools holds it; said only when every case ran.
    let all_ran = report.cases.len() >= report.total;
    if let Some(pattern) = rule
        .cases
        .as_ref()
        .filter(|_| covered.is_empty() && all_ran)
    {
        return Some(covers_nothing(pattern));
    }
    if let Some(permitted) = &rule.permitted {
        for &(i, name) in &covered {
            let v = run.verdicts[i];
            match SpecVerdict::of(v) {
                Some(s) if permitted.contains(&s) => {}
                Some(s) => {
                    let shown = if s.code() == v.code() {
                        v.to_string()
                    } else {
                        format!("{v} ({s} to the format)")
                    };
                    return Some(format!("case {name} got {shown}, not permitted"));
                }
                None => return Some(format!("case {name}: {v}, which no rule can expect")),
            }
        }
    }
    if let Some(required) = &rule.required {
        let met = covered
            .iter()
            .any(|&(i, _)| SpecVerdict::of(run.verdicts[i]).is_some_and(|s| required.contains(&s)));
        if !met {
            let codes: Vec<&str> = required.iter().map(|v| v.code()).collect();
            return Some(if covered.is_empty() {
                format!(
                    "no case it covers ran, and one must get {}",
                    codes.join(" or ")
                )
            } else {
                format!(
                    "none of its {} cases got {}",
                    covered.len(),
                    codes.join(" or ")
                )
            });
        }
    }
    if let Some((lo, hi)) = rule.score {
        let score = match (&rule.cases, run.graded) {
            (_, None) => None,
            (None, Some(g)) => Some(g.root().score),
            (Some(pattern), Some(g)) => g
                .groups
                .iter()
                .find(|r| !r.path.is_empty() && path_glob(pattern, &r.path))
                .map(|r| r.score),
        };
        match score {
            Some(s) if s >= lo - 1e-9 && s <= hi + 1e-9 => {}
            Some(s) => return Some(format!("score {s}, outside {lo}..{hi}")),
            None => {
                return Some("no score (the problem gives none, or the group did not run)".into())
            }
        }
    }
    if let Some(m) = &rule.message {
        let found = covered.iter().any(|&(i, _)| {
            report.cases[i]
                .judge_message
                .as_deref()
                .is_some_and(|t| t.contains(m.as_str()))
        });
        if !found {
            return Some(format!("no judgemessage.txt of its cases says \"{m}\""));
        }
    }
    None
}

/// Why a rule whose glob matches no case is broken, with the likely cause when its braces
/// hold a space: every character inside them is part of the name, as BAPCtools matches them.
fn covers_nothing(pattern: &str) -> String {
    let spaced = expand_braces(pattern).iter().any(|p| p.contains(' '));
    format!(
        "`{pattern}` matches no group or case of the test data{}",
        if spaced {
            " (inside braces a space is part of the name: `{ 4 }` is not `{4}`)"
        } else {
            ""
        }
    )
}

/// The slowest case a rule covers in a run: its time and name.
pub fn slowest(rule: &Rule, report: &SolutionReport) -> Option<(Duration, String)> {
    report
        .cases
        .iter()
        .filter(|c| rule.covers(&c.name))
        .max_by_key(|c| c.cpu)
        .map(|c| (c.cpu, c.name.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{self, case};

    fn run_of(cases: Vec<crate::model::CaseReport>) -> SolutionReport {
        fixtures::report("s", cases)
    }

    #[test]
    fn the_finer_verdicts_are_run_time_errors_to_the_format() {
        assert_eq!(SpecVerdict::of(Verdict::Mle), Some(SpecVerdict::Rte));
        assert_eq!(SpecVerdict::of(Verdict::Ole), Some(SpecVerdict::Rte));
        assert_eq!(SpecVerdict::of(Verdict::Re), Some(SpecVerdict::Rte));
        assert_eq!(SpecVerdict::of(Verdict::Ce), None);
    }

    #[test]
    fn globs_match_a_case_or_a_group_holding_it_name_by_name() {
        assert!(path_glob("secret", "secret/g1/03"));
        assert!(path_glob("secret/*-easy", "secret/02-easy"));
        assert!(!path_glob("secret/*-easy", "secret/02-hard"));
        assert!(path_glob("*", "secret"));
        assert!(path_glob("secret/{a,b}", "secret/b/1"));
        assert!(!path_glob("sec*/1", "secret/g/1"));
        assert_eq!(expand_braces("x{a,b{c,d}}y"), ["xay", "xbcy", "xbdy"]);
    }

    #[test]
    fn permitted_required_and_where_each_broke() {
        let wa = Rule::verdicts(
            "folder wrong_answer/",
            Some(&[SpecVerdict::Ac, SpecVerdict::Wa]),
            Some(&[SpecVerdict::Wa]),
        );
        let r = run_of(vec![
            case("sample/1", Verdict::Ac, 1),
            case("secret/1", Verdict::Mle, 1),
        ]);
        let verdicts: Vec<Verdict> = r.cases.iter().map(|c| c.verdict).collect();
        let run = Run {
            report: &r,
            verdicts: &verdicts,
            graded: None,
        };
        let b = check(std::slice::from_ref(&wa), &run);
        assert_eq!(
            b[0].why,
            "case secret/1 got MLE (RTE to the format), not permitted"
        );
        let mut only_samples = wa.clone();
        only_samples.cases = Some("sample".into());
        let b = check(&[only_samples], &run);
        assert_eq!(b[0].why, "none of its 1 cases got WA");
        // A glob that matches no case (every case ran): spaces in braces are in the names.
        let mut spaced = wa.clone();
        spaced.cases = Some("secret/*{ 1 }".into());
        let b = check(std::slice::from_ref(&spaced), &run);
        assert!(
            b[0].why
                .contains("`secret/*{ 1 }` matches no group or case")
                && b[0].why.contains("`{ 4 }` is not `{4}`"),
            "{}",
            b[0].why
        );
        spaced.cases = Some("secret/{1,9}".into());
        spaced.permitted = None;
        spaced.required = None;
        assert!(check(&[spaced], &run).is_empty());
        assert!(wa.lower_bound() && !wa.upper_bound());
        let tle = Rule::verdicts(
            "t",
            Some(&[SpecVerdict::Ac, SpecVerdict::Tle]),
            Some(&[SpecVerdict::Tle]),
        );
        assert!(tle.upper_bound() && !tle.lower_bound());
    }
}
