//! What the runner puts in a program's working folder before it starts (a named input file, a
//! test case's files), and the named output file it takes out after.

use std::fs;
use std::io;

use super::protocol::Request;

/// Puts a named input file and a case's files in the working folder (`Request::input_file`,
/// `Request::files`).
pub(crate) fn place_input(req: &Request) -> Result<(), String> {
    if let Some(folder) = &req.files {
        copy_tree(folder, &req.cwd).map_err(|e| {
            format!(
                "putting the files of {} in the working folder: {e}",
                folder.display()
            )
        })?;
    }
    let Some(file) = &req.input_file else {
        return Ok(());
    };
    let to = req.cwd.join(&file.name);
    fs::copy(&file.path, &to).map(|_| ()).map_err(|e| {
        format!(
            "putting {} in the working folder as {}: {e}",
            file.path.display(),
            file.name
        )
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
