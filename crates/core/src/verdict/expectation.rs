//! `Expectation`: the verdicts a solution is expected to get, one or several accepted alike, as
//! written in problem.toml, a package's directories and its expectations ("TLE or AC").

use std::collections::BTreeSet;
use std::fmt;
use std::str::FromStr;

use serde::{Serialize, Serializer};

use super::{Verdict, VerdictError};

/// An expected verdict: one verdict, or several accepted alike ("TLE or AC").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Expectation(pub BTreeSet<Verdict>);

impl Expectation {
    pub fn admits(&self, v: Verdict) -> bool {
        self.0.contains(&v)
    }

    /// Exactly this verdict and no other ("AC", not "AC or TLE").
    pub fn is_only(&self, v: Verdict) -> bool {
        self.0.len() == 1 && self.admits(v)
    }
}

impl Serialize for Expectation {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl FromStr for Expectation {
    type Err = VerdictError;

    fn from_str(s: &str) -> Result<Expectation, VerdictError> {
        let set = s
            .split(['|', ','])
            .flat_map(|part| part.split(" or "))
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| match Verdict::from_str(p)? {
                // The judge's or the problem's fault is never what a solution is written for.
                Verdict::Ie => Err(VerdictError::InternalErrorExpected(p.to_string())),
                v => Ok(v),
            })
            .collect::<Result<BTreeSet<_>, _>>()?;
        if set.is_empty() {
            return Err(VerdictError::NoneExpected);
        }
        Ok(Expectation(set))
    }
}

impl fmt::Display for Expectation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let parts: Vec<&str> = self.0.iter().map(|v| v.code()).collect();
        f.write_str(&parts.join(" or "))
    }
}
