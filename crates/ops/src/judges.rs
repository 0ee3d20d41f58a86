//! `Judges`: what a use case judges with, made by the front-end: what judges whole solutions
//! (this machine or a cluster's workers), and this machine's judge for the jury's own programs.

use judge_core::session::{Judge, Judging};

use crate::Error;

/// The judges a front-end lends a use case; each may be made on first use, so that a command
/// that judges nothing starts no runner and connects to no cluster.
pub trait Judges {
    /// What judges submissions: the cluster's workers when the front-end has them, else this
    /// machine.
    fn judging(&mut self) -> Result<&mut dyn Judging, Error>;

    /// This machine's judge: a package's graders and validators are the jury's programs and
    /// run here, with a cluster too.
    fn local(&mut self) -> Result<&mut Judge, Error>;
}
