//! The harness of a function problem in each language: the solution as LeetCode's editor takes
//! it, made a whole program that reads the arguments as JSON, calls, and prints the result.

pub mod go;
pub mod java;
pub mod javascript;
pub mod rust;

#[cfg(test)]
mod testing;
