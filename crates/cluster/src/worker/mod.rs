//! `judge worker`: a machine that judges for others. It says who it is (host, CPU, a
//! calibration figure), then pulls one job at a time per slot from the work queue, makes the
//! job's bundle from its cache (fetching only the files it lacks), judges the case, publishes
//! what it found and only then acknowledges the job. While a case runs it tells the server it is
//! still at it, so only a dead or cut-off worker loses a job (to another worker). Ctrl-C stops
//! its programs and hands back every job it holds.

mod judging;

use std::collections::{HashMap, HashSet};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, RwLock};
use std::time::Duration;

use async_nats::jetstream::{self, AckKind};
use futures_util::StreamExt;
use tokio::sync::mpsc;

use judge_core::schema::tagged;
use judge_core::session::Settings;

use crate::calibrate;
use crate::error::Error;
use crate::files::Cache;
use crate::nats::{Config, Nats};
use crate::wire::{Job, JobCase, Judged, Outcome, WorkerInfo};
use judging::Slot;

/// How a worker is started.
#[derive(Clone)]
pub struct WorkerOptions {
    pub name: String,
    /// Cases judged at once.
    pub jobs: usize,
    /// Where fetched files, bundles and builds are kept.
    pub cache: PathBuf,
    pub settings: Settings,
    /// The Rust compiler run where a command says `rustc` (the `rustc` setting); `None`:
    /// PATH's.
    pub rustc: Option<PathBuf>,
    /// The calibration figure to report instead of measuring it at start (one measured on
    /// the machine at rest).
    pub calibration_us: Option<u64>,
    /// What answers the execution service's calls (`judge api --nats`): `None`, a worker that
    /// judges only submissions (a call it takes is answered with that reason).
    pub service: Option<crate::service::Handler>,
}

/// What a worker does, for its log.
#[derive(Debug, Clone)]
pub enum Event {
    Ready(WorkerInfo),
    Judged {
        submission: String,
        case: String,
        attempt: u64,
        /// The verdict, or why it could not be judged.
        said: String,
    },
    /// Something to say that stops nothing: a message of the queue that is no job (dropped),
    /// the queue out of reach for a moment.
    Warning(String),
}

/// How long a job this machine cannot judge waits before it is delivered again: long enough
/// for another worker to take it first.
const HAND_BACK_DELAY: Duration = Duration::from_millis(500);

/// Jobs held, by their stream sequence: handed back at Ctrl-C.
type Held = Arc<Mutex<HashMap<u64, jetstream::Message>>>;

/// Held while an outcome is published and its job acknowledged: Ctrl-C waits for it, and once
/// Ctrl-C was pressed nothing more is published (a case its programs' stop cut short is handed
/// back, never reported).
type Publishing = Arc<tokio::sync::Mutex<()>>;

/// What this worker lacks that it has said already (the first line of the reason): a language
/// it cannot build is said once, not once per job handed back.
type Warned = Arc<Mutex<HashSet<String>>>;

/// The worker's entry in the list of workers, once put there: taken out at Ctrl-C.
type Listed = Arc<Mutex<Option<(async_nats::jetstream::kv::Store, String)>>>;

/// Runs a worker until Ctrl-C (which ends the process) or a failure of the cluster.
pub fn run(
    config: &Config,
    options: WorkerOptions,
    log: impl Fn(Event) + Send + Sync + 'static,
) -> Result<(), Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(Error::nats)?;
    let held: Held = Arc::new(Mutex::new(HashMap::new()));
    let publishing: Publishing = Arc::new(tokio::sync::Mutex::new(()));
    let listed: Listed = Arc::new(Mutex::new(None));
    {
        let (held, handle, publishing, listed) = (
            held.clone(),
            runtime.handle().clone(),
            publishing.clone(),
            listed.clone(),
        );
        judge_runner::interrupt::install_then(move || {
            let _publishing = handle.block_on(publishing.lock());
            let jobs: Vec<jetstream::Message> = held
                .lock()
                .map(|mut h| h.drain().map(|(_, m)| m).collect())
                .unwrap_or_default();
            // Each back on the queue at once, for another worker; bounded, so that a
            // server gone quiet does not keep Ctrl-C from ending the process.
            let _ = handle.block_on(async {
                tokio::time::timeout(Duration::from_secs(3), async {
                    for job in &jobs {
                        let _ = job.ack_with(AckKind::Nak(None)).await;
                    }
                    let entry = listed.lock().ok().and_then(|mut l| l.take());
                    if let Some((workers, name)) = entry {
                        let _ = workers.delete(&name).await;
                    }
                })
                .await
            });
            if !jobs.is_empty() {
                eprintln!("handed back {} job(s)", jobs.len());
            }
        });
    }
    runtime.block_on(serve(
        config,
        options,
        held,
        publishing,
        listed,
        Arc::new(log),
    ))
}

async fn serve(
    config: &Config,
    options: WorkerOptions,
    held: Held,
    publishing: Publishing,
    listed: Listed,
    log: Arc<dyn Fn(Event) + Send + Sync>,
) -> Result<(), Error> {
    let nats = Nats::connect(config, &format!("judge worker {}", options.name)).await?;
    let info = WorkerInfo {
        protocol: crate::wire::PROTOCOL,
        name: options.name.clone(),
        host: host(),
        cpu: calibrate::cpu_model(),
        calibration_us: match options.calibration_us {
            Some(us) => us,
            None => tokio::task::spawn_blocking(calibrate::calibrate)
                .await
                .map_err(Error::nats)?,
        },
        jobs: options.jobs,
        sandbox: judge_runner::Runner::start(options.settings.sandbox)
            .map(|r| judge_runner::Executor::sandbox(&r))
            .map_err(Error::nats)?,
    };
    let entry = serde_json::to_vec(&tagged(&info)).expect("plain data");
    nats.workers
        .put(&info.name, entry.clone().into())
        .await
        .map_err(Error::nats)?;
    if let Ok(mut l) = listed.lock() {
        *l = Some((nats.workers.clone(), info.name.clone()));
    }
    {
        // Said again and again: the list drops a worker not heard of for a while.
        let (workers, name) = (nats.workers.clone(), info.name.clone());
        tokio::spawn(async move {
            loop {
                tokio::time::sleep(crate::nats::WORKER_HEARTBEAT).await;
                let _ = workers.put(&name, entry.clone().into()).await;
            }
        });
    }
    log(Event::Ready(info.clone()));
    let cache = Cache::new(&options.cache.join("files"));
    let state = options.cache.join("state");
    let alone = Arc::new(RwLock::new(()));
    let (give_back, mut slots) = mpsc::channel::<Slot>(options.jobs);
    for _ in 0..options.jobs {
        let slot = Slot::new(
            &state,
            options.settings,
            options.rustc.clone(),
            alone.clone(),
            options.jobs,
        );
        give_back.send(slot).await.expect("room for every slot");
    }
    let warned: Warned = Arc::default();
    let service = options.service.clone();
    let mut consumer = nats.consumer().await?;
    // The consumer's own, fixed when it was made (this worker's settings may differ).
    let max_deliver = consumer
        .info()
        .await
        .map_or(nats.config.max_deliver, |i| i.config.max_deliver);
    loop {
        // A job is taken only when a slot is free for it: nothing waits here on its ack time.
        let slot = slots.recv().await.expect("the slots come back");
        let job = next_job(&consumer, &log).await;
        let (nats, cache, info, held, publishing, warned, log, give_back, service) = (
            nats.clone(),
            cache.clone(),
            info.clone(),
            held.clone(),
            publishing.clone(),
            warned.clone(),
            log.clone(),
            give_back.clone(),
            service.clone(),
        );
        tokio::spawn(async move {
            if crate::service::is_call(&job) {
                answer_call(&nats, &cache, &info, service.as_ref(), &held, &log, job).await;
                let _ = give_back.send(slot).await;
                return;
            }
            let who = (&info, max_deliver);
            let kept = (&held, &publishing, &warned);
            let slot = handle(&nats, &cache, who, kept, &log, job, slot).await;
            let _ = give_back.send(slot).await;
        });
    }
}

/// The next message of the queue, waiting for one; through a server's restart or a lost
/// connection it keeps asking (the client reconnects by itself).
async fn next_job(
    consumer: &jetstream::consumer::PullConsumer,
    log: &Arc<dyn Fn(Event) + Send + Sync>,
) -> jetstream::Message {
    let mut said = false;
    loop {
        let asked = consumer
            .batch()
            .max_messages(1)
            .expires(Duration::from_secs(5))
            .messages()
            .await;
        let failed = match asked {
            Ok(mut batch) => match batch.next().await {
                Some(Ok(message)) => return message,
                Some(Err(e)) => Some(e.to_string()),
                None => None,
            },
            Err(e) => Some(e.to_string()),
        };
        if let Some(why) = failed {
            if !said {
                log(Event::Warning(format!(
                    "the queue cannot be read now ({why}): asking again"
                )));
                said = true;
            }
            tokio::time::sleep(Duration::from_secs(1)).await;
        }
    }
}

/// Judges one message of the queue on `slot`, and gives the slot back.
async fn handle(
    nats: &Nats,
    cache: &Cache,
    (info, max_deliver): (&WorkerInfo, i64),
    (held, publishing, warned): (&Held, &Publishing, &Warned),
    log: &Arc<dyn Fn(Event) + Send + Sync>,
    message: jetstream::Message,
    slot: Slot,
) -> Slot {
    let Ok(meta) = message.info() else {
        log(Event::Warning("a message with no JetStream reply".into()));
        return slot;
    };
    let (sequence, attempt) = (meta.stream_sequence, meta.delivered.max(1) as u64);
    let Some(job) = read_job(&message, sequence, log).await else {
        return slot;
    };
    if let Ok(mut h) = held.lock() {
        h.insert(sequence, message.clone());
    }
    let ticker = progress(message.clone(), nats.config.ack_wait);
    let delivery = Delivery {
        nats,
        info,
        log,
        job: &job,
        attempt,
        max_deliver,
    };
    // Each case's result comes here as soon as it is known, and is stored while the next case
    // runs.
    let (tell, told) = mpsc::unbounded_channel::<(JobCase, Judged)>();
    let judging = delivery.start(cache, slot, tell).await;
    let (heard, stored) = delivery.store(publishing, told).await;
    let (slot, lacking) = match judging {
        Ok(judging) => judging.await.expect("judging does not panic"),
        Err(slot) => (slot, None),
    };
    ticker.abort();
    // Every result told (a CE once, for all the cases) was stored: the job is done. Else it
    // goes back at once, for this worker or another.
    let _publishing = publishing.lock().await;
    if !judge_runner::interrupt::interrupted() {
        delivery
            .settle(&message, warned, lacking, (heard, stored))
            .await;
    }
    if let Ok(mut h) = held.lock() {
        h.remove(&sequence);
    }
    slot
}

/// Answers a call of the execution service on a slot (held, for Ctrl-C to hand back, and kept
/// alive on the queue while it runs).
async fn answer_call(
    nats: &Nats,
    cache: &Cache,
    info: &WorkerInfo,
    service: Option<&crate::service::Handler>,
    held: &Held,
    log: &Arc<dyn Fn(Event) + Send + Sync>,
    message: jetstream::Message,
) {
    let Ok(meta) = message.info() else {
        log(Event::Warning("a message with no JetStream reply".into()));
        return;
    };
    let (sequence, attempt) = (meta.stream_sequence, meta.delivered.max(1) as u64);
    if let Ok(mut h) = held.lock() {
        h.insert(sequence, message.clone());
    }
    let ticker = progress(message.clone(), nats.config.ack_wait);
    let answered = crate::service::answer(nats, cache, info, service, &message, attempt).await;
    ticker.abort();
    if let Err(e) = answered {
        log(Event::Warning(format!(
            "a call of the service was not answered: {e}"
        )));
        let _ = message.ack_with(AckKind::Nak(None)).await;
    }
    if let Ok(mut h) = held.lock() {
        h.remove(&sequence);
    }
}

/// The job a message holds; a message that holds none (or a job of no case) is dropped, and
/// said.
async fn read_job(
    message: &jetstream::Message,
    sequence: u64,
    log: &Arc<dyn Fn(Event) + Send + Sync>,
) -> Option<Job> {
    let why = match serde_json::from_slice::<Job>(&message.payload) {
        Ok(job) if !job.cases.is_empty() => return Some(job),
        Ok(_) => "is a job of no case".to_string(),
        Err(e) => format!("is no job ({e})"),
    };
    log(Event::Warning(format!(
        "message {sequence} of the work queue {why}: dropped"
    )));
    let _ = message.ack_with(AckKind::Term).await;
    None
}

/// One delivery of a job to this worker.
struct Delivery<'a> {
    nats: &'a Nats,
    info: &'a WorkerInfo,
    log: &'a Arc<dyn Fn(Event) + Send + Sync>,
    job: &'a Job,
    /// Which delivery of the job this is, from 1.
    attempt: u64,
    max_deliver: i64,
}

impl Delivery<'_> {
    /// Starts judging the job on `slot`, each case's result told to `tell`; `Err` gives the
    /// slot back when its bundle cannot be had, every case told as failed.
    async fn start(
        &self,
        cache: &Cache,
        mut slot: Slot,
        tell: mpsc::UnboundedSender<(JobCase, Judged)>,
    ) -> Result<tokio::task::JoinHandle<(Slot, Option<judge_core::Error>)>, Slot> {
        let (job, info) = (self.job, self.info);
        // A job of another version of the messages is read as something else: refused, both
        // named, to the side that sent it (an IE of each case with the reason).
        let bundle = match job.protocol {
            crate::wire::PROTOCOL => cache.bundle(self.nats, &job.bundle).await,
            theirs => Err(Error::Protocol {
                worker: info.name.clone(),
                theirs: crate::wire::PROTOCOL,
                ours: theirs,
            }),
        };
        match bundle {
            Ok(dir) => {
                let (job, info) = (job.clone(), info.clone());
                // On its last delivery a job this machine lacks the means for is judged IE
                // here, with the reason; before that it goes back for another machine.
                let last = self.max_deliver > 0 && self.attempt as i64 >= self.max_deliver;
                Ok(tokio::task::spawn_blocking(move || {
                    let lacking = slot.judge(&job, &dir, &info, last, &mut |case, judged| {
                        let _ = tell.send((case.clone(), judged));
                    });
                    (slot, lacking)
                }))
            }
            Err(e) => {
                for case in &job.cases {
                    let reason = format!("worker {}: {e}", info.name);
                    let _ = tell.send((case.clone(), Judged::Failed { reason }));
                }
                drop(tell);
                Err(slot)
            }
        }
    }

    /// Stores each result as it is told: how many were told, and how many stored.
    async fn store(
        &self,
        publishing: &Publishing,
        mut told: mpsc::UnboundedReceiver<(JobCase, Judged)>,
    ) -> (usize, usize) {
        let (mut heard, mut stored) = (0, 0);
        while let Some((case, judged)) = told.recv().await {
            heard += 1;
            let said = match &judged {
                Judged::Case { case: Some(c), .. } => c.report.verdict.code().to_string(),
                Judged::Case { case: None, .. } => "CE".into(),
                Judged::Failed { reason } => format!("IE: {reason}"),
                Judged::Lacking { .. } => "not judged: no worker had what it needs".into(),
            };
            let outcome = Outcome {
                submission: self.job.submission.clone(),
                case: case.name.clone(),
                index: case.index,
                attempt: self.attempt,
                worker: self.info.clone(),
                result: judged,
            };
            let _publishing = publishing.lock().await;
            if judge_runner::interrupt::interrupted() {
                // Its programs were stopped by Ctrl-C: the job goes back, not this outcome.
                break;
            }
            match publish_outcome(self.nats, &outcome).await {
                Ok(()) => {
                    stored += 1;
                    (self.log)(Event::Judged {
                        submission: self.job.submission.clone(),
                        case: case.name,
                        attempt: self.attempt,
                        said,
                    });
                }
                // Not acknowledged: the job comes back, to this worker or another.
                Err(e) => (self.log)(Event::Warning(format!("an outcome was not stored: {e}"))),
            }
        }
        (heard, stored)
    }

    /// Acknowledges the message: done when every result told was stored, handed back (said
    /// once per reason) when this machine lacks what the job needs, else back at once.
    async fn settle(
        &self,
        message: &jetstream::Message,
        warned: &Warned,
        lacking: Option<judge_core::Error>,
        (heard, stored): (usize, usize),
    ) {
        if let Some(reason) = lacking {
            let reason = reason.to_string();
            let what = reason.lines().next().unwrap_or_default().to_string();
            let first = warned.lock().is_ok_and(|mut w| w.insert(what.clone()));
            if first {
                (self.log)(Event::Warning(format!(
                    "handed back a job of {} (delivery {} of {}), for a machine that has what it needs: {what} (said once: the other jobs that need it go back without a word)",
                    self.job.submission, self.attempt, self.max_deliver,
                )));
            }
            let _ = message.ack_with(AckKind::Nak(Some(HAND_BACK_DELAY))).await;
        } else if heard > 0 && stored == heard {
            let _ = message.double_ack().await;
        } else {
            let _ = message.ack_with(AckKind::Nak(None)).await;
        }
    }
}

/// Stores an outcome; a second one of the same job (a job delivered again) is dropped by the
/// stream, whose key is the job.
pub(crate) async fn publish_outcome(nats: &Nats, outcome: &Outcome) -> Result<(), Error> {
    let payload = serde_json::to_vec(&tagged(outcome)).expect("plain data");
    let ack = nats
        .js
        .send_publish(
            format!("judge.outcomes.{}", outcome.submission),
            jetstream::message::PublishMessage::build()
                .payload(payload.into())
                .message_id(format!("{}/{}", outcome.submission, outcome.index)),
        )
        .await
        .map_err(Error::nats)?;
    ack.await.map_err(Error::nats)?;
    Ok(())
}

/// Tells the server, every third of the ack time, that the job is still being worked on.
fn progress(message: jetstream::Message, ack_wait: Duration) -> tokio::task::JoinHandle<()> {
    tokio::spawn(async move {
        let every = (ack_wait / 3).max(Duration::from_millis(100));
        loop {
            tokio::time::sleep(every).await;
            let _ = message.ack_with(AckKind::Progress).await;
        }
    })
}

fn host() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|h| h.trim().to_string())
        .unwrap_or_else(|_| "unknown".into())
}
