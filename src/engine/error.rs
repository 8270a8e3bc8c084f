//! What an engine command can fail with. GTP maps each to its standard error text.

use crate::rules::{Illegal, RulesError};
use std::fmt;

#[derive(Clone, PartialEq, Debug)]
pub enum EngineError {
    Illegal(Illegal),
    UnacceptableSize,
    InvalidHandicap,
    /// GTP's fixed handicap of this size would put a stone on a wall (the vertex).
    HandicapOnWall(String),
    BoardNotEmpty,
    BadVertexList,
    CannotUndo,
    CannotScore,
    UnknownRules(RulesError),
    CannotLoad(String),
    GameOver,
    /// A Phantom Go message that does not fit the game (out of order, another variant, a point
    /// that cannot be meant): the reason.
    Phantom(String),
    /// A War Go turn the rules refuse (RULES.md section 7).
    War(crate::rules::war::WarIllegal),
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Illegal(_) | EngineError::War(_) => f.write_str("illegal move"),
            EngineError::UnacceptableSize => f.write_str("unacceptable size"),
            EngineError::InvalidHandicap => f.write_str("invalid number of stones"),
            // GTP's text first (controllers match on it), then what this board cannot take.
            EngineError::HandicapOnWall(v) => {
                write!(f, "invalid number of stones (the fixed handicap point {v} is a wall)")
            }
            EngineError::BoardNotEmpty => f.write_str("board not empty"),
            EngineError::BadVertexList => f.write_str("bad vertex list"),
            EngineError::CannotUndo => f.write_str("cannot undo"),
            EngineError::CannotScore => f.write_str("cannot score"),
            EngineError::UnknownRules(e) => write!(f, "unknown rules: {e}"),
            EngineError::CannotLoad(why) => write!(f, "cannot load file: {why}"),
            EngineError::GameOver => f.write_str("game is over"),
            EngineError::Phantom(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<Illegal> for EngineError {
    fn from(e: Illegal) -> Self {
        EngineError::Illegal(e)
    }
}
