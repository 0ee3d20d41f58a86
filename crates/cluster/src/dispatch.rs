//! Handing work out and gathering it: a solution's cases published as jobs, several cases to a
//! job when there are many (its files put in the store first), the workers' outcomes read back
//! (one per case: the stream keys them by case),
//! and the report assembled exactly as a local run makes it, each case with the worker that
//! judged it. A job no worker finished after the most deliveries is an internal error, with the
//! reason.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use async_nats::jetstream::consumer;
use futures_util::StreamExt;

use judge_core::model::{CaseReport, SolutionReport, Worker};
use judge_core::session::{finish, refuse, unjudged, Observer, Options, Run};
use judge_core::verdict::{Reason, Verdict};
use judge_core::workspace::{Problem, Solution, TestCase, Workspace};

use crate::bundle::Bundle;
use crate::calibrate;
use crate::error::Error;
use crate::nats::{Config, Nats};
use crate::wire::{JobCase, Judged, Outcome};

/// A connection to the cluster, for handing out work.
pub struct Cluster {
    runtime: tokio::runtime::Runtime,
    nats: Nats,
    /// This machine's calibration: workers that differ scale the time limit.
    calibration_us: u64,
}

/// A run that has heard nothing of its cases for this long says why it may be waiting.
const IDLE_NOTE_AFTER: Duration = Duration::from_secs(15);
/// While it hears nothing, how often it looks at the workers' list again: a worker gone from it
/// is said.
const WORKERS_LOOKED_AT: Duration = Duration::from_secs(5);

impl Cluster {
    /// Connects to the cluster of `config`; this machine's calibration figure is the one
    /// remembered in `memo` ([`calibrate::remembered`]).
    pub fn connect(config: &Config, memo: &std::path::Path) -> Result<Cluster, Error> {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(1)
            .enable_all()
            .build()
            .map_err(Error::nats)?;
        let nats = runtime.block_on(Nats::connect(config, "judge"))?;
        Ok(Cluster {
            runtime,
            nats,
            calibration_us: calibrate::remembered(memo),
        })
    }

    /// The workers registered now (those that started and did not stop).
    pub fn workers(&self) -> Vec<crate::wire::WorkerInfo> {
        self.runtime.block_on(self.nats.registered())
    }

    /// Judges `solution` of `problem` on `cases` through the workers, under the submission key
    /// `submission` (the same key finds what workers already found: a run can be resumed).
    pub fn judge(
        &self,
        ws: &Workspace,
        run: Run,
        submission: &str,
    ) -> Result<SolutionReport, Error> {
        let Run {
            problem,
            solution,
            cases,
            options,
            observer,
        } = run;
        let mut report = report_of(ws, problem, solution, cases, options)?;
        let limits = report.limits;
        self.expect_workers(&mut report)?;
        observer.compiling(solution, &report);
        let bundle = Bundle::of(ws, problem, solution, cases)?;
        let outcomes = self.runtime.block_on(self.dispatch(
            &bundle,
            cases,
            options,
            submission,
            &mut *observer,
            &limits,
        ))?;
        gather(&mut report, outcomes, cases)?;
        // The workers' reports do not carry it: the bytes they compiled are the bundle's.
        report.compile.source = bundle.source.clone();
        if report.compile.diagnostics.is_some() {
            report.cases.clear();
            report.verdict = Verdict::Ce;
            return Ok(report);
        }
        finish(problem, cases, options, &mut report);
        Ok(report)
    }

    /// Who will judge, as far as is known before they do: the workers registered now, and the
    /// sandbox of the first; a worker of another protocol is refused.
    fn expect_workers(&self, report: &mut SolutionReport) -> Result<(), Error> {
        let ready = self.workers();
        if let Some(w) = ready.iter().find(|w| w.protocol != crate::wire::PROTOCOL) {
            return Err(Error::Protocol {
                worker: w.name.clone(),
                theirs: w.protocol,
                ours: crate::wire::PROTOCOL,
            });
        }
        if let Some(w) = ready.first() {
            report.sandbox = w.sandbox.clone();
        }
        report.workers = ready
            .iter()
            .map(|w| Worker {
                name: w.name.clone(),
                host: w.host.clone(),
                cpu: w.cpu.clone(),
                calibration_us: w.calibration_us,
                time_scale: crate::calibrate::TimeRule::between(
                    w.calibration_us,
                    self.calibration_us,
                )
                .factor(),
                cases: 0,
            })
            .collect();
        Ok(())
    }

    /// The names of the workers registered now.
    async fn registered(&self) -> Vec<String> {
        let mut names = Vec::new();
        if let Ok(mut keys) = self.nats.workers.keys().await {
            while let Some(Ok(key)) = keys.next().await {
                names.push(key);
            }
        }
        names.sort();
        names
    }

    /// Puts the bundle's files, publishes a job per case, and reads outcomes until every case
    /// has one: the outcomes by the case's index.
    async fn dispatch(
        &self,
        bundle: &Bundle,
        cases: &[TestCase],
        options: &Options,
        submission: &str,
        observer: &mut dyn Observer,
        limits: &judge_core::verdict::Limits,
    ) -> Result<BTreeMap<usize, Outcome>, Error> {
        let nats = &self.nats;
        let manifest = self.put_bundle(bundle).await?;
        // Listened to before anything is published: a job given up on is said only once.
        let mut given_up = nats.given_up().await?;
        let mut found = outcomes_of(nats, submission).await?;
        let numbered: Vec<JobCase> = cases
            .iter()
            .enumerate()
            .map(|(index, case)| JobCase {
                name: case.name.clone(),
                index,
            })
            .collect();
        let published = (bundle, manifest.as_str(), options, submission);
        let sequence_of = self.publish(published, &numbered).await?;
        let queued: Vec<u64> = sequence_of.keys().copied().collect();
        let _taken_back = self.take_back_at_interrupt(queued.clone()).await;
        let mut outcomes: BTreeMap<usize, Outcome> = BTreeMap::new();
        let mut told = Told::default();
        let mut last_news = Instant::now();
        // The workers registered when the run last said why it waits, and when it looks again.
        let (mut noted, mut next_look): (Option<Vec<String>>, Instant) = (None, Instant::now());
        while outcomes.len() < cases.len() {
            tokio::select! {
                next = found.next() => {
                    let message = match next {
                        Some(Ok(message)) => message,
                        // The server restarted, or the connection was lost: read them again
                        // from the first (those already here are kept as they were).
                        _ => {
                            tokio::time::sleep(Duration::from_secs(1)).await;
                            if let Ok(again) = outcomes_of(nats, submission).await {
                                found = again;
                            }
                            continue;
                        }
                    };
                    let outcome: Outcome = serde_json::from_slice(&message.payload)
                        .map_err(|e| Error::Malformed(format!("an outcome: {e}")))?;
                    last_news = Instant::now();
                    if outcome.index < cases.len() {
                        // The same wherever it goes: nothing more to wait for.
                        let last = matches!(
                            &outcome.result,
                            Judged::Case { case: None, .. } | Judged::Lacking { .. }
                        );
                        outcomes.entry(outcome.index).or_insert(outcome);
                        if last {
                            self.withdraw(&queued).await;
                            break;
                        }
                    }
                }
                advisory = given_up.next() => {
                    if let Some(a) = advisory {
                        self.give_up(&a.payload, &sequence_of, &outcomes, submission).await?;
                    }
                }
                _ = tokio::time::sleep(Duration::from_secs(1)) => {
                    let quiet = last_news.elapsed();
                    if quiet >= IDLE_NOTE_AFTER && Instant::now() >= next_look {
                        next_look = Instant::now() + WORKERS_LOOKED_AT;
                        let names = self.registered().await;
                        if let Some(note) = idle_note(noted.as_deref(), &names, quiet) {
                            observer.note(&note);
                        }
                        noted = Some(names);
                    }
                }
            }
            told.tell(&outcomes, cases, observer, limits);
        }
        Ok(outcomes)
    }
}

/// Fills `report` in from the outcomes of its cases: the compilation as the first worker
/// said it, each case with the worker that judged it, the workers with how many cases each.
fn gather(
    report: &mut SolutionReport,
    outcomes: BTreeMap<usize, Outcome>,
    cases: &[TestCase],
) -> Result<(), Error> {
    let mut compiled = false;
    let mut by_worker: BTreeMap<String, Worker> = BTreeMap::new();
    for (index, outcome) in outcomes {
        let name = outcome.worker.name.clone();
        match outcome.result {
            Judged::Case {
                compile,
                sandbox,
                case,
                time_scale,
            } => {
                if !compiled {
                    report.compile = *compile;
                    report.sandbox = sandbox;
                    compiled = true;
                }
                let entry = by_worker.entry(name.clone()).or_insert_with(|| Worker {
                    name: name.clone(),
                    host: outcome.worker.host.clone(),
                    cpu: outcome.worker.cpu.clone(),
                    calibration_us: outcome.worker.calibration_us,
                    time_scale,
                    cases: 0,
                });
                let Some(case) = case else {
                    // Did not compile: the same wherever it is built.
                    report.cases.clear();
                    break;
                };
                entry.cases += 1;
                let mut c = case.into_report();
                // Kept on the worker's disk, not here.
                c.saved_output = None;
                c.worker = Some(name);
                c.attempt = Some(outcome.attempt);
                report.cases.push(c);
            }
            Judged::Failed { reason } => {
                let mut c = failed_case(&cases[index], &reason);
                c.worker = Some(name);
                c.attempt = Some(outcome.attempt);
                report.cases.push(c);
            }
            Judged::Lacking { reason } => return Err(Error::NoWorkerCan(reason)),
        }
    }
    report.workers = by_worker.into_values().collect();
    Ok(())
}

/// How far the observer was told of a run's outcomes, which it hears in case order, as a
/// local run tells them.
#[derive(Default)]
struct Told {
    shown: usize,
    compiled: bool,
}

impl Told {
    /// Tells the observer of the outcomes that follow those it heard of, up to the first
    /// case still waited for.
    fn tell(
        &mut self,
        outcomes: &BTreeMap<usize, Outcome>,
        cases: &[TestCase],
        observer: &mut dyn Observer,
        limits: &judge_core::verdict::Limits,
    ) {
        while let Some(o) = outcomes.get(&self.shown) {
            if let Judged::Case {
                compile,
                case: Some(c),
                ..
            } = &o.result
            {
                if !self.compiled {
                    observer.compiled(compile);
                    self.compiled = true;
                }
                let mut c = c.clone().into_report();
                c.worker = Some(o.worker.name.clone());
                observer.case_finished(&c, limits);
            } else if let Judged::Failed { reason } = &o.result {
                // Shown as the report will hold it: an IE row with the reason.
                let mut c = failed_case(&cases[self.shown], reason);
                c.worker = Some(o.worker.name.clone());
                observer.case_finished(&c, limits);
            }
            self.shown += 1;
        }
    }
}

/// Why a run may have heard nothing for `quiet`, given the workers registered `now` and those
/// registered when it last said so (`before`; `None` when it said nothing yet): no worker
/// listed, all of them busy, or some gone from the list since. `None` when nothing changed.
fn idle_note(before: Option<&[String]>, now: &[String], quiet: Duration) -> Option<String> {
    let secs = quiet.as_secs();
    let start_one = "start one with `judge worker --nats URL` (the cases wait in the queue until one takes them)";
    let gone: Vec<&str> = before
        .unwrap_or_default()
        .iter()
        .filter(|w| !now.contains(w))
        .map(String::as_str)
        .collect();
    let gone_said = match gone.as_slice() {
        [] => String::new(),
        [one] => format!(
            "worker {one} is no longer registered: it stopped, or it was killed or cut off and its registration expired (a worker renews it every 10 s)"
        ),
        many => format!(
            "workers {} are no longer registered: they stopped, or they were killed or cut off and their registrations expired (a worker renews it every 10 s)",
            many.join(", ")
        ),
    };
    Some(match (before, now) {
        (None, []) => format!("no case judged in {secs} s, and no worker is running: {start_one}"),
        (None, names) => format!(
            "no case judged in {secs} s; the workers ({}) are busy (fetching this run's files, or judging other runs), or stuck",
            names.join(", ")
        ),
        _ if gone.is_empty() => return None,
        (Some(_), []) => format!(
            "no case judged in {secs} s: {gone_said}, and no worker is running now: {start_one}"
        ),
        (Some(_), names) => format!(
            "no case judged in {secs} s: {gone_said}; the workers left ({}) are busy, or stuck",
            names.join(", ")
        ),
    })
}

/// Every outcome of `submission`, from the first.
async fn outcomes_of(nats: &Nats, submission: &str) -> Result<consumer::pull::Ordered, Error> {
    nats.js
        .get_stream(crate::nats::OUTCOMES_STREAM)
        .await
        .map_err(Error::nats)?
        .create_consumer(consumer::pull::OrderedConfig {
            filter_subject: format!("judge.outcomes.{submission}"),
            deliver_policy: consumer::DeliverPolicy::All,
            ..Default::default()
        })
        .await
        .map_err(Error::nats)?
        .messages()
        .await
        .map_err(Error::nats)
}

/// The report of a run through the cluster before any case is judged (its language, limits
/// and expectation, as a local run starts it); a solution the package's terms exclude is
/// refused here, as a local run refuses it.
fn report_of(
    ws: &Workspace,
    problem: &Problem,
    solution: &Solution,
    cases: &[TestCase],
    options: &Options,
) -> Result<SolutionReport, Error> {
    let language = ws
        .language_of(&solution.path)
        .map_err(|e| Error::Nats(e.to_string()))?;
    // The package's terms, as a local run keeps them: a language it does not allow, a
    // source over its code limit, refused before anything is handed out.
    refuse(problem, solution, &language.id)?;
    // What a local run also shows but a cluster's says by its workers: one job, every case.
    Ok(SolutionReport {
        jobs: 1,
        partial: None,
        ..unjudged(problem, solution, &language, cases.len(), options)
    })
}

/// A case no worker could judge: an internal error, with why.
fn failed_case(case: &TestCase, reason: &str) -> CaseReport {
    let reason = Reason::NotJudged(reason.to_string());
    CaseReport::unrun(&case.name, case.sample, Verdict::Ie, Some(reason))
}

/// Judging through a cluster, for the commands that judge whole solutions: each judgement a
/// submission of its own.
pub struct Remote {
    pub cluster: Cluster,
    pub workspace: Workspace,
}

impl judge_core::session::Judging for Remote {
    fn workspace(&self) -> &Workspace {
        &self.workspace
    }

    fn judge(
        &mut self,
        problem: &Problem,
        solution: &Solution,
        cases: &[TestCase],
        options: &Options,
        observer: &mut dyn Observer,
    ) -> judge_core::Result<SolutionReport> {
        let submission = crate::wire::fresh_key();
        let run = Run {
            problem,
            solution,
            cases,
            options,
            observer,
        };
        self.cluster
            .judge(&self.workspace, run, &submission)
            .map_err(|e| match e {
                // Not judged, as a local run does not judge a language this machine lacks:
                // a skip for the commands that judge many solutions, a batch line's error.
                Error::NoWorkerCan(reason) => judge_core::Error::Refused {
                    solution: solution.name.clone(),
                    why: format!(
                        "no worker can judge it: {}",
                        reason.lines().next().unwrap_or_default()
                    ),
                    fix: "install what it needs on the workers, or start a worker that has it"
                        .into(),
                },
                // The engine's own, as a local run gives it: a refusal stays a refusal (a
                // skip for the commands that judge many solutions).
                Error::Core(e) => e,
                e => judge_core::Error::Judging(Box::new(e)),
            })
    }
}

mod publish;

#[cfg(test)]
mod tests;
