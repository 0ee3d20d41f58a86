// expect: TLE
// alone: judged by tests/it/fork_bomb.rs, with nothing else running (it starves the machine for a second)
// why: prints 42, then forks forever; the pids cgroup or its pid namespace caps its processes, its CPU time runs out, and the runner kills them all.
extern "C" {
    fn fork() -> i32;
}

fn main() {
    println!("42");
    loop {
        unsafe {
            fork();
        }
    }
}
