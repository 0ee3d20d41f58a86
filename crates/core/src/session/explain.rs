//! Explaining a crash from what the program said: a Rust panic's message and the source line it points at.

use std::path::Path;

/// "panicked at queens.rs:12:34: attempt to shift left with overflow", and beneath it the line
/// of the source it names, when the program's stderr holds a panic of this source file.
pub(super) fn rust_panic(stderr: &[u8], source: &Path) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text.lines().collect();
    // Rust 1.73 on: "thread 'main' panicked at FILE:LINE:COL:" then the message on its own line.
    let (at, message) = lines.iter().enumerate().find_map(|(i, l)| {
        let rest = l.split_once("panicked at ")?.1;
        let at = rest.strip_suffix(':')?;
        Some((
            at.to_string(),
            lines.get(i + 1).copied().unwrap_or("").trim().to_string(),
        ))
    })?;
    let mut parts = at.rsplitn(3, ':');
    let (_column, line, file) = (parts.next()?, parts.next()?, parts.next()?);
    let line: usize = line.parse().ok()?;
    let mut out = format!("panicked at {at}: {message}");
    let ours = source
        .file_name()
        .is_some_and(|n| n.to_string_lossy() == file);
    if ours {
        if let Some(code) = std::fs::read_to_string(source)
            .ok()
            .and_then(|s| s.lines().nth(line - 1).map(|l| l.trim().to_string()))
        {
            out.push_str(&format!(
                "\n{line:>5} │ {}",
                crate::text::escape(code.as_bytes())
            ));
        }
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_names_its_line() {
        let dir = tempfile::tempdir().unwrap();
        let source = dir.path().join("queens.rs");
        std::fs::write(
            &source,
            "fn main() {\n    let col = 9;\n    let bit = 1u8 << col;\n}\n",
        )
        .unwrap();
        let stderr = b"\nthread 'main' panicked at queens.rs:3:15:\nattempt to shift left with overflow\nnote: run with `RUST_BACKTRACE=1` environment variable to display a backtrace\n";
        assert_eq!(
            rust_panic(stderr, &source).unwrap(),
            "panicked at queens.rs:3:15: attempt to shift left with overflow\n    3 │ let bit = 1u8 << col;"
        );
        // A panic in the standard library names no line of ours.
        let stderr = b"thread 'main' panicked at library/core/src/num/mod.rs:9:5:\nboom\n";
        assert_eq!(
            rust_panic(stderr, &source).unwrap(),
            "panicked at library/core/src/num/mod.rs:9:5: boom"
        );
        assert_eq!(rust_panic(b"Segmentation fault\n", &source), None);
    }
}
