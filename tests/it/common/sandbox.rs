//! Whether the runner can sandbox programs here, all of it: Landlock, and user, pid, network and
//! mount namespaces with a `/proc` of their own (as the runner's `sandbox.rs` makes them). Used by
//! the sandbox tests and by build.rs (which emits `judge_has_sandbox`), so it needs only std and
//! the runner crate, a build-dependency too.

use std::process::{Command, Stdio};

/// Ok when both are there; Err says what is missing.
pub(crate) fn probe() -> Result<(), String> {
    if !judge_runner::landlock_abi().is_ok_and(|abi| abi >= 1) {
        return Err("no Landlock in this kernel (Linux 5.13 or later, landlock in lsm=)".into());
    }
    let made = Command::new("unshare")
        .args(["--user", "--map-root-user", "--pid", "--fork", "--net"])
        .args(["--mount", "--mount-proc", "true"])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
    match made {
        Ok(s) if s.success() => Ok(()),
        Ok(_) => Err("user namespaces are not allowed here".into()),
        Err(e) => Err(format!("cannot run unshare (util-linux): {e}")),
    }
}
