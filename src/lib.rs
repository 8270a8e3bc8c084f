//! tengen: a Monte Carlo Go engine.
pub mod board;
