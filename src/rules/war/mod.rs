//! War Go (RULES.md section 7): Go with an army of special pieces per player, dropped during the
//! game, some of which move. It keeps a board and a game of its own (`WarPosition`, `WarGame`) so
//! that the optimized board and the hot paths of the other variants stay untouched.

mod config;
mod game;
mod moves;
mod piece;
mod position;

pub use config::{WarConfig, WarPreset};
pub use game::WarGame;
pub use moves::{WarIllegal, WarMove, WordError};
pub use piece::{Army, Cell, Kind};
pub use position::{Effect, WarPosition};
