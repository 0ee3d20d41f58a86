//! `problem.xml`: what a Polygon package says of its problem, read into types, each mistake
//! named by its element or attribute, its line and the fix.

use std::path::Path;
use std::time::Duration;

use roxmltree::{Document, Node};

use super::super::dir_name;
use judge_core::error::{Error, Location, Result};

/// The testset Polygon judges submissions on (others, such as pretests, are left aside).
pub(super) const MAIN_TESTSET: &str = "tests";

/// What problem.xml says, as the judge uses it.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct ProblemXml {
    pub(super) short_name: Option<String>,
    pub(super) title: Option<String>,
    /// Named files instead of stdin and stdout (`input-file`, `output-file` of `<judging>`).
    pub(super) input_file: Option<String>,
    pub(super) output_file: Option<String>,
    pub(super) time: Duration,
    pub(super) memory_bytes: u64,
    /// `tests/%02d`: where test N's input is, under the package.
    pub(super) input_pattern: String,
    pub(super) answer_pattern: String,
    /// The tests in order, test 1 first.
    pub(super) tests: Vec<XmlTest>,
    pub(super) groups: Vec<XmlGroup>,
    /// The checker's source, under the package (`files/check.cpp`).
    pub(super) checker: String,
    pub(super) solutions: Vec<XmlSolution>,
    /// The interactor's source, under the package, for an interactive problem.
    pub(super) interactor: Option<String>,
    pub(super) warnings: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct XmlTest {
    pub(super) sample: bool,
    pub(super) group: Option<String>,
    pub(super) points: Option<f64>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct XmlGroup {
    pub(super) name: String,
    pub(super) points: Option<f64>,
    /// `points-policy="complete-group"`: points only when every test of the group passes.
    pub(super) complete: bool,
    pub(super) dependencies: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub(super) struct XmlSolution {
    pub(super) tag: String,
    /// Under the package: `solutions/main.cpp`.
    pub(super) path: String,
    /// Polygon's language: `cpp.g++17`, `python.3`.
    pub(super) kind: String,
}

/// Reads `dir/problem.xml`.
pub(super) fn read(dir: &Path) -> Result<ProblemXml> {
    let file = dir.join("problem.xml");
    let shown = format!("{}/problem.xml", dir_name(dir));
    let text = std::fs::read_to_string(&file).map_err(|e| Error::read(&file, e))?;
    let doc = Document::parse(&text).map_err(|e| Error::Config {
        at: Location::file(&shown).with_line(e.pos().row as usize),
        message: format!("not well-formed XML: {e}"),
        fix: "correct the XML, or download the package from Polygon again".into(),
    })?;
    Reader { doc: &doc, shown }.problem()
}

struct Reader<'a, 'input> {
    doc: &'a Document<'input>,
    shown: String,
}

impl<'a, 'input> Reader<'a, 'input> {
    fn error(&self, node: Node<'_, '_>, what: &str, message: String, fix: &str) -> Error {
        Error::Config {
            at: Location::file(&self.shown)
                .with_key(what)
                .with_line(self.doc.text_pos_at(node.range().start).row as usize),
            message,
            fix: fix.to_string(),
        }
    }

    /// The first child `name` of `node`, which must have one (`within` names `node`).
    fn child(&self, node: Node<'a, 'input>, name: &str, within: &str) -> Result<Node<'a, 'input>> {
        node.children()
            .find(|n| n.has_tag_name(name))
            .ok_or_else(|| {
                self.error(
                    node,
                    &format!("<{within}>"),
                    format!("<{within}> has no <{name}> element"),
                    &format!("add <{name}> inside <{within}>, as Polygon writes it"),
                )
            })
    }

    /// A whole number above zero: a limit, a count of tests.
    fn number(&self, node: Node<'_, '_>, what: &str) -> Result<u64> {
        node.text()
            .map(str::trim)
            .and_then(|t| t.parse().ok())
            .filter(|n| *n > 0)
            .ok_or_else(|| {
                self.error(
                    node,
                    &format!("<{what}>"),
                    format!(
                        "`{}` is not a whole number above zero",
                        node.text().unwrap_or("").trim()
                    ),
                    "write a whole number, such as <time-limit>1000</time-limit> (ms) or <memory-limit>268435456</memory-limit> (bytes)",
                )
            })
    }

    fn problem(&self) -> Result<ProblemXml> {
        let root = self.doc.root_element();
        if !root.has_tag_name("problem") {
            return Err(self.error(
                root,
                "root element",
                format!("the root element is <{}>", root.tag_name().name()),
                "a Polygon package's problem.xml has <problem> at its root",
            ));
        }
        let mut warnings = Vec::new();
        let judging = self.child(root, "judging", "problem")?;
        let named = |attr: &str| {
            judging
                .attribute(attr)
                .map(str::trim)
                .filter(|f| !f.is_empty() && !["stdin", "stdout"].contains(f))
                .map(str::to_string)
        };
        let testset = self.main_testset(judging, &mut warnings)?;
        let time_ms: u64 =
            self.number(self.child(testset, "time-limit", "testset")?, "time-limit")?;
        let memory_bytes: u64 = self.number(
            self.child(testset, "memory-limit", "testset")?,
            "memory-limit",
        )?;
        let count_node = self.child(testset, "test-count", "testset")?;
        let count = self.number(count_node, "test-count")? as usize;
        let input_pattern = self.pattern(testset, "input-path-pattern")?;
        let answer_pattern = self.pattern(testset, "answer-path-pattern")?;
        let tests = self.tests(testset, count, count_node)?;
        let groups = match testset.children().find(|n| n.has_tag_name("groups")) {
            Some(g) => self.groups(g)?,
            None => Vec::new(),
        };
        self.declared_groups(testset, &tests, &groups)?;
        let assets = root.children().find(|n| n.has_tag_name("assets"));
        let checker = self.checker(root, assets)?;
        let interactor = self.interactor(assets)?;
        let solutions = self.solutions(assets)?;
        Ok(ProblemXml {
            short_name: root.attribute("short-name").map(str::to_string),
            title: title(root),
            input_file: named("input-file"),
            output_file: named("output-file"),
            time: Duration::from_millis(time_ms),
            memory_bytes,
            input_pattern,
            answer_pattern,
            tests,
            groups,
            checker,
            solutions,
            interactor,
            warnings,
        })
    }

    /// The testset named `tests` of `<judging>`; each other one is warned of as not judged.
    fn main_testset(
        &self,
        judging: Node<'a, 'input>,
        warnings: &mut Vec<String>,
    ) -> Result<Node<'a, 'input>> {
        let testsets: Vec<Node> = judging
            .children()
            .filter(|n| n.has_tag_name("testset"))
            .collect();
        for other in testsets
            .iter()
            .filter(|t| t.attribute("name") != Some(MAIN_TESTSET))
        {
            warnings.push(format!(
                "testset `{}` is not judged (submissions are judged on `{MAIN_TESTSET}`, as on Codeforces)",
                other.attribute("name").unwrap_or("")
            ));
        }
        testsets
            .iter()
            .copied()
            .find(|t| t.attribute("name") == Some(MAIN_TESTSET))
            .ok_or_else(|| {
                self.error(
                    judging,
                    "<judging>/<testset name=\"tests\">",
                    "<judging> has no testset named `tests`".into(),
                    "add <testset name=\"tests\"> with the tests' patterns and limits",
                )
            })
    }

    /// The testset's path pattern `name` (`tests/%02d`), which must have one `%d`.
    fn pattern(&self, testset: Node<'a, 'input>, name: &str) -> Result<String> {
        let node = self.child(testset, name, "testset")?;
        let text = node.text().unwrap_or("").trim().to_string();
        if !valid_pattern(&text) {
            return Err(self.error(
                node,
                &format!("<{name}>"),
                format!("`{text}` is not a path pattern with one %d"),
                "write a pattern such as tests/%02d (inputs) or tests/%02d.a (answers)",
            ));
        }
        Ok(text)
    }

    /// Every test's group is one that `<groups>` declares, when it declares any.
    fn declared_groups(
        &self,
        testset: Node<'_, '_>,
        tests: &[XmlTest],
        groups: &[XmlGroup],
    ) -> Result<()> {
        for t in tests {
            if let Some(g) = &t.group {
                if !groups.is_empty() && !groups.iter().any(|x| &x.name == g) {
                    return Err(self.error(
                        testset,
                        "<tests>/<test group>",
                        format!("a test is in group `{g}`, which <groups> does not declare"),
                        "declare the group in <groups>, or correct the test's group",
                    ));
                }
            }
        }
        Ok(())
    }

    /// The checker's source path, which every package has.
    fn checker(&self, root: Node<'a, 'input>, assets: Option<Node<'a, 'input>>) -> Result<String> {
        match assets.and_then(|a| a.children().find(|n| n.has_tag_name("checker"))) {
            Some(c) => {
                let source = self.child(c, "source", "checker")?;
                self.path(source, "<checker>/<source path>")
            }
            None => Err(self.error(
                assets.unwrap_or(root),
                "<assets>/<checker>",
                "the package names no checker".into(),
                "add <checker type=\"testlib\"><source path=\"files/check.cpp\" .../></checker> in <assets>",
            )),
        }
    }

    /// The interactor's source path, for an interactive problem.
    fn interactor(&self, assets: Option<Node<'a, 'input>>) -> Result<Option<String>> {
        match assets.and_then(|a| a.children().find(|n| n.has_tag_name("interactor"))) {
            Some(i) => {
                let source = self.child(i, "source", "interactor")?;
                Ok(Some(self.path(source, "<interactor>/<source path>")?))
            }
            None => Ok(None),
        }
    }

    /// The solutions of `<assets>/<solutions>`, each with its tag.
    fn solutions(&self, assets: Option<Node<'a, 'input>>) -> Result<Vec<XmlSolution>> {
        let mut solutions = Vec::new();
        let Some(list) = assets.and_then(|a| a.children().find(|n| n.has_tag_name("solutions")))
        else {
            return Ok(solutions);
        };
        for s in list.children().filter(|n| n.has_tag_name("solution")) {
            let tag = s.attribute("tag").ok_or_else(|| {
                self.error(
                    s,
                    "<solution tag>",
                    "a solution without a tag".into(),
                    "give it tag=\"accepted\" (or main, wrong-answer, time-limit-exceeded, ...)",
                )
            })?;
            let source = self.child(s, "source", "solution")?;
            solutions.push(XmlSolution {
                tag: tag.to_string(),
                path: self.path(source, "<solution>/<source path>")?,
                kind: source.attribute("type").unwrap_or("").to_string(),
            });
        }
        Ok(solutions)
    }

    fn path(&self, node: Node<'_, '_>, what: &str) -> Result<String> {
        node.attribute("path")
            .map(str::to_string)
            .filter(|p| !p.is_empty())
            .ok_or_else(|| {
                self.error(
                    node,
                    what,
                    "no path".into(),
                    "give the file's path in the package, such as path=\"files/check.cpp\"",
                )
            })
    }

    fn tests(&self, testset: Node<'_, '_>, count: usize, count_node: Node) -> Result<Vec<XmlTest>> {
        let Some(list) = testset.children().find(|n| n.has_tag_name("tests")) else {
            return Ok((0..count)
                .map(|_| XmlTest {
                    sample: false,
                    group: None,
                    points: None,
                })
                .collect());
        };
        let mut tests = Vec::new();
        for t in list.children().filter(|n| n.has_tag_name("test")) {
            let points = match t.attribute("points") {
                None => None,
                Some(p) => Some(
                    p.trim()
                        .parse::<f64>()
                        .ok()
                        .filter(|p| *p >= 0.0)
                        .ok_or_else(|| {
                            self.error(
                                t,
                                "<test points>",
                                format!("points=\"{p}\" is not a number of points"),
                                "write a number at least 0, such as points=\"10\"",
                            )
                        })?,
                ),
            };
            tests.push(XmlTest {
                sample: t.attribute("sample") == Some("true"),
                group: t.attribute("group").map(str::to_string),
                points,
            });
        }
        if tests.len() != count {
            return Err(self.error(
                count_node,
                "<test-count>",
                format!(
                    "<test-count> says {count}, and <tests> lists {}",
                    tests.len()
                ),
                "make <test-count> the number of <test> elements",
            ));
        }
        Ok(tests)
    }

    fn groups(&self, node: Node<'_, '_>) -> Result<Vec<XmlGroup>> {
        let mut groups = Vec::new();
        for g in node.children().filter(|n| n.has_tag_name("group")) {
            let name = g.attribute("name").ok_or_else(|| {
                self.error(
                    g,
                    "<group name>",
                    "a group without a name".into(),
                    "give it name=\"1\", as its tests' group=\"1\"",
                )
            })?;
            let complete = match g.attribute("points-policy") {
                None | Some("each-test") => false,
                Some("complete-group") => true,
                Some(other) => {
                    return Err(self.error(
                        g,
                        "<group points-policy>",
                        format!("points-policy=\"{other}\" is not a policy"),
                        "write each-test or complete-group",
                    ))
                }
            };
            let points = g.attribute("points").and_then(|p| p.trim().parse().ok());
            let dependencies = g
                .descendants()
                .filter(|d| d.has_tag_name("dependency"))
                .filter_map(|d| d.attribute("group").map(str::to_string))
                .collect();
            groups.push(XmlGroup {
                name: name.to_string(),
                points,
                complete,
                dependencies,
            });
        }
        Ok(groups)
    }
}

/// The problem's title: its English name, else its first.
fn title(root: Node<'_, '_>) -> Option<String> {
    let names = root.children().find(|n| n.has_tag_name("names"))?;
    let all: Vec<Node> = names
        .children()
        .filter(|c| c.has_tag_name("name"))
        .collect();
    all.iter()
        .find(|c| c.attribute("language") == Some("english"))
        .or(all.first())
        .and_then(|c| c.attribute("value"))
        .map(str::to_string)
}

/// A pattern with exactly one `%d` (with an optional zero-padded width): `tests/%02d.a`.
fn valid_pattern(pattern: &str) -> bool {
    pattern.matches('%').count() == 1 && expand(pattern, 1).is_some()
}

/// Test `n`'s path from a pattern: `tests/%02d` and 3 give `tests/03`.
pub(super) fn expand(pattern: &str, n: usize) -> Option<String> {
    let (before, rest) = pattern.split_once('%')?;
    let spec_len = rest.find('d')?;
    let spec = &rest[..spec_len];
    if !spec.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let width: usize = if spec.is_empty() {
        0
    } else {
        spec.parse().ok()?
    };
    // A file's name is at most 255 bytes: a wider number names none (and would not format).
    if width > 255 {
        return None;
    }
    let number = if spec.starts_with('0') {
        format!("{n:0width$}")
    } else {
        format!("{n:width$}")
    };
    Some(format!("{before}{number}{}", &rest[spec_len + 1..]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn patterns_expand_as_printf_does() {
        assert_eq!(expand("tests/%02d", 3).as_deref(), Some("tests/03"));
        assert_eq!(expand("tests/%02d.a", 12).as_deref(), Some("tests/12.a"));
        assert_eq!(expand("t/%d", 7).as_deref(), Some("t/7"));
        assert_eq!(expand("t/%03d.in", 5).as_deref(), Some("t/005.in"));
        assert!(!valid_pattern("tests/01"));
        assert!(!valid_pattern("tests/%s"));
        assert!(!valid_pattern("tests/%02d/%02d"));
        assert!(!valid_pattern("tests/%100000000002d"));
        assert!(!valid_pattern("tests/%0256d"));
    }
}
