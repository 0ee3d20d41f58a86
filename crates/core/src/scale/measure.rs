//! `judge scale`'s measuring loop: each solution at each size, a few runs each, stopped at the cap.

use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::{Serialize, Serializer};

use super::{fit, growth_per_unit, Fits, MEASURABLE_FLOOR_MS};
use crate::compile::Program;
use crate::error::Result;
use crate::session::{Judge, Options};
use crate::verdict::{Limits, Reason, Verdict};
use crate::workspace::{FileIo, Problem, Solution};

/// What one size of one solution came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PointStatus {
    /// Measured.
    Ok,
    /// Stopped at the cap.
    OverCap,
    /// Not run: a smaller size was over the cap or failed, or the solution did not compile.
    Skipped,
    /// A run failed (the answer is not checked): RE, MLE, OLE, or IE when it could not start.
    Failed(Verdict),
}

impl Serialize for PointStatus {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        match self {
            PointStatus::Ok => s.serialize_str("ok"),
            PointStatus::OverCap => s.serialize_str("over_cap"),
            PointStatus::Skipped => s.serialize_str("skipped"),
            PointStatus::Failed(v) => v.serialize(s),
        }
    }
}

impl schemars::JsonSchema for PointStatus {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "PointStatus".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        let mut all = vec!["ok", "over_cap", "skipped"];
        all.extend(Verdict::ALL.iter().map(|v| v.code()));
        schemars::json_schema!({
            "description": "Measured, stopped at the cap, not run, or the verdict of a run that failed.",
            "type": "string",
            "enum": all,
        })
    }
}

/// One size of one solution.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct Point {
    pub n: u64,
    pub status: PointStatus,
    /// The minimum (or median) CPU time of the runs, in ms; for `over_cap`, the cap.
    pub cpu_ms: Option<f64>,
    pub runs_ms: Vec<f64>,
    /// Growth per +1 n from the previous measured size, when both are above the measurable floor.
    pub growth: Option<f64>,
    pub detail: Option<String>,
}

impl Point {
    fn skipped(n: u64) -> Point {
        Point {
            n,
            status: PointStatus::Skipped,
            cpu_ms: None,
            runs_ms: Vec::new(),
            growth: None,
            detail: None,
        }
    }
}

/// Every size of one solution, and the models fitted to them.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct SolutionScale {
    pub solution: String,
    pub path: PathBuf,
    /// Compile errors leave every size `skipped`.
    pub compile_error: bool,
    pub points: Vec<Point>,
    pub fit: Fits,
}

impl SolutionScale {
    /// The size where the runs stopped: over the cap or failed.
    pub fn stop(&self) -> Option<&Point> {
        self.points
            .iter()
            .find(|p| !matches!(p.status, PointStatus::Ok | PointStatus::Skipped))
    }
}

/// Which figure stands for a size's runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Statistic {
    Min,
    Median,
}

impl std::fmt::Display for Statistic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Statistic::Min => "min",
            Statistic::Median => "median",
        })
    }
}

/// What `judge scale` measures and how.
#[derive(Debug, Clone)]
pub struct ScaleOptions {
    /// Each size with the file holding its input.
    pub inputs: Vec<(u64, PathBuf)>,
    /// How the inputs were made, as the report says it: the template, or `gen SEED n`.
    pub input_label: String,
    pub repeat: u32,
    pub statistic: Statistic,
    /// A size whose CPU time goes over this stops the solution.
    pub cap: Duration,
}

#[derive(Debug, Serialize, schemars::JsonSchema)]
pub struct ScaleReport {
    pub problem: String,
    pub input: String,
    pub sizes: Vec<u64>,
    pub repeat: u32,
    pub statistic: Statistic,
    pub cap_ms: f64,
    pub measurable_floor_ms: f64,
    pub solutions: Vec<SolutionScale>,
}

impl crate::schema::Document for ScaleReport {
    const SCHEMA: &'static str = "judge.scale/1";
}

impl ScaleReport {
    /// Whether the inputs came from the problem's generator.
    pub fn from_generator(&self) -> bool {
        self.input.starts_with("gen ")
    }
}

/// Hears about progress, to show it live.
pub trait ScaleObserver {
    fn compiling(&mut self, _solution: &str) {}
    fn running(&mut self, _solution: &str, _n: u64, _run: u32, _of: u32) {}
}

impl ScaleObserver for crate::session::Quiet {}

/// Runs every solution at every size (`options.repeat` times each, alone), stopping a solution
/// at its first size over the cap or failing; fits the growth models to what was measured.
pub fn measure(
    judge: &mut Judge,
    problem: &Problem,
    solutions: &[Solution],
    options: &ScaleOptions,
    observer: &mut dyn ScaleObserver,
) -> Result<ScaleReport> {
    let limits = Options::default().limits(problem).with_time(options.cap);
    // The cap applies alike to every language: the point is to compare their growth.
    let mut results = Vec::new();
    for solution in solutions {
        observer.compiling(&solution.name);
        let (compile, program) =
            judge.build(&solution.path, problem, &Options::default(), false)?;
        let mut points = Vec::new();
        let mut previous: Option<(u64, f64)> = None;
        for (n, input) in &options.inputs {
            let stopped = points
                .last()
                .is_some_and(|p: &Point| p.status != PointStatus::Ok);
            let Some(program) = program.as_ref().filter(|_| !stopped) else {
                points.push(Point::skipped(*n));
                continue;
            };
            let mut point = measure_size(
                judge,
                (&solution.name, program),
                (*n, input),
                (&limits, &problem.io),
                options,
                observer,
            )?;
            if point.status == PointStatus::Ok {
                let cpu = point.cpu_ms.unwrap_or_default();
                point.growth = previous
                    .filter(|&(_, p)| p >= MEASURABLE_FLOOR_MS && cpu >= MEASURABLE_FLOOR_MS)
                    .and_then(|(pn, p)| growth_per_unit(pn, p, *n, cpu));
                previous = Some((*n, cpu));
            }
            points.push(point);
        }
        let measured: Vec<(u64, f64)> = points
            .iter()
            .filter(|p| p.status == PointStatus::Ok)
            .filter_map(|p| Some((p.n, p.cpu_ms?)))
            .collect();
        results.push(SolutionScale {
            solution: solution.name.clone(),
            path: solution.path.clone(),
            compile_error: compile.diagnostics.is_some(),
            points,
            fit: fit(&measured),
        });
    }
    Ok(ScaleReport {
        problem: problem.id.clone(),
        input: options.input_label.clone(),
        sizes: options.inputs.iter().map(|(n, _)| *n).collect(),
        repeat: options.repeat,
        statistic: options.statistic,
        cap_ms: ms(options.cap),
        measurable_floor_ms: MEASURABLE_FLOOR_MS,
        solutions: results,
    })
}

/// One size: the runs, until one does not give a time.
fn measure_size(
    judge: &mut Judge,
    (name, program): (&str, &Program),
    (n, input): (u64, &Path),
    (limits, io): (&Limits, &FileIo),
    options: &ScaleOptions,
    observer: &mut dyn ScaleObserver,
) -> Result<Point> {
    let mut runs = Vec::new();
    for r in 0..options.repeat {
        observer.running(name, n, r + 1, options.repeat);
        let (verdict, reason, execution) =
            judge.run_unchecked(program, &[], Some(input), limits, io)?;
        if verdict != Verdict::Ac {
            // Answers are not checked: only a run that did not end cleanly stops the size.
            let (status, cpu_ms) = match verdict {
                Verdict::Tle => (PointStatus::OverCap, Some(ms(options.cap))),
                v => (PointStatus::Failed(v), None),
            };
            return Ok(Point {
                n,
                status,
                cpu_ms,
                runs_ms: runs,
                growth: None,
                detail: Some(why(verdict, &reason)),
            });
        }
        runs.push(ms(execution.measurement.cpu));
    }
    let cpu = statistic_of(&runs, options.statistic);
    Ok(Point {
        n,
        status: PointStatus::Ok,
        cpu_ms: Some(cpu),
        runs_ms: runs,
        growth: None,
        detail: None,
    })
}

/// Why a size gave no time, in the words of a measurement rather than a verdict.
fn why(verdict: Verdict, reason: &Reason) -> String {
    match (verdict, reason) {
        (Verdict::Tle, Reason::CpuTime) => "CPU time over the cap".into(),
        (Verdict::Tle, _) => "wall-clock cap reached".into(),
        (Verdict::Mle, _) => "memory over the problem's limit".into(),
        (Verdict::Ole, _) => "output over the problem's limit".into(),
        (_, r) => r.to_string(),
    }
}

fn statistic_of(runs: &[f64], statistic: Statistic) -> f64 {
    let mut v = runs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    match statistic {
        Statistic::Median => v[v.len() / 2],
        Statistic::Min => v[0],
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
