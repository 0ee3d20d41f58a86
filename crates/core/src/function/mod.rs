//! Function problems (LeetCode's form): a problem that declares a function, `[function]` in
//! problem.toml, judged by calling a solution's method through a harness the judge writes.
//!
//! [`signature`] is the declaration: its types, its parameters, and their names in each
//! language; [`harness`] makes a solution in each language a whole program that reads the
//! arguments as JSON, calls, and prints the result.

pub mod harness;
pub mod signature;

pub use signature::{Param, Signature, Type};
