//! The languages as other execution services name them: SandboxFusion's `language` values and
//! Piston's runtimes and aliases, each mapped to a language of the judge's or to why the judge
//! does not run it.

/// What a service's language name means here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Named {
    /// A language of the judge's, by its id.
    Judge(&'static str),
    /// A name the service knows that is not a program read from stdin here: why, and what to
    /// use instead.
    Unsupported(&'static str),
    /// A name the service does not know.
    Unknown,
}

/// SandboxFusion's `language` values (its client's `Language` list) and the judge's language
/// for each: the same language, or why there is none.
const FUSION: &[(&str, Named)] = &[
    ("python", Named::Judge("python")),
    ("python2", Named::Judge("python2")),
    ("cpp", Named::Judge("cpp")),
    ("nodejs", Named::Judge("javascript")),
    ("go", Named::Judge("go")),
    ("java", Named::Judge("java")),
    ("php", Named::Judge("php")),
    ("csharp", Named::Judge("csharp")),
    ("bash", Named::Judge("bash")),
    ("typescript", Named::Judge("typescript")),
    ("rust", Named::Judge("rust")),
    ("lua", Named::Judge("lua")),
    ("perl", Named::Judge("perl")),
    ("ruby", Named::Judge("ruby")),
    ("scala", Named::Judge("scala")),
    ("julia", Named::Judge("julia")),
    ("swift", Named::Judge("swift")),
    ("racket", Named::Judge("racket")),
    ("R", Named::Unsupported("the judge has no R; add it to judge.toml as [language.r] with `extensions` and `run`, then call it `r` through /api/v2/execute")),
    ("kotlin_script", Named::Unsupported("Kotlin scripts (.kts) are not run by the judge; send a Kotlin program with `fun main` through /api/v2/execute as `kotlin`")),
    ("go_test", Named::Unsupported("test runners are not run by the judge: send a program that reads stdin")),
    ("pytest", Named::Unsupported("test runners are not run by the judge: send a program that reads stdin")),
    ("junit", Named::Unsupported("test runners are not run by the judge: send a program that reads stdin")),
    ("jest", Named::Unsupported("test runners are not run by the judge: send a program that reads stdin")),
    ("gtest", Named::Unsupported("test runners are not run by the judge: send a program that reads stdin")),
    ("D_ut", Named::Unsupported("D unit tests are not run by the judge: send a D program as `d` through /api/v2/execute")),
    ("sql", Named::Unsupported("SQL is not a language the judge runs")),
    ("cuda", Named::Unsupported("CUDA is not a language the judge runs")),
    ("python_gpu", Named::Unsupported("GPU programs are not run by the judge")),
    ("verilog", Named::Unsupported("Verilog is not a language the judge runs")),
    ("lean", Named::Unsupported("Lean is not a language the judge runs")),
    ("react", Named::Unsupported("React pages are not programs the judge runs")),
];

/// SandboxFusion's `language` value `name`.
pub fn fusion(name: &str) -> Named {
    FUSION
        .iter()
        .find(|(n, _)| *n == name)
        .map_or(Named::Unknown, |(_, named)| named.clone())
}

/// Piston's language names and aliases that differ from the judge's ids.
const PISTON: &[(&str, &str)] = &[
    ("c++", "cpp"),
    ("g++", "cpp"),
    ("gcc", "c"),
    ("py", "python"),
    ("py3", "python"),
    ("python3", "python"),
    ("node", "javascript"),
    ("node-js", "javascript"),
    ("js", "javascript"),
    ("rs", "rust"),
    ("golang", "go"),
    ("sh", "bash"),
    ("ts", "typescript"),
    ("rb", "ruby"),
    ("cs", "csharp"),
    ("c#", "csharp"),
    ("kt", "kotlin"),
    ("hs", "haskell"),
    ("pypy3", "pypy"),
];

/// Piston's language `name` (a runtime's language or one of its aliases) as the judge's id:
/// an alias mapped, any other name taken as the judge's own id.
pub fn piston(name: &str) -> &str {
    PISTON
        .iter()
        .find(|(alias, _)| alias.eq_ignore_ascii_case(name))
        .map_or(name, |(_, id)| id)
}

/// The aliases Piston's clients may use for the judge's language `id`.
pub fn piston_aliases(id: &str) -> Vec<&'static str> {
    PISTON
        .iter()
        .filter(|(_, to)| *to == id)
        .map(|(alias, _)| *alias)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sandbox_fusion_names_map_to_the_judges_languages_or_say_why_not() {
        assert_eq!(fusion("nodejs"), Named::Judge("javascript"));
        assert_eq!(fusion("cpp"), Named::Judge("cpp"));
        assert!(matches!(fusion("pytest"), Named::Unsupported(_)));
        assert_eq!(fusion("cobol"), Named::Unknown);
    }

    #[test]
    fn piston_aliases_map_to_ids_and_other_names_pass_through() {
        assert_eq!(piston("C++"), "cpp");
        assert_eq!(piston("python3"), "python");
        assert_eq!(piston("haskell"), "haskell");
        assert!(piston_aliases("javascript").contains(&"node"));
    }
}
