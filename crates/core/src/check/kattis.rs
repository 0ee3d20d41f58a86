//! The Kattis problem package format's default output validator, with its exact semantics.
//!
//! Tokens separated by whitespace; letters compared without regard to case unless
//! `case_sensitive`; whitespace compared byte for byte with `space_change_sensitive`; and with
//! a float tolerance, a token of the answer that reads entirely as a finite number accepts any
//! output number within the absolute or the relative tolerance (the output token must then be a
//! number too). Trailing output is a wrong answer.

use super::CheckOutcome;
use crate::text::quote;

/// The default validator's flags (`validator_flags`, `output_validator_flags`).
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct KattisFlags {
    pub case_sensitive: bool,
    pub space_change_sensitive: bool,
    pub float_absolute: Option<f64>,
    pub float_relative: Option<f64>,
}

/// Flags the default output validator would refuse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum FlagsError {
    #[error("`{0}` needs a number after it")]
    NoTolerance(String),
    #[error("`{flag} {value}`: the tolerance is not a number")]
    BadTolerance { flag: String, value: String },
    #[error("`{0}` is not a flag of the default validator (case_sensitive, space_change_sensitive, float_tolerance E, float_absolute_tolerance E, float_relative_tolerance E)")]
    Unknown(String),
}

impl KattisFlags {
    /// Reads the flags; an unknown flag or a tolerance that is not a number is an error, as
    /// the default validator makes it.
    pub fn parse(flags: &str) -> Result<KattisFlags, FlagsError> {
        let mut f = KattisFlags::default();
        let mut words = flags.split_whitespace();
        while let Some(w) = words.next() {
            let mut tolerance = |name: &str| -> Result<f64, FlagsError> {
                let v = words
                    .next()
                    .ok_or_else(|| FlagsError::NoTolerance(name.to_string()))?;
                finite(v)
                    .filter(|t| *t >= 0.0)
                    .ok_or_else(|| FlagsError::BadTolerance {
                        flag: name.to_string(),
                        value: v.to_string(),
                    })
            };
            match w {
                "case_sensitive" => f.case_sensitive = true,
                "space_change_sensitive" => f.space_change_sensitive = true,
                "float_absolute_tolerance" => f.float_absolute = Some(tolerance(w)?),
                "float_relative_tolerance" => f.float_relative = Some(tolerance(w)?),
                "float_tolerance" => {
                    let t = tolerance(w)?;
                    f.float_absolute = Some(t);
                    f.float_relative = Some(t);
                }
                other => return Err(FlagsError::Unknown(other.to_string())),
            }
        }
        Ok(f)
    }

    /// These flags with more on top (a test group's own, after the problem's).
    pub fn with(&self, extra: &[String]) -> Result<KattisFlags, FlagsError> {
        let more = KattisFlags::parse(&extra.join(" "))?;
        Ok(KattisFlags {
            case_sensitive: self.case_sensitive || more.case_sensitive,
            space_change_sensitive: self.space_change_sensitive || more.space_change_sensitive,
            float_absolute: more.float_absolute.or(self.float_absolute),
            float_relative: more.float_relative.or(self.float_relative),
        })
    }

    fn uses_floats(&self) -> bool {
        self.float_absolute.is_some() || self.float_relative.is_some()
    }
}

impl std::fmt::Display for KattisFlags {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let mut parts = Vec::new();
        if self.case_sensitive {
            parts.push("case_sensitive".to_string());
        }
        if self.space_change_sensitive {
            parts.push("space_change_sensitive".to_string());
        }
        match (self.float_absolute, self.float_relative) {
            (Some(a), Some(r)) if a == r => parts.push(format!("float_tolerance {a:e}")),
            (a, r) => {
                if let Some(a) = a {
                    parts.push(format!("float_absolute_tolerance {a:e}"));
                }
                if let Some(r) = r {
                    parts.push(format!("float_relative_tolerance {r:e}"));
                }
            }
        }
        f.write_str(&parts.join(" "))
    }
}

/// A token read as C's `sscanf("%lf")` reads a whole token: decimal or hexadecimal notation,
/// and only a finite value counts (`inf` and `nan` are words).
fn finite(token: &str) -> Option<f64> {
    let v = token.parse::<f64>().ok().or_else(|| hex_float(token))?;
    v.is_finite().then_some(v)
}

/// `0x1.8p3` and the like, which C reads as numbers.
fn hex_float(token: &str) -> Option<f64> {
    let (negative, rest) = match token.as_bytes().first()? {
        b'-' => (true, &token[1..]),
        b'+' => (false, &token[1..]),
        _ => (false, token),
    };
    let rest = rest
        .strip_prefix("0x")
        .or_else(|| rest.strip_prefix("0X"))?;
    let (mantissa, exponent) = match rest.find(['p', 'P']) {
        Some(i) => (&rest[..i], rest[i + 1..].parse::<i32>().ok()?),
        None => (rest, 0),
    };
    let (whole, fraction) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    let mut value = 0f64;
    for c in whole.chars() {
        value = value * 16.0 + c.to_digit(16)? as f64;
    }
    let mut scale = 1.0 / 16.0;
    for c in fraction.chars() {
        value += c.to_digit(16)? as f64 * scale;
        scale /= 16.0;
    }
    let v = value * 2f64.powi(exponent);
    Some(if negative { -v } else { v })
}

fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// Compares `output` with `answer` as the default validator does.
pub fn compare(flags: &KattisFlags, answer: &[u8], output: &[u8]) -> CheckOutcome {
    let mut reading = Reading {
        flags,
        answer,
        output,
        a: 0,
        o: 0,
    };
    match reading.tokens().and_then(|()| reading.trailing()) {
        Ok(()) => CheckOutcome::accepted(),
        Err(rejected) => rejected,
    }
}

/// The default validator's reading of an answer and an output side by side: `a` and `o`, how
/// far each is read. `Err` is the rejection, where it is.
struct Reading<'a> {
    flags: &'a KattisFlags,
    answer: &'a [u8],
    output: &'a [u8],
    a: usize,
    o: usize,
}

impl Reading<'_> {
    /// A rejection at `o` in the output, with its line, counted as the output is read.
    fn reject(&self, o: usize, what: String) -> CheckOutcome {
        let line = self.output[..o.min(self.output.len())]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        CheckOutcome::rejected(format!("line {line} of the output: {what}"))
    }

    /// Every token of the answer, each against the output's next.
    fn tokens(&mut self) -> Result<(), CheckOutcome> {
        let (answer, output) = (self.answer, self.output);
        loop {
            self.spaces()?;
            if self.a == answer.len() {
                return Ok(());
            }
            let (a0, a1) = token(answer, self.a);
            if self.o == output.len() {
                return Err(self.reject(
                    self.o,
                    format!(
                        "the output ended; the answer goes on with {}",
                        quote(&answer[a0..a1])
                    ),
                ));
            }
            let (o0, o1) = token(output, self.o);
            self.same_token(&answer[a0..a1], &output[o0..o1], o0)?;
            self.a = a1;
            self.o = o1;
        }
    }

    /// The whitespace before the next tokens: alike, or byte for byte with
    /// space_change_sensitive.
    fn spaces(&mut self) -> Result<(), CheckOutcome> {
        let (answer, output) = (self.answer, self.output);
        while self.a < answer.len() && is_space(answer[self.a]) {
            if self.flags.space_change_sensitive {
                if output.get(self.o) != Some(&answer[self.a]) {
                    return Err(self.reject(
                        self.o,
                        format!(
                            "space change: expected {}, received {}",
                            quote(&answer[self.a..=self.a]),
                            output
                                .get(self.o)
                                .map_or("the end".into(), |b| quote(&[*b]))
                        ),
                    ));
                }
                self.o += 1;
            }
            self.a += 1;
        }
        while self.o < output.len() && is_space(output[self.o]) {
            if self.flags.space_change_sensitive {
                return Err(self.reject(
                    self.o,
                    format!(
                        "space change: unexpected {}",
                        quote(&output[self.o..=self.o])
                    ),
                ));
            }
            self.o += 1;
        }
        Ok(())
    }

    /// One token of the output (`got`, at `at`) against the answer's (`want`): as numbers
    /// within the tolerance where the answer's is a finite number and a tolerance is set, else
    /// as words.
    fn same_token(&self, want: &[u8], got: &[u8], at: usize) -> Result<(), CheckOutcome> {
        let as_float = |t: &[u8]| std::str::from_utf8(t).ok().and_then(finite);
        let flags = self.flags;
        match (flags.uses_floats(), as_float(want)) {
            (true, Some(w)) => {
                let Some(g) = as_float(got) else {
                    return Err(
                        self.reject(at, format!("expected a number, received {}", quote(got)))
                    );
                };
                let diff = (w - g).abs();
                let ok = flags.float_absolute.is_some_and(|t| diff <= t)
                    || flags.float_relative.is_some_and(|t| diff <= t * w.abs());
                if !ok {
                    return Err(self.reject(
                        at,
                        format!(
                            "expected {} within the tolerance, received {} (difference {diff:e})",
                            quote(want),
                            quote(got)
                        ),
                    ));
                }
            }
            _ => {
                let same = if flags.case_sensitive {
                    want == got
                } else {
                    want.eq_ignore_ascii_case(got)
                };
                if !same {
                    return Err(self.reject(
                        at,
                        format!("expected {}, received {}", quote(want), quote(got)),
                    ));
                }
            }
        }
        Ok(())
    }

    /// After the answer's last token: only whitespace in the output (none with
    /// space_change_sensitive).
    fn trailing(&mut self) -> Result<(), CheckOutcome> {
        let output = self.output;
        while self.o < output.len() && is_space(output[self.o]) {
            if self.flags.space_change_sensitive {
                return Err(self.reject(
                    self.o,
                    format!("trailing {}", quote(&output[self.o..=self.o])),
                ));
            }
            self.o += 1;
        }
        if self.o < output.len() {
            let (from, end) = token(output, self.o);
            return Err(self.reject(
                from,
                format!("trailing output: {}", quote(&output[from..end])),
            ));
        }
        Ok(())
    }
}

/// The token of `data` that starts at `from`: its start and end.
fn token(data: &[u8], from: usize) -> (usize, usize) {
    let end = data[from..]
        .iter()
        .position(|&b| is_space(b))
        .map_or(data.len(), |p| from + p);
    (from, end)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(flags: &str, answer: &str, output: &str) -> bool {
        compare(
            &KattisFlags::parse(flags).unwrap(),
            answer.as_bytes(),
            output.as_bytes(),
        )
        .accepted
    }

    #[test]
    fn case_insensitive_unless_told() {
        assert!(ok("", "Yes\n", "YES"));
        assert!(!ok("case_sensitive", "Yes\n", "YES"));
        assert!(ok("", "a  b\n\nc", "a b c\n"));
        assert!(!ok("", "1 2", "1 2 3"), "trailing output");
        assert!(!ok("", "1 2", "1"), "missing output");
        assert!(ok("", "", "  \n"));
    }

    #[test]
    fn whitespace_byte_for_byte_when_sensitive() {
        assert!(ok("space_change_sensitive", "1 2\n", "1 2\n"));
        assert!(!ok("space_change_sensitive", "1 2\n", "1  2\n"));
        assert!(!ok("space_change_sensitive", "1 2\n", "1 2"));
        assert!(!ok("space_change_sensitive", "1 2\n", "1 2\n\n"));
    }

    #[test]
    fn floats_only_where_the_answer_is_a_finite_number() {
        // Without a tolerance, numbers are words.
        assert!(!ok("", "200", "2.0e2"));
        // With one, any notation of a close enough number, the integer 200 included.
        assert!(ok("float_tolerance 1e-6", "200", "2.0e2"));
        assert!(ok("float_tolerance 1e-6", "0.0314", "3.14000000e-2"));
        assert!(ok("float_absolute_tolerance 0.1", "1", "1.05"));
        assert!(!ok("float_absolute_tolerance 0.01", "1", "1.05"));
        assert!(ok("float_relative_tolerance 0.1", "100", "105"));
        assert!(
            ok("float_tolerance 1e-9", "1", "0x1p0"),
            "C reads hexadecimal numbers"
        );
        // The output must be a number where the answer is one.
        assert!(!ok("float_tolerance 1", "1", "one"));
        // inf and nan in the answer are words, compared as such (without regard to case).
        assert!(ok("float_tolerance 1", "inf", "INF"));
        assert!(!ok("float_tolerance 1", "nan", "0"));
    }

    #[test]
    fn flags_are_checked() {
        assert_eq!(
            KattisFlags::parse("float_tolerance")
                .unwrap_err()
                .to_string(),
            "`float_tolerance` needs a number after it"
        );
        assert_eq!(
            KattisFlags::parse("float_tolerance x")
                .unwrap_err()
                .to_string(),
            "`float_tolerance x`: the tolerance is not a number"
        );
        assert_eq!(
            KattisFlags::parse("fuzzy"),
            Err(FlagsError::Unknown("fuzzy".into()))
        );
        let f = KattisFlags::parse("case_sensitive float_tolerance 1e-6").unwrap();
        assert_eq!(f.to_string(), "case_sensitive float_tolerance 1e-6");
        assert_eq!(KattisFlags::parse(&f.to_string()).unwrap(), f);
    }

    #[test]
    fn hexadecimal_numbers() {
        assert_eq!(hex_float("0x1.8p3"), Some(12.0));
        assert_eq!(hex_float("-0X10"), Some(-16.0));
        assert_eq!(hex_float("0x"), None);
        assert_eq!(finite("1e999"), None);
        assert_eq!(finite("1."), Some(1.0));
    }
}
