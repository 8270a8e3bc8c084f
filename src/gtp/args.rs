//! Parsing command arguments, with GTP's distinction between a syntax error and an illegal move.

use super::GtpError;
use crate::board::{Color, Geometry, MAX_SIZE};
use crate::rules::Move;

pub fn arg(args: &[String], i: usize) -> Result<&str, GtpError> {
    args.get(i).map(String::as_str).ok_or_else(GtpError::syntax)
}

pub fn color(args: &[String], i: usize) -> Result<Color, GtpError> {
    Color::parse(arg(args, i)?).ok_or_else(GtpError::syntax)
}

pub fn int<T: std::str::FromStr>(args: &[String], i: usize) -> Result<T, GtpError> {
    arg(args, i)?.parse().map_err(|_| GtpError::syntax())
}

/// A non-negative count such as a board size or a number of handicap stones. A well-formed integer
/// that is negative or too large is not a syntax error but `out_of_range` (`unacceptable size`,
/// `invalid number of stones`), as GTP distinguishes them.
pub fn count(args: &[String], i: usize, out_of_range: fn() -> GtpError) -> Result<usize, GtpError> {
    let a = arg(args, i)?;
    if let Ok(n) = a.parse::<usize>() {
        return Ok(n);
    }
    let digits = a.strip_prefix(['+', '-']).unwrap_or(a);
    if !digits.is_empty() && digits.bytes().all(|b| b.is_ascii_digit()) {
        Err(out_of_range())
    } else {
        Err(GtpError::syntax())
    }
}

pub fn float(args: &[String], i: usize) -> Result<f64, GtpError> {
    let v: f64 = arg(args, i)?.parse().map_err(|_| GtpError::syntax())?;
    if v.is_finite() {
        Ok(v)
    } else {
        Err(GtpError::syntax())
    }
}

/// A vertex or `pass`. A well-formed vertex that lies off this board (but on a 25x25 one) is an
/// illegal move; anything else malformed is a syntax error.
pub fn mv(geo: &Geometry, s: &str) -> Result<Move, GtpError> {
    if s.eq_ignore_ascii_case("pass") {
        return Ok(Move::Pass);
    }
    if let Some(p) = geo.parse_vertex(s) {
        return Ok(Move::Place(p));
    }
    if Geometry::new(MAX_SIZE).parse_vertex(s).is_some() {
        Err(GtpError::illegal())
    } else {
        Err(GtpError::syntax())
    }
}
