//! What a user asks the judge for, one function per use case, in the manner of cargo's `ops`:
//! a front-end (the command line, the web server, any later one) turns its arguments into an
//! options struct, calls one function here, and shows the data it returns. Nothing here prints.

pub mod batch;
pub mod compare;
pub mod error;
pub mod execute;
pub mod export;
pub mod generate;
pub mod judge;
pub mod judges;
pub mod run;
pub mod scale;
pub mod stress;
pub mod verify;

pub use error::Error;
pub use judges::Judges;
