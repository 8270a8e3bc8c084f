//! tengen: a Monte Carlo Go engine for standard Go, Stones and Stoical Go, each also on a torus,
//! Phantom Go and War Go.
//!
//! # How to read this code
//!
//! Modules depend in one direction only, each on those below it:
//!
//! ```text
//! main.rs (CLI: gtp | selfplay | match | summary | bench | train)
//!   gtp       a line -> typed command -> Engine -> "=id ...\n\n"; a reader thread feeds a queue
//!   selfplay  matches between engine settings or external GTP programs; SGF out; statistics
//!   bench     playout and search throughput
//!   train     fits the tree's move model on SGF records (minorization-maximization)
//!   engine    the facade every front end drives: game + search + clock; prints nothing
//!   search    arena tree of atomic nodes, UCT/RAVE with priors, threads, time, analysis data
//!   playout   light and heavy playout policies, generic over the rules, allocation-free; tactics
//!             and the ladder reader the priors share
//!   rules     the Rules trait; Standard, Stones, Stoical; Position<R>, Game<R> (history, undo)
//!   board     the physics: points, chains, liberties, captures, Zobrist hash, walls; flat or torus
//! ```
//!
//! Start with [`board::Board`]: a padded 1-D array whose border cells (and walls) need no edge
//! tests, in per-cell arrays of a fixed power-of-two size indexed through a mask (no bounds checks
//! either: [`board::CellArray`]; the placement core alone skips the mask, after a range check at
//! its entry, through unchecked accessors that are the board's only `unsafe`), all of them in one
//! box so that a placement reaches them from one pointer, chains kept as rings with pseudo-liberty
//! counts, sums and sums of squares (packed in one word) so that atari and its last liberty are
//! O(1). The board's shape is its type parameter ([`board::Topology`]): `Flat`, whose neighbours
//! are that arithmetic, or `Torus` (RULES.md 5.1), whose neighbours come from a table; the rules
//! carry the shape as they carry the variant, so each shape compiles its own loop. Then
//! [`rules::Rules`]: each variant is plain data implementing `check` (is a move legal, judged from
//! the position) and `apply` (what it does beyond the board's physics); [`rules::Position`] is what
//! playouts copy and play, [`rules::Game`] adds what needs the past (superko, Stoical repetition,
//! undo). Everything from there up is generic over `R: Rules`, so each variant compiles its own
//! loop; [`rules::AnyGame`] is the single place that picks the variant at run time, once per GTP
//! command. [`engine::Engine`] is the facade, and [`gtp`] turns text into calls on it. War Go
//! ([`rules::war`]) stands apart: its pieces live on a board of its own (`WarPosition`, cells with
//! kinds, chains by flood fill) with a game (`WarGame`) and a search
//! ([`search::war`], root-parallel over threads) of its own, reached from the engine and GTP through `engine::war` and
//! `gtp::war`, so the optimized path of the other variants never sees a piece.
//!
//! Conventions: rows count from the bottom (GTP), `Point` indexes the padded array, a GTP `pass` stands
//! for the variant's pass-like move (button, prisoner return, stake), and nothing below `main.rs` and
//! `gtp` writes to standard output.
pub mod bench;
pub mod board;
pub mod cli;
pub mod engine;
pub mod gtp;
pub mod playout;
pub mod rules;
pub mod search;
pub mod selfplay;
pub mod sgf;
pub mod train;
