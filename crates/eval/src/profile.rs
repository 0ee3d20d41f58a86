//! `--profile`: the toolchains, flags and limits samples are judged under, as a named judge or
//! harness gives them, resolved here alone: `judge` (the judge's own), `codeforces` (its C and
//! C++ flags, PyPy for Python, the stack as large as the memory limit) and `lcb`
//! (LiveCodeBench's harness: CPython with its imports and recursion limit, 6 s a test, 4 GiB).
//! A profile is applied to the workspace the samples are built in, and named in every result.

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use judge_core::lang::{Command, Language};
use judge_core::workspace::Workspace;

use crate::Error;

/// A named set of language settings and limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Profile {
    /// The judge's own toolchains and flags (the workspace's `judge.toml` where it has one).
    #[default]
    Judge,
    /// As Codeforces judges: `-O2 -DONLINE_JUDGE`, PyPy for Python, a big stack.
    Codeforces,
    /// As LiveCodeBench's harness runs a sample.
    Lcb,
}

/// The limits a profile sets over a data set's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    pub time: Duration,
    pub memory_bytes: u64,
}

/// The modules LiveCodeBench's harness imports, both whole and `*`, before a sample's code.
const LCB_MODULES: &[&str] = &[
    "string",
    "re",
    "datetime",
    "collections",
    "heapq",
    "bisect",
    "copy",
    "math",
    "random",
    "statistics",
    "itertools",
    "functools",
    "operator",
    "io",
    "sys",
    "json",
];

impl Profile {
    pub const ALL: [Profile; 3] = [Profile::Judge, Profile::Codeforces, Profile::Lcb];

    /// Its name on the command line, in the manifest and in every result.
    pub fn name(self) -> &'static str {
        match self {
            Profile::Judge => "judge",
            Profile::Codeforces => "codeforces",
            Profile::Lcb => "lcb",
        }
    }

    /// The profile named `name`; the error lists the profiles.
    pub fn named(name: &str) -> Result<Profile, Error> {
        Profile::ALL
            .into_iter()
            .find(|p| p.name() == name)
            .ok_or_else(|| Error::Profile {
                message: format!("there is no profile `{name}`"),
                fix: format!("name one of {}", names()),
            })
    }

    /// The workspace `ws` with the profile's languages in place of its own.
    pub fn workspace(self, ws: &Workspace) -> Workspace {
        let mut config = (*ws.config).clone();
        for language in self.languages(ws) {
            config.languages.insert(language);
        }
        let mut out = ws.clone();
        out.config = Arc::new(config);
        out
    }

    /// The languages the profile changes, made from the workspace's.
    fn languages(self, ws: &Workspace) -> Vec<Language> {
        let known = &ws.config.languages;
        let with = |id: &str, compile: Option<&str>, run: Option<&str>| {
            let mut l = (**known.get(id)?).clone();
            if let Some(c) = compile {
                l.compile = Some(command(c));
            }
            if let Some(r) = run {
                l.run = command(r);
            }
            Some(l)
        };
        let changed = match self {
            Profile::Judge => Vec::new(),
            // Codeforces' GNU C and C++ flags (its `-Wl,--stack` is Windows' linker's: here
            // the stack may grow to the memory limit, the same 256 MB on its problems).
            Profile::Codeforces => vec![
                with(
                    "cpp",
                    Some("g++ -std=gnu++20 -O2 -DONLINE_JUDGE -o {binary} {sources}"),
                    None,
                ),
                with(
                    "c",
                    Some("gcc -std=gnu11 -O2 -DONLINE_JUDGE -o {binary} {sources} -lm"),
                    None,
                ),
                known.get("pypy").map(|pypy| {
                    let python = known.get("python");
                    let mut l = (**pypy).clone();
                    // PyPy takes Python's id and extensions: a Python sample runs on it.
                    l.id = "python".into();
                    l.extensions = python.map(|p| p.extensions.clone()).unwrap_or_default();
                    l
                }),
            ],
            // Its harness runs a sample with the `python3` it runs on, CPython.
            Profile::Lcb => vec![with(
                "python",
                Some("python3 -m py_compile {sources}"),
                Some("python3 {source}"),
            )],
        };
        changed.into_iter().flatten().collect()
    }

    /// The source built for a sample's `code` in `language`: LiveCodeBench's harness runs a
    /// Python sample after its imports and with a recursion limit of 50,000 (and integers of
    /// up to 50,000 digits printed), so `lcb` puts the same before it.
    pub fn source(self, language: &str, code: &str) -> String {
        if self != Profile::Lcb || language != "python" {
            return code.to_string();
        }
        let mut out = String::new();
        for m in LCB_MODULES {
            out.push_str(&format!("from {m} import *\n"));
        }
        out.push_str("from builtins import *\nfrom typing import *\n");
        for m in LCB_MODULES {
            out.push_str(&format!("import {m}\n"));
        }
        out.push_str("sys.setrecursionlimit(50000)\n");
        out.push_str(
            "if hasattr(sys, 'set_int_max_str_digits'):\n    sys.set_int_max_str_digits(50000)\n\n",
        );
        out.push_str(code);
        out
    }

    /// The limits the profile sets over the data set's; `None`: the data set's.
    pub fn limits(self) -> Option<Limits> {
        match self {
            // `timeout=6` a test; its memory guard is called with no limit (its comment says
            // 4 GB): 4 GiB here, as a sandbox needs one.
            Profile::Lcb => Some(Limits {
                time: Duration::from_secs(6),
                memory_bytes: 4 << 30,
            }),
            Profile::Judge | Profile::Codeforces => None,
        }
    }

    /// Where the limits come from when the profile sets them, as the manifest says.
    pub fn limits_source(self) -> Option<&'static str> {
        self.limits().map(|_| {
            "the lcb profile: 6 s of CPU time a test (LiveCodeBench's timeout, of wall-clock time there) and 4 GiB"
        })
    }

    /// Refuses to judge samples in `languages` (the judge's ids) when the profile's toolchain
    /// for one of them is not installed: PyPy for `codeforces`' Python.
    pub fn check<'a>(
        self,
        languages: impl IntoIterator<Item = &'a str>,
        on_path: impl Fn(&str) -> bool,
    ) -> Result<(), Error> {
        let python = languages.into_iter().any(|l| l == "python");
        if self == Profile::Codeforces && python && !on_path("pypy3") {
            return Err(Error::Profile {
                message: "the codeforces profile runs Python samples on PyPy, and `pypy3` is not installed".into(),
                fix: "install PyPy 3 (Debian: apt-get install pypy3), or judge with --profile judge (CPython)".into(),
            });
        }
        Ok(())
    }
}

/// "judge, codeforces, lcb".
pub fn names() -> String {
    Profile::ALL.map(Profile::name).join(", ")
}

/// Whether `program` is an executable file in a folder of `PATH`.
pub fn on_path(program: &str) -> bool {
    use std::os::unix::fs::PermissionsExt;
    let Some(path) = std::env::var_os("PATH") else {
        return false;
    };
    std::env::split_paths(&path).any(|dir| {
        let file = Path::new(&dir).join(program);
        file.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    })
}

fn command(line: &str) -> Command {
    Command::parse_line(line).expect("a profile's commands are valid")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_profile_is_found_by_name_and_an_unknown_one_lists_them() {
        assert_eq!(Profile::named("lcb").unwrap(), Profile::Lcb);
        let e = Profile::named("icpc").unwrap_err().to_string();
        assert!(e.contains("no profile `icpc`"), "{e}");
        assert!(e.contains("judge, codeforces, lcb"), "{e}");
    }

    #[test]
    fn codeforces_needs_pypy_for_python_alone() {
        let missing = |_: &str| false;
        let e = Profile::Codeforces
            .check(["cpp", "python"], missing)
            .unwrap_err()
            .to_string();
        assert!(e.contains("apt-get install pypy3"), "{e}");
        assert!(Profile::Codeforces.check(["cpp"], missing).is_ok());
        assert!(Profile::Judge.check(["python"], missing).is_ok());
    }

    #[test]
    fn lcb_puts_its_imports_before_python_alone() {
        let code = "print(gcd(4, 6))\n";
        let python = Profile::Lcb.source("python", code);
        assert!(python.contains("from math import *\n"));
        assert!(python.contains("sys.setrecursionlimit(50000)\n"));
        assert!(python.ends_with(code));
        assert_eq!(Profile::Lcb.source("cpp", code), code);
        assert_eq!(Profile::Judge.source("python", code), code);
    }
}
