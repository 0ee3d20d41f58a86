//! The cache's rules with real compilers (g++, python3) and a cache of the test's own: the same
//! source and flags hit; a changed source, flag or compiler identity misses; a compiler stopped
//! at its limit leaves nothing a later build takes; a build folder gone is built again.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use super::super::*;
use crate::lang::Command;
use judge_runner::{KilledBy, Outcome, Request, Response, RunError};

/// Runs each request as a plain process (unsandboxed, as `--no-sandbox` does), its whole
/// process group killed at the wall-clock limit and said to be, as the runner says it: a unit
/// test has no judge executable to start a runner from.
#[derive(Default)]
struct Processes {
    pending: Vec<Request>,
}

impl Processes {
    fn serve(request: &Request) -> std::io::Result<Response> {
        use std::os::unix::process::{CommandExt, ExitStatusExt};
        let mut command = std::process::Command::new(&request.program);
        command
            .args(&request.args)
            .current_dir(&request.cwd)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&request.stdout)?)
            .stderr(std::fs::File::create(&request.stderr)?)
            .process_group(0);
        if let Some(env) = &request.env {
            command.env_clear().envs(env.iter().cloned());
        }
        let started = Instant::now();
        let wall = Duration::from_millis(request.limits.wall_ms);
        let mut child = command.spawn()?;
        let mut killed_by = None;
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if started.elapsed() > wall && killed_by.is_none() {
                // The group: g++ leaves cc1plus and as running when only the driver is killed.
                std::process::Command::new("kill")
                    .args(["-KILL", "--", &format!("-{}", child.id())])
                    .status()?;
                killed_by = Some(KilledBy::WallCap);
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let size = |p: &Path| std::fs::metadata(p).map_or(0, |m| m.len());
        let mut response = Response::not_started(String::new());
        response.outcome = match (status.code(), status.signal()) {
            (Some(code), _) => Outcome::Exited(code),
            (None, signal) => Outcome::Signaled(signal.unwrap_or(judge_runner::SIGKILL)),
        };
        response.wall_us = started.elapsed().as_micros() as u64;
        response.killed_by = killed_by;
        response.stdout_bytes = size(&request.stdout);
        response.stderr_bytes = size(&request.stderr);
        Ok(response)
    }
}

impl Executor for Processes {
    fn send(&mut self, request: Request) -> std::result::Result<(), RunError> {
        self.pending.push(request);
        Ok(())
    }

    fn receive(&mut self) -> std::result::Result<(Request, Response), RunError> {
        let request = self.pending.remove(0);
        let response = Processes::serve(&request)
            .map_err(|e| RunError::Broken(format!("{}: {e}", request.program.display())))?;
        Ok((request, response))
    }

    fn pending(&self) -> &[Request] {
        &self.pending
    }
}

/// A folder with sources and a cache of its own.
struct Lab {
    dir: tempfile::TempDir,
    cache: Cache,
}

/// What `compile` answers.
type Compiled = Result<std::result::Result<Built, CompileError>>;

impl Lab {
    fn new() -> Lab {
        let dir = tempfile::tempdir().unwrap();
        let cache = Cache::new(dir.path().join("cache"));
        Lab { dir, cache }
    }

    fn root(&self) -> &Path {
        self.dir.path()
    }

    fn write(&self, name: &str, text: &str) -> PathBuf {
        let path = self.root().join(name);
        std::fs::write(&path, text).unwrap();
        path
    }

    /// `language` made ready with `settings`, its compilers asked for their identity afresh
    /// (a new judge), their answers remembered in this cache.
    fn toolchain(&self, language: Language, settings: BuildSettings) -> Toolchain {
        let tools = Toolchains::new(self.root(), self.cache.identities());
        Toolchain::find(Arc::new(language), &tools, settings).expect("the compiler is installed")
    }

    fn compile(&self, source: &Path, toolchain: &Toolchain) -> Compiled {
        let source = Source::alone(source);
        compile(
            &source,
            toolchain,
            &self.cache,
            &mut Processes::default(),
            self.root(),
        )
    }

    fn built(&self, source: &Path, toolchain: &Toolchain) -> Built {
        match self.compile(source, toolchain) {
            Ok(Ok(built)) => built,
            other => panic!("{} did not build: {other:?}", source.display()),
        }
    }

    /// How many entries the cache's `sub` folder holds.
    fn count(&self, sub: &str) -> usize {
        std::fs::read_dir(self.cache.dir.join(sub)).map_or(0, |d| d.count())
    }
}

fn language(id: &str) -> Language {
    crate::lang::builtin::languages()
        .into_iter()
        .find(|l| l.id == id)
        .expect("a built-in language")
}

fn settings() -> BuildSettings {
    BuildSettings {
        time_limit: Duration::from_secs(120),
        ..BuildSettings::default()
    }
}

/// What the built program prints.
fn output(program: &Program) -> String {
    let (exe, args) = program.command(256 << 20);
    let out = std::process::Command::new(exe)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap()
}

const HELLO_CPP: &str = "#include <cstdio>\nint main() { std::puts(\"hello\"); }\n";

#[test]
fn the_same_source_and_flags_hit_the_cache_and_a_changed_source_misses() {
    let lab = Lab::new();
    let source = lab.write("hello.cpp", HELLO_CPP);
    let cpp = lab.toolchain(language("cpp"), settings());
    let first = lab.built(&source, &cpp);
    assert!(!first.cached, "nothing was in the cache");
    let again = lab.built(&source, &lab.toolchain(language("cpp"), settings()));
    assert!(again.cached, "the same source and flags were built again");
    assert_eq!(again.program.dir, first.program.dir);
    assert_eq!(output(&again.program), "hello\n");

    lab.write("hello.cpp", &HELLO_CPP.replace("hello", "bye"));
    let changed = lab.built(&source, &cpp);
    assert!(!changed.cached, "a changed source was taken from the cache");
    assert_eq!(output(&changed.program), "bye\n");
    assert_eq!(lab.count("build"), 2);
}

#[test]
fn an_interpreted_source_hits_the_cache_too() {
    let lab = Lab::new();
    let source = lab.write("hello.py", "print('hello')\n");
    let python = lab.toolchain(language("python"), settings());
    assert!(!lab.built(&source, &python).cached);
    let again = lab.built(&source, &python);
    assert!(again.cached, "the same script was checked again");
    assert_eq!(output(&again.program), "hello\n");
}

#[test]
fn a_changed_flag_misses() {
    let lab = Lab::new();
    let source = lab.write("hello.cpp", HELLO_CPP);
    let plain = lab.built(&source, &lab.toolchain(language("cpp"), settings()));
    let checks = BuildSettings {
        checks: true,
        ..settings()
    };
    let checked = lab.built(&source, &lab.toolchain(language("cpp"), checks));
    assert!(
        !checked.cached,
        "a build with --checks took the build without"
    );
    assert_ne!(checked.program.dir, plain.program.dir);
    assert_eq!(output(&checked.program), "hello\n");
    let plain_again = lab.built(&source, &lab.toolchain(language("cpp"), settings()));
    assert!(plain_again.cached, "each flag keeps its own build");
    assert_eq!(plain_again.program.dir, plain.program.dir);
}

#[test]
fn a_changed_compiler_identity_misses() {
    let lab = Lab::new();
    std::fs::create_dir(lab.root().join("tools")).unwrap();
    // A compiler named by a path in the workspace: the real g++ behind a script whose
    // version is ours to change, as an upgrade changes the installed one's.
    let wrapper = |version: &str| {
        let path = lab.write(
            "tools/g++",
            &format!(
                "#!/bin/sh\nif [ \"$1\" = --version ]; then echo 'g++ (wrapped) {version}'; \
                 else exec g++ \"$@\"; fi\n"
            ),
        );
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
    };
    let wrapped = || Language {
        compile: Some(Command::parse_line("tools/g++ -O2 -o {binary} {sources}").unwrap()),
        ..language("cpp")
    };
    let source = lab.write("hello.cpp", HELLO_CPP);
    wrapper("1.0");
    let old = lab.toolchain(wrapped(), settings());
    assert_eq!(old.identity, "g++ (wrapped) 1.0");
    let first = lab.built(&source, &old);
    assert!(
        lab.built(&source, &lab.toolchain(wrapped(), settings()))
            .cached
    );

    wrapper("2.0.1");
    let new = lab.toolchain(wrapped(), settings());
    assert_eq!(
        new.identity, "g++ (wrapped) 2.0.1",
        "the new compiler was not asked"
    );
    let rebuilt = lab.built(&source, &new);
    assert!(!rebuilt.cached, "another compiler's build was taken");
    assert_ne!(rebuilt.program.dir, first.program.dir);
    assert_eq!(output(&rebuilt.program), "hello\n");
}

#[test]
fn a_compiler_stopped_at_its_time_limit_leaves_nothing_a_later_build_takes() {
    let lab = Lab::new();
    // The whole standard library: far more than the limit to compile, on any machine.
    let source = lab.write(
        "heavy.cpp",
        "#include <bits/stdc++.h>\nint main() { std::map<int, std::string> m; \
         std::cout << m.size() << std::endl; }\n",
    );
    let hurried = BuildSettings {
        time_limit: Duration::from_millis(20),
        ..settings()
    };
    let stopped = lab.compile(&source, &lab.toolchain(language("cpp"), hurried));
    let Ok(Err(ce)) = stopped else {
        panic!("a compiler stopped at its limit is the source's CE: {stopped:?}")
    };
    assert!(
        ce.diagnostics.starts_with("compilation stopped: "),
        "{}",
        ce.diagnostics
    );
    assert!(!ce.cached);
    assert_eq!(lab.count("ce"), 0, "a stop was kept as the source's CE");
    assert_eq!(lab.count("build"), 0, "a stopped build was kept");

    let patient = lab.built(&source, &lab.toolchain(language("cpp"), settings()));
    assert!(!patient.cached, "the stopped build was taken");
    assert_eq!(output(&patient.program), "0\n");
}

#[test]
fn a_compile_error_is_kept_and_taken_again() {
    let lab = Lab::new();
    let source = lab.write("broken.cpp", "int main() { return missing; }\n");
    let cpp = lab.toolchain(language("cpp"), settings());
    let Ok(Err(first)) = lab.compile(&source, &cpp) else {
        panic!("an undeclared name compiled")
    };
    assert!(!first.cached);
    assert!(
        first.diagnostics.contains("missing"),
        "{}",
        first.diagnostics
    );
    assert_eq!(lab.count("ce"), 1);
    let Ok(Err(again)) = lab.compile(&source, &cpp) else {
        panic!("the kept compile error was not taken")
    };
    assert!(
        again.cached,
        "the same source and compiler were asked again"
    );
    assert_eq!(again.diagnostics, first.diagnostics);
}

#[test]
fn a_vanished_build_folder_is_built_again_not_taken() {
    let lab = Lab::new();
    let source = lab.write("hello.cpp", HELLO_CPP);
    let cpp = lab.toolchain(language("cpp"), settings());
    let first = lab.built(&source, &cpp);
    std::fs::remove_dir_all(&first.program.dir).unwrap();
    let rebuilt = lab.built(&source, &cpp);
    assert!(
        !rebuilt.cached,
        "a build folder that is gone was reported as a hit"
    );
    assert_eq!(rebuilt.program.dir, first.program.dir);
    assert_eq!(output(&rebuilt.program), "hello\n");
}

#[test]
fn a_build_folder_left_half_removed_is_built_again_not_taken() {
    let lab = Lab::new();
    let source = lab.write("hello.cpp", HELLO_CPP);
    let cpp = lab.toolchain(language("cpp"), settings());
    let first = lab.built(&source, &cpp);
    // A removal cut short (an interrupted `judge clean`): the mark gone, a file left.
    std::fs::remove_file(first.program.dir.join(".built")).unwrap();
    std::fs::remove_file(first.program.dir.join("solution")).unwrap();
    let again = lab.built(&source, &cpp);
    assert!(
        !again.cached,
        "a build folder without its mark was reported as a hit"
    );
    assert_eq!(again.program.dir, first.program.dir);
    assert_eq!(output(&again.program), "hello\n");
    assert!(
        lab.built(&source, &cpp).cached,
        "the build made again was not kept"
    );
}
