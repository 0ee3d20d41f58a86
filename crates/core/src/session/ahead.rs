//! Running the next case while this one is checked: a runner gets one request ahead, so a short case costs no wait for the judge's turn.
//!
//! Between two cases the runner would otherwise sit idle while the judge wakes, reads the
//! response, checks the output, reports and sends the next request: on a 1-ms case, about a
//! tenth of its time. Sent ahead, the next request is in the runner's pipe when the case ends,
//! and its program starts at once, while the judge checks the case before it on another CPU.
//!
//! Only where nothing can depend on the case being checked: a run that may stop early, a
//! package's groups, repeats, an interactor or a checker program (which the same runner would
//! run) all wait for each verdict. And only while outputs are small, so that checking one
//! never competes with the next program for more than a moment: what is measured stays as it
//! was (each program's own CPU time and memory; and only with a second CPU, where the judge's
//! turn does not take the program's).

use super::slot::{CaseFiles, Role, Slot};
use super::{Execution, Options};
use crate::compile::Program;
use crate::error::Result;
use crate::verdict::Limits;
use crate::workspace::{Checker, Problem, TestCase};
use judge_runner::Request;

/// The names of the files of every other case start with this, so that those of the case
/// being checked stay as they are while the next one runs.
const AHEAD: &str = "ahead.";
/// The largest output checked while the next case runs: compared in well under a millisecond.
const SMALL_OUTPUT: u64 = 64 << 10;

/// Whether a run of `problem`'s cases under `options` may send each case ahead (see above).
pub(super) fn sends_ahead(problem: &Problem, options: &Options) -> bool {
    let waits_for_verdicts = options.stop_on_fail
        || options.after_tle == super::AfterTle::Skip
        || options.repeat > 1
        || problem.grading.is_some()
        || problem.interactor.is_some()
        || matches!(problem.checker, Checker::Program(_));
    !waits_for_verdicts && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
}

impl Slot {
    /// Runs the solution on `case`, sent ahead already or sent now; with `next`, the next
    /// case's run is sent behind it first, so that it starts as soon as this one ends.
    pub(super) fn execute_case(
        &mut self,
        program: &Program,
        case: &TestCase,
        limits: &Limits,
        problem: &Problem,
        next: Option<&TestCase>,
    ) -> Result<Execution> {
        let request = |slot: &Slot, role: &Role, case: &TestCase| {
            slot.request(role, program, &[], Some(&case.input), limits, &problem.io)
        };
        let this = request(self, &Role::default(), case);
        let own_stdout = this.stdout.clone();
        let sent = self
            .executor
            .pending()
            .first()
            .is_some_and(|r| same_run(r, &this));
        if !sent {
            // Whatever else is waiting (a run that ended early left it) is read and dropped.
            while !self.executor.pending().is_empty() {
                self.executor.receive()?;
            }
            self.executor.send(this)?;
        }
        if let Some(next) = next.filter(|_| self.small_output) {
            if self.executor.pending().len() == 1 {
                // The other set of files than this case's.
                let prefix = match self.executor.pending()[0].stdout == own_stdout {
                    true => AHEAD,
                    false => "",
                };
                let role = Role {
                    prefix,
                    ..Role::default()
                };
                let next = request(self, &role, next);
                self.executor.send(next)?;
            }
        }
        let (request, response) = self.executor.receive()?;
        self.small_output = response.stdout_bytes <= SMALL_OUTPUT;
        let execution = Execution::of(request, response);
        self.decided = Some(CaseFiles {
            output: execution.output.clone(),
            stderr: execution.stderr.clone(),
        });
        Ok(execution)
    }
}

/// Whether the request `sent` ahead is the run of `this`: the same program, arguments,
/// environment, input, limits, folder and access; only its files' names may differ.
fn same_run(sent: &Request, this: &Request) -> bool {
    sent.program == this.program
        && sent.args == this.args
        && sent.env == this.env
        && sent.stdin == this.stdin
        && sent.limits == this.limits
        && sent.cwd == this.cwd
        && sent.access == this.access
}
