//! Problems in other tools' formats: packages judged where they lie (Kattis/ICPC, Polygon, their
//! zip archives), problems imported from the tools contestants use, and problems exported as
//! packages. What a package holds becomes what the core's workspace knows (`Mounted`).

pub mod export;
pub mod generate;
pub mod import;
pub mod package;
mod yaml;
