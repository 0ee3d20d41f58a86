//! A fork bomb: where the runner can have a pids cgroup (root, and the cgroup v1 `pids`
//! controller or a cgroup v2 tree that delegates it) the bomb stops at the cap, is TLE, and leaves
//! nothing behind. Elsewhere it is ignored (build.rs: `judge_has_pids_cgroup`): uncapped, it
//! could exhaust the PIDs. Its 512 spinning tasks starve the machine until the runner kills them,
//! so no test that runs programs runs meanwhile: it holds the harness's fork-bomb lock alone
//! (`Test::alone`), which every other program's run holds shared.

use std::time::Duration;

use crate::common::{self, cached, cgroup, procs, Test, Workspace};

#[test]
#[cfg_attr(
    not(judge_has_pids_cgroup),
    ignore = "needs a pids cgroup: root, and cgroup v1 `pids` or a cgroup v2 tree delegating it"
)]
fn a_fork_bomb_is_capped_and_cleaned_up() {
    // Checked before the bomb is let off: without the cap it could exhaust the PIDs.
    let parent = cgroup::probe().unwrap_or_else(|why| {
        panic!("needs a pids cgroup (root, and cgroup v1 `pids` or a cgroup v2 tree delegating it): {why}")
    });
    let ws = Workspace::doubling("200ms");
    let src = common::repo().join("tests/corpus/sandbox/fork-bomb.rs");
    let cache = ws.path().join("cache");
    let _alone = Test::alone();
    let started = std::time::Instant::now();
    let mut judge = ws
        .judge()
        .cache(&cache)
        .args(["run", src.to_str().unwrap(), "--json", "--no-history"])
        .expect_exit(1)
        .spawn();
    // The judge's children are its runners, started before it compiles (long before the bomb);
    // each makes its own cgroup `judge-PID`. Other tests' judges may have theirs.
    let mut runners = std::collections::BTreeSet::new();
    while judge.is_running() {
        runners.extend(
            procs::processes(|p| p.ppid == judge.id())
                .iter()
                .map(|p| p.pid),
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    let doc = judge.wait(Duration::from_secs(60)).json();
    assert_eq!(doc["verdict"], "TLE", "{doc:#}");
    assert!(started.elapsed().as_secs() < 60);
    let survivors = procs::running_from(&cached::builds(&cache));
    assert_eq!(
        survivors.len(),
        0,
        "fork bomb processes survived the judge: {survivors:?}"
    );
    // The runner removed its cgroup when it ended.
    assert!(!runners.is_empty(), "the judge's runner was never seen");
    let left: Vec<_> = runners
        .iter()
        .map(|pid| parent.join(format!("judge-{pid}")))
        .filter(|dir| {
            std::fs::read_to_string(dir.join("cgroup.procs")).is_ok_and(|p| !p.trim().is_empty())
        })
        .collect();
    assert!(
        left.is_empty(),
        "a judge cgroup still holds processes: {left:?}"
    );
}
