//! The one move type shared by every variant, and why a move can be refused.

use crate::board::{Geometry, Point};
use std::fmt;

/// A move of any variant. Variant moves are simply illegal where the variant does not have them.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Put a stone on an empty point.
    Place(Point),
    /// Standard Go and Stoical Go: pass.
    Pass,
    /// Standard Go with the button option: take the button (worth half a point).
    Button,
    /// Stones: give one prisoner back instead of placing.
    Return,
    /// Stones: set a stake beside the group through this point.
    Stake(Point),
}

impl Move {
    /// Every move that is not a placement is written `pass` over GTP (RULES.md sections 2 and 3).
    pub fn is_pass_like(self) -> bool {
        !matches!(self, Move::Place(_))
    }

    /// The GTP form: a vertex, or `pass` for any pass-like move.
    pub fn to_gtp(self, geo: &Geometry) -> String {
        match self {
            Move::Place(p) => geo.vertex(p),
            _ => "pass".to_string(),
        }
    }

    /// A longer description, naming variant moves (for logs, showboard and SGF comments).
    pub fn describe(self, geo: &Geometry) -> String {
        match self {
            Move::Place(p) => geo.vertex(p),
            Move::Pass => "pass".into(),
            Move::Button => "button".into(),
            Move::Return => "prisoner return".into(),
            Move::Stake(p) => format!("stake on {}", geo.vertex(p)),
        }
    }
}

/// Why a move is not legal. Over GTP all of these read `illegal move`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Illegal {
    Occupied,
    OffBoard,
    Suicide,
    /// Immediate recapture of a single-stone ko.
    Ko,
    /// The board position would repeat an earlier one (positional or situational superko).
    Superko,
    /// Stoical Go: a capture right after the opponent's capture.
    CaptureAfterCapture,
    /// The variant does not have this kind of move (e.g. a pass in Stones), or its option is off.
    NotInVariant,
    ButtonTaken,
    /// Stones: a return needs more prisoners than the opponent.
    NoPrisonerLead,
    /// Stones: staking needs every own group at two liberties or fewer, and a free liberty on this one.
    CannotStake,
    GameOver,
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Illegal::Occupied => "point is occupied",
            Illegal::OffBoard => "not a point of the board",
            Illegal::Suicide => "suicide",
            Illegal::Ko => "ko",
            Illegal::Superko => "repeats an earlier position",
            Illegal::CaptureAfterCapture => "capture right after a capture",
            Illegal::NotInVariant => "not a move of these rules",
            Illegal::ButtonTaken => "button already taken",
            Illegal::NoPrisonerLead => "no prisoner lead to return",
            Illegal::CannotStake => "cannot stake",
            Illegal::GameOver => "game is over",
        })
    }
}

impl std::error::Error for Illegal {}
