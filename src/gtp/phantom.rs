//! The Phantom Go commands of GTP.md: the referee's messages to a player (RULES.md 5.2). Each
//! refuses anything out of place (another variant, a message out of order, a wrong argument) with
//! `?` and changes nothing.

use super::args;
use super::session::{Call, Reply, Session};
use super::GtpError;
use crate::board::Point;
use crate::rules::Move;

/// A vertex of this board, never `pass` (a pass is always legal and empties nothing).
fn point(s: &Session, word: &str) -> Result<Point, GtpError> {
    match args::mv(s.engine.game().board().geometry(), word)? {
        Move::Place(p) => Ok(p),
        _ => Err(GtpError::syntax()),
    }
}

/// `phantom-illegal V`: the proposal V just made was illegal on the true board.
pub fn illegal(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    if c.args.len() != 1 {
        return Err(GtpError::syntax());
    }
    let p = point(s, &c.args[0])?;
    s.engine.phantom_illegal(p)?;
    Ok(Reply::Text(String::new()))
}

/// `phantom-opponent-moved [pass]`: the opponent made a legal move, place unknown.
pub fn opponent_moved(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let pass = match c.args {
        [] => false,
        [word] if word.eq_ignore_ascii_case("pass") => true,
        _ => return Err(GtpError::syntax()),
    };
    s.engine.phantom_opponent_moved(pass)?;
    Ok(Reply::Text(String::new()))
}

/// `phantom-opponent-illegal`: the opponent made an illegal attempt.
pub fn opponent_illegal(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    if !c.args.is_empty() {
        return Err(GtpError::syntax());
    }
    s.engine.phantom_opponent_illegal()?;
    Ok(Reply::Text(String::new()))
}

/// `phantom-removed V...`: the last legal move emptied these points.
pub fn removed(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    if c.args.is_empty() {
        return Err(GtpError::syntax());
    }
    let points = c.args.iter().map(|w| point(s, w)).collect::<Result<Vec<_>, _>>()?;
    s.engine.phantom_removed(&points)?;
    Ok(Reply::Text(String::new()))
}
