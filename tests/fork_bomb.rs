//! A fork bomb, alone in its own test binary (cargo runs test binaries one at a time): where the
//! runner can have a pids cgroup (root, cgroup `pids` controller) the bomb stops at the cap, is
//! TLE, and leaves nothing behind. Elsewhere it is skipped: uncapped, it could exhaust the PIDs.

mod common;

use common::{json, Workspace};

/// Whether a pids cgroup can be made here, as the runner would make it.
fn pids_cgroup_available() -> bool {
    let Ok(own) = std::fs::read_to_string("/proc/self/cgroup") else {
        return false;
    };
    let Some(path) = own.lines().find_map(|l| {
        let mut p = l.splitn(3, ':');
        let (_, controllers, path) = (p.next()?, p.next()?, p.next()?);
        controllers
            .split(',')
            .any(|c| c == "pids")
            .then(|| path.trim_start_matches('/').to_string())
    }) else {
        return false;
    };
    let probe = std::path::Path::new("/sys/fs/cgroup/pids")
        .join(path)
        .join(format!("judge-probe-{}", std::process::id()));
    let made = std::fs::create_dir(&probe).is_ok();
    let _ = std::fs::remove_dir(&probe);
    made
}

#[test]
fn a_fork_bomb_is_capped_and_cleaned_up() {
    if !pids_cgroup_available() {
        eprintln!(
            "skipped: no pids cgroup can be made here (needs root and the cgroup pids controller)"
        );
        return;
    }
    let ws = Workspace::doubling("200ms");
    let src = ws.write(
        "bomb.rs",
        "extern \"C\" { fn fork() -> i32; }\nfn main() { println!(\"42\"); loop { unsafe { fork(); } } }\n",
    );
    let cache = ws.path().join("cache");
    let started = std::time::Instant::now();
    let out = ws
        .judge()
        .env("JUDGE_CACHE_DIR", &cache)
        .args(["run", src.to_str().unwrap(), "--json", "--no-history"])
        .output()
        .unwrap();
    let doc = json(&out.stdout);
    assert_eq!(doc["verdict"], "TLE", "{doc:#}");
    assert!(started.elapsed().as_secs() < 60);
    let bin = cache.join("build").canonicalize().unwrap();
    let survivors = std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|e| std::fs::read_link(e.path().join("exe")).ok())
        .filter(|exe| exe.starts_with(&bin))
        .count();
    assert_eq!(survivors, 0, "fork bomb processes survived the judge");
    // The runner removed its cgroup when it ended.
    let left: Vec<_> = std::fs::read_dir("/sys/fs/cgroup/pids")
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("judge-"))
        .filter(|e| {
            std::fs::read_to_string(e.path().join("cgroup.procs"))
                .is_ok_and(|p| !p.trim().is_empty())
        })
        .collect();
    assert!(
        left.is_empty(),
        "a judge cgroup still holds processes: {left:?}"
    );
}
