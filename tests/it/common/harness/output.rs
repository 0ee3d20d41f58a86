//! What a command did ([`Output`]): its exit code and its text, read as the judge's must be
//! (UTF-8) or as another program's comes, and its JSON document.

use std::fmt;

/// How a command's output is read: its command line, for messages, and whether the output must
/// be UTF-8 (the judge's), or is read as it comes (another program's).
#[derive(Clone)]
pub(super) struct Text {
    pub(super) command: String,
    pub(super) strict: bool,
}

/// What a command did.
pub(crate) struct Output {
    pub(crate) code: Option<i32>,
    pub(crate) stdout: String,
    pub(crate) stderr: String,
    /// Its command line, for messages.
    pub(super) command: String,
}

impl Output {
    #[track_caller]
    pub(super) fn new(text: Text, code: Option<i32>, stdout: Vec<u8>, stderr: Vec<u8>) -> Output {
        let command = text.command;
        let read = |name: &str, bytes: Vec<u8>| match String::from_utf8(bytes) {
            Ok(read) => read,
            Err(e) if !text.strict => String::from_utf8_lossy(e.as_bytes()).into_owned(),
            Err(e) => panic!(
                "{command}: its {name} is not UTF-8 ({e}): {}",
                String::from_utf8_lossy(e.as_bytes())
            ),
        };
        Output {
            stdout: read("stdout", stdout),
            stderr: read("stderr", stderr),
            code,
            command,
        }
    }

    /// Stdout as a JSON document (`--json`).
    #[track_caller]
    pub(crate) fn json(&self) -> serde_json::Value {
        match serde_json::from_str(&self.stdout) {
            Ok(doc) => doc,
            Err(e) => panic!("{} printed no JSON document ({e})\n{self:?}", self.command),
        }
    }
}

/// The exit code, stdout and stderr, for a failure's message.
impl fmt::Debug for Output {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "exit code: {:?}", self.code)?;
        writeln!(f, "--- stdout\n{}", self.stdout.trim_end())?;
        write!(f, "--- stderr\n{}", self.stderr.trim_end())
    }
}
