//! Java: which class starts the program, read from the source, so any file name works.
//!
//! javac insists that a public class live in a file of its name, and `java` needs the class to
//! run; judges either demand `Main` or read the class from the source. This reads it: the public
//! top-level class, or else the class that declares `static void main`.

/// The class to run, or `None` when the source declares no class with a main method.
pub fn main_class(source: &str) -> Option<String> {
    let (public, main_in) = classes(source);
    match public {
        Some(public) if main_in.is_none() || main_in.as_deref() == Some(&public) => Some(public),
        _ => main_in,
    }
}

/// The class that declares `static void main`, if any (among several files, the one that
/// starts the program).
pub fn class_with_main(source: &str) -> Option<String> {
    classes(source).1
}

/// The public top-level class, and the class declaring `static void main`.
fn classes(source: &str) -> (Option<String>, Option<String>) {
    let code = strip_comments_and_strings(source);
    let words = words_with_depth(&code);
    // Every type declared: (name, declared public, brace depth of the declaration).
    let mut classes: Vec<(&str, bool, usize)> = Vec::new();
    let mut main_in: Option<&str> = None;
    for (i, &(w, d)) in words.iter().enumerate() {
        if matches!(w, "class" | "interface" | "enum" | "record") {
            if let Some(&(name, _)) = words.get(i + 1) {
                let public = words[..i]
                    .iter()
                    .rev()
                    .take_while(|(m, md)| {
                        *md == d
                            && matches!(
                                *m,
                                "public" | "final" | "abstract" | "static" | "strictfp" | "sealed"
                            )
                    })
                    .any(|(m, _)| *m == "public");
                classes.push((name, public, d));
            }
        }
        let is_main = w == "main"
            && i >= 1
            && words[i - 1].0 == "void"
            && words[..i - 1]
                .iter()
                .rev()
                .take(4)
                .any(|(m, _)| *m == "static");
        if is_main && main_in.is_none() {
            // The innermost type whose body this is: the last one declared outside it.
            main_in = classes.iter().rev().find(|c| c.2 < d).map(|c| c.0);
        }
    }
    (
        classes
            .iter()
            .find(|c| c.1 && c.2 == 0)
            .map(|c| c.0.to_string()),
        main_in.map(str::to_string),
    )
}

/// The words of the code, each with the depth of braces it stands at.
fn words_with_depth(code: &str) -> Vec<(&str, usize)> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut start = None;
    for (i, c) in code.char_indices() {
        let word_char = c.is_alphanumeric() || c == '_' || c == '$';
        match (word_char, start) {
            (true, None) => start = Some(i),
            (false, Some(s)) => {
                out.push((&code[s..i], depth));
                start = None;
            }
            _ => {}
        }
        match c {
            '{' => depth += 1,
            '}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((&code[s..], depth));
    }
    out
}

/// The source with comments and string and character literals blanked out, so that a `class`
/// in a comment or a string is not taken for one.
fn strip_comments_and_strings(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let b: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            '/' if b.get(i + 1) == Some(&'/') => {
                while i < b.len() && b[i] != '\n' {
                    i += 1;
                }
            }
            '/' if b.get(i + 1) == Some(&'*') => {
                i += 2;
                while i < b.len() && !(b[i] == '*' && b.get(i + 1) == Some(&'/')) {
                    i += 1;
                }
                i += 2;
                out.push(' ');
            }
            q @ ('"' | '\'') => {
                // Text blocks ("""...""") end at the next """; ordinary literals at their quote.
                if q == '"' && b.get(i + 1) == Some(&'"') && b.get(i + 2) == Some(&'"') {
                    i += 3;
                    while i < b.len()
                        && !(b[i] == '"'
                            && b.get(i + 1) == Some(&'"')
                            && b.get(i + 2) == Some(&'"'))
                    {
                        i += 1;
                    }
                    i += 3;
                } else {
                    i += 1;
                    while i < b.len() && b[i] != q && b[i] != '\n' {
                        if b[i] == '\\' {
                            i += 1;
                        }
                        i += 1;
                    }
                    i += 1;
                }
                out.push(' ');
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_class_or_the_one_with_main() {
        assert_eq!(
            main_class("import java.util.*;\npublic class Main {\n public static void main(String[] a) {}\n}\n").as_deref(),
            Some("Main")
        );
        assert_eq!(
            main_class("class Helper {}\nfinal class Queens {\n  public static void main(String... args) { }\n}\n").as_deref(),
            Some("Queens")
        );
        assert_eq!(
            main_class("// public class Fake {}\n/* class Nope { static void main() */\npublic final class Real {\n String s = \"class Str\";\n static public void main(String[] a) {}\n static class Inner {}\n}\n").as_deref(),
            Some("Real")
        );
        assert_eq!(
            main_class(
                "public class Solution {\n  public int totalNQueens(int n) { return 0; }\n}\n"
            )
            .as_deref(),
            Some("Solution"),
            "a public class without main is still the file's class: java will say what is missing"
        );
        assert_eq!(
            main_class("interface X { int f(); }\nclass A { int g() { return 1; } }\n"),
            None
        );
        assert_eq!(
            main_class(
                "class A {\n  static class B { public static void main(String[] a) {} }\n}\n"
            )
            .as_deref(),
            Some("B")
        );
    }
}
