//! What a checker program says besides its exit code, read: the score a Kattis output
//! validator writes to `score.txt`, and the points of testlib's `quitp` message. Its message
//! itself (`judgemessage.txt`, stderr) is read by [`crate::text::message`].
//!
//! Whatever the program wrote, a score is a finite number or none: a `nan` or `1e999` would
//! otherwise make every sum over a group's scores meaningless.

/// The score of `score.txt`: its one number, when it is a finite one.
pub fn score(text: &[u8]) -> Option<f64> {
    finite(std::str::from_utf8(text).ok()?.trim())
}

/// The points of testlib's `quitp` message: `points 12.5 comment` (the word is optional).
pub fn points(message: &str) -> Option<f64> {
    let mut words = message.split_whitespace();
    let first = words.next()?;
    let number = if first.eq_ignore_ascii_case("points") {
        words.next()?
    } else {
        first
    };
    finite(number)
}

fn finite(number: &str) -> Option<f64> {
    number.parse().ok().filter(|p: &f64| p.is_finite())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_finite_number_is_a_score() {
        assert_eq!(score(b" 12.5\n"), Some(12.5));
        assert_eq!(points("points 7 well done"), Some(7.0));
        assert_eq!(points("3.5"), Some(3.5));
        for bad in ["nan", "NaN", "inf", "-inf", "1e999", "", "twelve"] {
            assert_eq!(score(bad.as_bytes()), None, "{bad}");
            assert_eq!(points(&format!("points {bad}")), None, "{bad}");
        }
        assert_eq!(score(b"\xff1"), None);
    }
}
