//! A run's work handed out: its bundle's files put in the store once, a job per few cases published, a job given up on recorded as its cases' IE, and the jobs taken back when the run ends early or is interrupted.

use std::collections::{BTreeMap, HashMap};
use std::time::Duration;

use async_nats::jetstream;

use judge_core::session::Options;

use super::Cluster;
use crate::bundle::Bundle;
use crate::error::Error;
use crate::nats::{WORK_STREAM, WORK_SUBJECT};
use crate::wire::{Job, JobCase, JobOptions, Judged, Outcome};

impl Cluster {
    /// Puts the bundle's files in the store, unless it has them: the manifest's hash.
    pub(super) async fn put_bundle(&self, bundle: &Bundle) -> Result<String, Error> {
        bundle.put(&self.nats).await
    }

    /// Publishes the cases `numbered`, a few to a job, for the bundle of `manifest`: each
    /// job's stream sequence, to the cases it holds (what a given-up job's advisory names).
    pub(super) async fn publish<'a>(
        &self,
        (bundle, manifest, options, submission): (&Bundle, &str, &Options, &str),
        numbered: &'a [JobCase],
    ) -> Result<HashMap<u64, &'a [JobCase]>, Error> {
        let mut acks = Vec::new();
        for chunk in numbered.chunks(crate::wire::per_job(numbered.len())) {
            let job = Job {
                protocol: crate::wire::PROTOCOL,
                submission: submission.to_string(),
                cases: chunk.to_vec(),
                bundle: manifest.to_string(),
                problem: bundle.problem.clone(),
                solution: bundle.solution.clone(),
                entry: bundle.entry.clone(),
                options: JobOptions::of(options),
                calibration_us: self.calibration_us,
            };
            let first = chunk[0].index;
            let ack = self
                .nats
                .js
                .send_publish(
                    WORK_SUBJECT,
                    jetstream::message::PublishMessage::build()
                        .payload(
                            serde_json::to_vec(&judge_core::schema::tagged(&job))
                                .expect("plain data")
                                .into(),
                        )
                        .message_id(format!("{submission}/{first}")),
                )
                .await
                .map_err(Error::nats)?;
            acks.push((chunk, ack));
        }
        let mut sequence_of: HashMap<u64, &[JobCase]> = HashMap::new();
        for (chunk, ack) in acks {
            let ack = ack.await.map_err(Error::nats)?;
            sequence_of.insert(ack.sequence, chunk);
        }
        Ok(sequence_of)
    }

    /// Records as an IE each case without an outcome of the job a max-deliveries advisory
    /// (`payload`) names.
    pub(super) async fn give_up(
        &self,
        payload: &[u8],
        sequence_of: &HashMap<u64, &[JobCase]>,
        outcomes: &BTreeMap<usize, Outcome>,
        submission: &str,
    ) -> Result<(), Error> {
        let Some((chunk, deliveries)) = given_up_on(payload, sequence_of) else {
            return Ok(());
        };
        for job_case in chunk.iter().filter(|c| !outcomes.contains_key(&c.index)) {
            let outcome = Outcome {
                submission: submission.to_string(),
                case: job_case.name.clone(),
                index: job_case.index,
                attempt: deliveries,
                worker: crate::wire::WorkerInfo {
                    protocol: crate::wire::PROTOCOL,
                    name: "none".into(),
                    host: String::new(),
                    cpu: String::new(),
                    calibration_us: 0,
                    jobs: 0,
                    sandbox: Default::default(),
                },
                result: Judged::Failed {
                    reason: format!("no worker finished it in {deliveries} deliveries (each worker that took it stopped or was cut off)"),
                },
            };
            // Stored like a worker's, so that a late worker's second outcome is dropped and a
            // resumed run finds it.
            crate::worker::publish_outcome(&self.nats, &outcome).await?;
        }
        Ok(())
    }
}

impl Cluster {
    /// Takes the jobs of `sequences` that are still queued off the queue: a run that ended
    /// early (its solution does not compile, no worker can build it) leaves no work behind.
    pub(super) async fn withdraw(&self, sequences: &[u64]) {
        if let Ok(stream) = self.nats.js.get_stream(WORK_STREAM).await {
            delete_jobs(&stream, sequences).await;
        }
    }

    /// Ctrl-C meanwhile takes the jobs of `sequences` off the queue (those still there), so that
    /// no worker judges a run nobody waits for; until the guard is dropped.
    pub(super) async fn take_back_at_interrupt(
        &self,
        sequences: Vec<u64>,
    ) -> Option<judge_runner::interrupt::HookGuard> {
        let stream = self.nats.js.get_stream(WORK_STREAM).await.ok()?;
        let handle = self.runtime.handle().clone();
        Some(judge_runner::interrupt::on_interrupt(std::sync::Arc::new(
            move || handle.block_on(delete_jobs(&stream, &sequences)),
        )))
    }
}

/// Deletes the jobs of `sequences` from the work queue (those still there); bounded, so that a
/// server gone quiet keeps nothing waiting (Ctrl-C from ending the process, say).
async fn delete_jobs(stream: &jetstream::stream::Stream, sequences: &[u64]) {
    let _ = tokio::time::timeout(Duration::from_secs(3), async {
        for &sequence in sequences {
            let _ = stream.delete_message(sequence).await;
        }
    })
    .await;
}

/// The cases of the job a max-deliveries advisory names, and how many deliveries it had.
fn given_up_on<'a>(
    payload: &[u8],
    sequence_of: &HashMap<u64, &'a [JobCase]>,
) -> Option<(&'a [JobCase], u64)> {
    let v: serde_json::Value = serde_json::from_slice(payload).ok()?;
    let sequence = v.get("stream_seq")?.as_u64()?;
    let deliveries = v.get("deliveries").and_then(|d| d.as_u64()).unwrap_or(0);
    sequence_of.get(&sequence).map(|&chunk| (chunk, deliveries))
}
