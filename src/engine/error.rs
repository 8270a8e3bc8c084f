//! What an engine command can fail with. GTP maps each to its standard error text.

use crate::rules::{Illegal, RulesError};
use std::fmt;

#[derive(Clone, PartialEq, Debug)]
pub enum EngineError {
    Illegal(Illegal),
    UnacceptableSize,
    InvalidHandicap,
    BoardNotEmpty,
    BadVertexList,
    CannotUndo,
    CannotScore,
    UnknownRules(RulesError),
    CannotLoad(String),
    GameOver,
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Illegal(_) => f.write_str("illegal move"),
            EngineError::UnacceptableSize => f.write_str("unacceptable size"),
            EngineError::InvalidHandicap => f.write_str("invalid number of stones"),
            EngineError::BoardNotEmpty => f.write_str("board not empty"),
            EngineError::BadVertexList => f.write_str("bad vertex list"),
            EngineError::CannotUndo => f.write_str("cannot undo"),
            EngineError::CannotScore => f.write_str("cannot score"),
            EngineError::UnknownRules(e) => write!(f, "unknown rules: {e}"),
            EngineError::CannotLoad(why) => write!(f, "cannot load file: {why}"),
            EngineError::GameOver => f.write_str("game is over"),
        }
    }
}

impl std::error::Error for EngineError {}

impl From<Illegal> for EngineError {
    fn from(e: Illegal) -> Self {
        EngineError::Illegal(e)
    }
}
