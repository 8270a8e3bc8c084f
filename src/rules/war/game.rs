//! A War Go game: the position, the moves played (for undo and records), positional superko over
//! the pieces on the board, and the end by two passes.

use super::config::WarConfig;
use super::moves::{WarIllegal, WarMove};
use super::position::{Effect, WarPosition};
use crate::board::{Color, Point};
use crate::rules::{EndReason, Outcome};
use std::collections::HashMap;

#[derive(Clone, Debug)]
pub struct WarGame {
    pub config: WarConfig,
    pos: WarPosition,
    /// Each move with the position before it.
    history: Vec<(Color, WarMove, WarPosition)>,
    /// How often each board (hash of the pieces) has stood in this game: positional superko.
    seen: HashMap<u64, u32>,
    outcome: Option<Outcome>,
}

impl WarGame {
    /// A new game on a `size` board with `walls` (column, row) set up, under `config`.
    pub fn new(config: WarConfig, size: usize, walls: &[(usize, usize)]) -> WarGame {
        let army = if config.preset.is_some() { super::Army::NONE } else { config.army };
        let pos = WarPosition::new(size, army, &config.start_pieces(size, walls));
        let mut seen = HashMap::new();
        seen.insert(pos.hash(), 1);
        WarGame { config, pos, history: Vec::new(), seen, outcome: None }
    }

    /// A game that starts from `pos` (diagram tests, loaded records).
    pub fn from_position(config: WarConfig, pos: WarPosition) -> WarGame {
        let mut seen = HashMap::new();
        seen.insert(pos.hash(), 1);
        WarGame { config, pos, history: Vec::new(), seen, outcome: None }
    }

    pub fn position(&self) -> &WarPosition {
        &self.pos
    }

    pub fn to_move(&self) -> Color {
        self.pos.to_move
    }

    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    pub fn is_over(&self) -> bool {
        self.outcome.is_some()
    }

    /// The moves played, in order.
    pub fn moves(&self) -> impl Iterator<Item = (Color, WarMove)> + '_ {
        self.history.iter().map(|(c, m, _)| (*c, *m))
    }

    pub fn move_count(&self) -> usize {
        self.history.len()
    }

    /// Has this board stood earlier in the game?
    pub fn repeats(&self, pos: &WarPosition) -> bool {
        self.seen.contains_key(&pos.hash())
    }

    /// The position `mv` would lead to, or why it is illegal. A move after two passes goes on
    /// with the game (as in the other variants); other endings refuse every move.
    pub fn try_move(&self, color: Color, mv: WarMove) -> Result<(WarPosition, Effect), WarIllegal> {
        if self.outcome.is_some_and(|o| o.reason != EndReason::TwoPasses) {
            return Err(WarIllegal::GameOver);
        }
        let mut next = self.pos.clone();
        let effect = next.apply(color, mv)?;
        if mv != WarMove::Pass && self.repeats(&next) {
            return Err(WarIllegal::Superko);
        }
        Ok((next, effect))
    }

    pub fn check(&self, color: Color, mv: WarMove) -> Result<(), WarIllegal> {
        self.try_move(color, mv).map(|_| ())
    }

    /// Plays `mv` for `color` (either colour may move, as GTP allows), or changes nothing.
    pub fn play(&mut self, color: Color, mv: WarMove) -> Result<Effect, WarIllegal> {
        let (next, effect) = self.try_move(color, mv)?;
        if self.outcome.is_some() {
            // Resuming a game ended by two passes.
            self.outcome = None;
        }
        let before = std::mem::replace(&mut self.pos, next);
        if mv != WarMove::Pass {
            self.pos.passes = 0;
        }
        self.history.push((color, mv, before));
        *self.seen.entry(self.pos.hash()).or_insert(0) += 1;
        if self.pos.passes >= 2 {
            self.outcome = Some(self.score(&[]));
        }
        Ok(effect)
    }

    /// Takes back the last move.
    pub fn undo(&mut self) -> bool {
        let Some((_, _, before)) = self.history.pop() else { return false };
        if let Some(n) = self.seen.get_mut(&self.pos.hash()) {
            *n -= 1;
            if *n == 0 {
                self.seen.remove(&self.pos.hash());
            }
        }
        self.pos = before;
        self.outcome = None;
        true
    }

    pub fn resign(&mut self, color: Color) {
        self.outcome = Some(Outcome::win(color.opponent(), 0.0, EndReason::Resignation));
    }

    pub fn set_outcome(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
    }

    /// Area count with `dead` stones removed, and komi.
    pub fn score(&self, dead: &[Point]) -> Outcome {
        let area = self.pos.area(dead);
        let margin = area[Color::Black] as f64 - area[Color::White] as f64 - self.config.komi;
        Outcome::from_margin(margin, EndReason::TwoPasses)
    }

    /// Every legal turn for `color`, superko included, pass last.
    pub fn legal_moves(&self, color: Color) -> Vec<WarMove> {
        if self.outcome.is_some_and(|o| o.reason != EndReason::TwoPasses) {
            return Vec::new();
        }
        let mut out = self.pos.legal_moves(color);
        out.retain(|&mv| mv == WarMove::Pass || self.check(color, mv).is_ok());
        out
    }
}
