//! What the runner puts in a program's working folder before it starts (a named input file, a
//! test case's files), and the named output file it takes out after.

use std::fs;
use std::io;

use super::protocol::{Request, StartError};

/// Puts a named input file and a case's files in the working folder (`Request::input_file`,
/// `Request::files`).
pub(crate) fn place_input(req: &Request) -> Result<(), StartError> {
    if let Some(folder) = &req.files {
        copy_tree(folder, &req.cwd).map_err(|source| StartError::PlaceFiles {
            folder: folder.clone(),
            source,
        })?;
    }
    let Some(file) = &req.input_file else {
        return Ok(());
    };
    let to = req.cwd.join(&file.name);
    fs::copy(&file.path, &to)
        .map(|_| ())
        .map_err(|source| StartError::PlaceInput {
            path: file.path.clone(),
            name: file.name.clone(),
            source,
        })
}

/// Copies what `from` holds into `to`, folders and all; a link is copied as the file it names,
/// the package that holds it having been checked to keep its links inside.
fn copy_tree(from: &std::path::Path, to: &std::path::Path) -> io::Result<()> {
    for entry in fs::read_dir(from)? {
        let entry = entry?;
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            fs::create_dir_all(&target)?;
            copy_tree(&entry.path(), &target)?;
        } else {
            fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}

/// Takes the named output file out of the working folder before it is emptied
/// (`Request::keep_file`); only a regular file, never what a link points to.
pub(crate) fn take_output(req: &Request) {
    let Some(file) = &req.keep_file else {
        return;
    };
    let _ = fs::remove_file(&file.path);
    let from = req.cwd.join(&file.name);
    if fs::symlink_metadata(&from).is_ok_and(|m| m.is_file())
        && fs::rename(&from, &file.path).is_err()
    {
        let _ = fs::copy(&from, &file.path);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::{Limits, NamedFile};

    /// A request for `cwd` whose named input file is `input`.
    fn request(cwd: &std::path::Path, input: &std::path::Path) -> Request {
        let mut req: Request = serde_json::from_value(serde_json::json!({
            "program": "/bin/true", "env": null, "cwd": cwd, "clean_cwd": false,
            "stdin": null, "stdout": cwd.join("out"), "stderr": cwd.join("err"),
            "limits": Limits::default(),
        }))
        .unwrap();
        req.input_file = Some(NamedFile {
            name: "in.txt".into(),
            path: input.to_path_buf(),
        });
        req
    }

    #[test]
    fn a_named_input_is_placed_and_a_missing_one_says_what_was_being_done() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("case.in");
        fs::write(&input, "1 2\n").unwrap();
        let cwd = dir.path().join("cwd");
        fs::create_dir(&cwd).unwrap();
        place_input(&request(&cwd, &input)).unwrap();
        assert_eq!(fs::read_to_string(cwd.join("in.txt")).unwrap(), "1 2\n");

        let missing = dir.path().join("gone.in");
        let err = place_input(&request(&cwd, &missing)).unwrap_err();
        assert!(matches!(err, StartError::PlaceInput { .. }));
        assert_eq!(
            err.to_string(),
            format!(
                "putting {} in the working folder as in.txt: No such file or directory (os error 2)",
                missing.display()
            )
        );
    }
}
