//! The system calls no program of a judge needs, refused by a seccomp filter the runner installs on itself once (its programs inherit it).
//!
//! Refused with EPERM: tracing and reading other processes (`ptrace`, `process_vm_*`), new
//! namespaces (`unshare`, `setns`, `clone` with a namespace flag), mounts, BPF, kernel modules,
//! `kexec`, `reboot`, swap, the kernel keyrings, `perf_event_open`, `userfaultfd` and io_uring
//! (attack surface, or side channels, for no program a judge runs). `clone3`, whose flags a
//! filter cannot read, says ENOSYS, and the C library then uses `clone`. A socket may be IPv4,
//! IPv6 or netlink (which the network namespace confines): a unix socket could reach a service
//! of the machine by its path (Docker's, a terminal multiplexer's), which neither the network
//! namespace nor Landlock before Linux 7.1 stops, so `socket(AF_UNIX)` is refused with EACCES
//! (a pair of connected ones, `socketpair`, stays allowed). System calls of another
//! architecture (x32, i386 through `int 0x80`) are refused, so none of this can be bypassed.

use libc::sock_filter;

/// `AUDIT_ARCH_*` of the architectures the filter knows (`linux/audit.h`).
#[cfg(target_arch = "x86_64")]
const ARCH: u32 = 0xC000_003E;
#[cfg(target_arch = "aarch64")]
const ARCH: u32 = 0xC000_00B7;

/// The x32 ABI's system calls on x86_64 carry this bit.
const X32_BIT: u32 = 0x4000_0000;

/// Offsets in `struct seccomp_data`: the call's number, the architecture, its first argument.
const NR: u32 = 0;
const ARCH_OFFSET: u32 = 4;
const ARG0: u32 = 16;

fn stmt(code: u32, k: u32) -> sock_filter {
    sock_filter {
        code: code as u16,
        jt: 0,
        jf: 0,
        k,
    }
}

fn jump(code: u32, k: u32, jt: u8, jf: u8) -> sock_filter {
    sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    }
}

fn load(offset: u32) -> sock_filter {
    stmt(libc::BPF_LD | libc::BPF_W | libc::BPF_ABS, offset)
}

fn ret(value: u32) -> sock_filter {
    stmt(libc::BPF_RET | libc::BPF_K, value)
}

fn errno(e: i32) -> u32 {
    libc::SECCOMP_RET_ERRNO | e as u32
}

/// The system calls refused with EPERM.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
fn refused() -> Vec<libc::c_long> {
    #[allow(unused_mut)]
    let mut calls = vec![
        libc::SYS_ptrace,
        libc::SYS_process_vm_readv,
        libc::SYS_process_vm_writev,
        libc::SYS_unshare,
        libc::SYS_setns,
        libc::SYS_mount,
        libc::SYS_umount2,
        libc::SYS_pivot_root,
        libc::SYS_fsopen,
        libc::SYS_fsmount,
        libc::SYS_fspick,
        libc::SYS_move_mount,
        libc::SYS_open_tree,
        libc::SYS_mount_setattr,
        libc::SYS_bpf,
        libc::SYS_init_module,
        libc::SYS_finit_module,
        libc::SYS_delete_module,
        libc::SYS_kexec_load,
        libc::SYS_kexec_file_load,
        libc::SYS_reboot,
        libc::SYS_swapon,
        libc::SYS_swapoff,
        libc::SYS_keyctl,
        libc::SYS_add_key,
        libc::SYS_request_key,
        libc::SYS_perf_event_open,
        libc::SYS_userfaultfd,
        libc::SYS_io_uring_setup,
        libc::SYS_io_uring_enter,
        libc::SYS_io_uring_register,
        libc::SYS_open_by_handle_at,
        libc::SYS_acct,
        libc::SYS_quotactl,
        libc::SYS_syslog,
    ];
    #[cfg(target_arch = "x86_64")]
    calls.extend([libc::SYS_iopl, libc::SYS_ioperm]);
    calls
}

/// The namespace flags of `clone` (CLONE_NEWTIME shares its bit with the exit signal there).
const CLONE_NAMESPACES: u32 = (libc::CLONE_NEWNS
    | libc::CLONE_NEWCGROUP
    | libc::CLONE_NEWUTS
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWUSER
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWNET) as u32;

/// The filter, or `None` on an architecture it does not know.
#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
pub(super) fn filter() -> Option<Vec<sock_filter>> {
    use libc::{BPF_JEQ, BPF_JGE, BPF_JMP, BPF_JSET, BPF_K};
    let allow = libc::SECCOMP_RET_ALLOW;
    let mut f = vec![
        load(ARCH_OFFSET),
        jump(BPF_JMP | BPF_JEQ | BPF_K, ARCH, 1, 0),
        ret(errno(libc::ENOSYS)),
        load(NR),
    ];
    if cfg!(target_arch = "x86_64") {
        f.push(jump(BPF_JMP | BPF_JGE | BPF_K, X32_BIT, 0, 1));
        f.push(ret(errno(libc::ENOSYS)));
    }
    for call in refused() {
        f.push(jump(BPF_JMP | BPF_JEQ | BPF_K, call as u32, 0, 1));
        f.push(ret(errno(libc::EPERM)));
    }
    f.push(jump(
        BPF_JMP | BPF_JEQ | BPF_K,
        libc::SYS_clone3 as u32,
        0,
        1,
    ));
    f.push(ret(errno(libc::ENOSYS)));
    // clone: refused with a namespace flag in its first argument.
    f.extend([
        jump(BPF_JMP | BPF_JEQ | BPF_K, libc::SYS_clone as u32, 0, 4),
        load(ARG0),
        jump(BPF_JMP | BPF_JSET | BPF_K, CLONE_NAMESPACES, 0, 1),
        ret(errno(libc::EPERM)),
        ret(allow),
    ]);
    // socket: IPv4, IPv6 and netlink only.
    f.extend([
        jump(BPF_JMP | BPF_JEQ | BPF_K, libc::SYS_socket as u32, 0, 6),
        load(ARG0),
        jump(BPF_JMP | BPF_JEQ | BPF_K, libc::AF_INET as u32, 3, 0),
        jump(BPF_JMP | BPF_JEQ | BPF_K, libc::AF_INET6 as u32, 2, 0),
        jump(BPF_JMP | BPF_JEQ | BPF_K, libc::AF_NETLINK as u32, 1, 0),
        ret(errno(libc::EACCES)),
        ret(allow),
    ]);
    f.push(ret(allow));
    Some(f)
}

#[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
pub(super) fn filter() -> Option<Vec<sock_filter>> {
    None
}
