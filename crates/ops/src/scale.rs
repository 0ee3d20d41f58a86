//! Measuring growth: every solution at each size, the inputs made from a template or by the
//! problem's generator into a folder of their own (removed on Ctrl-C too), the CPU time
//! measured and the growth models fitted (`judge scale`, the scale page).

use std::path::PathBuf;
use std::time::Duration;

use judge_core::scale::{self, ScaleObserver, ScaleOptions, ScaleReport, Statistic};
use judge_core::session::{Judge, Options};
use judge_core::workspace::{Solution, Workspace};

use crate::Error;

/// How each size's input is made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Input {
    /// This text with `{n}` replaced by the size (`\n` and `\t` are a newline and a tab).
    Template(String),
    /// The problem's generator, given this seed and the size.
    Generator { seed: u64 },
}

/// What a measurement asks for.
#[derive(Debug, Clone)]
pub struct ScaleRequest {
    /// The problem's id.
    pub problem: String,
    /// The solutions, all of the problem.
    pub solutions: Vec<Solution>,
    pub sizes: Vec<u64>,
    pub input: Input,
    /// Each size run this many times.
    pub repeat: u32,
    pub statistic: Statistic,
    /// A size over this CPU time stops the solution; the problem's time limit when `None`.
    pub cap: Option<Duration>,
}

/// Measures the solutions' growth with `judge` (this machine's: it is what is measured).
pub fn scale(
    ws: &Workspace,
    judge: &mut Judge,
    request: &ScaleRequest,
    observer: &mut dyn ScaleObserver,
) -> Result<ScaleReport, Error> {
    let problem = ws.problem(&request.problem)?;
    let inputs = tempfile::Builder::new()
        .prefix("judge-scale-")
        .tempdir()
        .map_err(Error::ScaleInputs)?;
    judge_runner::interrupt::register_temp_dir(inputs.path());
    let measured = (|| {
        let mut files: Vec<(u64, PathBuf)> = Vec::new();
        for &n in &request.sizes {
            let path = inputs.path().join(format!("{n}.in"));
            match &request.input {
                Input::Generator { seed } => {
                    let made =
                        judge_core::stress::generate_sized(judge, &problem, *seed, n, &path)?;
                    if let Err(why) = made {
                        return Err(Error::Generator {
                            why: Box::new(why),
                            size: n,
                            seed: *seed,
                        });
                    }
                }
                Input::Template(t) => {
                    std::fs::write(&path, scale::input_for(t, n)).map_err(|source| {
                        Error::Writing {
                            path: path.clone(),
                            source,
                        }
                    })?
                }
            }
            files.push((n, path));
        }
        let options = ScaleOptions {
            inputs: files,
            input_label: match &request.input {
                Input::Generator { seed } => format!("gen {seed} n"),
                Input::Template(t) => t.clone(),
            },
            repeat: request.repeat,
            statistic: request.statistic,
            cap: request
                .cap
                .unwrap_or(Options::default().limits(&problem).time),
        };
        Ok(scale::measure(
            judge,
            &problem,
            &request.solutions,
            &options,
            observer,
        )?)
    })();
    judge_runner::interrupt::unregister_temp_dir(inputs.path());
    measured
}
