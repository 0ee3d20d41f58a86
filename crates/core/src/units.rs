//! Durations and sizes: parsing what users write ("1.5s", "256MiB") and formatting what they read ("152 ms", "1.9 MiB").
//!
//! A leaf: every other module reads and writes numbers through here, and this module uses none of them.

use std::time::Duration;

/// A duration or a size that cannot be read: each names the text as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum UnitError {
    #[error("`{0}` is not a duration")]
    NotADuration(String),
    #[error("`{0}` is not a size")]
    NotASize(String),
    #[error("unknown unit `{unit}` in `{text}` (use KiB, MiB or GiB)")]
    UnknownUnit { unit: String, text: String },
    #[error("`{0}` must be more than zero")]
    NotPositive(String),
    #[error("`{0}` is more than an hour")]
    OverAnHour(String),
    #[error("`{0}` is more than 1 TiB")]
    OverATebibyte(String),
}

/// "1s", "1.5s", "500ms", or a bare number of milliseconds.
pub fn parse_duration(s: &str) -> Result<Duration, UnitError> {
    let t = s.trim();
    let (number, scale) = if let Some(n) = t.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = t.strip_suffix('s') {
        (n, 1000.0)
    } else {
        (t, 1.0)
    };
    let value: f64 = number
        .trim()
        .parse()
        .map_err(|_| UnitError::NotADuration(s.to_string()))?;
    let ms = value * scale;
    if !ms.is_finite() || ms <= 0.0 {
        return Err(UnitError::NotPositive(s.to_string()));
    }
    if ms > 3_600_000.0 {
        return Err(UnitError::OverAnHour(s.to_string()));
    }
    Ok(Duration::from_micros((ms * 1000.0).round() as u64))
}

/// Like [`parse_duration`], but a bare number is seconds ("60" is a minute).
pub fn parse_seconds(s: &str) -> Result<Duration, UnitError> {
    if !s.is_empty() && s.chars().all(|c| c.is_ascii_digit()) {
        parse_duration(&format!("{s}s"))
    } else {
        parse_duration(s)
    }
}

/// "256MiB", "1 GiB", "64MB" (MB and GB are taken as MiB and GiB, as judges mean them), or a bare number of MiB.
pub fn parse_size(s: &str) -> Result<u64, UnitError> {
    let t = s.trim();
    let split = t
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| UnitError::NotASize(s.to_string()))?;
    let scale = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "mib" | "mb" | "m" => 1u64 << 20,
        "kib" | "kb" | "k" => 1 << 10,
        "gib" | "gb" | "g" => 1 << 30,
        "b" => 1,
        other => {
            return Err(UnitError::UnknownUnit {
                unit: other.to_string(),
                text: s.to_string(),
            })
        }
    };
    let bytes = value * scale as f64;
    if !bytes.is_finite() || bytes < 1.0 {
        return Err(UnitError::NotPositive(s.to_string()));
    }
    if bytes > (1u64 << 40) as f64 {
        return Err(UnitError::OverATebibyte(s.to_string()));
    }
    Ok(bytes as u64)
}

/// "152 ms", "1 s", "1.50 s", "12.6 s": as a status page shows a time.
pub fn format_duration(d: Duration) -> String {
    let ms = d.as_secs_f64() * 1000.0;
    if ms >= 1000.0 && ms % 1000.0 == 0.0 {
        format!("{} s", (ms / 1000.0) as u64)
    } else if ms >= 10_000.0 {
        format!("{:.1} s", ms / 1000.0)
    } else if ms >= 1000.0 {
        format!("{:.2} s", ms / 1000.0)
    } else {
        format!("{} ms", ms.round() as u64)
    }
}

/// A run's (or a case's) time as every table and page shows it: the time measured, or
/// "> 4 s" when it went over the time limit (`limit` given): what was measured past the
/// limit says nothing about the program.
pub fn format_run_time(measured: Duration, over: Option<Duration>) -> String {
    match over {
        Some(limit) => format!("> {}", format_duration(limit)),
        None => format_duration(measured),
    }
}

/// Milliseconds with the precision a measurement deserves: "0.42 ms", "4.2 ms", "39 ms", "1.45 s", "12.6 s".
pub fn format_ms(v: f64) -> String {
    if v >= 1000.0 && v % 1000.0 == 0.0 {
        format!("{} s", v / 1000.0)
    } else if v >= 10_000.0 {
        format!("{:.1} s", v / 1000.0)
    } else if v >= 1000.0 {
        format!("{:.2} s", v / 1000.0)
    } else if v >= 10.0 {
        format!("{v:.0} ms")
    } else if v >= 1.0 {
        format!("{v:.1} ms")
    } else {
        format!("{v:.2} ms")
    }
}

/// "512 B", "64 MiB", "1.9 MiB", "1 GiB".
pub fn format_bytes(b: u64) -> String {
    const K: f64 = 1024.0;
    let f = b as f64;
    if f >= K * K * K {
        trim(format!("{:.1}", f / (K * K * K))) + " GiB"
    } else if f >= K * K {
        if f >= 100.0 * K * K {
            format!("{:.0} MiB", f / (K * K))
        } else {
            trim(format!("{:.1}", f / (K * K))) + " MiB"
        }
    } else if f >= K {
        format!("{:.0} KiB", f / K)
    } else {
        format!("{b} B")
    }
}

fn trim(s: String) -> String {
    s.strip_suffix(".0").map(str::to_string).unwrap_or(s)
}

/// Whole milliseconds, as every `*_ms` field of the JSON documents holds them.
pub fn millis(d: Duration) -> u64 {
    d.as_millis() as u64
}

/// Serde helpers for the JSON documents: durations as whole milliseconds, sizes as KiB.
pub mod serde_as {
    use std::time::Duration;

    use serde::Serializer;

    pub fn ms<S: Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(super::millis(*d))
    }

    pub fn opt_ms<S: Serializer>(d: &Option<Duration>, s: S) -> Result<S::Ok, S::Error> {
        match d {
            Some(d) => s.serialize_u64(super::millis(*d)),
            None => s.serialize_none(),
        }
    }

    pub fn kb<S: Serializer>(b: &u64, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_u64(b / 1024)
    }

    pub fn display<T: std::fmt::Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    /// Reads back what [`ms`] wrote (to the millisecond).
    pub fn from_ms<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Duration, D::Error> {
        Ok(Duration::from_millis(serde::Deserialize::deserialize(d)?))
    }

    /// Reads back what [`kb`] wrote (to the KiB).
    pub fn from_kb<'de, D: serde::Deserializer<'de>>(d: D) -> Result<u64, D::Error> {
        let kb: u64 = serde::Deserialize::deserialize(d)?;
        Ok(kb * 1024)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_sizes() {
        assert_eq!(parse_duration("1s").unwrap(), Duration::from_secs(1));
        assert_eq!(parse_duration("1.5s").unwrap(), Duration::from_millis(1500));
        assert_eq!(parse_duration("250ms").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_duration("250").unwrap(), Duration::from_millis(250));
        assert_eq!(parse_seconds("60").unwrap(), Duration::from_secs(60));
        assert_eq!(parse_seconds("250ms").unwrap(), Duration::from_millis(250));
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("-1s").is_err());
        assert!(parse_duration("fast").is_err());
        assert_eq!(parse_size("256MiB").unwrap(), 256 << 20);
        assert_eq!(parse_size("256 MB").unwrap(), 256 << 20);
        assert_eq!(parse_size("1GiB").unwrap(), 1 << 30);
        assert_eq!(parse_size("64").unwrap(), 64 << 20);
        assert!(parse_size("0MiB").is_err());
        assert!(parse_size("12 parsecs").is_err());
    }

    #[test]
    fn a_number_not_read_says_what_was_written() {
        let said = |r: Result<Duration, UnitError>| r.unwrap_err().to_string();
        assert_eq!(said(parse_duration("fast")), "`fast` is not a duration");
        assert_eq!(said(parse_duration("0s")), "`0s` must be more than zero");
        assert_eq!(said(parse_duration("2h")), "`2h` is not a duration");
        assert_eq!(said(parse_seconds("4000")), "`4000s` is more than an hour");
        assert_eq!(
            parse_size("12 parsecs").unwrap_err(),
            UnitError::UnknownUnit {
                unit: "parsecs".into(),
                text: "12 parsecs".into()
            }
        );
        assert_eq!(
            parse_size("12 parsecs").unwrap_err().to_string(),
            "unknown unit `parsecs` in `12 parsecs` (use KiB, MiB or GiB)"
        );
        assert_eq!(
            parse_size("2048GiB").unwrap_err().to_string(),
            "`2048GiB` is more than 1 TiB"
        );
    }

    #[test]
    fn numbers_read_like_a_status_page() {
        assert_eq!(format_duration(Duration::from_millis(152)), "152 ms");
        assert_eq!(format_duration(Duration::from_secs(1)), "1 s");
        assert_eq!(format_duration(Duration::from_millis(1500)), "1.50 s");
        assert_eq!(format_duration(Duration::from_secs(29)), "29 s");
        assert_eq!(format_duration(Duration::from_millis(12_640)), "12.6 s");
        assert_eq!(format_duration(Duration::from_micros(400)), "0 ms");
        assert_eq!(format_bytes(256 << 20), "256 MiB");
        assert_eq!(format_bytes(2_000_000), "1.9 MiB");
        assert_eq!(format_bytes(64 << 20), "64 MiB");
        assert_eq!(format_bytes(1 << 30), "1 GiB");
        assert_eq!(format_bytes(512), "512 B");
        assert_eq!(format_ms(0.424), "0.42 ms");
        assert_eq!(format_ms(4.24), "4.2 ms");
        assert_eq!(format_ms(1450.0), "1.45 s");
        assert_eq!(format_ms(15000.0), "15 s");
    }
}
