//! `judge scale`: each solution at each size, CPU time per size, growth per step, fitted growth models, an SVG chart.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use judge::report::dim;
use judge::run::{Outcome, Response};
use judge::scale::{self, Fits, Series, MEASURABLE_FLOOR_MS};
use judge::session::{Judge, Options};
use judge::verdict::Limits;
use judge::workspace::Workspace;

use super::{parse_duration, EXIT_OK, EXIT_VERDICT};

#[derive(Clone)]
struct Sizes(Vec<u64>);

fn parse_sizes(s: &str) -> Result<Sizes, String> {
    scale::parse_sizes(s).map(Sizes)
}

#[derive(clap::Args)]
pub struct ScaleArgs {
    /// Solutions: names (`bitmask`, `nqueens-ii/bitmask`) or paths to .rs files, all of one problem.
    #[arg(required = true)]
    solutions: Vec<String>,

    /// The problem, when the solutions do not tell.
    #[arg(long, short)]
    problem: Option<String>,

    /// The sizes: `4..16` (inclusive), `4..16:2` (every second) or `4,6,8`.
    #[arg(long, value_parser = parse_sizes)]
    sizes: Sizes,

    #[arg(
        long,
        value_name = "TEMPLATE",
        default_value = "{n}\\n",
        // Not a doc comment: clap's help reads a literal "{n}" as a line break.
        help = "The input for size n: the template, with n in braces (as in the default) replaced by the size; \\n and \\t are a newline and a tab"
    )]
    input: String,

    /// Make each size's input with the problem's generator (`gen SEED n`) instead of the template.
    #[arg(long, conflicts_with = "input")]
    generator: bool,

    /// The seed given to the generator (with --generator).
    #[arg(long, value_name = "SEED", default_value_t = 1, requires = "generator")]
    seed: u64,

    /// Runs per size; the figure is the minimum CPU time (or the median with --median).
    #[arg(long, value_name = "R", default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    repeat: u32,

    /// Report the median of the runs instead of the minimum.
    #[arg(long)]
    median: bool,

    /// Stop a solution once a size takes more CPU time than this (default: the time limit).
    #[arg(long, value_name = "MS", value_parser = parse_duration)]
    cap: Option<Duration>,

    /// Write a chart (time on a log scale against size) to this SVG file.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,

    /// Print one JSON document instead of the table.
    #[arg(long)]
    json: bool,
}

/// One size of one solution.
#[derive(Debug, Clone, Serialize)]
struct Point {
    n: u64,
    /// `ok`, `over_cap` (stopped at the cap), `skipped` (a smaller size was over the cap or
    /// failed), or the verdict of a run that failed: `RE`, `MLE`, `OLE`.
    status: &'static str,
    /// The minimum (or median) CPU time of the runs, in ms; for `over_cap`, the cap.
    cpu_ms: Option<f64>,
    runs_ms: Vec<f64>,
    /// Growth per +1 n from the previous measured size, when both are above the measurable floor.
    growth: Option<f64>,
    detail: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
struct SolutionScale {
    solution: String,
    path: PathBuf,
    /// Compile errors leave every size `skipped`.
    compile_error: bool,
    points: Vec<Point>,
    fit: Fits,
}

#[derive(Debug, Serialize)]
struct ScaleReport {
    problem: String,
    input: String,
    sizes: Vec<u64>,
    repeat: u32,
    statistic: &'static str,
    cap_ms: f64,
    measurable_floor_ms: f64,
    solutions: Vec<SolutionScale>,
}

pub fn scale(ws: Workspace, cwd: &Path, args: ScaleArgs) -> Result<ExitCode> {
    let solutions = args
        .solutions
        .iter()
        .map(|s| ws.resolve_solution(s, args.problem.as_deref(), cwd))
        .collect::<judge::Result<Vec<_>>>()?;
    let problem_id = solutions[0].problem.clone();
    if let Some(other) = solutions.iter().find(|s| s.problem != problem_id) {
        bail!(
            "`{}` belongs to {} and `{}` to {}: judge scale compares solutions of one problem",
            solutions[0].name,
            problem_id,
            other.name,
            other.problem
        );
    }
    let problem = ws.problem(&problem_id)?;
    let options = Options::default();
    let base = options.limits(&problem);
    let cap = args.cap.unwrap_or(base.time);
    let limits = Limits {
        time: cap,
        wall: cap * 2 + Duration::from_secs(1),
        ..base
    };
    let statistic = if args.median { "median" } else { "min" };

    let inputs = tempfile::Builder::new()
        .prefix("judge-scale-")
        .tempdir()
        .context("creating a folder for the inputs")?;
    judge::run::interrupt::register_temp_dir(inputs.path());
    let mut judge = Judge::new(ws.clone())?;
    let mut files = Vec::new();
    for &n in &args.sizes.0 {
        let path = inputs.path().join(format!("{n}.in"));
        if args.generator {
            if let Err(message) =
                judge::stress::generate_sized(&mut judge, &problem, args.seed, n, &path)?
            {
                bail!("{message} (size {n}, seed {})", args.seed);
            }
        } else {
            std::fs::write(&path, scale::input_for(&args.input, n))
                .with_context(|| format!("writing {}", path.display()))?;
        }
        files.push((n, path));
    }

    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("  {spinner} {msg}").expect("valid template"));
    bar.enable_steady_tick(Duration::from_millis(100));
    let mut results = Vec::new();
    for solution in &solutions {
        bar.set_message(format!("compiling {}", solution.name));
        let (compile, binary) = judge.build(solution, &options)?;
        let mut points = Vec::new();
        let mut stopped = binary.is_none();
        let mut previous: Option<(u64, f64)> = None;
        for (n, input) in &files {
            if stopped {
                points.push(Point {
                    n: *n,
                    status: "skipped",
                    cpu_ms: None,
                    runs_ms: vec![],
                    growth: None,
                    detail: None,
                });
                continue;
            }
            let binary = binary.as_deref().expect("not stopped");
            let mut runs = Vec::new();
            let mut failure = None;
            for r in 0..args.repeat {
                bar.set_message(format!(
                    "{} n={n} run {}/{}",
                    solution.name,
                    r + 1,
                    args.repeat
                ));
                let response = judge.measure(binary, input, &limits)?;
                if let Some(f) = failed(&response, &limits) {
                    failure = Some(f);
                    break;
                }
                runs.push(response.cpu_us() as f64 / 1000.0);
            }
            let point = match failure {
                Some(("over_cap", detail)) => Point {
                    n: *n,
                    status: "over_cap",
                    cpu_ms: Some(ms(cap)),
                    runs_ms: runs,
                    growth: None,
                    detail: Some(detail),
                },
                Some((status, detail)) => Point {
                    n: *n,
                    status,
                    cpu_ms: None,
                    runs_ms: runs,
                    growth: None,
                    detail: Some(detail),
                },
                None => {
                    let cpu = statistic_of(&runs, args.median);
                    let growth = previous
                        .filter(|&(_, p)| p >= MEASURABLE_FLOOR_MS && cpu >= MEASURABLE_FLOOR_MS)
                        .and_then(|(pn, p)| scale::growth_per_unit(pn, p, *n, cpu));
                    previous = Some((*n, cpu));
                    Point {
                        n: *n,
                        status: "ok",
                        cpu_ms: Some(cpu),
                        runs_ms: runs,
                        growth,
                        detail: None,
                    }
                }
            };
            stopped = point.status != "ok";
            points.push(point);
        }
        let measured: Vec<(u64, f64)> = points
            .iter()
            .filter(|p| p.status == "ok")
            .filter_map(|p| Some((p.n, p.cpu_ms?)))
            .collect();
        results.push(SolutionScale {
            solution: solution.name.clone(),
            path: solution.path.clone(),
            compile_error: compile.diagnostics.is_some(),
            points,
            fit: scale::fit(&measured),
        });
    }
    bar.finish_and_clear();
    drop(judge);
    judge::run::interrupt::unregister_temp_dir(inputs.path());

    let report = ScaleReport {
        problem: problem.id.clone(),
        input: if args.generator {
            format!("gen {} n", args.seed)
        } else {
            args.input.clone()
        },
        sizes: args.sizes.0.clone(),
        repeat: args.repeat,
        statistic,
        cap_ms: ms(cap),
        measurable_floor_ms: MEASURABLE_FLOOR_MS,
        solutions: results,
    };
    if let Some(path) = &args.svg {
        let series: Vec<Series> = report
            .solutions
            .iter()
            .map(|s| Series {
                name: &s.solution,
                points: s
                    .points
                    .iter()
                    .filter_map(|p| Some((p.n, p.cpu_ms?, p.status == "over_cap")))
                    .collect(),
            })
            .collect();
        let title = format!(
            "{}: CPU time by size ({} of {} run{})",
            report.problem,
            statistic,
            args.repeat,
            if args.repeat == 1 { "" } else { "s" }
        );
        std::fs::write(path, scale::svg(&title, &series, report.cap_ms))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    if args.json {
        let mut out = std::io::stdout().lock();
        serde_json::to_writer_pretty(&mut out, &report)?;
        writeln!(out)?;
    } else {
        print_table(&report, args.svg.as_deref());
    }
    // A solution that does not compile is a verdict (CE), as in `judge run`.
    let any_compile_error = report.solutions.iter().any(|s| s.compile_error);
    Ok(ExitCode::from(if any_compile_error {
        EXIT_VERDICT
    } else {
        EXIT_OK
    }))
}

/// Why a run does not give a time: over the cap, or a failure (the answer is not checked).
fn failed(r: &Response, limits: &Limits) -> Option<(&'static str, String)> {
    let cpu = Duration::from_micros(r.cpu_us());
    match (&r.killed_by, &r.outcome) {
        (Some(judge::run::KilledBy::CpuLimit), _) => {
            Some(("over_cap", "CPU time over the cap".into()))
        }
        _ if cpu > limits.time => Some(("over_cap", "CPU time over the cap".into())),
        (Some(judge::run::KilledBy::WallCap), _) => {
            Some(("over_cap", "wall-clock cap reached".into()))
        }
        (Some(judge::run::KilledBy::MemoryLimit), _) => {
            Some(("MLE", "memory over the problem's limit".into()))
        }
        (None, Outcome::Signaled(s)) if *s == judge::run::SIGXFSZ => {
            Some(("OLE", "output over the problem's limit".into()))
        }
        (None, Outcome::Signaled(s)) => {
            Some(("RE", format!("killed by {}", judge::run::signal_name(*s))))
        }
        (None, Outcome::Exited(code)) if *code != 0 => Some(("RE", format!("exit code {code}"))),
        (None, Outcome::SpawnFailed(why)) => Some(("RE", why.clone())),
        _ => None,
    }
}

fn statistic_of(runs: &[f64], median: bool) -> f64 {
    let mut v = runs.to_vec();
    v.sort_by(|a, b| a.total_cmp(b));
    if median {
        v[v.len() / 2]
    } else {
        v[0]
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// "0.42 ms", "4.2 ms", "39 ms", "1.45 s", "12.6 s".
fn format_ms(v: f64) -> String {
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

fn cell(p: &Point, cap_ms: f64) -> String {
    match p.status {
        "ok" => {
            let t = format_ms(p.cpu_ms.unwrap_or(0.0));
            match p.growth {
                Some(g) => format!("{t:>9} x{g:<5.1}"),
                None => format!("{t:>9}       "),
            }
        }
        "over_cap" => format!("{:>9}       ", format!("> {}", format_ms(cap_ms))),
        "skipped" => format!("{:>9}       ", "-"),
        other => format!("{other:>9}       "),
    }
}

fn print_table(r: &ScaleReport, svg: Option<&Path>) {
    let mut out = anstream::stdout();
    let _ = writeln!(
        out,
        "{}",
        judge::report::paint(
            anstyle::Style::new().bold(),
            &format!("{}: CPU time by size", r.problem)
        )
    );
    let _ = writeln!(
        out,
        "{}",
        dim(&format!(
            "{} · {} of {} run{} per size · cap {} · x = growth per +1 n",
            if r.input.starts_with("gen ") {
                format!("inputs from the generator ({})", r.input)
            } else {
                format!("input \"{}\"", r.input)
            },
            r.statistic,
            r.repeat,
            if r.repeat == 1 { "" } else { "s" },
            format_ms(r.cap_ms)
        ))
    );
    let _ = writeln!(out);
    let mut head = format!("  {:>4}", "n");
    for s in &r.solutions {
        head.push_str(&format!("  {:>16}", truncate(&s.solution, 16)));
    }
    let _ = writeln!(
        out,
        "{}",
        judge::report::paint(anstyle::Style::new().bold(), &head)
    );
    for (i, n) in r.sizes.iter().enumerate() {
        let mut line = format!("  {n:>4}");
        for s in &r.solutions {
            line.push_str(&format!("  {}", cell(&s.points[i], r.cap_ms)));
        }
        let _ = writeln!(out, "{}", line.trim_end());
    }
    let _ = writeln!(out);
    let width = r
        .solutions
        .iter()
        .map(|s| s.solution.len())
        .max()
        .unwrap_or(0);
    for s in &r.solutions {
        let _ = writeln!(out, "  {:<width$}  {}", s.solution, describe_fit(s));
    }
    let _ = writeln!(
        out,
        "{}",
        dim(&format!(
            "  sizes under {MEASURABLE_FLOOR_MS} ms (mostly process start-up) are shown but neither fitted nor used for growth factors; \
             `-`: skipped after a size over the cap. Answers are not checked."
        ))
    );
    if let Some(p) = svg {
        let _ = writeln!(
            out,
            "{}",
            dim(&format!("  chart written to {}", p.display()))
        );
    }
}

fn truncate(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        s.chars().take(n - 1).collect::<String>() + "…"
    }
}

/// "exponential 5.87^n (R² 0.998 over 6 sizes); next: factorial (n!)^0.62 (R² 0.962)"
fn describe_fit(s: &SolutionScale) -> String {
    if s.compile_error {
        return "did not compile (see judge run)".into();
    }
    let f = &s.fit;
    let over = s
        .points
        .iter()
        .find(|p| p.status != "ok" && p.status != "skipped");
    let stop = match over {
        Some(p) if p.status == "over_cap" => format!("; over the cap at n = {}", p.n),
        Some(p) => format!(
            "; {} at n = {}: {}",
            p.status,
            p.n,
            p.detail.as_deref().unwrap_or("")
        ),
        None => String::new(),
    };
    let Some(best) = f.best() else {
        return format!(
            "no fit: {} size{} at or above {MEASURABLE_FLOOR_MS} ms{stop}",
            f.points,
            if f.points == 1 { "" } else { "s" }
        );
    };
    if f.points < scale::MIN_POINTS {
        return format!(
            "poor fit: only {} sizes at or above {MEASURABLE_FLOOR_MS} ms (best line: {}, R² {:.3}){stop}",
            f.points, best.model, best.r2
        );
    }
    // Models whose R² is within 0.01 of the best are not told apart by these points.
    let ties: Vec<String> = f.fits[1..]
        .iter()
        .filter(|n| best.r2 - n.r2 < 0.01)
        .map(|n| n.model.to_string())
        .collect();
    let next = if !ties.is_empty() {
        format!(
            "; as good (R² within 0.01): {}; more sizes would tell them apart",
            ties.join(", ")
        )
    } else {
        f.fits
            .get(1)
            .map(|n| format!("; next: {} (R² {:.3})", n.model, n.r2))
            .unwrap_or_default()
    };
    if f.poor {
        format!(
            "poor fit: the best, {}, has R² {:.3} over {} sizes{next}{stop}",
            best.model, best.r2, f.points
        )
    } else {
        format!(
            "{} (R² {:.3} over {} sizes){next}{stop}",
            best.model, best.r2, f.points
        )
    }
}
