//! One way for a test to run a program: [`Test`], a builder. `ws.judge()` or `Test::at(dir)` is
//! the judge in a folder; `.arg`, `.args`, `.env`, `.cache` shape the command; `.expect_exit`,
//! `.stdout_has`, `.stderr_has`... say what it must do; `.run()` runs it to its end, checks, and
//! gives an [`Output`] (its text, its exit code, its JSON document); `.spawn()` starts it for a
//! test that acts while it runs, as a [`Running`] (its lines as they come, Ctrl-C, a wait with a
//! deadline). A failed check prints the command line, its folder, stdout and stderr. A run of
//! the judge states the exit code it must end with (`.expect_exit`, or `.any_exit()` where any
//! will do, with a comment saying why): one that states none fails, as does the judge's panic.
//!
//! Every command has the same environment: no colour, no `JUDGE_HISTORY` nor `JUDGE_NATS` from
//! outside, no user's config file (`XDG_CONFIG_HOME` is a folder without one), and the
//! compile cache shared by the whole run (`JUDGE_CACHE_DIR`, so each fixture compiles once)
//! unless the test gives one of its own (`.cache(dir)`: a test that must see what is compiled,
//! or removes it, never uses the shared one).
//!
//! The fork-bomb rule (guard.rs): whatever runs a program holds the fork-bomb lock, shared, for
//! as long as the program runs. `run` and `spawn` hold it themselves (a `Running` until its
//! process has ended), so a test that goes through them takes nothing by hand. A test that
//! starts a program any other way (`/usr/bin/time`, a browser, a probe shared with build.rs)
//! holds `let _guard = Test::guard();` for as long as that program lives. The fork-bomb test
//! alone takes `Test::alone()`.

mod guard;
mod output;
mod running;

use std::ffi::{OsStr, OsString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

pub(crate) use guard::{Alone, Guard};
pub(crate) use output::Output;
use output::Text;
pub(crate) use running::Running;

/// The judge built for these tests.
const JUDGE: &str = env!("CARGO_BIN_EXE_judge");

/// A command to run, and what it must do.
#[must_use = "a test runs only with .run() or .spawn()"]
pub(crate) struct Test {
    program: PathBuf,
    /// A command the program runs within (`unshare ...`, `setpriv ...`).
    wrapper: Vec<OsString>,
    args: Vec<OsString>,
    dir: Option<PathBuf>,
    /// Set after the common environment.
    env: Vec<(OsString, OsString)>,
    stdin_piped: bool,
    expect: Expect,
}

/// The exit code a command must end with. A run of the judge states one: a test that does not
/// say which code it expects would pass on an error as well as on a verdict.
#[derive(Default, Clone, Copy, PartialEq, Debug)]
enum Exit {
    /// Nothing said: refused for the judge, accepted for another program.
    #[default]
    Unstated,
    Code(i32),
    /// Any code, said so: for the few runs whose code is not what they test.
    Any,
}

impl Exit {
    fn code(self) -> Option<i32> {
        match self {
            Exit::Code(code) => Some(code),
            Exit::Unstated | Exit::Any => None,
        }
    }
}

/// What a command must do, checked once it has ended.
#[derive(Default)]
struct Expect {
    /// Whether the program is the judge, whose own panic fails every test (a panic exits 101),
    /// and which must say which exit code it expects.
    judge: bool,
    exit: Exit,
    stdout_has: Vec<String>,
    stdout_lacks: Vec<String>,
    stdout_matches: Vec<regex::Regex>,
    stderr_has: Vec<String>,
    stderr_lacks: Vec<String>,
}

impl Test {
    /// The judge, in the folder the tests run in.
    pub(crate) fn new() -> Test {
        Test::program(JUDGE)
    }

    /// The judge in `dir`.
    pub(crate) fn at(dir: impl AsRef<Path>) -> Test {
        Test::new().current_dir(dir)
    }

    /// Another program, with the tests' environment all the same.
    pub(crate) fn program(program: impl AsRef<Path>) -> Test {
        Test {
            program: program.as_ref().to_path_buf(),
            wrapper: Vec::new(),
            args: Vec::new(),
            dir: None,
            env: Vec::new(),
            stdin_piped: false,
            expect: Expect {
                // A copy of the judge (one an ordinary user can reach) is the judge too.
                judge: program.as_ref() == Path::new(JUDGE)
                    || program.as_ref().file_name() == Some(OsStr::new("judge")),
                ..Expect::default()
            },
        }
    }

    /// The judge in `dir`, outside any workspace: what such a run keeps (history, outputs)
    /// goes under `dir/.cache` (`XDG_CACHE_HOME`).
    pub(crate) fn outside(dir: impl AsRef<Path>) -> Test {
        let dir = dir.as_ref();
        Test::at(dir).env("XDG_CACHE_HOME", dir.join(".cache"))
    }

    /// Holds the fork-bomb lock, shared, while the guard lives: for a test that starts a program
    /// other than through `run` or `spawn`.
    pub(crate) fn guard() -> Guard {
        guard::guard()
    }

    /// Holds the fork-bomb lock alone: the fork-bomb test, and no other.
    pub(crate) fn alone() -> Alone {
        guard::alone()
    }

    pub(crate) fn current_dir(mut self, dir: impl AsRef<Path>) -> Test {
        self.dir = Some(dir.as_ref().to_path_buf());
        self
    }

    /// Runs the program within `wrapper`: `wrapper... PROGRAM ARGS...`.
    pub(crate) fn wrapped_in<I, S>(mut self, wrapper: I) -> Test
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.wrapper = wrapper
            .into_iter()
            .map(|w| w.as_ref().to_os_string())
            .collect();
        self
    }

    pub(crate) fn arg(mut self, arg: impl AsRef<OsStr>) -> Test {
        self.args.push(arg.as_ref().to_os_string());
        self
    }

    pub(crate) fn args<I, S>(mut self, args: I) -> Test
    where
        I: IntoIterator<Item = S>,
        S: AsRef<OsStr>,
    {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_os_string()));
        self
    }

    pub(crate) fn env(mut self, key: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Test {
        self.env
            .push((key.as_ref().to_os_string(), value.as_ref().to_os_string()));
        self
    }

    /// A compile cache of the test's own, instead of the shared one.
    pub(crate) fn cache(self, dir: impl AsRef<Path>) -> Test {
        self.env("JUDGE_CACHE_DIR", dir.as_ref())
    }

    /// A pipe to the program's stdin ([`Running::stdin`]); it reads an empty stdin otherwise.
    pub(crate) fn stdin_piped(mut self) -> Test {
        self.stdin_piped = true;
        self
    }

    pub(crate) fn expect_exit(mut self, code: i32) -> Test {
        self.expect.exit = Exit::Code(code);
        self
    }

    /// Accepts any exit code: only for a run whose code is not what it tests (a step that sets
    /// up what the test then looks at, a code the caller checks itself), with a comment saying
    /// why. A panic of the judge still fails it.
    pub(crate) fn any_exit(mut self) -> Test {
        self.expect.exit = Exit::Any;
        self
    }

    pub(crate) fn stdout_has(mut self, text: impl Into<String>) -> Test {
        self.expect.stdout_has.push(text.into());
        self
    }

    pub(crate) fn stdout_lacks(mut self, text: impl Into<String>) -> Test {
        self.expect.stdout_lacks.push(text.into());
        self
    }

    /// Stdout matches the regular expression `re` (somewhere: anchor it to say more).
    pub(crate) fn stdout_matches(mut self, re: &str) -> Test {
        let re = regex::Regex::new(re).unwrap_or_else(|e| panic!("{re}: {e}"));
        self.expect.stdout_matches.push(re);
        self
    }

    pub(crate) fn stderr_has(mut self, text: impl Into<String>) -> Test {
        self.expect.stderr_has.push(text.into());
        self
    }

    pub(crate) fn stderr_lacks(mut self, text: impl Into<String>) -> Test {
        self.expect.stderr_lacks.push(text.into());
        self
    }

    /// Runs it to its end, holding the fork-bomb lock, and checks what was expected.
    #[track_caller]
    pub(crate) fn run(self) -> Output {
        let _guard = guard::guard();
        let out = match self.command().output() {
            Ok(out) => out,
            Err(e) => panic!("cannot start {self}: {e}"),
        };
        let out = Output::new(self.text(), out.status.code(), out.stdout, out.stderr);
        self.expect.check(&out);
        out
    }

    /// Starts it, holding the fork-bomb lock until it has ended; what was expected is checked by
    /// [`Running::wait`].
    #[track_caller]
    pub(crate) fn spawn(self) -> Running {
        let guard = guard::guard();
        let child = match self
            .command()
            .stdin(if self.stdin_piped {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
        {
            Ok(child) => child,
            Err(e) => panic!("cannot start {self}: {e}"),
        };
        Running::new(child, self.text(), self.expect, guard)
    }

    /// Runs it to its end as a terminal shows it: stdout and stderr in one stream, in the order
    /// written, and its exit code; stopped, and an error, past `within`. Holds the fork-bomb
    /// lock; an error, with the whole output, when the exit code is not the one expected, or the
    /// judge panicked, or it states none; the caller compares the text.
    pub(crate) fn run_as_terminal(
        self,
        within: std::time::Duration,
    ) -> Result<(Option<i32>, String), String> {
        use std::io::{Read, Seek};
        let _guard = guard::guard();
        let mut log = tempfile::tempfile().unwrap();
        let mut child = self
            .command()
            .stdin(Stdio::null())
            .stdout(log.try_clone().unwrap())
            .stderr(log.try_clone().unwrap())
            .spawn()
            .map_err(|e| format!("cannot start {self}: {e}"))?;
        let started = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if started.elapsed() > within {
                let _ = child.kill();
                let _ = child.wait();
                return Err(format!("{self} still ran after {within:?}: stopped"));
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let mut bytes = Vec::new();
        log.rewind().unwrap();
        log.read_to_end(&mut bytes).unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        let out = Output {
            code: status.code(),
            stdout: String::new(),
            stderr: text,
            command: self.to_string(),
        };
        let wrong = self.expect.exit_wrong(&out);
        if !wrong.is_empty() {
            return Err(format!("{self}:\n  {}\n{}", wrong.join("\n  "), out.stderr));
        }
        Ok((out.code, out.stderr))
    }

    /// Its command line, and whether its output must be UTF-8: the judge's must.
    fn text(&self) -> Text {
        Text {
            command: self.to_string(),
            strict: self.program == Path::new(JUDGE),
        }
    }

    fn command(&self) -> Command {
        // `judge clean` empties the cache it is given: the shared one would be emptied under
        // every test running beside this one (a binary gone mid-run, a build half made).
        let own_cache = self.env.iter().any(|(k, _)| k == "JUDGE_CACHE_DIR");
        assert!(
            own_cache
                || self.program != Path::new(JUDGE)
                || self.args.first().is_none_or(|a| a != "clean"),
            "`judge clean` in a test needs a cache of its own: .cache(dir)"
        );
        let mut cmd = match self.wrapper.split_first() {
            Some((first, rest)) => {
                let mut c = Command::new(first);
                c.args(rest).arg(&self.program);
                c
            }
            None => Command::new(&self.program),
        };
        cmd.args(&self.args)
            .env("NO_COLOR", "1")
            .env("JUDGE_CACHE_DIR", super::shared_cache())
            .env_remove("JUDGE_HISTORY")
            .env_remove("JUDGE_NATS")
            .env_remove("JUDGE_NATS_CREDENTIALS")
            // Not the user's own config file: a folder where none is.
            .env(
                "XDG_CONFIG_HOME",
                super::shared_cache().with_file_name("judge-test-no-config"),
            )
            .envs(self.env.iter().map(|(k, v)| (k, v)));
        if let Some(dir) = &self.dir {
            cmd.current_dir(dir);
        }
        cmd
    }
}

/// The command line as a user would type it: the environment the test set, the program (the
/// judge as `judge`), its arguments, and its folder.
impl fmt::Display for Test {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quoted = |s: &OsStr| {
            let s = s.to_string_lossy();
            if s.is_empty() || s.contains(|c: char| c.is_whitespace() || "\"'$\\".contains(c)) {
                format!("{s:?}")
            } else {
                s.into_owned()
            }
        };
        let mut words = Vec::new();
        for (key, value) in &self.env {
            words.push(format!("{}={}", quoted(key), quoted(value)));
        }
        words.extend(self.wrapper.iter().map(|w| quoted(w)));
        words.push(if self.program == Path::new(JUDGE) {
            "judge".to_string()
        } else {
            quoted(self.program.as_os_str())
        });
        words.extend(self.args.iter().map(|a| quoted(a)));
        write!(f, "`{}`", words.join(" "))?;
        if let Some(dir) = &self.dir {
            write!(f, " in {}", dir.display())?;
        }
        Ok(())
    }
}

impl Expect {
    /// What is wrong with how it ended: another exit code than the one expected, none stated
    /// for the judge, or the judge's own panic.
    fn exit_wrong(&self, out: &Output) -> Vec<String> {
        let mut wrong = Vec::new();
        match self.exit {
            Exit::Code(code) if out.code != Some(code) => {
                wrong.push(format!("exit code {:?}, expected {code}", out.code));
            }
            Exit::Unstated if self.judge => wrong.push(format!(
                "states no exit code (it ended with {:?}): say which with .expect_exit(N), or \
                 .any_exit() with a comment saying why any will do",
                out.code
            )),
            _ => {}
        }
        if self.judge {
            wrong.extend(judge_panic(out, self.exit.code()));
        }
        wrong
    }

    /// Panics with everything that is not as expected, the command line and its output.
    #[track_caller]
    fn check(&self, out: &Output) {
        let mut wrong = self.exit_wrong(out);
        let streams = [
            ("stdout", &out.stdout, &self.stdout_has, &self.stdout_lacks),
            ("stderr", &out.stderr, &self.stderr_has, &self.stderr_lacks),
        ];
        for (name, text, has, lacks) in streams {
            for h in has.iter().filter(|h| !text.contains(h.as_str())) {
                wrong.push(format!("{name} lacks {h:?}"));
            }
            for l in lacks.iter().filter(|l| text.contains(l.as_str())) {
                wrong.push(format!("{name} has {l:?}"));
            }
        }
        for re in self
            .stdout_matches
            .iter()
            .filter(|re| !re.is_match(&out.stdout))
        {
            wrong.push(format!("stdout does not match /{re}/"));
        }
        if !wrong.is_empty() {
            panic!("{}:\n  {}\n{out:?}", out.command, wrong.join("\n  "));
        }
    }
}

/// What says that the judge itself panicked, whatever a test expected of it: a panic's exit
/// status (101, which the judge never chooses) where no test asked for it, or a panic message
/// located in the judge's own sources (a thread's panic that the process outlived). A judged
/// program's panic names the program's file, never these.
fn judge_panic(out: &Output, expected: Option<i32>) -> Option<String> {
    static OWN_PANIC: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"panicked at (src|crates)/[^ :]+\.rs:\d+:\d+").unwrap()
    });
    if let Some(at) = OWN_PANIC.find(&out.stderr) {
        return Some(format!("the judge panicked: {}", at.as_str()));
    }
    (out.code == Some(101) && expected != Some(101))
        .then(|| "the judge panicked (exit code 101)".to_string())
}

#[test]
fn a_panic_of_the_judge_fails_whatever_was_expected() {
    let out = |code, stderr: &str| Output {
        code,
        stdout: String::new(),
        stderr: stderr.to_string(),
        command: "judge run".to_string(),
    };
    let own = "thread 'main' (7) panicked at crates/core/src/session/slot.rs:3:5:\nboom\n";
    assert!(judge_panic(&out(Some(2), own), Some(2)).is_some());
    assert!(judge_panic(&out(Some(101), ""), None).is_some());
    // A judged program's panic, which the judge shows, names the program's file.
    let theirs = "thread 'main' (9) panicked at sum.rs:3:5:\nindex out of bounds\n";
    assert!(judge_panic(&out(Some(1), theirs), Some(1)).is_none());
    assert!(judge_panic(&out(Some(101), ""), Some(101)).is_none());
}

#[test]
fn a_run_of_the_judge_that_states_no_exit_code_fails() {
    let refused = |run: fn()| {
        let panic = std::panic::catch_unwind(run).expect_err("the run was let through");
        *panic.downcast::<String>().expect("a panic with a message")
    };
    let message = refused(|| drop(Test::new().arg("--version").run()));
    assert!(message.contains("`judge --version`"), "{message}");
    assert!(
        message.contains("states no exit code (it ended with Some(0))"),
        "{message}"
    );
    let message = refused(|| drop(Test::new().arg("--version").spawn().wait(TEN_SECONDS)));
    assert!(
        message.contains("`judge --version`:\n  states no exit code"),
        "{message}"
    );
    let terminal = Test::new().arg("--version").run_as_terminal(TEN_SECONDS);
    assert!(terminal.is_err_and(|e| e.contains("states no exit code")));
    // Stated, or said to be any, it passes; a code not the one stated fails.
    Test::new().arg("--version").expect_exit(0).run();
    Test::new().arg("--version").any_exit().run();
    refused(|| drop(Test::new().arg("--version").expect_exit(1).run()));
    // Another program's code is the test's business.
    Test::program("true").run();
}

#[cfg(test)]
const TEN_SECONDS: std::time::Duration = std::time::Duration::from_secs(10);
