//! How a solution's cost grows with the input size: sizes, inputs from a template, the measuring loop, growth factors, fitted models.

mod fit;
mod measure;

pub use fit::{fit, growth_per_unit, linear_fit, Fit, Fits, Model};
pub use measure::{
    measure, Point, PointStatus, ScaleObserver, ScaleOptions, ScaleReport, SolutionScale, Statistic,
};

/// Below this CPU time a measurement is mostly process start-up: it is shown but not fitted.
pub const MEASURABLE_FLOOR_MS: f64 = 5.0;
/// A fit is called poor below this R².
pub const GOOD_R2: f64 = 0.95;
/// A fit needs at least this many sizes above the floor to mean anything.
pub const MIN_POINTS: usize = 3;

/// A list of sizes that cannot be read, as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SizesError {
    #[error("`{0}` is not a list of sizes: write `4..16`, `4..16:2` or `4,6,8`")]
    NotSizes(String),
    #[error(
        "`{0}` is not a list of sizes: write `4..16`, `4..16:2` or `4,6,8`: sizes must increase"
    )]
    NotIncreasing(String),
}

/// Parses `4..16` (inclusive), `4..=16`, `4..16:2` (a step) or `4,6,8`.
pub fn parse_sizes(s: &str) -> Result<Vec<u64>, SizesError> {
    let s = s.trim();
    let bad = || SizesError::NotSizes(s.to_string());
    let sizes: Vec<u64> = if let Some((from, rest)) = s.split_once("..") {
        let (to, step) = match rest.split_once(':') {
            Some((to, step)) => (to, step.trim().parse::<u64>().map_err(|_| bad())?),
            None => (rest, 1),
        };
        let to = to.strip_prefix('=').unwrap_or(to);
        let (from, to): (u64, u64) = (
            from.trim().parse().map_err(|_| bad())?,
            to.trim().parse().map_err(|_| bad())?,
        );
        if step == 0 || from > to {
            return Err(bad());
        }
        (from..=to).step_by(step as usize).collect()
    } else {
        s.split(',')
            .map(|t| t.trim().parse::<u64>().map_err(|_| bad()))
            .collect::<Result<_, _>>()?
    };
    if sizes.is_empty() || sizes.windows(2).any(|w| w[0] >= w[1]) {
        return Err(SizesError::NotIncreasing(s.to_string()));
    }
    Ok(sizes)
}

/// The input for size `n`: `{n}` replaced, and the escapes `\n`, `\t`, `\\` read as such
/// (a shell passes them literally).
pub fn input_for(template: &str, n: u64) -> String {
    let mut out = String::new();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' => match chars.next() {
                Some('n') => out.push('\n'),
                Some('t') => out.push('\t'),
                Some('\\') => out.push('\\'),
                Some(other) => {
                    out.push('\\');
                    out.push(other);
                }
                None => out.push('\\'),
            },
            '{' if template_at(&mut chars, "n}") => out.push_str(&n.to_string()),
            c => out.push(c),
        }
    }
    out
}

fn template_at(chars: &mut std::iter::Peekable<std::str::Chars>, rest: &str) -> bool {
    let ahead: String = chars.clone().take(rest.len()).collect();
    if ahead == rest {
        for _ in 0..rest.len() {
            chars.next();
        }
        true
    } else {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_ranges_or_lists() {
        assert_eq!(parse_sizes("4..8").unwrap(), vec![4, 5, 6, 7, 8]);
        assert_eq!(parse_sizes("4..=6").unwrap(), vec![4, 5, 6]);
        assert_eq!(parse_sizes("4..10:3").unwrap(), vec![4, 7, 10]);
        assert_eq!(parse_sizes("4, 6,8").unwrap(), vec![4, 6, 8]);
        assert!(parse_sizes("8..4").is_err());
        assert!(parse_sizes("6,4").is_err());
        assert!(parse_sizes("a..b").is_err());
        assert!(parse_sizes("4..8:0").is_err());
        assert_eq!(
            parse_sizes("6,4").unwrap_err().to_string(),
            "`6,4` is not a list of sizes: write `4..16`, `4..16:2` or `4,6,8`: sizes must increase"
        );
        assert_eq!(
            parse_sizes(" a..b ").unwrap_err(),
            SizesError::NotSizes("a..b".into())
        );
    }

    #[test]
    fn the_template_takes_n_and_escapes() {
        assert_eq!(input_for("{n}\\n", 12), "12\n");
        assert_eq!(input_for("{n} {n}\n", 3), "3 3\n");
        assert_eq!(input_for("a\\tb {m}", 1), "a\tb {m}");
    }
}
