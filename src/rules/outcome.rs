//! How a game ended and the result string (`B+3.5`, `W+R`, `0`).

use crate::board::Color;
use std::fmt;

/// Why the game ended.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum EndReason {
    /// Two consecutive passes; the result is the score.
    TwoPasses,
    /// Stones: a decisive move.
    Decisive,
    /// Stones: the player to move had no legal move.
    NoLegalMove,
    /// Stoical Go: a placement repeated an earlier position (draw).
    Repetition,
    Resignation,
    Time,
    Forfeit,
}

impl EndReason {
    /// Did a player or the controller end the game (resignation, time, forfeit), rather than the
    /// rules' verdict on the moves (passes, a decisive move, no legal move, a repetition)? Only
    /// such an ending outlives a change of rules: the rules' own verdicts come from replaying the
    /// moves under the new rules, which may not end the game at all (a Stoical repetition is no
    /// end in go).
    pub fn is_outside_the_rules(self) -> bool {
        matches!(self, EndReason::Resignation | EndReason::Time | EndReason::Forfeit)
    }
}

/// The end of a game: who won, by how much, and why.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct Outcome {
    /// `None` for a draw.
    pub winner: Option<Color>,
    /// Points (area or territory) or the Stones lead; ignored for resignation, time and forfeit.
    pub margin: f64,
    pub reason: EndReason,
}

impl Outcome {
    /// A scored result from Black's margin (positive: Black wins; zero: draw).
    pub fn from_margin(black_margin: f64, reason: EndReason) -> Outcome {
        let winner = if black_margin > 0.0 {
            Some(Color::Black)
        } else if black_margin < 0.0 {
            Some(Color::White)
        } else {
            None
        };
        Outcome { winner, margin: black_margin.abs(), reason }
    }

    /// Black's margin (negative when White wins): the inverse of `from_margin`.
    pub fn black_margin(&self) -> f64 {
        match self.winner {
            Some(Color::Black) => self.margin,
            Some(Color::White) => -self.margin,
            None => 0.0,
        }
    }

    pub fn win(winner: Color, margin: f64, reason: EndReason) -> Outcome {
        Outcome { winner: Some(winner), margin, reason }
    }

    pub fn draw(reason: EndReason) -> Outcome {
        Outcome { winner: None, margin: 0.0, reason }
    }

    /// Value for `color`: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub fn value_for(&self, color: Color) -> f64 {
        match self.winner {
            None => 0.5,
            Some(w) if w == color => 1.0,
            Some(_) => 0.0,
        }
    }
}

/// Formats a margin without float noise: `3.5`, `3`, `0.7`.
pub fn format_margin(m: f64) -> String {
    let r = (m * 100.0).round() / 100.0;
    let s = format!("{r:.2}");
    s.trim_end_matches('0').trim_end_matches('.').to_string()
}

impl fmt::Display for Outcome {
    /// The GTP / SGF result string.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(w) = self.winner else { return f.write_str("0") };
        let tail = match self.reason {
            EndReason::Resignation => "R".to_string(),
            EndReason::Time => "T".to_string(),
            EndReason::Forfeit => "F".to_string(),
            _ => format_margin(self.margin.max(0.0)),
        };
        write!(f, "{}+{}", w.letter(), tail)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_strings() {
        assert_eq!(Outcome::from_margin(3.5, EndReason::TwoPasses).to_string(), "B+3.5");
        assert_eq!(Outcome::from_margin(-0.5, EndReason::TwoPasses).to_string(), "W+0.5");
        assert_eq!(Outcome::from_margin(0.0, EndReason::TwoPasses).to_string(), "0");
        assert_eq!(Outcome::from_margin(-7.0, EndReason::TwoPasses).to_string(), "W+7");
        assert_eq!(Outcome::win(Color::White, 0.0, EndReason::Resignation).to_string(), "W+R");
        assert_eq!(Outcome::win(Color::Black, 0.0, EndReason::NoLegalMove).to_string(), "B+0");
        assert_eq!(Outcome::win(Color::Black, -2.0, EndReason::NoLegalMove).to_string(), "B+0");
        assert_eq!(Outcome::draw(EndReason::Repetition).to_string(), "0");
    }

    #[test]
    fn black_margin_inverts_from_margin() {
        for m in [3.5, -0.5, 0.0, -7.0] {
            assert_eq!(Outcome::from_margin(m, EndReason::TwoPasses).black_margin(), m);
        }
        assert_eq!(Outcome::win(Color::White, 2.0, EndReason::NoLegalMove).black_margin(), -2.0);
    }
}
