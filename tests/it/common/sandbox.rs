//! Whether the runner can sandbox programs here, all of it: Landlock, and user, pid, network and
//! mount namespaces with a `/proc` of their own (as `src/run/sandbox.rs` makes them). Used by the
//! sandbox tests and by build.rs (which emits `judge_has_sandbox`), so it needs only std and libc.

use std::process::{Command, Stdio};

/// Ok when both are there; Err says what is missing.
pub(crate) fn probe() -> Result<(), String> {
    // SAFETY: the version query of landlock_create_ruleset takes a null pointer and size 0.
    let abi = unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<libc::c_void>(),
            0usize,
            1u32,
        )
    };
    if abi < 1 {
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
