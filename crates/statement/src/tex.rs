//! TeX math as people read it without TeX: `\le` as ≤, `10^{18}` as a superscript, braces
//! dropped. One reading of the commands, whole words only (`\left` is not `\le` and "ft"), for
//! the terminal (`judge show`) and the web (`judge serve`), each drawing the pieces its own way.

/// A piece of math, read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Math {
    /// Text as shown: characters, and commands already turned into their symbols.
    Text(String),
    Sup(Vec<Math>),
    Sub(Vec<Math>),
}

/// Commands shown as a character or a word; those shown as nothing (`\left`) map to "".
const SYMBOLS: &[(&str, &str)] = &[
    ("le", "≤"),
    ("leq", "≤"),
    ("ge", "≥"),
    ("geq", "≥"),
    ("ne", "≠"),
    ("neq", "≠"),
    ("lt", "<"),
    ("gt", ">"),
    ("approx", "≈"),
    ("equiv", "≡"),
    ("cdot", "·"),
    ("times", "×"),
    ("div", "÷"),
    ("pm", "±"),
    ("ldots", "…"),
    ("dots", "…"),
    ("cdots", "⋯"),
    ("sum", "∑"),
    ("prod", "∏"),
    ("infty", "∞"),
    ("in", "∈"),
    ("notin", "∉"),
    ("subseteq", "⊆"),
    ("subset", "⊂"),
    ("cup", "∪"),
    ("cap", "∩"),
    ("emptyset", "∅"),
    ("forall", "∀"),
    ("exists", "∃"),
    ("neg", "¬"),
    ("land", "∧"),
    ("lor", "∨"),
    ("oplus", "⊕"),
    ("to", "→"),
    ("rightarrow", "→"),
    ("leftarrow", "←"),
    ("Rightarrow", "⇒"),
    ("iff", "⇔"),
    ("lfloor", "⌊"),
    ("rfloor", "⌋"),
    ("lceil", "⌈"),
    ("rceil", "⌉"),
    ("mid", "∣"),
    ("lvert", "|"),
    ("rvert", "|"),
    ("vert", "|"),
    ("sqrt", "√"),
    ("alpha", "α"),
    ("beta", "β"),
    ("gamma", "γ"),
    ("delta", "δ"),
    ("Delta", "Δ"),
    ("epsilon", "ε"),
    ("varepsilon", "ε"),
    ("lambda", "λ"),
    ("mu", "μ"),
    ("pi", "π"),
    ("sigma", "σ"),
    ("phi", "φ"),
    ("omega", "ω"),
    ("log", "log"),
    ("ln", "ln"),
    ("max", "max"),
    ("min", "min"),
    ("gcd", "gcd"),
    ("bmod", "mod"),
    ("mod", "mod"),
    ("left", ""),
    ("right", ""),
    ("big", ""),
    ("Big", ""),
    ("displaystyle", ""),
    ("text", ""),
    ("textrm", ""),
    ("texttt", ""),
    ("textbf", ""),
    ("mathrm", ""),
    ("mathbf", ""),
    ("mathit", ""),
    ("operatorname", ""),
    ("quad", "  "),
    ("qquad", "    "),
    // One-character commands.
    (",", " "),
    (";", " "),
    (":", " "),
    ("!", ""),
    (" ", " "),
    ("{", "{"),
    ("}", "}"),
    ("%", "%"),
    ("$", "$"),
    ("#", "#"),
    ("&", "&"),
    ("_", "_"),
    ("\\", " "),
];

/// The symbol of `command` (without its backslash), when it has one.
pub fn symbol(command: &str) -> Option<&'static str> {
    SYMBOLS
        .iter()
        .find(|(name, _)| *name == command)
        .map(|(_, s)| *s)
}

/// Reads TeX math: commands turned into symbols (an unknown one shows its name), `^` and `_`
/// with their groups, braces dropped. `\frac{a}{b}` reads as `a/b`.
pub fn parse(tex: &str) -> Vec<Math> {
    let chars: Vec<char> = tex.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                let (name, next) = command(&chars, i);
                i = next;
                if name == "frac" {
                    let (top, after) = group(&chars, skip_spaces(&chars, i));
                    let (bottom, after) = group(&chars, skip_spaces(&chars, after));
                    push_all(&mut out, fraction(&top, &bottom));
                    i = after;
                    continue;
                }
                let text = symbol(&name).map_or(name, str::to_string);
                push_text(&mut out, &text);
            }
            c @ ('^' | '_') => {
                let (inner, next) = group(&chars, skip_spaces(&chars, i + 1));
                let inner = parse(&inner);
                out.push(if c == '^' {
                    Math::Sup(inner)
                } else {
                    Math::Sub(inner)
                });
                i = next;
            }
            '{' | '}' => i += 1,
            c => {
                push_text(&mut out, &c.to_string());
                i += 1;
            }
        }
    }
    out
}

/// The math as plain text: `10^9`, `a_i`, `2^(n+1)` (a group of more than one character in
/// parentheses).
pub fn to_text(tex: &str) -> String {
    fn write(pieces: &[Math], out: &mut String) {
        for p in pieces {
            match p {
                Math::Text(t) => out.push_str(t),
                Math::Sup(inner) | Math::Sub(inner) => {
                    out.push(if matches!(p, Math::Sup(_)) { '^' } else { '_' });
                    let mut s = String::new();
                    write(inner, &mut s);
                    if s.chars().count() > 1 {
                        out.push_str(&format!("({s})"));
                    } else {
                        out.push_str(&s);
                    }
                }
            }
        }
    }
    let mut out = String::new();
    write(&parse(tex), &mut out);
    out
}

/// A line with `$...$` (or `$$...$$`) math in it, the math as plain text.
pub fn line_to_text(line: &str) -> String {
    let mut out = String::new();
    let mut rest = line;
    while let Some(start) = rest.find('$') {
        out.push_str(&rest[..start]);
        let delimiter = if rest[start..].starts_with("$$") {
            "$$"
        } else {
            "$"
        };
        let inner = &rest[start + delimiter.len()..];
        match inner.find(delimiter) {
            Some(end) => {
                out.push_str(&to_text(&inner[..end]));
                rest = &inner[end + delimiter.len()..];
            }
            None => {
                // An unclosed `$` is a dollar sign.
                out.push_str(&rest[start..]);
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

fn fraction(top: &str, bottom: &str) -> Vec<Math> {
    let part = |s: &str| {
        let text = to_text(s);
        if text.chars().count() > 1 {
            format!("({text})")
        } else {
            text
        }
    };
    vec![Math::Text(format!("{}/{}", part(top), part(bottom)))]
}

fn push_text(out: &mut Vec<Math>, text: &str) {
    match out.last_mut() {
        Some(Math::Text(t)) => t.push_str(text),
        _ => out.push(Math::Text(text.to_string())),
    }
}

fn push_all(out: &mut Vec<Math>, pieces: Vec<Math>) {
    for p in pieces {
        match p {
            Math::Text(t) => push_text(out, &t),
            other => out.push(other),
        }
    }
}

/// The command at `start` (a backslash): its name, letters or one other character, and where
/// what follows it begins.
fn command(chars: &[char], start: usize) -> (String, usize) {
    let letters = chars[start + 1..]
        .iter()
        .take_while(|c| c.is_ascii_alphabetic())
        .count();
    let end = (start + 1 + letters.max(1)).min(chars.len());
    (chars[start + 1..end].iter().collect(), end)
}

fn skip_spaces(chars: &[char], mut i: usize) -> usize {
    while chars.get(i).is_some_and(|c| c.is_whitespace()) {
        i += 1;
    }
    i
}

/// The argument at `start`: a braced group or one character (a command whole).
fn group(chars: &[char], start: usize) -> (String, usize) {
    match chars.get(start) {
        Some('{') => {
            let mut depth = 0;
            for (j, &c) in chars.iter().enumerate().skip(start) {
                depth += match c {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                if depth == 0 {
                    return (chars[start + 1..j].iter().collect(), j + 1);
                }
            }
            (chars[start + 1..].iter().collect(), chars.len())
        }
        Some('\\') => {
            let (_, end) = command(chars, start);
            (chars[start..end].iter().collect(), end)
        }
        Some(&c) => (c.to_string(), start + 1),
        None => (String::new(), start),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_are_read_whole() {
        assert_eq!(to_text("1 \\le n \\leq 14"), "1 ≤ n ≤ 14");
        assert_eq!(to_text("\\left( a \\right)"), "( a )");
        assert_eq!(to_text("\\neg p"), "¬ p");
        assert_eq!(to_text("a_1, \\cdots, a_n"), "a_1, ⋯, a_n");
        assert_eq!(to_text("x \\in S \\ge 0"), "x ∈ S ≥ 0");
        assert_eq!(to_text("\\unknown x"), "unknown x");
    }

    #[test]
    fn scripts_fractions_and_braces() {
        assert_eq!(to_text("-10^9 \\le a_i"), "-10^9 ≤ a_i");
        assert_eq!(to_text("10^{18}"), "10^(18)");
        assert_eq!(to_text("2^{n+1}"), "2^(n+1)");
        assert_eq!(to_text("\\frac{n}{2}"), "n/2");
        assert_eq!(to_text("\\frac{n(n+1)}{2}"), "(n(n+1))/2");
        assert_eq!(to_text("\\{1, 2\\}"), "{1, 2}");
        assert_eq!(
            parse("10^{18}"),
            [
                Math::Text("10".into()),
                Math::Sup(vec![Math::Text("18".into())])
            ]
        );
    }

    #[test]
    fn a_line_keeps_its_text_and_reads_its_math() {
        assert_eq!(line_to_text("an $n \\times n$ board"), "an n × n board");
        assert_eq!(line_to_text("$$\\sum_{i} a_i$$ and $5"), "∑_i a_i and $5");
        assert_eq!(line_to_text("no math here"), "no math here");
    }
}
