//! `judge scale`: sizes, the cap, the table, the JSON, and the SVG chart as a browser draws it.
//!
//! The chart test renders the SVG with headless Chromium and checks the screenshot's pixels;
//! it is ignored where no Chromium is on PATH (build.rs: `judge_has_chromium`).

use std::path::Path;
use std::process::Command;

use crate::common::{shipped, Test, Workspace};

/// A problem whose input is n, a solution whose work doubles with n, and one that does nothing.
fn growing() -> (Workspace, String, String) {
    let ws = Workspace::new();
    ws.problem(
        "grow",
        "title = \"Grow\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\n",
        &[("1", "3\n", "3\n")],
    );
    let read = "use std::io::Read;\nfn n() -> u32 { let mut s = String::new(); std::io::stdin().read_to_string(&mut s).unwrap(); s.trim().parse().unwrap() }\n";
    let doubling = ws.write(
        "solutions/grow/doubling.rs",
        format!("{read}fn main() {{ let n = n(); let mut x = 1u64; for _ in 0..(100_000u64 << n) {{ x = std::hint::black_box(x.wrapping_mul(3)); }} println!(\"{{}}\", x % 2 + n as u64); }}\n"),
    );
    let flat = ws.write(
        "solutions/grow/flat.rs",
        format!("{read}fn main() {{ println!(\"{{}}\", n()); }}\n"),
    );
    let _ = (doubling, flat);
    (ws, "doubling".into(), "flat".into())
}

fn statuses(sol: &serde_json::Value) -> Vec<String> {
    sol["points"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["status"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn a_solution_stops_at_the_cap_and_the_rest_is_skipped() {
    let (ws, doubling, flat) = growing();
    let doc = ws
        .judge()
        .args([
            "scale", &doubling, &flat, "--sizes", "1..16", "--cap", "100ms", "--repeat", "2",
            "--json",
        ])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["problem"], "grow");
    assert_eq!(doc["cap_ms"], 100.0);
    assert_eq!(doc["sizes"].as_array().unwrap().len(), 16);
    let d = &doc["solutions"][0];
    assert_eq!(d["solution"], "doubling");
    let s = statuses(d);
    // 100,000 << 16 iterations take far more than 100 ms: the cap is reached somewhere, and
    // nothing after it runs.
    let cut = s
        .iter()
        .position(|x| x == "over_cap")
        .expect("the cap is reached");
    assert!(s[..cut].iter().all(|x| x == "ok"), "{s:?}");
    assert!(s[cut + 1..].iter().all(|x| x == "skipped"), "{s:?}");
    assert!(cut >= 1, "the smallest size is quick: {s:?}");
    let first = &d["points"][0];
    assert_eq!(first["runs_ms"].as_array().unwrap().len(), 2);
    let min = first["runs_ms"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_f64().unwrap())
        .fold(f64::INFINITY, f64::min);
    assert_eq!(
        first["cpu_ms"].as_f64().unwrap(),
        min,
        "the minimum of the runs"
    );

    // The flat solution runs every size, all under the measurable floor: nothing to fit.
    let f = &doc["solutions"][1];
    assert!(statuses(f).iter().all(|x| x == "ok"));
    assert_eq!(f["fit"]["points"], 0);
    assert_eq!(f["fit"]["poor"], true);
    assert_eq!(f["fit"]["below_floor"].as_array().unwrap().len(), 16);
}

#[test]
fn the_table_shows_times_growth_and_fits() {
    let (ws, doubling, flat) = growing();
    let text = ws
        .judge()
        .args([
            "scale", &doubling, &flat, "--sizes", "2..16:2", "--cap", "300ms", "--repeat", "1",
        ])
        .expect_exit(0)
        .run()
        .stdout;
    assert!(text.contains("grow: CPU time by size"), "{text}");
    assert!(
        text.contains("min of 1 run per size · cap 300 ms"),
        "{text}"
    );
    assert!(text.contains("> 300 ms"), "{text}");
    let head = text
        .lines()
        .find(|l| l.trim_start().starts_with("n "))
        .unwrap();
    assert!(head.contains("doubling") && head.contains("flat"), "{head}");
    for n in ["2", "4", "6", "8", "10", "12", "14", "16"] {
        assert!(
            text.lines().any(|l| l.split_whitespace().next() == Some(n)),
            "no row for {n}: {text}"
        );
    }
    assert!(text.contains("flat"), "{text}");
    assert!(text.contains("no fit: 0 sizes at or above 5 ms"), "{text}");
    assert!(text.contains("over the cap at n = "), "{text}");
}

#[test]
fn the_shipped_problem_scales_with_its_input_template() {
    let doc = Test::at(shipped())
        .args([
            "scale",
            "bitmask",
            "eightfold",
            "--sizes",
            "4,6,8",
            "--repeat",
            "1",
            "--json",
        ])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["problem"], "nqueens-ii");
    assert_eq!(doc["input"], "{n}\\n");
    for s in doc["solutions"].as_array().unwrap() {
        assert_eq!(statuses(s), ["ok", "ok", "ok"]);
    }
}

#[test]
fn bad_requests_are_usage_errors() {
    let (ws, doubling, _) = growing();
    for args in [
        vec!["scale", doubling.as_str(), "--sizes", "9..3"],
        vec![
            "scale",
            doubling.as_str(),
            "--sizes",
            "1..4",
            "--repeat",
            "0",
        ],
        vec!["scale", "--sizes", "1..4"],
    ] {
        ws.judge().args(&args).expect_exit(2).run();
    }
    // Solutions of two problems cannot share a table.
    ws.problem(
        "other",
        "title = \"Other\"\ntime_limit = \"1s\"\nmemory_limit = \"64MiB\"\n",
        &[("1", "1\n", "1\n")],
    );
    ws.write("solutions/other/x.rs", "fn main() {}\n");
    ws.judge()
        .args(["scale", "grow/flat", "other/x", "--sizes", "1..2"])
        .expect_exit(2)
        .stderr_has("one problem")
        .run();
}

#[test]
fn a_solution_that_does_not_compile_is_skipped_with_exit_1() {
    let (ws, _, flat) = growing();
    ws.write(
        "solutions/grow/broken.rs",
        "fn main() { let x: u32 = \"no\"; }\n",
    );
    let doc = ws
        .judge()
        .args([
            "scale", "broken", &flat, "--sizes", "1..3", "--repeat", "1", "--json",
        ])
        .expect_exit(1)
        .run()
        .json();
    assert_eq!(doc["solutions"][0]["compile_error"], true);
    assert_eq!(statuses(&doc["solutions"][0]), ["skipped"; 3]);
    assert_eq!(statuses(&doc["solutions"][1]), ["ok"; 3]);
}

fn chromium() -> Option<&'static str> {
    // Each is started outside the harness.
    let _guard = Test::guard();
    ["chromium", "chromium-browser", "google-chrome"]
        .into_iter()
        .find(|c| {
            Command::new(c)
                .arg("--version")
                .output()
                .is_ok_and(|o| o.status.success())
        })
}

/// RGBA pixels of a PNG.
fn pixels(png_path: &Path) -> (u32, u32, Vec<[u8; 4]>) {
    let decoder = png::Decoder::new(std::fs::File::open(png_path).unwrap());
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    let samples = info.color_type.samples();
    assert!(samples >= 3 && info.bit_depth == png::BitDepth::Eight);
    let px = buf[..info.buffer_size()]
        .chunks(samples)
        .map(|c| [c[0], c[1], c[2], if samples == 4 { c[3] } else { 255 }])
        .collect();
    (info.width, info.height, px)
}

#[test]
#[cfg_attr(
    not(judge_has_chromium),
    ignore = "needs chromium (Debian: apt-get install chromium)"
)]
fn the_chart_draws_in_a_browser() {
    let browser = chromium().expect(
        "needs chromium, chromium-browser or google-chrome on PATH (Debian: apt-get install chromium)",
    );
    let (ws, doubling, flat) = growing();
    let svg = ws.path().join("chart.svg");
    ws.judge()
        .args([
            "scale", &doubling, &flat, "--sizes", "1..12", "--cap", "200ms", "--repeat", "1",
            "--svg",
        ])
        .arg(&svg)
        .expect_exit(0)
        .run();
    let text = std::fs::read_to_string(&svg).unwrap();
    assert_eq!(text.matches("<polyline").count(), 2);

    let png = ws.path().join("chart.png");
    let profile = tempfile::tempdir().unwrap();
    let shot = Test::program(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--no-first-run",
            "--hide-scrollbars",
            "--window-size=860,520",
        ])
        .arg(format!("--user-data-dir={}", profile.path().display()))
        .arg(format!("--screenshot={}", png.display()))
        .arg(format!("file://{}", svg.display()))
        .run();
    assert!(png.is_file(), "no screenshot: {shot:?}");
    let (w, h, px) = pixels(&png);
    assert_eq!((w, h), (860, 520));
    let near = |p: &[u8; 4], rgb: [u8; 3]| (0..3).all(|i| p[i].abs_diff(rgb[i]) <= 12);
    let count = |rgb: [u8; 3]| px.iter().filter(|p| near(p, rgb)).count();
    let white = count([255, 255, 255]);
    // Mostly white paper, but not blank: both series' colours (lines, markers, legend), the
    // dark axes and text are drawn.
    assert!(white > px.len() / 2, "{white} of {}", px.len());
    assert!(
        white < px.len() * 99 / 100,
        "blank: {white} of {}",
        px.len()
    );
    assert!(count([0x00, 0x72, 0xB2]) > 200, "first series missing");
    assert!(count([0xD5, 0x5E, 0x00]) > 200, "second series missing");
    assert!(count([0, 0, 0]) > 500, "axes and text missing");
}

#[test]
fn sizes_can_come_from_the_problems_generator() {
    let (ws, doubling, _) = growing();
    // gen SEED SIZE prints the size itself: the input of size n is n, as with the template.
    ws.write(
        "problems/grow/gen.rs",
        "fn main() { let a: Vec<String> = std::env::args().collect(); println!(\"{}\", a[2]); }\n",
    );
    let toml = ws.path().join("problems/grow/problem.toml");
    let text = std::fs::read_to_string(&toml).unwrap();
    std::fs::write(&toml, format!("{text}generator = \"gen.rs\"\n")).unwrap();
    let doc = ws
        .judge()
        .args([
            "scale",
            &doubling,
            "--generator",
            "--sizes",
            "2,9",
            "--repeat",
            "1",
            "--json",
        ])
        .expect_exit(0)
        .run()
        .json();
    assert_eq!(doc["input"], "gen 1 n", "{doc:#}");
    let points = doc["solutions"][0]["points"].as_array().unwrap();
    let (small, big) = (
        points[0]["cpu_ms"].as_f64().unwrap(),
        points[1]["cpu_ms"].as_f64().unwrap(),
    );
    // 2^9 / 2^2 = 128 times the work: the generator's sizes reached the solution.
    assert!(big > small * 4.0, "{small} ms at n=2, {big} ms at n=9");

    // A generator that fails is named, and nothing is measured.
    ws.write(
        "problems/grow/gen.rs",
        "fn main() { std::process::exit(3); }\n",
    );
    ws.judge()
        .args(["scale", &doubling, "--generator", "--sizes", "2,3"])
        .expect_exit(2)
        .stderr_has("the generator failed")
        .run();
}
