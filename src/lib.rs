//! tengen: a Monte Carlo Go engine.
pub mod board;
pub mod selfplay;
