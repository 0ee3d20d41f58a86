//! Bad input to every parser the judge has: each property feeds one parser inputs made from
//! good files, mutated (or random bytes), through the same call the judge makes on a real file,
//! and asks for no panic, no hang (a watchdog), no unbounded allocation (the process's memory is
//! capped), and an error that names the file, the line where the format has one, and the fix.
//!
//! A short round runs with every `cargo test --release` (256 inputs per parser); a longer one on demand:
//! `JUDGE_FUZZ_CASES=100000 cargo test --release --test fuzz`. A failing input is shrunk and
//! kept in `tests/proptest-regressions/`, tried first from then on.

mod harness;

mod archives;
mod config;
mod eval;
mod feedback;
mod imports;
mod packages;
