//! The physics of the board: points, colours, chains, liberties, captures, hashing and walls.
//! No rule policy lives here: legality is the rules' business.

#[allow(clippy::module_inception)]
// board::board holds the Board type itself; the module is the wider vocabulary
mod board;
mod cell_array;
mod color;
mod point;
mod topology;
mod zobrist;

pub use board::{Board, Cell, ChainStones, Placement};
pub use cell_array::CellArray;
pub use color::{ByColor, Color};
pub use point::{Geometry, Point, Vertex, MAX_CELLS, MAX_SIZE, MIN_SIZE};
pub use topology::{AnyTopology, Flat, Links, Topology, Torus, MIN_TORUS_SIZE};
pub use zobrist::KEYS;
