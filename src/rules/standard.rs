//! Standard Go (RULES.md section 2): area or territory scoring, simple / positional / situational ko,
//! suicide forbidden or allowed, komi, and the button.

use super::scoring::count;
use super::{EndReason, Illegal, Move, Outcome, Position, Repetition, Rules, Variant};
use crate::board::{Cell, Color, Flat, Placement, Point, Topology};
use std::marker::PhantomData;

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Scoring {
    Area,
    Territory,
}

#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum KoRule {
    Simple,
    Positional,
    Situational,
}

/// The options of standard Go, as plain data (KataGo's orthogonal rule axes).
/// The board's shape is a type parameter (`Flat` by default, or `Torus`), so that each shape
/// compiles its own playout loop (`board::Topology`).
#[derive(Clone, PartialEq, Debug)]
pub struct Standard<T: Topology = Flat> {
    pub scoring: Scoring,
    pub ko: KoRule,
    pub suicide_allowed: bool,
    pub komi: f64,
    pub button: bool,
    pub topology: PhantomData<T>,
}

impl<T: Topology> Standard<T> {
    /// The same rules on a board of shape `U`.
    pub fn on<U: Topology>(self) -> Standard<U> {
        let Standard { scoring, ko, suicide_allowed, komi, button, topology: _ } = self;
        Standard { scoring, ko, suicide_allowed, komi, button, topology: PhantomData }
    }
}

impl Default for Standard {
    fn default() -> Self {
        Standard {
            scoring: Scoring::Area,
            ko: KoRule::Simple,
            suicide_allowed: false,
            komi: 7.5,
            button: false,
            topology: PhantomData,
        }
    }
}

/// Who took the button, if anyone.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct GoState {
    pub button: Option<Color>,
}

impl<T: Topology> Rules for Standard<T> {
    type Extra = GoState;
    type Topology = T;
    const VARIANT: Variant = Variant::Go;

    #[inline]
    fn check(&self, pos: &Position<Self>, color: Color, mv: Move) -> Result<(), Illegal> {
        match mv {
            Move::Place(p) => {
                // Every ko rule forbids the immediate single-stone recapture; superko is the history's job.
                if pos.board.is_ko_retake(color, p) {
                    return Err(Illegal::Ko);
                }
                if pos.board.is_suicide(color, p) {
                    // A lone stone's suicide would leave the position unchanged: never allowed.
                    if !self.suicide_allowed || pos.board.neighbour_count(p, Cell::stone(color)) == 0 {
                        return Err(Illegal::Suicide);
                    }
                }
                Ok(())
            }
            // While the button is untaken, "pass" means taking it (RULES.md section 2).
            Move::Pass if self.button && pos.extra.button.is_none() => Err(Illegal::NotInVariant),
            Move::Pass => Ok(()),
            Move::Button if !self.button => Err(Illegal::NotInVariant),
            Move::Button if pos.extra.button.is_some() => Err(Illegal::ButtonTaken),
            Move::Button => Ok(()),
            Move::Return | Move::Stake(_) => Err(Illegal::NotInVariant),
        }
    }

    #[inline]
    fn apply<const GAME: bool>(&self, pos: &mut Position<Self>, color: Color, mv: Move) -> Placement {
        match mv {
            Move::Place(p) => {
                let placed = pos.board.place::<GAME>(color, p);
                // A playout's prisoners are never read (see `Rules::apply`).
                if GAME {
                    pos.prisoners.add_both(color, u32::from(placed.captured), u32::from(placed.suicided));
                }
                pos.passes = 0;
                placed
            }
            Move::Pass => {
                // After a pass the position of one move ago is the current one: no ko restriction is left.
                pos.board.clear_ko();
                pos.passes += 1;
                if pos.passes >= 2 {
                    pos.outcome = self.score(pos, &[]).map(|o| Outcome { reason: EndReason::TwoPasses, ..o });
                }
                Placement::default()
            }
            Move::Button => {
                // Taking the button is a move that changes no stone: it lifts the ko restriction and is not a pass.
                pos.extra.button = Some(color);
                pos.board.clear_ko();
                pos.passes = 0;
                Placement::default()
            }
            Move::Return | Move::Stake(_) => unreachable!("checked: not a move of standard Go"),
        }
    }

    fn repetition(&self) -> Repetition {
        match self.ko {
            KoRule::Simple => Repetition::SimpleKo,
            KoRule::Positional => Repetition::Positional,
            KoRule::Situational => Repetition::Situational,
        }
    }

    fn pass_move(&self, pos: &Position<Self>, _color: Color) -> Move {
        if self.button && pos.extra.button.is_none() {
            Move::Button
        } else {
            Move::Pass
        }
    }

    fn score(&self, pos: &Position<Self>, dead: &[Point]) -> Option<Outcome> {
        let c = count(&pos.board, dead);
        let points = |col: Color| match self.scoring {
            Scoring::Area => c.area(col) as f64,
            Scoring::Territory => (c.territory[col] + pos.prisoners[col] + c.dead[col.opponent()]) as f64,
        };
        let button = match pos.extra.button {
            Some(Color::Black) => 0.5,
            Some(Color::White) => -0.5,
            None => 0.0,
        };
        let margin = points(Color::Black) - points(Color::White) - self.komi + button;
        Some(Outcome::from_margin(margin, EndReason::TwoPasses))
    }

    fn komi(&self) -> f64 {
        self.komi
    }

    fn with_extra_komi(&self, extra: f64) -> Self {
        Self { komi: self.komi + extra, ..self.clone() }
    }
}
