//! `/usr/bin/time` (GNU time), the reference the judge's figures are held against. Shared with
//! benches/accuracy.rs.

use std::path::Path;
use std::process::{Command, Stdio};

/// CPU time in ms (user + sys) and peak memory in KiB of one run of `binary` on `input`, with an
/// empty environment (as the runner starts programs), as `/usr/bin/time -f "%U %S %M"` reports
/// them: it cuts user and sys to hundredths of a second each.
pub(crate) fn usr_bin_time(binary: &Path, input: &Path) -> (f64, u64) {
    let out = Command::new("/usr/bin/time")
        .args(["-f", "%U %S %M"])
        .arg(binary)
        .stdin(std::fs::File::open(input).unwrap())
        .stdout(Stdio::null())
        .env_clear()
        .output()
        .expect("/usr/bin/time runs (GNU time; Debian: apt-get install time)");
    let text = String::from_utf8_lossy(&out.stderr);
    let f: Vec<f64> = text
        .lines()
        .last()
        .unwrap()
        .split_whitespace()
        .map(|t| t.parse().unwrap())
        .collect();
    ((f[0] + f[1]) * 1000.0, f[2] as u64)
}
