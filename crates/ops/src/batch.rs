//! Judging a batch: many submissions from a JSON Lines file.
