//! A problem's own programs made files of its folder and keys of its `problem.toml`, so the
//! engine runs them as it runs any problem's: a testlib checker or interactor as
//! `checker.cpp` / `interactor.cpp` beside the `testlib.h` they include (the data set's own,
//! `--testlib`'s, one beside the data set, or the system's), and open-r1's Python checker in
//! a small wrapper that calls it as its harness does and turns what it prints into testlib's
//! exit code. A testlib program with no `testlib.h` to be found is the problem's error.

use std::path::{Path, PathBuf};

use super::{Program, Programs};

/// A file of the problem's folder: its name and bytes.
pub type File = (String, Vec<u8>);

/// Where `testlib.h` is looked for after `--testlib`, the data set's own and the data set's
/// folder: where a system install puts headers.
const SYSTEM_HEADERS: [&str; 2] = ["/usr/local/include/testlib.h", "/usr/include/testlib.h"];

/// The files `programs` need, and the `problem.toml` keys that name them (after the limits).
/// `testlib` is `--testlib`'s header; `dataset` the data set's file or folder.
pub fn lay_out(
    programs: &Programs,
    testlib: Option<&Path>,
    dataset: Option<&Path>,
) -> Result<(Vec<File>, String), String> {
    let mut files = Vec::new();
    let mut toml = String::new();
    let mut needs_testlib = false;
    if let Some(checker) = &programs.checker {
        let name = match checker {
            Program::Testlib(source) => {
                needs_testlib = true;
                files.push(("checker.cpp".to_string(), source.clone().into_bytes()));
                "checker.cpp"
            }
            Program::OpenR1(source) => {
                files.push((
                    "checker.py".to_string(),
                    open_r1_wrapper(source).into_bytes(),
                ));
                "checker.py"
            }
        };
        toml += &format!("checker = \"custom\"\nchecker_program = \"{name}\"\n");
    }
    if let Some(interactor) = &programs.interactor {
        let Program::Testlib(source) = interactor else {
            return Err("its interactor is not a testlib program".into());
        };
        needs_testlib = true;
        files.push(("interactor.cpp".to_string(), source.clone().into_bytes()));
        toml += "interactor = \"interactor.cpp\"\ninteractor_protocol = \"testlib\"\n";
    }
    if let Some((input, output)) = &programs.files {
        toml += &format!(
            "input_file = {}\noutput_file = {}\n",
            quoted(input),
            quoted(output)
        );
    }
    if needs_testlib {
        let header = find_testlib(testlib, programs.testlib.as_deref(), dataset)?;
        files.push(("testlib.h".to_string(), header));
    }
    Ok((files, toml))
}

/// The `testlib.h` to build with: `--testlib`'s, the data set's own, one beside the data set,
/// the system's; none is the problem's error, with the fix.
fn find_testlib(
    flag: Option<&Path>,
    shipped: Option<&[u8]>,
    dataset: Option<&Path>,
) -> Result<Vec<u8>, String> {
    if let Some(path) = flag {
        return std::fs::read(path)
            .map_err(|e| format!("--testlib {} cannot be read: {e}", path.display()));
    }
    if let Some(header) = shipped {
        return Ok(header.to_vec());
    }
    let beside = dataset.map(|d| {
        if d.is_dir() {
            d.join("testlib.h")
        } else {
            d.with_file_name("testlib.h")
        }
    });
    beside
        .into_iter()
        .chain(SYSTEM_HEADERS.iter().map(PathBuf::from))
        .find_map(|p| std::fs::read(p).ok())
        .ok_or_else(|| {
            "its checker or interactor is a testlib program, and no testlib.h was found (beside the data set, or where the system keeps headers); give one with --testlib PATH".into()
        })
}

/// A TOML basic string (JSON's escapes are TOML's).
fn quoted(s: &str) -> String {
    serde_json::to_string(s).unwrap_or_else(|_| "\"\"".into())
}

/// The checker program for open-r1's `generated_checker`: its source kept as it is, run as its
/// harness runs it (`checker.py INPUT ANSWER OUTPUT`, accepted when it exits cleanly printing
/// `1`), and its word made testlib's exit code (0 accepts, 1 rejects, 3: the checker failed).
fn open_r1_wrapper(source: &str) -> String {
    // A JSON string is a Python string literal (the same escapes, and UTF-8 kept as it is).
    let literal = serde_json::to_string(source).unwrap_or_else(|_| "\"\"".into());
    format!(
        r#"# open-r1's generated checker, called as its harness calls it (checker.py INPUT ANSWER
# OUTPUT; it prints 1 for a right output), by the judge's checker protocol
# (checker INPUT OUTPUT ANSWER; exit 0 accepts, 1 rejects, 3 is the checker's failure).
import contextlib
import io
import sys

SOURCE = {literal}


def main():
    given, output, answer = sys.argv[1:4]
    try:
        code = compile(SOURCE, "checker.py", "exec")
    except SyntaxError as e:
        sys.stderr.write("the generated checker does not compile: %s\n" % e)
        sys.exit(3)
    sys.argv = ["checker.py", given, answer, output]
    printed = io.StringIO()
    status = 0
    try:
        with contextlib.redirect_stdout(printed):
            exec(code, {{"__name__": "__main__"}})
    except SystemExit as e:
        status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    except ImportError as e:
        sys.stderr.write("the generated checker cannot start: %s\n" % e)
        sys.exit(3)
    except Exception as e:
        # Its harness counts a checker that raised (reading a malformed output) as a failed test.
        sys.stderr.write("wrong answer: the checker raised %s: %s\n" % (type(e).__name__, e))
        sys.exit(1)
    said = printed.getvalue().strip()
    if status == 0 and said == "1":
        sys.exit(0)
    if said.split()[-1:] == ["0"] or status != 0:
        sys.stderr.write("wrong answer: the checker printed %r and exited with %s\n" % (said[-200:], status))
        sys.exit(1)
    sys.stderr.write("the checker printed %r, neither 1 nor 0\n" % said[-200:])
    sys.exit(3)


main()
"#
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_testlib_checker_brings_its_header_and_names_itself() {
        let dir = tempfile::tempdir().unwrap();
        let header = dir.path().join("mine.h");
        std::fs::write(&header, "// header").unwrap();
        let programs = Programs {
            checker: Some(Program::Testlib("int main() {}".into())),
            files: Some(("input.txt".into(), "output.txt".into())),
            ..Programs::default()
        };
        let (files, toml) = lay_out(
            &programs,
            Some(&header),
            Some(&dir.path().join("set.jsonl")),
        )
        .unwrap();
        let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["checker.cpp", "testlib.h"]);
        assert!(toml.contains("checker_program = \"checker.cpp\""));
        assert!(toml.contains("input_file = \"input.txt\""));
    }

    #[test]
    fn no_header_anywhere_is_the_problems_error_with_the_fix() {
        let dir = tempfile::tempdir().unwrap();
        let programs = Programs {
            interactor: Some(Program::Testlib("int main() {}".into())),
            ..Programs::default()
        };
        let found = find_testlib(None, None, Some(&dir.path().join("set.jsonl")));
        if SYSTEM_HEADERS.iter().any(|p| Path::new(p).is_file()) {
            assert!(found.is_ok());
        } else {
            let why = lay_out(&programs, None, Some(&dir.path().join("set.jsonl"))).unwrap_err();
            assert!(why.contains("--testlib PATH"), "{why}");
        }
    }

    #[test]
    fn the_open_r1_checker_needs_no_header() {
        let programs = Programs {
            checker: Some(Program::OpenR1("print(1)".into())),
            ..Programs::default()
        };
        let (files, toml) = lay_out(&programs, None, None).unwrap();
        assert_eq!(files.len(), 1);
        assert!(String::from_utf8_lossy(&files[0].1).contains("SOURCE = \"print(1)\""));
        assert!(toml.contains("checker.py"));
    }
}
