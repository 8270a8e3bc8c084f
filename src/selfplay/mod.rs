//! Self-play and matches: tengen against tengen or against any GTP program, refereed by tengen's own
//! rules, with SGF records, a `results.jsonl` that a run can resume from, and statistics.
//!
//! - [`cli`]: the flags of `tengen selfplay` and `tengen match`.
//! - [`clock`]: the match clock's notation, its GTP announcement and its SGF properties.
//! - [`player`]: the `Player` trait, tengen in process and external GTP programs.
//! - [`game`]: one refereed game.
//! - [`phantom`]: the referee of a Phantom Go game (hidden stones, illegal attempts).
//! - [`output`]: the files of a run (SGF, `results.jsonl`, summary) and the summary's statistics.
//! - [`runner`]: a whole run: games in parallel, one writer, resume.
//! - [`shard`]: `--shard K/N`, one of N processes that together play a run.
//! - [`merge`]: `tengen summary`: the summary of any number of run directories (shards), merged.
//! - [`progress`]: the progress bar on stderr.
//! - [`stats`], [`gtp_client`]: match statistics and the GTP client underneath.

pub mod cli;
pub mod clock;
pub mod game;
pub mod gtp_client;
pub mod merge;
pub mod output;
pub mod phantom;
pub mod player;
pub mod progress;
pub mod runner;
pub mod shard;
pub mod stats;
pub mod war;
