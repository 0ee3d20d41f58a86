//! A program a test acts on while it runs: its stdout line by line as it comes, its stdin, Ctrl-C,
//! a wait with a deadline. Stdout and stderr are read all along (a full pipe would stall the
//! program, a closed one end it), kept for the [`Output`] and for failure messages.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rustix::process::{kill_process, Pid, Signal};

use super::{Expect, Guard, Output, Text};

/// How long a process left running by a test gets to end after Ctrl-C before it is killed; and
/// how long its pipes may stay open once it has ended (its own children may hold them).
const GRACE: Duration = Duration::from_secs(10);

/// A started program: stopped as Ctrl-C stops it when dropped (killed after 10 s), and holding
/// the fork-bomb lock until it has ended.
pub(crate) struct Running {
    child: Child,
    /// Its command line (for messages), and how its output is read.
    text: Text,
    expect: Expect,
    stdin: Option<ChildStdin>,
    /// Stdout's lines, as they come, until a test takes them.
    lines: Receiver<String>,
    stdout: Drained,
    stderr: Drained,
    ended: bool,
    _guard: Guard,
}

/// A pipe read to its end on a thread of its own, into a buffer.
struct Drained {
    bytes: Arc<Mutex<Vec<u8>>>,
    reader: JoinHandle<()>,
}

impl Drained {
    /// Reads `pipe` to its end; each line also goes to `lines`, when given.
    fn new(pipe: impl Read + Send + 'static, lines: Option<mpsc::Sender<String>>) -> Drained {
        let bytes = Arc::new(Mutex::new(Vec::new()));
        let kept = Arc::clone(&bytes);
        let reader = std::thread::spawn(move || {
            let mut pipe = BufReader::new(pipe);
            let mut line = Vec::new();
            while matches!(pipe.read_until(b'\n', &mut line), Ok(n) if n > 0) {
                kept.lock().unwrap().extend_from_slice(&line);
                if let Some(lines) = &lines {
                    let text = String::from_utf8_lossy(&line);
                    let text = text.strip_suffix('\n').unwrap_or(&text);
                    let _ = lines.send(text.strip_suffix('\r').unwrap_or(text).to_string());
                }
                line.clear();
            }
        });
        Drained { bytes, reader }
    }

    fn so_far(&self) -> Vec<u8> {
        self.bytes.lock().unwrap().clone()
    }
}

impl Running {
    pub(super) fn new(mut child: Child, text: Text, expect: Expect, guard: Guard) -> Running {
        let (to_test, lines) = mpsc::channel();
        let stdout = Drained::new(child.stdout.take().unwrap(), Some(to_test));
        let stderr = Drained::new(child.stderr.take().unwrap(), None);
        Running {
            stdin: child.stdin.take(),
            child,
            text,
            expect,
            lines,
            stdout,
            stderr,
            ended: false,
            _guard: guard,
        }
    }

    /// The exit code it must end with, stated once it runs: for a program, such as a server,
    /// whose end is decided by what the test does after starting it.
    pub(crate) fn expect_exit(mut self, code: i32) -> Running {
        self.expect.exit = super::Exit::Code(code);
        self
    }

    pub(crate) fn id(&self) -> u32 {
        self.child.id()
    }

    pub(crate) fn is_running(&mut self) -> bool {
        self.child.try_wait().unwrap().is_none()
    }

    /// The next line of stdout, once it comes; panics with the output so far when none comes
    /// within `within`, or stdout is closed.
    #[track_caller]
    pub(crate) fn line(&mut self, within: Duration) -> String {
        match self.lines.recv_timeout(within) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                self.fail(&format!("printed no line within {within:?}"))
            }
            Err(RecvTimeoutError::Disconnected) => self.fail("closed its stdout"),
        }
    }

    /// What it wrote to stderr so far.
    pub(crate) fn stderr_so_far(&self) -> String {
        String::from_utf8_lossy(&self.stderr.so_far()).into_owned()
    }

    /// The lines of stdout that came and were not taken yet.
    pub(crate) fn pending_lines(&mut self) -> Vec<String> {
        self.lines.try_iter().collect()
    }

    /// Its stdin ([`super::Test::stdin_piped`]).
    pub(crate) fn stdin(&mut self) -> &mut ChildStdin {
        self.stdin.as_mut().expect("stdin is piped and open")
    }

    pub(crate) fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Ctrl-C (SIGINT), then [`Running::wait`].
    #[track_caller]
    pub(crate) fn ctrl_c(self, within: Duration) -> Output {
        self.interrupt();
        self.wait(within)
    }

    /// Waits for it to end, then checks what was expected; panics, having killed it, when it
    /// has not ended within `within`.
    #[track_caller]
    pub(crate) fn wait(mut self, within: Duration) -> Output {
        let deadline = Instant::now() + within;
        let status = loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                break status;
            }
            if Instant::now() > deadline {
                self.fail(&format!("did not end within {within:?}"));
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        self.ended = true;
        // Its output is all there once no process holds the pipes.
        let drained = Instant::now() + GRACE;
        while !(self.stdout.reader.is_finished() && self.stderr.reader.is_finished())
            && Instant::now() < drained
        {
            std::thread::sleep(Duration::from_millis(10));
        }
        let out = Output::new(
            self.text.clone(),
            status.code(),
            self.stdout.so_far(),
            self.stderr.so_far(),
        );
        self.expect.check(&out);
        out
    }

    /// Kills it outright (SIGKILL), as a user's `kill -9` would.
    pub(crate) fn kill(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
        self.ended = true;
    }

    fn interrupt(&self) {
        // Ended but not yet waited for, it is a zombie: the signal reaches nothing.
        let _ = kill_process(Pid::from_child(&self.child), Signal::INT);
    }

    /// Kills it, then panics with `what`, the command line and the output so far.
    #[track_caller]
    fn fail(&mut self, what: &str) -> ! {
        let _ = self.child.kill();
        let _ = self.child.wait();
        self.ended = true;
        panic!(
            "{} {what}\n--- stdout so far\n{}\n--- stderr so far\n{}",
            self.text.command,
            String::from_utf8_lossy(&self.stdout.so_far()).trim_end(),
            String::from_utf8_lossy(&self.stderr.so_far()).trim_end()
        );
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        self.interrupt();
        let deadline = Instant::now() + GRACE;
        while matches!(self.child.try_wait(), Ok(None)) && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
