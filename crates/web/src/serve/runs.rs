//! Submissions made from the browser: judged one at a time on a worker thread that owns the
//! judge, each a live [`Run`] whose cases are kept and announced as they finish, then recorded
//! in the history like a `judge run`.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex, PoisonError};

use tokio::sync::broadcast;

use super::tasks::{Task, TaskError};
use judge_core::model::{CaseReport, CompileReport, SolutionReport};
use judge_core::session::{Judge, Judging, Observer, Options, Quiet, Settings};
use judge_core::verdict::{Limits, Verdict};
use judge_core::workspace::{Solution, TestCase, Workspace};
use judge_ops::run::{RecordError, RunObserver, RunOptions};

/// How many ended runs are kept whole in memory, every case of each: of older ones only how
/// they ended is kept (their pages send to their submissions), so that a server that runs for
/// days holds no more.
pub const KEPT_RUNS: usize = 64;

/// What happened to a run, for the pages that follow it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RunEvent {
    Compiled,
    /// The case at this index of [`RunState::cases`] finished.
    Case(usize),
    Ended,
}

/// How a run ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum End {
    /// Judged and recorded: the submission's id.
    Recorded(i64),
    /// Not judged, or not recorded: why.
    Failed(String),
}

/// What is known of a run so far.
#[derive(Debug, Clone, Default)]
pub struct RunState {
    pub compile: Option<CompileReport>,
    pub cases: Vec<CaseReport>,
    /// Cases to run, once known.
    pub total: Option<usize>,
    pub limits: Option<Limits>,
    pub end: Option<End>,
    /// The verdict of the run, once it is recorded.
    pub verdict: Option<Verdict>,
}

/// One submission from the browser, being judged.
pub struct Run {
    pub id: u64,
    pub solution: Solution,
    state: Mutex<RunState>,
    events: broadcast::Sender<RunEvent>,
}

impl Run {
    /// What is known now.
    pub fn state(&self) -> RunState {
        self.lock().clone()
    }

    /// What is known now, and a receiver of what happens next: nothing is missed between them.
    pub fn follow(&self) -> (RunState, broadcast::Receiver<RunEvent>) {
        let state = self.lock();
        (state.clone(), self.events.subscribe())
    }

    /// Changes the state and announces what `change` says happened, under one lock.
    fn update(&self, change: impl FnOnce(&mut RunState) -> RunEvent) {
        let mut state = self.lock();
        let event = change(&mut state);
        // Nobody following is not an error.
        let _ = self.events.send(event);
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, RunState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// What the worker is given.
enum Job {
    Run(Arc<Run>),
    Task(Arc<Task>),
}

/// The runs and tasks of this server and the worker that does them, one at a time (times
/// measured side by side would inflate each other).
pub struct Runs {
    next: AtomicU64,
    all: Mutex<BTreeMap<u64, Arc<Run>>>,
    /// How the runs no longer in `all` ended.
    forgotten: Mutex<BTreeMap<u64, End>>,
    /// The latest task of each problem and kind.
    tasks: Mutex<BTreeMap<(String, &'static str), Arc<Task>>>,
    queue: Mutex<mpsc::Sender<Job>>,
    /// Told whenever a run moves on (the status page shows the runs in progress).
    pub changed: broadcast::Sender<()>,
}

impl Runs {
    /// Starts the worker: it judges in `ws` as `settings` say (or through `remote`, when
    /// given), and records in the history at `history`.
    pub fn start(
        ws: Workspace,
        history: PathBuf,
        settings: Settings,
        remote: Option<Remote>,
    ) -> Runs {
        let (queue, jobs) = mpsc::channel::<Job>();
        let (changed, _) = broadcast::channel(64);
        let told = changed.clone();
        std::thread::spawn(move || {
            // Made on first use: a server that judges nothing starts no runner, and connects
            // to no cluster.
            let mut judges = Judges {
                ws: ws.clone(),
                settings,
                local: None,
                remote: None,
                connect: remote,
            };
            for job in jobs {
                let run = match job {
                    Job::Run(run) => run,
                    Job::Task(task) => {
                        task.execute(&ws, &mut judges, &told);
                        continue;
                    }
                };
                let judged =
                    judges
                        .both()
                        .map_err(|e| e.to_string())
                        .and_then(|(local, remote)| {
                            let judging: &mut dyn Judging = match remote {
                                Some(r) => r,
                                None => local,
                            };
                            judge_one(&ws, judging, &history, &run, &told)
                        });
                let (end, verdict) = match judged {
                    Ok((id, verdict)) => (End::Recorded(id), Some(verdict)),
                    Err(why) => (End::Failed(why), None),
                };
                run.update(|s| {
                    s.end = Some(end);
                    s.verdict = verdict;
                    RunEvent::Ended
                });
                let _ = told.send(());
            }
        });
        Runs {
            next: AtomicU64::new(1),
            all: Mutex::new(BTreeMap::new()),
            forgotten: Mutex::new(BTreeMap::new()),
            tasks: Mutex::new(BTreeMap::new()),
            queue: Mutex::new(queue),
            changed,
        }
    }

    /// Queues `solution` for judging: its run.
    pub fn submit(&self, solution: Solution) -> Arc<Run> {
        let run = Arc::new(Run {
            id: self.next.fetch_add(1, Ordering::SeqCst),
            solution,
            state: Mutex::new(RunState::default()),
            events: broadcast::channel(256).0,
        });
        let mut all = self.all.lock().unwrap_or_else(PoisonError::into_inner);
        all.insert(run.id, run.clone());
        let ended: Vec<(u64, End)> = all
            .iter()
            .filter_map(|(&id, r)| Some((id, r.lock().end.clone()?)))
            .collect();
        let old = ended.len().saturating_sub(KEPT_RUNS);
        let mut forgotten = self
            .forgotten
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        for (id, end) in ended.into_iter().take(old) {
            all.remove(&id);
            forgotten.insert(id, end);
        }
        drop((all, forgotten));
        let sent = self
            .queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(Job::Run(run.clone()));
        if sent.is_err() {
            run.update(|s| {
                s.end = Some(End::Failed("the judging thread stopped".into()));
                RunEvent::Ended
            });
        }
        let _ = self.changed.send(());
        run
    }

    /// Queues `task`, in place of the last of its problem and kind.
    pub fn queue(&self, task: Task) -> Arc<Task> {
        let task = Arc::new(task);
        self.tasks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert((task.problem.clone(), task.kind.name()), task.clone());
        let sent = self
            .queue
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .send(Job::Task(task.clone()));
        if sent.is_err() {
            task.fail(TaskError::Stopped, &self.changed);
        }
        task
    }

    /// The latest task of `problem` of this kind (`compare`, `scale`).
    pub fn task(&self, problem: &str, kind: &'static str) -> Option<Arc<Task>> {
        self.tasks
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&(problem.to_string(), kind))
            .cloned()
    }

    /// How a run no longer kept whole ended ([`KEPT_RUNS`]).
    pub fn forgotten(&self, id: u64) -> Option<End> {
        self.forgotten
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&id)
            .cloned()
    }

    pub fn get(&self, id: u64) -> Option<Arc<Run>> {
        self.all
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(&id)
            .cloned()
    }

    /// The runs not ended yet, newest first.
    pub fn in_progress(&self) -> Vec<(Arc<Run>, RunState)> {
        let all = self.all.lock().unwrap_or_else(PoisonError::into_inner);
        all.values()
            .rev()
            .map(|r| (r.clone(), r.state()))
            .filter(|(_, s)| s.end.is_none())
            .collect()
    }
}

/// Judges one run as `judge run` would, and records it: the submission's id and verdict, or
/// why not.
fn judge_one(
    ws: &Workspace,
    judge: &mut dyn Judging,
    history: &std::path::Path,
    run: &Run,
    told: &broadcast::Sender<()>,
) -> Result<(i64, Verdict), String> {
    let options = RunOptions {
        history: Some(history.to_path_buf()),
        ..RunOptions::default()
    };
    let mut feed = Feed {
        run,
        told,
        quiet: Quiet,
    };
    let ran = judge_ops::run::run(ws, judge, &run.solution, &options, &mut feed)
        .map_err(|e| e.to_string())?;
    match ran.recorded {
        Some(Ok(r)) => Ok((r.id, ran.report.verdict)),
        Some(Err(e @ RecordError::Source(_))) => Err(e.to_string()),
        Some(Err(e)) => Err(format!("judged, but not recorded in the history: {e}")),
        None => Err("judged, but not recorded in the history".into()),
    }
}

/// Makes what judges elsewhere (a cluster's workers); its error is said as the reason a run
/// failed when it cannot be made.
pub type Remote = Box<
    dyn FnOnce() -> Result<Box<dyn Judging + Send>, Box<dyn std::error::Error + Send + Sync>>
        + Send,
>;

/// The judges of the server's thread, each made when first needed: this machine's, and the
/// remote one when the server was given one.
struct Judges {
    ws: Workspace,
    settings: Settings,
    local: Option<Judge>,
    remote: Option<Box<dyn Judging + Send>>,
    connect: Option<Remote>,
}

impl judge_ops::Judges for Judges {
    fn judging(&mut self) -> Result<&mut dyn Judging, judge_ops::Error> {
        let (local, remote) = self.both()?;
        Ok(match remote {
            Some(r) => r,
            None => local,
        })
    }

    fn local(&mut self) -> Result<&mut Judge, judge_ops::Error> {
        Ok(self.both()?.0)
    }
}

impl Judges {
    /// This machine's judge (for what is measured here), and the remote one when there is
    /// one (for whole solutions).
    fn both(&mut self) -> Result<(&mut Judge, Option<&mut dyn Judging>), judge_ops::Error> {
        if self.local.is_none() {
            self.local = Some(Judge::new(self.ws.clone(), self.settings)?);
        }
        if let Some(connect) = self.connect.take() {
            self.remote = Some(connect().map_err(judge_ops::Error::Judges)?);
        }
        let remote: Option<&mut dyn Judging> = match self.remote.as_mut() {
            Some(r) => Some(r.as_mut()),
            None => None,
        };
        Ok((self.local.as_mut().expect("made"), remote))
    }
}

/// Hands the engine's progress to a run.
struct Feed<'a> {
    run: &'a Run,
    told: &'a broadcast::Sender<()>,
    /// What follows a package's time limit being derived: nothing the page shows.
    quiet: Quiet,
}

impl RunObserver for Feed<'_> {
    fn settling(&mut self) -> &mut dyn Observer {
        &mut self.quiet
    }

    fn judging(&mut self, _cases: &[TestCase], _options: &Options) -> &mut dyn Observer {
        self
    }
}

impl Observer for Feed<'_> {
    fn compiling(&mut self, _solution: &Solution, report: &SolutionReport) {
        let limits = report.limits;
        self.run.update(|s| {
            s.limits = Some(limits);
            RunEvent::Compiled
        });
    }

    fn compiled(&mut self, report: &CompileReport) {
        let report = report.clone();
        self.run.update(|s| {
            s.compile = Some(report);
            RunEvent::Compiled
        });
        let _ = self.told.send(());
    }

    fn case_started(&mut self, _case: &TestCase, _index: usize, total: usize) {
        self.run.lock().total = Some(total);
    }

    fn case_finished(&mut self, report: &CaseReport, _limits: &Limits) {
        let report = report.clone();
        self.run.update(|s| {
            s.cases.push(report);
            RunEvent::Case(s.cases.len() - 1)
        });
        let _ = self.told.send(());
    }
}
