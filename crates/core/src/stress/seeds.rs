//! A stress run's seeds: each one's input generated, answered by the reference and judged on the
//! attempt, until one decides the run.

use std::path::PathBuf;
use std::time::Instant;

use super::{
    generate, generator_args, generator_limits, interact_reference, make_answer, read,
    self_disagreement, Culprit, Disagreement, Failure, StressObserver, StressOptions, StressReport,
    DEFAULT_COUNT,
};
use crate::compile::Program;
use crate::error::{Error, Result};
use crate::model::CaseReport;
use crate::session::Judge;
use crate::verdict::{Limits, Reason, Verdict};
use crate::workspace::{Problem, TestCase};

/// The three programs of a stress run, built, with the limits each runs under and the files
/// each seed's input and answer are written to.
pub(super) struct Rig<'a> {
    problem: &'a Problem,
    generator: Program,
    reference: Program,
    attempt: Program,
    generator_limits: Limits,
    reference_limits: Limits,
    pub(super) limits: Limits,
    dir: PathBuf,
    input: PathBuf,
    answer: PathBuf,
}

impl<'a> Rig<'a> {
    /// `binaries`: the generator, the reference and the attempt, in that order.
    pub(super) fn new(
        judge: &mut Judge,
        problem: &'a Problem,
        binaries: Vec<Program>,
        options: &StressOptions,
    ) -> Result<Self> {
        let [generator, reference, attempt]: [Program; 3] =
            binaries.try_into().expect("three programs built");
        // Each program gets its language's time: a Python reference may have more than a Rust attempt.
        let reference_limits = options.run.limits_for(problem, &reference.language.id).0;
        let limits = options.run.limits_for(problem, &attempt.language.id).0;
        let dir = judge.scratch_dir().join("stress");
        std::fs::create_dir_all(&dir).map_err(|e| Error::create(&dir, e))?;
        Ok(Rig {
            problem,
            generator_limits: generator_limits(problem),
            generator,
            reference,
            attempt,
            reference_limits,
            limits,
            input: dir.join("input"),
            answer: dir.join("answer"),
            dir,
        })
    }

    /// Tries seed after seed until one decides the run or the count or duration is reached.
    pub(super) fn run_seeds(
        &self,
        judge: &mut Judge,
        options: &StressOptions,
        observer: &mut dyn StressObserver,
        report: &mut StressReport,
    ) -> Result<()> {
        let count = match (options.count, options.duration) {
            (None, None) => Some(DEFAULT_COUNT),
            (c, _) => c,
        };
        // The time and the rate count seeds only, not compilation.
        let started = Instant::now();
        let mut seed = options.first_seed;
        while count.is_none_or(|c| report.seeds_tried < c)
            && options.duration.is_none_or(|d| started.elapsed() < d)
        {
            let args = generator_args(seed, options.size);
            let Some(judged) = self.try_seed(judge, seed, &args, report)? else {
                break;
            };
            report.seeds_tried += 1;
            observer.seed_done(seed, report.seeds_tried, started.elapsed());
            if !self.settle(judge, seed, &args, judged, report)? {
                break;
            }
            seed += 1;
        }
        report.elapsed = started.elapsed();
        Ok(())
    }

    /// The seed's input and answer made, and the attempt judged on them; `None` when the
    /// generator or the reference failed (the report says which).
    fn try_seed(
        &self,
        judge: &mut Judge,
        seed: u64,
        args: &[String],
        report: &mut StressReport,
    ) -> Result<Option<CaseReport>> {
        let generated = generate(
            judge,
            &self.generator,
            args,
            &self.generator_limits,
            &self.input,
        )?;
        if let Err((message, details)) = generated {
            report.fail(Culprit::Generator, Some(seed), message, details);
            return Ok(None);
        }
        if let Err((message, details)) = self.answer(judge)? {
            report.fail(Culprit::Reference, Some(seed), message, details);
            return Ok(None);
        }
        let case = TestCase {
            name: format!("seed {seed}"),
            input: self.input.clone(),
            answer: self.answer.clone(),
            ..TestCase::default()
        };
        Ok(Some(judge.run_case(
            self.problem,
            &self.attempt,
            &case,
            &self.limits,
        )?))
    }

    /// The reference's answer to the seed's input (or, interactive, its acceptance).
    fn answer(&self, judge: &mut Judge) -> Result<std::result::Result<(), Failure>> {
        let (problem, input, answer) = (self.problem, &self.input, &self.answer);
        if problem.interactor.is_some() {
            interact_reference(
                judge,
                problem,
                &self.reference,
                (input, answer),
                &self.reference_limits,
            )
        } else {
            make_answer(
                judge,
                (&self.reference, &problem.io),
                input,
                &self.reference_limits,
                answer,
            )
        }
    }

    /// What the attempt's verdict on a seed means for the run: whether it goes on.
    fn settle(
        &self,
        judge: &mut Judge,
        seed: u64,
        args: &[String],
        judged: CaseReport,
        report: &mut StressReport,
    ) -> Result<bool> {
        match judged.verdict {
            Verdict::Ac => return Ok(true),
            Verdict::Ie => {
                let reason = judged.reason.as_ref().map(Reason::to_string);
                let message = format!(
                    "the attempt's output could not be checked: {}",
                    reason.unwrap_or_default()
                );
                report.fail(Culprit::Checker, Some(seed), message, None);
            }
            verdict => self.disagree(judge, seed, args, (verdict, judged), report)?,
        }
        Ok(false)
    }

    /// The attempt disagrees with the reference on a seed: reported as such once the generator and
    /// the reference are known to repeat themselves on it (otherwise the reproduce command would lie).
    fn disagree(
        &self,
        judge: &mut Judge,
        seed: u64,
        args: &[String],
        (verdict, judged): (Verdict, CaseReport),
        report: &mut StressReport,
    ) -> Result<()> {
        // An interactive attempt's output is its side of the conversation.
        let attempt_output = match &judged.interaction {
            Some(i) => i.transcript.clone().unwrap_or_default().into_bytes(),
            None => read(&judge.last_output(&self.problem.io))?,
        };
        if let Some((culprit, message)) = self_disagreement(
            judge,
            self.problem,
            (&self.generator, args, &self.generator_limits),
            (&self.reference, &self.reference_limits),
            &self.dir,
        )? {
            report.fail(culprit, Some(seed), message, None);
            return Ok(());
        }
        report.verdict = verdict;
        report.disagreement = Some(Disagreement {
            seed,
            input: read(&self.input)?,
            reference_output: read(&self.answer)?,
            attempt_output,
            attempt: judged,
        });
        Ok(())
    }
}
