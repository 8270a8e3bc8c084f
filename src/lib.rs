//! tengen: a Monte Carlo Go engine.
pub mod board;
pub mod cli;
pub mod engine;
pub mod gtp;
pub mod rules;
pub mod selfplay;
pub mod sgf;
