//! What ends a run before its program does: the judge's stop signal (Ctrl-C, passed on), and
//! the judge gone (killed outright: its end of the requests' pipe closed).

use std::os::fd::{AsRawFd, OwnedFd};

use super::sys;

/// A run ended by the judge: its stop signal, or its hang-up.
pub(super) struct Interrupted;

/// Reads the pending stop signals: whether one came from the judge. In its pid namespace the
/// runner is init, and a program may signal it: only a signal from the parent (the judge, or
/// from outside the namespace, which shows as pid 0, the parent's own number there) stops it.
pub(super) fn requested(stop: &OwnedFd) -> bool {
    let parent = sys::getppid() as u32;
    let mut requested = false;
    while let Some(sender) = sys::read_signal(stop.as_raw_fd()) {
        requested |= sender == parent;
    }
    requested
}

/// The polls of what ends a run before its program does: the judge's stop signal, and the
/// judge gone (killed outright, it could not signal: its end of the requests' pipe closed). Of
/// the requests only a hang-up is asked: the next one may be waiting there already.
pub(super) fn polls(stop: &OwnedFd) -> [libc::pollfd; 2] {
    [sys::poll_fd(stop.as_raw_fd()), sys::poll_hangup(0)]
}

/// Whether the polls of [`polls`], polled, say stop.
pub(super) fn stopping(polled: &[libc::pollfd], stop: &OwnedFd) -> bool {
    polled[1].revents != 0 || polled[0].revents != 0 && requested(stop)
}
