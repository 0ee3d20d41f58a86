//! A worker's judging, one job at a time on one of its slots: the bundle opened as a workspace,
//! the solution built (cached by the same key as a local build), then each case of the job
//! judged as a local run judges it, and re-run alone when its time could decide its verdict.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, RwLock};

use judge_core::compile::Program;
use judge_core::model::{CompileReport, Rerun};
use judge_core::session::{needs_rerun, Judge, Options, Settings};
use judge_core::verdict::Limits;
use judge_core::workspace::{Problem, Solution, TestCase, Workspace};

use crate::bundle;
use crate::calibrate::TimeRule;
use crate::wire::{Job, JobCase, Judged, WireCase, WorkerInfo};

/// A bundle opened: its problem and cases read once (a bundle never changes: it is named by
/// the hash of its files), and the judge of its runs.
struct Kept {
    problem: Problem,
    cases: Arc<HashMap<String, TestCase>>,
    judge: Judge,
}

/// A job made ready to judge its cases.
enum Prepared {
    Ready(Box<Ready>),
    /// The solution did not compile: said once, for the job.
    NotCompiled(Judged),
    /// This machine lacks what the job needs (a compiler): why.
    Lacking(judge_core::Error),
}

/// Why a job's cases were not judged here: told as each case's failure, after the worker's
/// name.
#[derive(Debug, thiserror::Error)]
enum JobError {
    /// The bundle could not be opened as a workspace.
    #[error(transparent)]
    Bundle(#[from] crate::error::Error),
    /// Its problem, its cases or its judge could not be had, or a case could not be judged.
    #[error(transparent)]
    Core(#[from] judge_core::Error),
    /// A case the job names that its bundle lacks.
    #[error("problem {problem} has no case `{case}`")]
    NoCase { problem: String, case: String },
}

/// What every case of a job is judged with.
struct Ready {
    problem: Problem,
    cases: Arc<HashMap<String, TestCase>>,
    solution: Solution,
    program: Program,
    options: Options,
    limits: Limits,
    compile: CompileReport,
    sandbox: judge_runner::Sandbox,
    time_scale: Option<f64>,
}

/// Makes the judge of a bundle's workspace: `Judge::new`, with this machine's runners; a
/// test's judges play a script instead (`judge_core::fixtures::scripted`).
type JudgeOf = Box<dyn Fn(Workspace, Settings) -> judge_core::Result<Judge> + Send + Sync>;

/// The judges of one slot, one per bundle (each with its own runner), kept while the slot lives.
pub(super) struct Slot {
    judges: HashMap<String, Kept>,
    judge_of: JudgeOf,
    state: PathBuf,
    settings: Settings,
    /// The `rustc` setting, given to every bundle's workspace.
    rustc: Option<PathBuf>,
    /// Held shared while a case runs, alone to re-run one: nothing else runs on this machine
    /// then.
    alone: Arc<RwLock<()>>,
    /// Cases run at once on this machine.
    jobs: usize,
}

/// The most bundles a slot keeps a judge for.
const KEPT: usize = 8;

impl Slot {
    pub(super) fn new(
        state: &Path,
        settings: Settings,
        rustc: Option<PathBuf>,
        alone: Arc<RwLock<()>>,
        jobs: usize,
    ) -> Slot {
        Slot {
            judges: HashMap::new(),
            judge_of: Box::new(Judge::new),
            state: state.to_path_buf(),
            settings,
            rustc,
            alone,
            jobs,
        }
    }

    /// Judges the cases of `job`, whose bundle is at `dir`, on this machine (`worker`), one
    /// after another, telling each case's result as soon as it has one. A solution that does
    /// not compile is told once, for the first case. When this machine lacks what the job needs
    /// (a compiler), nothing is told and the reason is returned, for another machine to try;
    /// on the job's `last` delivery that is told once, for the first case, instead.
    pub(super) fn judge(
        &mut self,
        job: &Job,
        dir: &Path,
        worker: &WorkerInfo,
        last: bool,
        tell: &mut dyn FnMut(&JobCase, Judged),
    ) -> Option<judge_core::Error> {
        let failed = |reason: JobError| Judged::Failed {
            reason: format!("worker {}: {reason}", worker.name),
        };
        let mut ready = match self.prepare(job, dir, worker) {
            Ok(Prepared::Ready(ready)) => ready,
            Ok(Prepared::NotCompiled(judged)) => {
                tell(&job.cases[0], judged);
                return None;
            }
            Ok(Prepared::Lacking(reason)) if !last => return Some(reason),
            // Said once, for the job: the submitting side ends the run with it.
            Ok(Prepared::Lacking(reason)) => {
                let reason = format!("worker {}: {reason}", worker.name);
                tell(&job.cases[0], Judged::Lacking { reason });
                return None;
            }
            Err(reason) => {
                let reason = format!("worker {}: {reason}", worker.name);
                for case in &job.cases {
                    let reason = reason.clone();
                    tell(case, Judged::Failed { reason });
                }
                return None;
            }
        };
        for case in &job.cases {
            let judged = self.judge_case(&mut ready, job, case);
            tell(case, judged.unwrap_or_else(failed));
        }
        None
    }

    /// The job's problem, cases and solution, built.
    fn prepare(
        &mut self,
        job: &Job,
        dir: &Path,
        worker: &WorkerInfo,
    ) -> Result<Prepared, JobError> {
        if !self.judges.contains_key(&job.bundle) {
            if self.judges.len() >= KEPT {
                self.judges.clear();
            }
            let (ws, id) = bundle::open(dir, &job.problem, &self.state)?;
            let ws = ws.with_rustc(self.rustc.clone());
            let problem = ws.problem(&id)?;
            // Listed once for the bundle: a problem may have thousands.
            let cases = ws
                .testcases(&problem)?
                .into_iter()
                .map(|c| (c.name.clone(), c))
                .collect();
            let judge = (self.judge_of)(ws, self.settings)?;
            let kept = Kept {
                problem,
                cases: Arc::new(cases),
                judge,
            };
            self.judges.insert(job.bundle.clone(), kept);
        }
        let kept = self.judges.get_mut(&job.bundle).expect("made above");
        let (mut problem, cases, judge) =
            (kept.problem.clone(), kept.cases.clone(), &mut kept.judge);
        let mut options = job.options.options();
        let rule = TimeRule::between(worker.calibration_us, job.calibration_us);
        if let TimeRule::Scaled(factor) = rule {
            options.time_limit = Some(options.limits(&problem).time.mul_f64(factor));
        }
        let path = bundle::solution_path(dir, &job.solution);
        if let Some(entry) = &job.entry {
            problem
                .terms
                .entrypoints
                .insert(path.clone(), entry.clone());
        }
        let solution = Solution {
            name: path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_default(),
            problem: problem.id.clone(),
            path: path.clone(),
        };
        let (compile, program) = match judge.build(&path, &problem, &options, false) {
            Ok(built) => built,
            Err(e) if e.is_this_machines() => return Ok(Prepared::Lacking(e)),
            Err(e) => return Err(e.into()),
        };
        let sandbox = judge.sandbox();
        let Some(program) = program else {
            return Ok(Prepared::NotCompiled(Judged::Case {
                compile: Box::new(compile),
                sandbox,
                case: None,
                time_scale: rule.factor(),
            }));
        };
        let (limits, _) = options.limits_for(&problem, &program.language.id);
        Ok(Prepared::Ready(Box::new(Ready {
            problem,
            cases,
            solution,
            program,
            options,
            limits,
            compile,
            sandbox,
            time_scale: rule.factor(),
        })))
    }

    /// Judges one case of a prepared job, and again alone when its time could decide its
    /// verdict.
    fn judge_case(
        &mut self,
        ready: &mut Ready,
        job: &Job,
        case: &JobCase,
    ) -> Result<Judged, JobError> {
        let judge = &mut self.judges.get_mut(&job.bundle).expect("prepared").judge;
        let Ready {
            problem,
            cases,
            solution,
            program,
            options,
            limits,
            ..
        } = ready;
        let test = cases.get(&case.name).ok_or_else(|| JobError::NoCase {
            problem: problem.id.clone(),
            case: case.name.clone(),
        })?;
        let shared = self.alone.read().unwrap_or_else(|e| e.into_inner());
        let mut report = judge.judge_case(problem, solution, program, test, limits, options)?;
        drop(shared);
        if self.jobs > 1 && needs_rerun(&report, limits) {
            // Measured beside the machine's other cases: judged again with nothing else running.
            let before = Rerun {
                verdict: report.verdict,
                cpu: report.cpu,
            };
            let _alone = self.alone.write().unwrap_or_else(|e| e.into_inner());
            report = judge.judge_case(problem, solution, program, test, limits, options)?;
            report.rerun = Some(before);
        } else if self.jobs > 1 {
            report.parallel = true;
        }
        Ok(Judged::Case {
            compile: Box::new(ready.compile.clone()),
            sandbox: ready.sandbox.clone(),
            case: Some(Box::new(WireCase::of(report))),
            time_scale: ready.time_scale,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::wire::{JobOptions, ProblemRef};
    use judge_core::fixtures::scripted::{self, Reply, Script};
    use judge_core::verdict::Verdict;

    /// A worker's slot judges a job's cases one after another, each told as it is judged, with
    /// the scripted executor in place of its runners: case 2's answer is wrong.
    #[test]
    fn a_slot_judges_each_case_of_a_job_and_tells_it() {
        let bundle = tempfile::tempdir().unwrap();
        let root = bundle.path();
        scripted::sources(root, &["doubles"]);
        let write = |rel: &str, text: &str| {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write(
            "problems/p/problem.toml",
            "title = \"P\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\n",
        );
        for n in 1..=3 {
            write(&format!("testcases/p/{n}.in"), &format!("{n}\n"));
            write(&format!("testcases/p/{n}.out"), &format!("{}\n", 2 * n));
        }
        let script = Script::new().program("doubles", |c| {
            let n: u64 = c.input().trim().parse().unwrap();
            Reply::prints(if n == 2 { 5 } else { 2 * n }.to_string()).cpu_ms(20)
        });
        let state = tempfile::tempdir().unwrap();
        let played = script.clone();
        let mut slot = Slot::new(state.path(), Settings::default(), None, Arc::default(), 1);
        slot.judge_of =
            Box::new(move |ws, settings| Judge::with_executors(ws, played.factory(), settings));
        let job = Job {
            protocol: crate::wire::PROTOCOL,
            submission: "s1".into(),
            cases: (1..=3)
                .map(|n| JobCase {
                    name: n.to_string(),
                    index: n - 1,
                })
                .collect(),
            bundle: "b".into(),
            problem: ProblemRef::Workspace { id: "p".into() },
            solution: "doubles.play".into(),
            entry: None,
            options: JobOptions {
                compile_time_limit_us: 10_000_000,
                ..JobOptions::default()
            },
            calibration_us: 1000,
        };
        let worker = WorkerInfo {
            protocol: crate::wire::PROTOCOL,
            name: "w".into(),
            host: "h".into(),
            cpu: "c".into(),
            calibration_us: 1000,
            jobs: 1,
            sandbox: judge_runner::Sandbox::default(),
        };
        let mut told = Vec::new();
        let lacking = slot.judge(&job, root, &worker, false, &mut |case, judged| {
            told.push((case.name.clone(), judged));
        });
        assert!(lacking.is_none(), "{lacking:?}");
        let verdicts: Vec<(String, Verdict)> = told
            .iter()
            .map(|(name, judged)| match judged {
                Judged::Case {
                    case: Some(case),
                    time_scale: None,
                    ..
                } => (name.clone(), case.report.verdict),
                other => panic!("case {name}: {other:?}"),
            })
            .collect();
        let expected = [("1", Verdict::Ac), ("2", Verdict::Wa), ("3", Verdict::Ac)];
        let expected: Vec<(String, Verdict)> =
            expected.iter().map(|(n, v)| (n.to_string(), *v)).collect();
        assert_eq!(verdicts, expected);
        assert_eq!(script.log(), ["doubles", "doubles", "doubles"]);

        // A case the bundle lacks fails alone, said with the worker's name.
        let mut lacks = job.clone();
        lacks.cases = vec![
            JobCase {
                name: "9".into(),
                index: 0,
            },
            JobCase {
                name: "1".into(),
                index: 1,
            },
        ];
        let mut told = Vec::new();
        slot.judge(&lacks, root, &worker, false, &mut |case, judged| {
            told.push((case.name.clone(), judged));
        });
        match &told[..] {
            [(nine, Judged::Failed { reason }), (one, Judged::Case { .. })] => {
                assert_eq!((nine.as_str(), one.as_str()), ("9", "1"));
                assert_eq!(reason, "worker w: problem p has no case `9`");
            }
            other => panic!("{other:?}"),
        }
        // A bundle that does not open fails every case of its job, with the core's message.
        let empty = tempfile::tempdir().unwrap();
        let mut elsewhere = job.clone();
        elsewhere.bundle = "other".into();
        let mut told = Vec::new();
        slot.judge(
            &elsewhere,
            empty.path(),
            &worker,
            false,
            &mut |_, judged| {
                told.push(judged);
            },
        );
        assert_eq!(told.len(), 3);
        for judged in &told {
            let Judged::Failed { reason } = judged else {
                panic!("{judged:?}")
            };
            assert_eq!(
                reason,
                "worker w: unknown problem `p`; known problems: (none)"
            );
        }
    }
}
