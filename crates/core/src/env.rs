//! The judge's own environment variables, in one list: each with its name, the setting it sets
//! and its line of documentation. Nothing else reads the environment for the judge's settings
//! (the environment handed to compilers and programs is theirs, not a setting).

use std::ffi::OsString;

/// One of the judge's environment variables.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Var {
    /// `JUDGE_HISTORY`.
    pub name: &'static str,
    /// The setting it sets, as `judge config` names it.
    pub sets: &'static str,
    /// What it does, in one line (the guide's table and `judge config` say it).
    pub doc: &'static str,
}

impl Var {
    /// Its value, when it is set and not empty: an empty variable is one left unset, as the
    /// XDG rule has it, so that `VAR= judge ...` restores the default.
    pub fn get(&self) -> Option<OsString> {
        std::env::var_os(self.name).filter(|v| !v.is_empty())
    }
}

/// `JUDGE_HISTORY`: the submission history's database.
pub const HISTORY: Var = Var {
    name: "JUDGE_HISTORY",
    sets: "history",
    doc: "the submission history's database, as --history gives it",
};

/// `JUDGE_CACHE_DIR`: the build cache's folder.
pub const CACHE_DIR: Var = Var {
    name: "JUDGE_CACHE_DIR",
    sets: "cache",
    doc: "the build cache's folder (builds, compile errors, compilers' identities, unpacked packages)",
};

/// `JUDGE_NATS`: the cluster's NATS server.
pub const NATS: Var = Var {
    name: "JUDGE_NATS",
    sets: "cluster.url",
    doc: "the cluster's NATS server, as --nats gives it",
};

/// `JUDGE_NATS_CREDENTIALS`: the NATS credentials file.
pub const NATS_CREDENTIALS: Var = Var {
    name: "JUDGE_NATS_CREDENTIALS",
    sets: "cluster.credentials",
    doc: "the NATS credentials file, as --nats-credentials gives it",
};

/// `JUDGE_RUSTC`: the Rust compiler run instead of `rustc`.
pub const RUSTC: Var = Var {
    name: "JUDGE_RUSTC",
    sets: "rustc",
    doc: "the Rust compiler run where a command says `rustc`",
};

/// Every one of the judge's own variables, in the order the guide lists them.
pub const ALL: &[Var] = &[HISTORY, CACHE_DIR, NATS, NATS_CREDENTIALS, RUSTC];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_variable_is_the_judges_and_listed_once() {
        for (i, v) in ALL.iter().enumerate() {
            assert!(v.name.starts_with("JUDGE_"), "{}", v.name);
            assert!(!v.doc.is_empty() && !v.sets.is_empty(), "{}", v.name);
            assert!(
                ALL[i + 1..]
                    .iter()
                    .all(|w| w.name != v.name && w.sets != v.sets),
                "{} twice",
                v.name
            );
        }
    }

    /// The guide's table of variables is this list: each row its name, setting and doc line.
    #[test]
    fn the_guide_lists_every_variable() {
        let guide = include_str!("../../../docs/src/settings.md");
        for v in ALL {
            let row = format!("| `{}` | `{}` | {} |", v.name, v.sets, v.doc);
            assert!(
                guide.contains(&row),
                "docs/src/settings.md lacks the row {row}"
            );
        }
        let rows = guide.lines().filter(|l| l.starts_with("| `JUDGE_")).count();
        assert_eq!(
            rows,
            ALL.len(),
            "the guide lists a variable the judge does not have"
        );
    }
}
