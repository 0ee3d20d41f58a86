//! Longer jobs started from the browser, judged on the same worker as the submissions: a
//! comparison of every solution of a problem (`judge compare`'s matrix and relative speed), a
//! measurement of growth (`judge scale`'s chart), and a verify of its reference solutions
//! (`judge verify`'s checks). Each keeps its progress and, once done, its page's HTML (and a
//! verify its data, for the API); the page follows it through the status events.

use std::sync::{Arc, Mutex, PoisonError};

use serde::Serialize;

use super::pages::{self, ctx, RenderError};
use super::views::VerdictView;
use judge_core::compare::{cell_contradicts, Matrix};
use judge_core::model::SolutionReport;
use judge_core::scale::{ScaleObserver, Statistic};
use judge_core::session::{Judge, Judging, Observer};
use judge_core::units::{format_duration, format_ms, format_run_time};
use judge_core::verdict::Verdict;
use judge_core::workspace::{Solution, Workspace};
use judge_ops::compare::CompareOptions;
use judge_ops::scale::{Input, ScaleRequest};
use judge_ops::verify::{VerifyObserver, VerifyOptions};
use judge_ops::Judges;

/// What a task does.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// Every solution of the problem on every case.
    Compare,
    /// Every solution at each size, the input made from `template` (`{n}` replaced by the size).
    Scale { sizes: Vec<u64>, template: String },
    /// Every reference solution against its expected verdict, as `judge verify` does.
    Verify,
}

impl Kind {
    /// Its name, as in its page's address.
    pub fn name(&self) -> &'static str {
        match self {
            Kind::Compare => "compare",
            Kind::Scale { .. } => "scale",
            Kind::Verify => "verify",
        }
    }
}

/// Why a task ended without its result, said on its page and in the API's `error`.
#[derive(Debug, Clone, thiserror::Error)]
pub enum TaskError {
    /// The use case's, said as the command line says it. Shared: a task's state is cloned
    /// for each look at it.
    #[error("{0}")]
    Ops(Arc<judge_ops::Error>),
    #[error(transparent)]
    Render(#[from] RenderError),
    /// A verify that returned no problem.
    #[error("nothing was verified")]
    NothingVerified,
    /// The server's judging thread is gone: nothing will do the task.
    #[error("the judging thread stopped")]
    Stopped,
}

impl From<judge_ops::Error> for TaskError {
    fn from(e: judge_ops::Error) -> TaskError {
        TaskError::Ops(Arc::new(e))
    }
}

impl From<judge_core::Error> for TaskError {
    fn from(e: judge_core::Error) -> TaskError {
        judge_ops::Error::from(e).into()
    }
}

/// A task of one problem.
pub struct Task {
    pub problem: String,
    pub kind: Kind,
    state: Mutex<TaskState>,
}

/// Where a task is.
#[derive(Debug, Clone, Default)]
pub struct TaskState {
    /// What it is doing now: "judging ok (2 of 3)".
    pub progress: String,
    /// Once done: its result's HTML, or why it failed.
    pub result: Option<Result<String, TaskError>>,
    /// Once done, what it found as data, for the JSON API (a verify's: `ok`, `internal_error`
    /// and the `verification`).
    pub data: Option<serde_json::Value>,
}

impl Task {
    pub fn new(problem: String, kind: Kind) -> Task {
        Task {
            problem,
            kind,
            state: Mutex::new(TaskState {
                progress: "waiting for the judge".into(),
                result: None,
                data: None,
            }),
        }
    }

    pub fn state(&self) -> TaskState {
        self.lock().clone()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, TaskState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn progress(&self, told: &tokio::sync::broadcast::Sender<()>, what: String) {
        self.lock().progress = what;
        let _ = told.send(());
    }

    /// Ends the task without doing it.
    pub(super) fn fail(&self, why: TaskError, told: &tokio::sync::broadcast::Sender<()>) {
        self.finish(Err(why), told);
    }

    fn finish(&self, result: Result<String, TaskError>, told: &tokio::sync::broadcast::Sender<()>) {
        let mut state = self.lock();
        state.progress = String::new();
        state.result = Some(result);
        drop(state);
        let _ = told.send(());
    }

    /// Does the task with `judges` (a comparison or a verify through the remote judge when
    /// there is one: growth is measured on this machine), telling `told` as it goes.
    pub(super) fn execute(
        &self,
        ws: &Workspace,
        judges: &mut dyn Judges,
        told: &tokio::sync::broadcast::Sender<()>,
    ) {
        let result = match &self.kind {
            Kind::Compare => judges
                .judging()
                .map_err(TaskError::from)
                .and_then(|judge| self.compare(ws, judge, told)),
            Kind::Scale { sizes, template } => judges
                .local()
                .map_err(TaskError::from)
                .and_then(|judge| self.scale(ws, judge, told, sizes, template)),
            Kind::Verify => self.verify(ws, judges, told),
        };
        self.finish(result, told);
    }

    fn compare(
        &self,
        ws: &Workspace,
        judge: &mut dyn Judging,
        told: &tokio::sync::broadcast::Sender<()>,
    ) -> Result<String, TaskError> {
        let options = CompareOptions {
            problem: self.problem.clone(),
            ..CompareOptions::default()
        };
        let mut progress = Progress { task: self, told };
        let compared = judge_ops::compare::compare(ws, judge, &options, &mut progress)?;
        Ok(pages::render(
            "matrix.html",
            matrix_view(&compared.matrix()),
        )?)
    }

    fn verify(
        &self,
        ws: &Workspace,
        judges: &mut dyn Judges,
        told: &tokio::sync::broadcast::Sender<()>,
    ) -> Result<String, TaskError> {
        let options = VerifyOptions {
            problems: vec![self.problem.clone()],
            ..VerifyOptions::default()
        };
        let mut progress = Progress { task: self, told };
        let verified = judge_ops::verify::verify(ws, judges, &options, &mut progress)?;
        let v = verified
            .problems
            .first()
            .ok_or(TaskError::NothingVerified)?;
        // `ok`: every solution got its expected verdict, and no run was IE.
        self.lock().data = Some(serde_json::json!({
            "ok": v.ok() && !verified.internal_error,
            "internal_error": verified.internal_error,
            "verification": v,
        }));
        Ok(pages::render(
            "verify_result.html",
            super::verify::view(v, verified.internal_error),
        )?)
    }

    fn scale(
        &self,
        ws: &Workspace,
        judge: &mut Judge,
        told: &tokio::sync::broadcast::Sender<()>,
        sizes: &[u64],
        template: &str,
    ) -> Result<String, TaskError> {
        let request = ScaleRequest {
            problem: self.problem.clone(),
            solutions: ws.solutions(&self.problem)?,
            sizes: sizes.to_vec(),
            input: Input::Template(template.to_string()),
            repeat: 3,
            statistic: Statistic::Min,
            cap: None,
        };
        let mut progress = Progress { task: self, told };
        let report = judge_ops::scale::scale(ws, judge, &request, &mut progress)?;
        let fits: Vec<(String, String)> = report
            .solutions
            .iter()
            .map(|s| {
                let fit = match (s.compile_error, s.fit.best()) {
                    (true, _) => "compilation error".to_string(),
                    (false, Some(f)) if !s.fit.poor => format!("{} (R² {:.3})", f.model, f.r2),
                    _ => "no model fits well".to_string(),
                };
                (s.solution.clone(), fit)
            })
            .collect();
        let points: Vec<Vec<String>> = sizes
            .iter()
            .enumerate()
            .map(|(i, n)| {
                std::iter::once(n.to_string())
                    .chain(report.solutions.iter().map(|s| {
                        s.points
                            .get(i)
                            .and_then(|p| p.cpu_ms.map(format_ms))
                            .unwrap_or_else(|| "—".into())
                    }))
                    .collect()
            })
            .collect();
        let names: Vec<&str> = report
            .solutions
            .iter()
            .map(|s| s.solution.as_str())
            .collect();
        Ok(pages::render(
            "scale_result.html",
            ctx! { chart => judge_report::chart::chart(&report), fits, points, names, input => template },
        )?)
    }
}

/// Hands the engine's progress to a task.
struct Progress<'a> {
    task: &'a Task,
    told: &'a tokio::sync::broadcast::Sender<()>,
}

impl Observer for Progress<'_> {
    fn solution_started(&mut self, s: &Solution, index: usize, total: usize) {
        self.task.progress(
            self.told,
            format!("judging {} ({} of {total})", s.name, index + 1),
        );
    }
}

impl VerifyObserver for Progress<'_> {}

impl ScaleObserver for Progress<'_> {
    fn compiling(&mut self, solution: &str) {
        self.task
            .progress(self.told, format!("compiling {solution}"));
    }

    fn running(&mut self, solution: &str, n: u64, run: u32, of: u32) {
        self.task
            .progress(self.told, format!("{solution}: n = {n}, run {run} of {of}"));
    }
}

/// The matrix as the page shows it.
#[derive(Serialize)]
struct MatrixView {
    limit: String,
    solutions: Vec<ColumnView>,
    rows: Vec<RowView>,
    reference: Option<String>,
    slower: Vec<(String, String, usize)>,
    incomparable: Vec<String>,
    /// The solutions not accepted, with their verdicts: not ranked by speed.
    not_ranked: Vec<(String, VerdictView)>,
    skipped: Vec<(String, String)>,
}

#[derive(Serialize)]
struct ColumnView {
    name: String,
    expected: Option<String>,
    verdict: VerdictView,
    /// The verdict is not the expected one.
    mismatch: bool,
    time: String,
}

#[derive(Serialize)]
struct RowView {
    case: String,
    cells: Vec<CellView>,
}

#[derive(Serialize)]
struct CellView {
    code: &'static str,
    class: &'static str,
    time: String,
    contradicts: bool,
}

fn matrix_view(m: &Matrix) -> MatrixView {
    let column = |r: &SolutionReport| ColumnView {
        name: r.solution.clone(),
        expected: r.expected.as_ref().map(ToString::to_string),
        verdict: VerdictView::of(r.verdict, None),
        mismatch: r.matches_expected() == Some(false),
        time: format_run_time(r.max_cpu(), r.any_tle().then_some(r.limits.time)),
    };
    let rows = m
        .cases
        .iter()
        .map(|case| RowView {
            case: case.name.clone(),
            cells: m
                .columns
                .iter()
                .map(|col| match m.cell(col, &case.name) {
                    Some(c) => CellView {
                        code: c.verdict.code(),
                        class: VerdictView::of(c.verdict, None).class,
                        time: format_run_time(
                            c.cpu,
                            (c.verdict == Verdict::Tle).then_some(col.report.limits.time),
                        ),
                        contradicts: cell_contradicts(col.report.expected.as_ref(), c.verdict),
                    },
                    None => CellView {
                        code: "—",
                        class: "",
                        time: String::new(),
                        contradicts: false,
                    },
                })
                .collect(),
        })
        .collect();
    let speed = m.speed();
    MatrixView {
        limit: format_duration(m.limits.time),
        solutions: m.columns.iter().map(|c| column(c.report)).collect(),
        rows,
        reference: speed.as_ref().map(|s| s.reference.clone()),
        slower: speed
            .as_ref()
            .map(|s| {
                s.others
                    .iter()
                    .map(|o| (o.solution.clone(), format!("{:.2}", o.ratio), o.cases))
                    .collect()
            })
            .unwrap_or_default(),
        incomparable: speed.map(|s| s.incomparable).unwrap_or_default(),
        not_ranked: m
            .not_ranked()
            .into_iter()
            .map(|n| (n.solution, VerdictView::of(n.verdict, None)))
            .collect(),
        skipped: m
            .skipped
            .iter()
            .map(|s| (s.solution.clone(), s.skipped.clone()))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tasks_failure_is_said_as_before() {
        assert_eq!(TaskError::Stopped.to_string(), "the judging thread stopped");
        assert_eq!(
            TaskError::NothingVerified.to_string(),
            "nothing was verified"
        );
        // The use case's error is said as the command line says it, word for word.
        let ops = judge_ops::Error::SameFile;
        let said = ops.to_string();
        assert_eq!(TaskError::from(ops).to_string(), said);
        let core = judge_core::Error::NoTemplate {
            language: "Rust".into(),
        };
        let said = core.to_string();
        assert_eq!(TaskError::from(core).to_string(), said);
    }
}
