//! The fixes an error suggests speak of the languages in use: a Python workspace is never told
//! to give a `.rs` file; a file in `solutions/` in no language the judge knows is named as such.

use crate::common::Workspace;

/// "Double it" whose one solution is in Python, with notes kept beside it.
fn python_workspace() -> Workspace {
    let ws = Workspace::doubling("2s");
    ws.write("solutions/double/twice.py", "print(2 * int(input()))\n");
    ws.write(
        "solutions/double/sum.py",
        "n = int(input())\nprint(n + n)\n",
    );
    ws.write("solutions/double/notes.txt", "try a loop next\n");
    ws
}

#[test]
fn an_unknown_name_is_answered_in_the_languages_in_use() {
    let ws = python_workspace();
    ws.judge()
        .args(["run", "twise"])
        .expect_exit(2)
        .stderr_has("unknown solution `twise`; known solutions: double/sum, double/twice")
        .stderr_has("give the path to a `.py` file")
        .stderr_lacks(".rs")
        .run();
}

#[test]
fn a_file_in_no_known_language_is_named_with_the_fix() {
    let ws = python_workspace();
    ws.judge()
        .args(["run", "notes"])
        .expect_exit(2)
        .stderr_has("cannot judge `solutions/double/notes.txt`: no language claims `.txt`")
        .stderr_lacks("unknown solution")
        .run();
}

#[test]
fn the_problems_programs_are_suggested_in_the_languages_in_use() {
    let ws = python_workspace();
    ws.judge()
        .args(["stress", "twice", "--against", "sum"])
        .expect_exit(2)
        .stderr_has("generator = \"gen.py\"")
        .stderr_lacks(".rs")
        .run();
    ws.judge()
        .args(["validate", "double"])
        .expect_exit(2)
        .stderr_has("input_validator = \"validate.py\"")
        .run();
}
