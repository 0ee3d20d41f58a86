//! A Rust file read as far as its imports: comments and literals blanked, `#[cfg(test)]` items
//! dropped, tokens, `use` trees, `mod` declarations and inline modules. Small and hand-written:
//! the test needs the paths a file names, not a full parser.

/// A token: an identifier or keyword, `::`, or one other character.
pub(crate) type Tok = String;

/// One name a `use` item brings in scope: `path` as written (`crate::a::B`, `super::x`), `alias`
/// the name it is known by here (`_` for `as _`), `glob` for `path::*`.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Binding {
    pub(crate) path: Vec<String>,
    pub(crate) alias: String,
    pub(crate) glob: bool,
    /// `pub`, `pub(crate)` or `pub(super)`: it may only pass a name on, so it counts as a use of
    /// its target only where the file names it elsewhere too.
    pub(crate) public: bool,
}

/// What a module's own text holds (an inline module's text is its own `Module`).
#[derive(Debug, Default)]
pub(crate) struct Module {
    pub(crate) bindings: Vec<Binding>,
    /// The tokens outside `use` items and inline modules.
    pub(crate) body: Vec<Tok>,
    /// `mod name;`: a module in a file of its own.
    pub(crate) files: Vec<String>,
    /// `mod name { ... }`, read the same way.
    pub(crate) inline: Vec<(String, Module)>,
}

/// Reads a file's text into its module.
pub(crate) fn read(src: &str) -> Module {
    let code = without_tests(&blank(src));
    module(&tokens(&code))
}

/// `src` with its comments, strings and character literals made spaces (newlines kept), so that
/// a path in a comment or a message is not taken for an import.
pub(crate) fn blank(src: &str) -> String {
    let chars: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    let space = |c: char| if c == '\n' { '\n' } else { ' ' };
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        let next = chars.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < chars.len() && chars[i] != '\n' {
                out.push(' ');
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < chars.len() {
                if chars[i] == '/' && chars.get(i + 1) == Some(&'*') {
                    depth += 1;
                    out.push_str("  ");
                    i += 2;
                } else if chars[i] == '*' && chars.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    out.push_str("  ");
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    out.push(space(chars[i]));
                    i += 1;
                }
            }
        } else if (c == 'r' || (c == 'b' && next == Some('r')))
            && !out.chars().last().is_some_and(ident)
            && raw_string_at(&chars, i + if c == 'b' { 2 } else { 1 }).is_some()
        {
            let start = i + if c == 'b' { 2 } else { 1 };
            let end = raw_string_at(&chars, start).unwrap_or(chars.len());
            while i < end {
                out.push(space(chars[i]));
                i += 1;
            }
        } else if c == '"' {
            out.push(' ');
            i += 1;
            while i < chars.len() {
                let d = chars[i];
                if d == '\\' {
                    out.push(' ');
                    if let Some(&e) = chars.get(i + 1) {
                        out.push(space(e));
                    }
                    i += 2;
                    continue;
                }
                out.push(space(d));
                i += 1;
                if d == '"' {
                    break;
                }
            }
        } else if c == '\'' && (next == Some('\\') || chars.get(i + 2) == Some(&'\'')) {
            // A character literal ('x', '\n', '\u{1F600}'); otherwise a lifetime, kept.
            let mut j = if next == Some('\\') { i + 3 } else { i + 2 };
            while j < chars.len() && chars[j] != '\'' {
                j += 1;
            }
            while i <= j.min(chars.len() - 1) {
                out.push(' ');
                i += 1;
            }
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// Where the raw string whose `#`s (or quote) start at `at` ends, if one starts there.
fn raw_string_at(chars: &[char], at: usize) -> Option<usize> {
    let hashes = chars[at..].iter().take_while(|&&c| c == '#').count();
    if chars.get(at + hashes) != Some(&'"') {
        return None;
    }
    let mut i = at + hashes + 1;
    while i < chars.len() {
        if chars[i] == '"'
            && chars[i + 1..]
                .iter()
                .take(hashes)
                .filter(|&&c| c == '#')
                .count()
                == hashes
        {
            return Some(i + 1 + hashes);
        }
        i += 1;
    }
    Some(chars.len())
}

/// `code` without the items under `#[cfg(test)]`: a test may import what the code may not (a
/// test module uses `super::*` and the fixtures).
pub(crate) fn without_tests(code: &str) -> String {
    const ATTR: &str = "#[cfg(test)]";
    let mut out = code.to_string();
    while let Some(at) = out.find(ATTR) {
        let bytes = out.as_bytes();
        let mut i = at + ATTR.len();
        let mut depth = 0i32;
        while i < bytes.len() {
            match bytes[i] {
                b'(' | b'[' | b'{' => depth += 1,
                b')' | b']' => depth -= 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        i += 1;
                        break;
                    }
                }
                b';' if depth == 0 => {
                    i += 1;
                    break;
                }
                _ => {}
            }
            i += 1;
        }
        let gone: String = out[at..i.min(out.len())]
            .chars()
            .map(|c| if c == '\n' { '\n' } else { ' ' })
            .collect();
        out.replace_range(at..i.min(out.len()), &gone);
    }
    out
}

/// The tokens of blanked code: identifiers (keywords, numbers), `::`, and single characters.
pub(crate) fn tokens(code: &str) -> Vec<Tok> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            out.push(chars[start..i].iter().collect());
        } else if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push("::".to_string());
            i += 2;
        } else {
            out.push(c.to_string());
            i += 1;
        }
    }
    out
}

fn is_ident(t: &str) -> bool {
    t.chars()
        .next()
        .is_some_and(|c| c.is_alphabetic() || c == '_')
}

/// The module a run of tokens makes: its `use` items, `mod` declarations, inline modules, and
/// the rest.
pub(crate) fn module(toks: &[Tok]) -> Module {
    let mut m = Module::default();
    let mut k = 0;
    while k < toks.len() {
        let t = toks[k].as_str();
        let name = toks.get(k + 1).filter(|n| is_ident(n));
        if t == "mod" && name.is_some() && toks.get(k + 2).is_some_and(|n| n == ";") {
            m.files.push(toks[k + 1].clone());
            k += 3;
        } else if t == "mod" && name.is_some() && toks.get(k + 2).is_some_and(|n| n == "{") {
            let close = matching(toks, k + 2);
            m.inline
                .push((toks[k + 1].clone(), module(&toks[k + 3..close])));
            k = close + 1;
        } else if t == "use" {
            let public = public_before(toks, k);
            let mut p = k + 1;
            let mut found = Vec::new();
            tree(toks, &mut p, Vec::new(), &mut found);
            while p < toks.len() && toks[p] != ";" {
                p += 1;
            }
            for mut b in found {
                b.public = public;
                m.bindings.push(b);
            }
            k = p + 1;
        } else {
            m.body.push(toks[k].clone());
            k += 1;
        }
    }
    m
}

/// The index of the `}` that closes the `{` at `open` (or the end).
fn matching(toks: &[Tok], open: usize) -> usize {
    let mut depth = 0;
    for (i, t) in toks.iter().enumerate().skip(open) {
        match t.as_str() {
            "{" => depth += 1,
            "}" => {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
            _ => {}
        }
    }
    toks.len().saturating_sub(1)
}

/// Whether the `use` at `k` is `pub`, `pub(crate)`, `pub(super)` or `pub(in ...)`.
fn public_before(toks: &[Tok], k: usize) -> bool {
    match k.checked_sub(1).map(|i| toks[i].as_str()) {
        Some("pub") => true,
        Some(")") => {
            let open = toks[..k].iter().rposition(|t| t == "(");
            open.and_then(|o| o.checked_sub(1))
                .is_some_and(|p| toks[p] == "pub")
        }
        _ => false,
    }
}

/// One use tree from `*p`, its names added to `out` under `prefix`.
fn tree(toks: &[Tok], p: &mut usize, prefix: Vec<String>, out: &mut Vec<Binding>) {
    let mut path = prefix;
    while *p < toks.len() {
        let t = toks[*p].as_str();
        match t {
            "::" => *p += 1,
            "*" => {
                *p += 1;
                out.push(Binding {
                    alias: "*".into(),
                    path,
                    glob: true,
                    public: false,
                });
                return;
            }
            "{" => {
                *p += 1;
                while *p < toks.len() && toks[*p] != "}" {
                    tree(toks, p, path.clone(), out);
                    if toks.get(*p).is_some_and(|t| t == ",") {
                        *p += 1;
                    }
                }
                *p += 1;
                return;
            }
            _ if is_ident(t) => {
                path.push(t.to_string());
                *p += 1;
                if toks.get(*p).is_some_and(|t| t == "::") {
                    continue;
                }
                if path.last().is_some_and(|l| l == "self") {
                    path.pop();
                }
                let alias = if toks.get(*p).is_some_and(|t| t == "as") {
                    *p += 2;
                    toks[*p - 1].clone()
                } else {
                    path.last().cloned().unwrap_or_default()
                };
                out.push(Binding {
                    path,
                    alias,
                    glob: false,
                    public: false,
                });
                return;
            }
            // Something this reader does not know: the tree ends here.
            _ => return,
        }
    }
}
