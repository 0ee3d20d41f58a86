//! Stress testing: an attempt against a reference on generated inputs until they disagree,
//! under the problem's limits (a package's derived first when it fixes none), the failing input
//! saved as a test case when asked (`judge stress`).

use judge_core::session::{Judge, Observer};
use judge_core::stress::{self, StressObserver, StressOptions, StressReport};
use judge_core::workspace::{Problem, Solution, Workspace};

use crate::run::settle_time_limit;
use crate::Error;

/// What a stress run asks for.
#[derive(Debug, Clone)]
pub struct StressRequest {
    pub attempt: Solution,
    /// The solution whose output is taken as the answer.
    pub reference: Solution,
    /// How long it goes on, the generator's seeds and size, the limits.
    pub options: StressOptions,
    /// The failing input added as a test case of the problem, with the reference's answer.
    pub save: bool,
}

/// What a stress run tells its front-end as it goes.
pub trait StressFront {
    /// What follows the derivation of a package's time limit; told the limit found, as a note.
    fn settling(&mut self) -> &mut dyn Observer;
    /// The seeds are tried on `problem` from here: what follows them.
    fn started(&mut self, problem: &Problem, options: &StressOptions) -> &mut dyn StressObserver;
}

/// A stress run done.
#[derive(Debug)]
pub struct Stressed {
    /// The problem, with the limits it ran under.
    pub problem: Problem,
    pub report: StressReport,
    /// The failing input's new case, or why it could not be saved; `None` when not asked
    /// for or when nothing failed. The disagreement is whole in `report` either way.
    pub saved: Option<Result<String, judge_core::Error>>,
}

/// Tries seeds with `judge` (this machine's: the generator, the reference and the attempt run
/// here, one after another).
pub fn stress(
    ws: &Workspace,
    judge: &mut Judge,
    request: &StressRequest,
    front: &mut dyn StressFront,
) -> Result<Stressed, Error> {
    let (attempt, reference) = (&request.attempt, &request.reference);
    if attempt.path == reference.path {
        return Err(Error::SameFile);
    }
    let mut problem = ws.problem(&reference.problem)?;
    if request.options.run.time_limit.is_none() {
        settle_time_limit(judge, &mut problem, front.settling())?;
    }
    let observer = front.started(&problem, &request.options);
    let report = stress::stress(
        judge,
        &problem,
        attempt,
        reference,
        &request.options,
        observer,
    )?;
    let saved = match (&report.disagreement, request.save) {
        (Some(d), true) => Some(ws.add_case(&problem, d.seed, &d.input, &d.reference_output)),
        _ => None,
    };
    Ok(Stressed {
        problem,
        report,
        saved,
    })
}
