//! The sandbox of every program a runner starts: namespaces made once per runner, a Landlock ruleset per program.
//!
//! When the runner starts it forks itself into new user, mount, network and pid namespaces
//! ([`enter`]): the copy inside is the init of its pid namespace and serves the requests, the
//! original outside only waits for it and relays the judge's stop signal. So every program is
//! in a network namespace with no interface up (no network at all), and in a pid namespace
//! whose init the programs cannot kill: `kill(-1, SIGKILL)` reaches only the namespace, and no
//! signal the judge or anything else of the machine. The runner drops every capability from
//! the bounding set and sets no_new_privs before serving, so programs execute with no
//! capability, even as uid 0, and cannot gain one (setuid files, file capabilities).
//!
//! Files are Landlock's ([`Files`], a ruleset per program), and a seccomp filter the runner
//! installs on itself refuses the system calls no program needs, unix sockets among them
//! ([`seccomp`]).
//!
//! Each part degrades on its own, and the runner says which are in force (a [`Sandbox`]).

use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};

use super::cgroup::MAX_PROCESSES;
use super::landlock::Files;
use super::protocol::{Missing, Sandbox};
use super::seccomp;
use super::sys::{self, Pid};

/// How the runner starts, as far as the sandbox goes.
pub(super) enum Entered {
    /// This process serves the requests, with what is in force.
    Serve(Setup),
    /// This process is the outer half: it waits for the runner `Pid` inside the namespaces.
    Relay(Pid),
}

/// What a serving runner has: what is in force, and the Landlock part of it.
pub(super) struct Setup {
    pub(super) status: Sandbox,
    pub(super) files: Option<Files>,
}

/// Sets up the sandbox for a runner that has just started (single-threaded, before serving);
/// `wanted` false (`--no-sandbox`) leaves everything as it was.
pub(super) fn enter(wanted: bool) -> Entered {
    if !wanted {
        return Entered::Serve(Setup {
            status: Sandbox::off("turned off by --no-sandbox"),
            files: None,
        });
    }
    let namespaces = match into_namespaces() {
        Ok(Some(inner)) => return Entered::Relay(inner),
        Ok(None) => Ok(()),
        Err(why) => Err(why),
    };
    // Without namespaces, still: no program gains a privilege or inspects the runner.
    if namespaces.is_err() {
        let _ = sys::harden();
    }
    let (files, files_missing) = match Files::new() {
        Ok(f) => (Some(f), None),
        Err(why) => (None, Some(why.to_string())),
    };
    // Last, as it binds the runner too: it needs none of what the filter refuses.
    let filtered = match seccomp::filter() {
        None => Err("no seccomp filter for this architecture: unix sockets stay open".to_string()),
        Some(filter) => sys::no_new_privs()
            .and_then(|_| sys::install_seccomp(&filter))
            .map_err(|e| format!("no seccomp filter ({e}): unix sockets stay open")),
    };
    let network = namespaces.clone().and(filtered);
    let mut status = Sandbox::default();
    for (kind, missing) in [
        ("files", files_missing),
        ("network", network.err()),
        ("processes", namespaces.err()),
    ] {
        match missing {
            None => status.isolated.push(kind.to_string()),
            Some(why) => status.missing.push(Missing {
                what: kind.to_string(),
                why,
            }),
        }
    }
    Entered::Serve(Setup { status, files })
}

/// Forks into the namespaces. `Ok(Some(pid))`: this is the outer half and `pid` the runner
/// inside; `Ok(None)`: this is the runner inside, set up; `Err`: no namespaces, and why.
fn into_namespaces() -> Result<Option<Pid>, String> {
    let (uid, gid) = sys::ids();
    let (read, write) = sys::pipe().map_err(|e| format!("a pipe: {e}"))?;
    match sys::clone_into_namespaces() {
        Err(e) => Err(namespace_error(&e)),
        Ok(None) => {
            drop(read);
            let mut report = File::from(write);
            match set_up_inside(uid, gid) {
                Ok(()) => {
                    let _ = report.write_all(b"ok\n");
                    Ok(None)
                }
                Err(why) => {
                    let _ = writeln!(report, "{why}");
                    std::process::exit(3);
                }
            }
        }
        Ok(Some(inner)) => {
            drop(write);
            let mut line = String::new();
            let _ = BufReader::new(File::from(read)).read_line(&mut line);
            if line == "ok\n" {
                Ok(Some(inner))
            } else {
                sys::wait4(inner);
                Err(match line.trim() {
                    "" => "the sandboxed runner did not start".to_string(),
                    why => why.to_string(),
                })
            }
        }
    }
}

/// Why the namespaces could not be made, as a user can act on it.
fn namespace_error(e: &io::Error) -> String {
    let knob = [
        "/proc/sys/kernel/unprivileged_userns_clone",
        "/proc/sys/user/max_user_namespaces",
    ]
    .iter()
    .find(|p| std::fs::read_to_string(p).is_ok_and(|v| v.trim() == "0"));
    match (e.raw_os_error(), knob) {
        (_, Some(knob)) => format!("user namespaces are turned off here ({knob} is 0)"),
        (Some(libc::EPERM), None) => {
            "user namespaces are not allowed here (a container or a security policy forbids them)"
                .into()
        }
        (Some(libc::EINVAL), None) => "this kernel has no user namespaces".into(),
        _ => format!("cannot make namespaces: {e}"),
    }
}

/// In the new namespaces, as their init: map this user (and group) to itself, mount a `/proc`
/// that shows this pid namespace, cap its processes, and harden.
fn set_up_inside(uid: u32, gid: u32) -> Result<(), String> {
    let write = |file: &str, text: String| {
        std::fs::write(file, &text).map_err(|e| format!("writing {file}: {e}"))
    };
    write("/proc/self/setgroups", "deny".into())?;
    write("/proc/self/uid_map", format!("{uid} {uid} 1"))?;
    write("/proc/self/gid_map", format!("{gid} {gid} 1"))?;
    sys::mount_own_proc().map_err(|e| format!("cannot mount a /proc of its own: {e}"))?;
    // A cap on processes for every user (kernels from 6.14 keep pid_max per namespace): pids
    // wrap around to 300, so this leaves MAX_PROCESSES at least. The pids cgroup, where there
    // is one, is the exact cap.
    let _ = std::fs::write(
        "/proc/sys/kernel/pid_max",
        (MAX_PROCESSES + 301).to_string(),
    );
    sys::harden().map_err(|e| format!("cannot drop privileges: {e}"))?;
    sys::die_with_parent();
    Ok(())
}
