//! Changing the search settings of a running engine (GoGui's parameter dialog): the same knobs as
//! the command line, applied from the next search on.

use super::{Engine, EngineOptions};

impl Engine {
    /// The settings the next search uses. The rules and the board size are not here: they change
    /// the game and go through `set_rules` / `set_size`.
    pub fn options_mut(&mut self) -> &mut EngineOptions {
        &mut self.options
    }
}
