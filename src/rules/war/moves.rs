//! War Go's turns and their words (RULES.md section 7, "Over GTP and SGF"): a plain vertex places
//! a soldier, `KIND@VERTEX` drops a piece (`bomb!@E5` explodes at once), `FROM-TO` moves one.

use super::piece::Kind;
use crate::board::{Geometry, Point};
use std::fmt;

/// One turn of War Go.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum WarMove {
    /// Place a soldier (an ordinary stone).
    Soldier(Point),
    /// Drop a piece of the army on an empty point. `now` is the bomb's immediate mode.
    Drop {
        kind: Kind,
        at: Point,
        now: bool,
    },
    /// Move a movable piece one step (a cavalry: its horse move).
    Step {
        from: Point,
        to: Point,
    },
    Pass,
}

/// Why a move word could not be read: GTP `syntax error` (a word that is not a move) as opposed to
/// `illegal move` (a well-formed move the position refuses, such as a point off the board).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum WordError {
    Syntax,
    OffBoard,
}

impl WarMove {
    /// The word for this move: `D4`, `spy@D4`, `bomb!@E5`, `D4-D5` or `pass`.
    pub fn word(self, geo: &Geometry) -> String {
        match self {
            WarMove::Soldier(p) => geo.vertex(p),
            WarMove::Drop { kind, at, now } => {
                format!("{}{}@{}", kind.name(), if now { "!" } else { "" }, geo.vertex(at))
            }
            WarMove::Step { from, to } => format!("{}-{}", geo.vertex(from), geo.vertex(to)),
            WarMove::Pass => "pass".into(),
        }
    }

    /// Reads a move word (any case). A vertex-shaped word off this board is `OffBoard`.
    pub fn parse(word: &str, geo: &Geometry) -> Result<WarMove, WordError> {
        let w = word.trim();
        if w.eq_ignore_ascii_case("pass") {
            return Ok(WarMove::Pass);
        }
        if let Some((kind, at)) = w.split_once('@') {
            let (name, now) = match kind.strip_suffix('!') {
                Some(n) => (n, true),
                None => (kind, false),
            };
            let kind = Kind::parse(name).filter(|k| k.army_index().is_some()).ok_or(WordError::Syntax)?;
            if now && kind != Kind::Bomb {
                return Err(WordError::Syntax);
            }
            return Ok(WarMove::Drop { kind, at: vertex(at, geo)?, now });
        }
        if let Some((from, to)) = w.split_once('-') {
            return Ok(WarMove::Step { from: vertex(from, geo)?, to: vertex(to, geo)? });
        }
        Ok(WarMove::Soldier(vertex(w, geo)?))
    }

    /// The point the moved, dropped or placed piece ends on.
    pub fn target(self) -> Option<Point> {
        match self {
            WarMove::Soldier(p) | WarMove::Drop { at: p, .. } | WarMove::Step { to: p, .. } => Some(p),
            WarMove::Pass => None,
        }
    }
}

/// A vertex: `OffBoard` when it is shaped like one (a letter and digits) but not on this board.
fn vertex(s: &str, geo: &Geometry) -> Result<Point, WordError> {
    if let Some(p) = geo.parse_vertex(s) {
        return Ok(p);
    }
    let b = s.as_bytes();
    let shaped =
        b.len() >= 2 && b.len() <= 3 && b[0].is_ascii_alphabetic() && b[1..].iter().all(u8::is_ascii_digit);
    Err(if shaped { WordError::OffBoard } else { WordError::Syntax })
}

/// Why War Go refuses a turn. Over GTP every one of them reads `illegal move`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum WarIllegal {
    Occupied,
    OffBoard,
    /// The player's army holds no such piece.
    NotInHand,
    /// No movable piece of the mover's on that point, or it cannot go there.
    CannotMove,
    Suicide,
    /// The turn would leave a chain with a protected stone without liberties.
    Protected,
    /// A piece next to an ambassador or near a monk may not capture.
    CaptureBan,
    /// The board would repeat an earlier position (positional superko).
    Superko,
    GameOver,
}

impl fmt::Display for WarIllegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WarIllegal::Occupied => "point is occupied",
            WarIllegal::OffBoard => "not a point of the board",
            WarIllegal::NotInHand => "no such piece in hand",
            WarIllegal::CannotMove => "that piece cannot move there",
            WarIllegal::Suicide => "suicide",
            WarIllegal::Protected => "would capture a protected stone",
            WarIllegal::CaptureBan => "may not capture from there",
            WarIllegal::Superko => "repeats an earlier position",
            WarIllegal::GameOver => "game is over",
        })
    }
}

impl std::error::Error for WarIllegal {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_read_back() {
        let geo = Geometry::new(9);
        for w in ["D4", "spy@D4", "bomb!@E5", "bomb@E5", "wall@C3", "D4-D5", "pass", "cavalry@J9"] {
            assert_eq!(WarMove::parse(w, &geo).unwrap().word(&geo), w);
        }
        assert_eq!(WarMove::parse("SPY@d4", &geo).unwrap().word(&geo), "spy@D4");
        for bad in ["soldier@D4", "spy!@D4", "dragon@D4", "@D4", "D4-", "-D4", "spy@", "D4--D5", "D", "x@y"] {
            assert_eq!(WarMove::parse(bad, &geo), Err(WordError::Syntax), "{bad}");
        }
        for off in ["K5", "spy@A10", "D4-D10"] {
            assert_eq!(WarMove::parse(off, &geo), Err(WordError::OffBoard), "{off}");
        }
    }
}
