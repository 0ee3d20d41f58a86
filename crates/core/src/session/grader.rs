//! A package's own graders (`grading: custom`, the legacy format's `graders/`), run as
//! problemtools runs them: a group's children's results on stdin, a `VERDICT SCORE` line each,
//! the group's `grader_flags` as arguments, and the group's result read from stdout.

use std::collections::HashMap;
use std::fmt::Write;
use std::path::PathBuf;
use std::time::Duration;

use super::slot::{Role, Slot};
use super::{Env, Judge};
use crate::expect::SpecVerdict;
use crate::grading::{CaseResult, CustomGrader, GraderError, Graders};
use crate::model::SolutionReport;
use crate::text;
use crate::verdict::{describe_stop, Limits, Measurement, Verdict};
use crate::workspace::{FileIo, Problem, DEFAULT_CHECKER_MEMORY, DEFAULT_CHECKER_TIME};
use judge_runner::{self as run, Outcome};

/// The most a grader may write.
const GRADER_OUTPUT: u64 = 1 << 20;

/// A grader's programs, its arguments and its input: what its result depends on.
type Call = (Vec<PathBuf>, Vec<String>, String);

impl Judge {
    /// Grades `report` again where `problem`'s groups have graders of their own: the run's own
    /// grading (its groups and verdict), and its grading at each of `limits` (a verify's limit
    /// and margin, the language's extra time applied), kept in `report.graded_at`.
    pub fn grade_by_package(
        &mut self,
        problem: &Problem,
        report: &mut SolutionReport,
        limits: &[Duration],
    ) {
        let Some(group) = problem.grading.as_deref().filter(|g| g.has_custom()) else {
            return;
        };
        if report.verdict == Verdict::Ce {
            return;
        }
        let (env, slots) = self.parts();
        let mut graders = Programs {
            env,
            slot: &mut slots[0],
            problem,
            memo: HashMap::new(),
        };
        let as_run = group.grade_by(
            &|name| {
                let c = report.cases.iter().find(|c| c.name == name)?;
                Some(CaseResult {
                    verdict: c.verdict,
                    score: c.score,
                })
            },
            &mut graders,
        );
        report.verdict = as_run.root().verdict;
        report.groups = Some(as_run);
        report.graded_at.clear();
        for &limit in limits {
            let limit = report.time_rule.map_or(limit, |a| a.rule.apply(limit));
            let verdicts = report.case_verdicts_at(limit);
            let graded = group.grade_by(
                &|name| {
                    let i = report.cases.iter().position(|c| c.name == name)?;
                    Some(CaseResult {
                        verdict: verdicts[i],
                        score: report.cases[i].score.filter(|_| verdicts[i] == Verdict::Ac),
                    })
                },
                &mut graders,
            );
            report.graded_at.push((limit, graded));
        }
    }
}

/// The graders of one problem, built once and run on slot 0; a grader's answer to the same
/// input is taken once.
struct Programs<'a> {
    env: Env<'a>,
    slot: &'a mut Slot,
    problem: &'a Problem,
    memo: HashMap<Call, Result<(Verdict, f64), GraderError>>,
}

impl Graders for Programs<'_> {
    fn grade(
        &mut self,
        grader: &CustomGrader,
        children: &[(Verdict, f64)],
    ) -> Option<Result<(Verdict, f64), GraderError>> {
        let mut input = String::new();
        for (verdict, score) in children {
            let code = SpecVerdict::of(*verdict).map_or("JE", SpecVerdict::code);
            let _ = writeln!(input, "{code} {score}");
        }
        let key = (grader.programs.clone(), grader.args.clone(), input);
        if let Some(done) = self.memo.get(&key) {
            return Some(done.clone());
        }
        if grader.programs.is_empty() {
            return Some(Err(GraderError::NoGrader));
        }
        // Each grader runs; the last one's result is the group's, as in problemtools.
        let mut result = Err(GraderError::NoGrader);
        for program in &grader.programs {
            result = self.run(program, &grader.args, &key.2);
            if result.is_err() {
                break;
            }
        }
        self.memo.insert(key, result.clone());
        Some(result)
    }
}

impl Programs<'_> {
    /// Builds the grader `source` (or takes it from the cache) and runs it on `input`.
    fn run(
        &mut self,
        source: &std::path::Path,
        args: &[String],
        input: &str,
    ) -> Result<(Verdict, f64), GraderError> {
        let shown = self.env.workspace.show(source);
        let failed = |why: String| GraderError::Failed {
            grader: shown.clone(),
            why,
        };
        let (compiled, built) = self
            .env
            .build_helper(self.slot.executor.as_mut(), source, self.problem)
            .map_err(|e| failed(e.to_string()))?;
        let Some(grader) = built else {
            return Err(GraderError::DoesNotCompile {
                grader: shown.clone(),
                excerpt: text::diagnostics_excerpt(compiled.diagnostics.as_deref().unwrap_or("")),
            });
        };
        let stdin = self.slot.dir.join("grader.in");
        std::fs::write(&stdin, input)
            .map_err(|e| failed(format!("cannot write its input: {e}")))?;
        let limits = Limits::new(DEFAULT_CHECKER_TIME, DEFAULT_CHECKER_MEMORY, GRADER_OUTPUT);
        let role = Role {
            prefix: "grader.",
            access: run::Access {
                read: vec![stdin.clone()],
                write: Vec::new(),
            },
            folder: None,
        };
        let execution = self
            .slot
            .execute_as(
                &role,
                &grader,
                args,
                Some(&stdin),
                &limits,
                &FileIo::default(),
            )
            .map_err(|e| failed(e.to_string()))?;
        if let Some(why) = describe_stop(&Measurement::of(&execution.response), &limits) {
            return Err(failed(why));
        }
        match execution.response.outcome {
            Outcome::Exited(0) => {}
            Outcome::Exited(code) => return Err(failed(format!("exit code {code}"))),
            _ => unreachable!("describe_stop names every signal and spawn failure"),
        }
        let output = std::fs::read_to_string(&execution.stdout).unwrap_or_default();
        parse(&output).ok_or_else(|| {
            let wrote = match output.trim() {
                "" => "nothing".to_string(),
                o => format!("`{o}`"),
            };
            failed(format!(
                "it wrote {wrote}, not a line `VERDICT SCORE` (AC, WA, TLE, RTE or JE, then a number)"
            ))
        })
    }
}

/// A grader's result, as problemtools reads it: a verdict code and a number, alone.
fn parse(output: &str) -> Option<(Verdict, f64)> {
    let mut words = output.split_whitespace();
    let (code, score, None) = (words.next()?, words.next()?, words.next()) else {
        return None;
    };
    let verdict = match code {
        "AC" => Verdict::Ac,
        "WA" => Verdict::Wa,
        "TLE" => Verdict::Tle,
        "RTE" => Verdict::Re,
        "JE" => Verdict::Ie,
        _ => return None,
    };
    let score: f64 = score.parse().ok().filter(|s: &f64| s.is_finite())?;
    Some((verdict, score))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_result_is_a_verdict_and_a_number() {
        assert_eq!(parse("AC 20\n"), Some((Verdict::Ac, 20.0)));
        assert_eq!(parse("RTE -1.5"), Some((Verdict::Re, -1.5)));
        assert_eq!(parse(""), None);
        assert_eq!(parse("AC"), None);
        assert_eq!(parse("AC 1 2"), None);
        assert_eq!(parse("OK 1"), None);
    }
}
