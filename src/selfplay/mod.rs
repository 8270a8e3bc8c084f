//! Building blocks for self-play and matches: result statistics.

pub mod stats;
