//! What a program is made of: one source file, or a folder (several sources in one language, or
//! `build` and `run` scripts), with the files copied in beside it; and which file starts it.
//!
//! The package format's rule: a program is a file or a folder, a file standing for a folder
//! that holds it alone. A folder's files that no language claims (headers, `testlib.h`, data)
//! are part of the program, not programs of their own. Every source file of the program's
//! language goes to the compiler (`{sources}`); the entry point (`{source}`) is, in order: the
//! language's default from the format's table (`__main__.py` or `main.py`, `main.js`, Java's
//! class `Main`), a file named `main.*` (problemtools' rule), the file named after the folder,
//! else the first in name order (problemtools' again); a package that names the entry point
//! (`entrypoint` in `submissions.yaml`) decides over all of these.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::function::harness::{self, Built};
use crate::function::Signature;
use crate::lang::{java, Kind, Language};
use crate::model::SourceDigest;

/// The scripts that make a folder a program built and run by its own commands.
pub const BUILD: &str = "build";
pub const RUN: &str = "run";

/// What to build: a source file or a program folder, and the files copied in beside it.
#[derive(Debug, Clone)]
pub struct Source {
    /// A source file, or a folder holding the program's files.
    pub path: PathBuf,
    /// Files copied into the build folder (a checker's `testlib.h`, a package's `include/`
    /// files), by the name each gets there; they replace the program's own of the same name.
    pub extras: Vec<(PathBuf, PathBuf)>,
    /// The entry point its package names: a file (`solve.py`) or, in Java, a class.
    pub entry: Option<String>,
    /// The function its problem declares: a source in function form is built with its
    /// language's harness.
    pub function: Option<Signature>,
}

impl Source {
    /// A solution: the file alone, so it cannot include anything beside it; or its folder.
    pub fn alone(path: &Path) -> Source {
        Source {
            path: path.to_path_buf(),
            extras: Vec::new(),
            entry: None,
            function: None,
        }
    }

    /// A program of the problem's own (checker, generator, validator): a file with the header
    /// files of its folder, as packages ship them (`testlib.h`, `validate.h`); a folder whole.
    pub fn with_headers(path: &Path) -> Source {
        if path.is_dir() {
            return Source::alone(path);
        }
        let mut extras: Vec<(PathBuf, PathBuf)> = path
            .parent()
            .and_then(|d| std::fs::read_dir(d).ok())
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| {
                p.is_file()
                    && p.extension()
                        .is_some_and(|e| ["h", "hpp", "hh", "hxx"].iter().any(|x| e == *x))
            })
            .filter_map(|p| Some((PathBuf::from(p.file_name()?), p)))
            .collect();
        extras.sort();
        Source {
            path: path.to_path_buf(),
            extras,
            entry: None,
            function: None,
        }
    }

    /// These files with those under `dir` added (a package's `include/LANGUAGE/`), each by its
    /// path below `dir`, over any of the same name.
    pub fn with_files_of(mut self, dir: &Path) -> Source {
        for file in walk(dir) {
            if let Ok(rel) = file.strip_prefix(dir) {
                let rel = rel.to_path_buf();
                self.extras.retain(|(r, _)| *r != rel);
                self.extras.push((rel, file));
            }
        }
        self
    }

    /// Whether it is a folder with `build` or `run` scripts.
    pub fn is_scripts(path: &Path) -> bool {
        path.is_dir() && (path.join(BUILD).is_file() || path.join(RUN).is_file())
    }

    /// Every file of the program, as the language is told from them: the folder's (or the
    /// file) and the extras.
    pub fn paths(&self) -> Vec<PathBuf> {
        let mut all = if self.path.is_dir() {
            walk(&self.path)
        } else {
            vec![self.path.clone()]
        };
        all.extend(self.extras.iter().map(|(_, p)| p.clone()));
        all
    }
}

/// The language a program (a file or a folder) is built in, or why none can be told: a file's
/// by its extension, a folder with scripts by them, another folder's by most of its sources.
pub fn program_language(
    path: &Path,
    languages: &crate::lang::Languages,
) -> std::result::Result<std::sync::Arc<Language>, crate::lang::NoLanguage> {
    if Source::is_scripts(path) {
        return Ok(std::sync::Arc::new(crate::lang::builtin::scripts()));
    }
    if path.is_dir() {
        return languages.of_files(&Source::alone(path).paths());
    }
    languages.of_path(path).cloned().ok_or_else(|| {
        let ext = path
            .extension()
            .map(|e| e.to_string_lossy().into_owned())
            .unwrap_or_default();
        crate::lang::NoLanguage::Unclaimed(ext)
    })
}

/// Why the files of a program make no program to build: the source's compile error.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub(super) enum LayoutError {
    #[error("none of its files is a {language} source")]
    NoSource { language: String },
    /// The entry point `submissions.yaml` names, and what was looked for (a file, a class).
    #[error(
        "submissions.yaml names the entry point `{named}`, and no {what} of the program is it"
    )]
    UnknownEntry { named: String, what: &'static str },
    #[error("no class of this file has a `public static void main(String[] args)` method, so there is nothing to run")]
    NoMain,
}

/// A file of the program as it goes into the build folder.
#[derive(Debug, Clone)]
pub(super) struct File {
    /// Its path in the build folder.
    pub(super) rel: PathBuf,
    pub(super) bytes: Vec<u8>,
    pub(super) executable: bool,
}

/// The files of `source`, read once: what is hashed is what is built. A folder's are taken
/// recursively, hidden ones aside (the format ignores them); extras replace files of their name.
pub(super) fn files(source: &Source) -> Result<Vec<File>> {
    let read = |path: &Path, rel: PathBuf| -> Result<File> {
        use std::os::unix::fs::PermissionsExt;
        let bytes = std::fs::read(path).map_err(|e| Error::read(path, e))?;
        let executable = std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0);
        Ok(File {
            rel,
            bytes,
            executable,
        })
    };
    let mut out = Vec::new();
    if source.path.is_dir() {
        for path in walk(&source.path) {
            let rel = path
                .strip_prefix(&source.path)
                .unwrap_or(&path)
                .to_path_buf();
            out.push(read(&path, rel)?);
        }
    } else {
        let name = source
            .path
            .file_name()
            .map_or_else(|| PathBuf::from("solution"), PathBuf::from);
        out.push(read(&source.path, name)?);
    }
    for (rel, path) in &source.extras {
        out.retain(|f| f.rel != *rel);
        out.push(read(path, rel.clone())?);
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(out)
}

/// The solution's own file among `files` (read by [`files`]), digested for the history: `None`
/// for a folder.
pub(super) fn digest(source: &Source, files: &[File]) -> Option<SourceDigest> {
    if source.path.is_dir() {
        return None;
    }
    let name = source.path.file_name()?;
    files
        .iter()
        .find(|f| f.rel.as_os_str() == name)
        .map(|f| SourceDigest::of(&f.bytes))
}

/// A source in function form that does not define the declared function: its compile error's
/// diagnostics, in the language's words.
pub(super) struct MissingFunction(pub String);

/// A lone source in function form made the whole program its harness writes (the harness is
/// then in what the cache key hashes), and `true`. Anything else is built as it is.
pub(super) fn with_harness(
    source: &Source,
    language: &Language,
    files: &mut [File],
) -> std::result::Result<bool, MissingFunction> {
    let Some(sig) = &source.function else {
        return Ok(false);
    };
    let name = source.path.file_name();
    let Some(file) = files
        .iter_mut()
        .find(|f| Some(f.rel.as_os_str()) == name && !source.path.is_dir())
    else {
        return Ok(false);
    };
    let Ok(text) = std::str::from_utf8(&file.bytes) else {
        return Ok(false);
    };
    match harness::prepare(&language.id, text, sig) {
        Built::AsItIs => Ok(false),
        Built::Wrapped(program) => {
            file.bytes = program.into_bytes();
            Ok(true)
        }
        Built::Missing(diagnostics) => Err(MissingFunction(diagnostics)),
    }
}

/// Writes the program's files into the build folder `dir`, keeping their executable bits.
pub(super) fn write(dir: &Path, files: &[File]) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    for f in files {
        let to = dir.join(&f.rel);
        if let Some(parent) = to.parent() {
            std::fs::create_dir_all(parent).map_err(|e| Error::create(parent, e))?;
        }
        std::fs::write(&to, &f.bytes).map_err(|e| Error::write(&to, e))?;
        if f.executable {
            let mode = std::fs::Permissions::from_mode(0o755);
            std::fs::set_permissions(&to, mode).map_err(|e| Error::write(&to, e))?;
        }
    }
    Ok(())
}

/// In the copy `dir` of a program folder with scripts, the `build` script to run, if any.
/// DOMjudge marks `build` and `run` executable whatever the package says (a `.zip` may not
/// keep the bit), and so does the judge, in its copy.
pub(super) fn prepare_scripts(dir: &Path) -> Result<Option<PathBuf>> {
    let build = dir.join(BUILD);
    if !build.is_file() {
        return Ok(None);
    }
    make_executable(&build)?;
    Ok(Some(build))
}

/// Whether `build` left a `run` in the copy `dir` (made executable there).
pub(super) fn finish_scripts(dir: &Path) -> Result<bool> {
    let run = dir.join(RUN);
    if !run.is_file() {
        return Ok(false);
    }
    make_executable(&run)?;
    Ok(true)
}

fn make_executable(path: &Path) -> Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = std::fs::metadata(path)
        .map_err(|e| Error::read(path, e))?
        .permissions()
        .mode();
    if mode & 0o111 != 0o111 {
        let perms = std::fs::Permissions::from_mode(mode | 0o755);
        std::fs::set_permissions(path, perms).map_err(|e| Error::write(path, e))?;
    }
    Ok(())
}

/// The regular files under `dir`, recursively and sorted, hidden files and folders aside.
fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .is_some_and(|n| !n.to_string_lossy().starts_with('.'))
        })
        .collect();
    entries.sort();
    for p in entries {
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.is_file() {
            out.push(p);
        }
    }
    out
}

/// A program's sources and entry point, relative to its build folder.
#[derive(Debug, Clone)]
pub(super) struct Layout {
    pub(super) sources: Vec<PathBuf>,
    pub(super) entry: PathBuf,
    /// Java: the class whose main method starts it.
    pub(super) class: Option<String>,
}

/// Where the program starts, among `files` in `language`: where its package says (`named`);
/// else a program of one file (`lone`, its name in the build folder) starts there, whatever
/// files are copied in beside it; a folder (named `folder`) by the format's rules. A lone Java
/// file is renamed after its class (any file name works, as on the judges). The message says
/// why no program can be built.
pub(super) fn layout(
    files: &mut [File],
    language: &Language,
    (folder, lone): (Option<&str>, Option<&Path>),
    named: Option<&str>,
) -> std::result::Result<Layout, LayoutError> {
    let sources: Vec<usize> = (0..files.len())
        .filter(|&i| language.claims(&files[i].rel))
        .collect();
    let Some(&first) = sources.first() else {
        return Err(LayoutError::NoSource {
            language: language.name.clone(),
        });
    };
    let unknown = |named: &str, what: &'static str| LayoutError::UnknownEntry {
        named: named.to_string(),
        what,
    };
    if language.kind == Kind::Java {
        let mains: Vec<(usize, String)> = sources
            .iter()
            .filter_map(|&i| {
                let text = String::from_utf8_lossy(&files[i].bytes);
                let class = if sources.len() == 1 {
                    java::main_class(&text)
                } else {
                    java::class_with_main(&text)
                };
                class.map(|c| (i, c))
            })
            .collect();
        // A class may be named with its package: `pkg.Main`.
        let wanted = named.map_or("Main", |n| n.rsplit('.').next().unwrap_or(n));
        if let (Some(named), false) = (named, mains.iter().any(|(_, c)| c == wanted)) {
            return Err(unknown(named, "class with a main method"));
        }
        let Some((i, class)) = mains
            .iter()
            .find(|(_, c)| c == wanted)
            .or(mains.first())
            .cloned()
        else {
            return Err(LayoutError::NoMain);
        };
        if sources.len() == 1 {
            files[i].rel = PathBuf::from(format!("{class}.java"));
        }
        return Ok(Layout {
            sources: sources.iter().map(|&i| files[i].rel.clone()).collect(),
            entry: files[i].rel.clone(),
            class: Some(class),
        });
    }
    let name = |i: &usize| {
        files[*i]
            .rel
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let stem = |i: &usize| {
        files[*i]
            .rel
            .file_stem()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let top = |i: &&usize| files[**i].rel.components().count() == 1;
    let entry = if let Some(named) = named {
        *sources
            .iter()
            .find(|i| files[**i].rel == Path::new(named) || name(i) == named)
            .ok_or_else(|| unknown(named, "file"))?
    } else if let Some(i) = lone.and_then(|f| sources.iter().find(|i| files[**i].rel == f)) {
        *i
    } else if sources.len() == 1 {
        first
    } else {
        language
            .entry
            .iter()
            .find_map(|e| sources.iter().filter(top).find(|i| name(i) == *e))
            .or_else(|| {
                sources
                    .iter()
                    .filter(top)
                    .find(|i| stem(i).eq_ignore_ascii_case("main"))
            })
            .or_else(|| folder.and_then(|f| sources.iter().filter(top).find(|i| stem(i) == f)))
            .copied()
            .unwrap_or(first)
    };
    Ok(Layout {
        sources: sources.iter().map(|&i| files[i].rel.clone()).collect(),
        entry: files[entry].rel.clone(),
        class: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lang::Languages;

    fn file(rel: &str, text: &str) -> File {
        File {
            rel: PathBuf::from(rel),
            bytes: text.as_bytes().to_vec(),
            executable: false,
        }
    }

    fn entry(files: &[(&str, &str)], language: &str, folder: &str) -> Result<String, LayoutError> {
        let mut files: Vec<File> = files.iter().map(|(r, t)| file(r, t)).collect();
        let languages = Languages::default();
        let language = languages.get(language).unwrap();
        layout(&mut files, language, (Some(folder), None), None).map(|l| {
            l.class
                .unwrap_or_else(|| l.entry.to_string_lossy().into_owned())
        })
    }

    #[test]
    fn the_entry_point_follows_the_formats_rules() {
        let py = "python";
        // The table's default first, then main.*, then the folder's name, then name order.
        let pkg = [("__main__.py", ""), ("__init__.py", ""), ("util.py", "")];
        assert_eq!(entry(&pkg, py, "x").unwrap(), "__main__.py");
        let main = [("Main.py", ""), ("a.py", "")];
        assert_eq!(entry(&main, py, "x").unwrap(), "Main.py");
        let named = [("a.py", ""), ("solve.py", "")];
        assert_eq!(entry(&named, py, "solve").unwrap(), "solve.py");
        assert_eq!(entry(&named, py, "other").unwrap(), "a.py");
        // A header is no source; the lone source is the entry.
        let cpp = [("checker.cpp", ""), ("testlib.h", "")];
        assert_eq!(entry(&cpp, "cpp", "x").unwrap(), "checker.cpp");
        assert_eq!(
            entry(&[("README", "")], "cpp", "x")
                .unwrap_err()
                .to_string(),
            "none of its files is a C++ source"
        );
        // A program of one file starts there, whatever is copied in beside it (`include/`).
        let mut files = vec![file("addlib.py", ""), file("uses.py", "")];
        let languages = Languages::default();
        let lone = layout(
            &mut files,
            languages.get(py).unwrap(),
            (None, Some(Path::new("uses.py"))),
            None,
        )
        .unwrap();
        assert_eq!(lone.entry, Path::new("uses.py"));
    }

    #[test]
    fn the_entry_point_a_package_names_decides() {
        let languages = Languages::default();
        let start = |files: &[(&str, &str)], language: &str, named: &str| {
            let mut files: Vec<File> = files.iter().map(|(r, t)| file(r, t)).collect();
            layout(
                &mut files,
                languages.get(language).unwrap(),
                (Some("x"), None),
                Some(named),
            )
            .map(|l| {
                l.class
                    .unwrap_or_else(|| l.entry.to_string_lossy().into_owned())
            })
        };
        let py = [("main.py", ""), ("solve.py", "")];
        assert_eq!(start(&py, "python", "solve.py").unwrap(), "solve.py");
        let e = start(&py, "python", "other.py").unwrap_err();
        assert_eq!(
            e.to_string(),
            "submissions.yaml names the entry point `other.py`, and no file of the program is it"
        );
        let java = [
            (
                "A.java",
                "public class A { public static void main(String[] a) {} }",
            ),
            (
                "Main.java",
                "public class Main { public static void main(String[] a) {} }",
            ),
        ];
        assert_eq!(start(&java, "java", "A").unwrap(), "A");
        assert!(start(&java, "java", "B").is_err());
    }

    #[test]
    fn java_starts_at_the_class_with_main_preferring_main() {
        let two = [
            (
                "Helper.java",
                "class Helper { static int f() { return 1; } }",
            ),
            (
                "Solve.java",
                "public class Solve { public static void main(String[] a) {} }",
            ),
        ];
        assert_eq!(entry(&two, "java", "x").unwrap(), "Solve");
        let both = [
            (
                "A.java",
                "public class A { public static void main(String[] a) {} }",
            ),
            (
                "Main.java",
                "public class Main { public static void main(String[] a) {} }",
            ),
        ];
        assert_eq!(entry(&both, "java", "x").unwrap(), "Main");
        assert!(entry(&[("A.java", "class A {}")], "java", "x").is_err());
    }
}
