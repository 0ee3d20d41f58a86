//! Problems in other tools' formats: packages judged where they lie (Kattis/ICPC, Polygon, their
//! zip archives), problems imported from the tools contestants use, and problems exported as
//! packages. What a package holds becomes what the core's workspace knows (`Mounted`).

mod error;
pub mod export;
pub mod import;
pub mod package;
// `judge generate` is the Kattis format's generators.yaml, so it lives with that format (whose
// loading checks the generated data); it keeps its name here.
pub use package::kattis::generate;
mod yaml;

pub use error::{Error, Result};
