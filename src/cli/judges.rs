//! The judges a command lends a use case (`judge_ops::Judges`), each made on first use: the
//! cluster's workers or this machine's judge for submissions, this machine's for the jury's
//! programs.

use judge_core::session::{Judge, Judging};
use judge_ops::Judges;

use super::cluster::ClusterArgs;
use super::Context;

/// The judges of a command: the cluster's workers or this machine's for the solutions, and
/// this machine's for the jury's programs, each made on first use.
pub(crate) struct CliJudges<'a> {
    ctx: &'a Context,
    cluster: &'a ClusterArgs,
    judging: Option<Box<dyn Judging>>,
    local: Option<Judge>,
}

impl<'a> CliJudges<'a> {
    pub(crate) fn new(ctx: &'a Context, cluster: &'a ClusterArgs) -> CliJudges<'a> {
        CliJudges {
            ctx,
            cluster,
            judging: None,
            local: None,
        }
    }
}

impl Judges for CliJudges<'_> {
    fn judging(&mut self) -> Result<&mut dyn Judging, judge_ops::Error> {
        if self.judging.is_none() {
            let made = self
                .ctx
                .judging(self.cluster)
                .map_err(|e| judge_ops::Error::Judges(e.into()))?;
            self.judging = Some(made);
        }
        Ok(self.judging.as_mut().expect("made").as_mut())
    }

    fn local(&mut self) -> Result<&mut Judge, judge_ops::Error> {
        if self.local.is_none() {
            self.local = Some(Judge::new(self.ctx.ws.clone(), self.ctx.settings)?);
        }
        Ok(self.local.as_mut().expect("made"))
    }
}
