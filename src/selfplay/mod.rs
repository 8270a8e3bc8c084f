//! Building blocks for self-play and matches: result statistics and a client for external GTP programs.

pub mod gtp_client;
pub mod stats;
