//! The game as an SGF record and back: what GTP `printsgf` and `loadsgf` need.

use super::{Engine, EngineError};
use crate::board::{Color, Geometry, Point, MAX_SIZE, MIN_SIZE};
use crate::rules::{checked_komi, AnyGame, EndReason, Illegal, Komi, Move, RulesConfig, Setup, Variant};
use crate::sgf::{GameRecord, RecordMove};

impl Engine {
    /// The game so far as an SGF record: size, komi (not for Stones), the complete rules string in
    /// `RU`, handicap stones as `AB`, the moves, and the result once the game is over
    /// (`game_result`). Variant moves that GTP writes `pass` (button, prisoner return, stake) are
    /// passes with a comment naming them, which [`Engine::load_record`] reads back.
    pub fn to_record(&mut self) -> GameRecord {
        let result = self.game_result().map(|o| o.to_string());
        let g = self.game();
        let geo = g.board().geometry();
        let mut record = GameRecord::new(self.size);
        if self.variant() != Variant::Stones {
            record.komi = Some(self.rules.komi_value());
        }
        record.rules = Some(self.rules.to_string());
        let setup = g.setup();
        record.black_stones = setup.black.iter().map(|&p| geo.xy(p)).collect();
        record.white_stones = setup.white.iter().map(|&p| geo.xy(p)).collect();
        // A handicap is `HA` (readers then know White moves); any other set-up says who moves
        // with `PL`.
        record.handicap = setup.handicap_stones() as u32;
        if !setup.handicap && !setup.is_empty() {
            record.to_play = Some(setup.to_move);
        }
        record.moves = g
            .moves()
            .iter()
            .map(|&(color, m)| RecordMove {
                color,
                at: match m {
                    Move::Place(p) => Some(geo.xy(p)),
                    _ => None,
                },
                comment: (m.is_pass_like() && m != Move::Pass).then(|| m.describe(geo)),
                time_left: None,
                war: None,
            })
            .collect();
        record.result = result;
        record
    }

    /// Replaces the game by the one `record` holds, up to but not including move number `until`
    /// (1-based, GTP `loadsgf FILE N`; all moves when `None`). Size and komi come from the file; the
    /// rules from `RU` when it is a rules string or a KGS or SGF rules name, else (and komi without
    /// `KM`) those the controller set, never an earlier file's; a rules string that names a variant
    /// but does not parse is an error.
    ///
    /// A record is history: a move that the rules in force forbid (ko, superko, suicide, a capture
    /// after a capture in Stoical) or that comes after they ended the game is played as recorded
    /// (`Game::replay`), as GNU Go does; each such move is described in the notes answered. Only
    /// what cannot be placed (an occupied point, a point off the board, a wall, set-up stones
    /// without liberties, a pass-like move the rules do not have) is an error, and then the engine
    /// is unchanged.
    pub fn load_record(
        &mut self,
        record: &GameRecord,
        until: Option<usize>,
    ) -> Result<Vec<String>, EngineError> {
        // A War Go record (its `RU`, or the controller's rules when it has none) is War Go's to read.
        let war = match record.rules.as_deref() {
            Some(ru) => RulesConfig::parse(ru.trim()).is_ok_and(|r| r.variant() == Variant::War),
            None => self.controller_rules.variant() == Variant::War,
        };
        if war {
            return self.load_war_record(record, until).map(|()| Vec::new());
        }
        let fail = |why: String| EngineError::CannotLoad(why);
        let size = record.size;
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(fail(format!("board size {size} is not supported")));
        }
        let mut rules = match record.rules.as_deref().map(str::trim) {
            Some(ru) => match RulesConfig::parse(ru) {
                // As `tengen-rules` refuses them: a wall off the file's board is no game of that
                // size. (Walls kept from the current rules are another matter: like `boardsize`,
                // the board takes those that fit.)
                Ok(rules) => {
                    rules.check_walls_fit(size).map_err(|e| fail(e.to_string()))?;
                    rules
                }
                // One of our rules strings that does not parse (a typo, a newer option): replaying
                // the game under other rules would give another game, so say why instead.
                Err(e) if RulesConfig::names_variant(ru) => return Err(fail(format!("RU[{ru}]: {e}"))),
                // SGF's own names (Japanese, Chinese, AGA, NZ, ...), else the current rules.
                Err(_) => RulesConfig::from_kgs(ru, &self.controller_rules)
                    .unwrap_or_else(|| self.controller_rules.clone()),
            },
            None => self.controller_rules.clone(),
        };
        if rules.komi == Komi::Default {
            rules.komi = self.controller_rules.komi;
        }
        if let Some(k) = record.komi {
            // The bounds `komi` and rules strings keep, so that what loads here can be written and
            // loaded again.
            let k = checked_komi(k)
                .ok_or_else(|| fail(format!("komi {k} is not a multiple of 0.5 within 1000")))?;
            rules.komi = Komi::Set(k);
        }
        rules.check_walls_fit(size).map_err(|e| fail(e.to_string()))?;
        let mut game = AnyGame::new(&rules, size);
        let geo = *game.board().geometry();
        let point = |(x, y): (usize, usize)| -> Result<Point, EngineError> {
            if x < size && y < size {
                Ok(geo.point(x, y))
            } else {
                Err(fail(format!("point ({x}, {y}) is off the board")))
            }
        };
        let points =
            |stones: &[(usize, usize)]| stones.iter().map(|&xy| point(xy)).collect::<Result<Vec<_>, _>>();
        let (black, white) = (points(&record.black_stones)?, points(&record.white_stones)?);
        // Who moves after the set-up: `PL` when the file says; else White after black stones alone
        // (a handicap), Black otherwise.
        let to_move = record.to_play.unwrap_or(if white.is_empty() && !black.is_empty() {
            Color::White
        } else {
            Color::Black
        });
        // A handicap when the file says so (`HA`, as many black stones, nothing else set up).
        let handicap = !black.is_empty()
            && record.handicap as usize == black.len()
            && white.is_empty()
            && to_move == Color::White;
        let setup = Setup { black, white, to_move, handicap };
        if !setup.is_empty() {
            game.set_up(&setup).map_err(|e| fail(format!("setup stones: {e}")))?;
        }
        let count = until.map_or(record.moves.len(), |n| n.saturating_sub(1).min(record.moves.len()));
        let mut notes = Vec::new();
        for (i, m) in record.moves[..count].iter().enumerate() {
            let mv = match m.at {
                Some(xy) => Move::Place(point(xy)?),
                None => variant_move(&geo, m.comment.as_deref()).unwrap_or_else(|| game.pass_move(m.color)),
            };
            let what = || format!("move {} ({} {})", i + 1, color_name(m.color), mv.describe(&geo));
            let ended = game.outcome().filter(|o| o.reason != EndReason::TwoPasses);
            match game.replay(m.color, mv) {
                Ok(None) => {}
                Ok(Some(Illegal::GameOver)) => notes.push(format!(
                    "{}: played as recorded after the game's end under these rules ({})",
                    what(),
                    ended.map_or_else(|| "over".to_string(), |o| o.to_string())
                )),
                Ok(Some(e)) => {
                    notes.push(format!("{}: played as recorded, though illegal here: {e}", what()))
                }
                Err(e) => return Err(fail(format!("{} cannot be played: {e}", what()))),
            }
        }
        self.rules = rules;
        self.size = size;
        self.game = game;
        // A Phantom Go record holds the true moves: loaded, it is the referee's whole board, not a
        // player's view (RULES.md 5.2: the record replays on a normal board).
        self.phantom = None;
        self.clock.reset();
        Ok(notes)
    }
}

fn color_name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Is `m` a pass and nothing else: no variant move (button, prisoner return, stake) written as a
/// commented pass, as [`Engine::load_record`] reads them?
pub fn is_plain_pass(m: &RecordMove, size: usize) -> bool {
    m.at.is_none() && variant_move(&Geometry::new(size), m.comment.as_deref()).is_none()
}

/// The variant move a pass's comment names, as [`Engine::to_record`] writes it.
fn variant_move(geo: &Geometry, comment: Option<&str>) -> Option<Move> {
    match comment?.trim() {
        "button" => Some(Move::Button),
        "prisoner return" => Some(Move::Return),
        c => c.strip_prefix("stake on ").and_then(|v| geo.parse_vertex(v.trim())).map(Move::Stake),
    }
}
