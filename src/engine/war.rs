//! War Go in the engine (RULES.md section 7): the game is a `WarGame` of its own, kept beside the
//! engine's unused `AnyGame`, and searched by `search::war`. GTP reaches it through `gtp::war`.

use super::{Engine, EngineError};
use crate::board::{Color, Point};
use crate::rules::war::{Army, Kind, WarGame, WarIllegal, WarMove};
use crate::rules::{EndReason, Outcome, Variant};
use crate::search::war::{self as search, WarLimits, WarReport};

/// Playouts of the dead-stone judgement at the end of a game.
const STATUS_PLAYOUTS: u32 = 400;
/// Playouts of a move search when nothing else limits it.
const DEFAULT_PLAYOUTS: u64 = 3000;
/// A search resigns (below `--resign`'s win rate) only after this many playouts.
const RESIGN_MIN_PLAYOUTS: u64 = 1000;

/// What `war_genmove` chose.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum WarDecision {
    Play(WarMove),
    Resign,
}

impl From<WarIllegal> for EngineError {
    fn from(e: WarIllegal) -> Self {
        EngineError::War(e)
    }
}

impl Engine {
    pub fn is_war(&self) -> bool {
        self.war.is_some()
    }

    /// The War Go game, under `war` rules.
    pub fn war_game(&self) -> Option<&WarGame> {
        self.war.as_ref()
    }

    /// A new War Go game for the current rules and size, or none under other rules.
    pub(super) fn new_war_game(&self) -> Option<WarGame> {
        (self.rules.variant() == Variant::War)
            .then(|| WarGame::new(self.rules.war(), self.size, &self.rules.walls))
    }

    /// The game replayed under the current rules (a new komi): the moves stay.
    pub(super) fn replay_war(&mut self) {
        let Some(old) = self.war.take() else { return };
        let mut game = self.new_war_game().expect("under war rules");
        let moves: Vec<(Color, WarMove)> = old.moves().collect();
        for (c, m) in moves {
            if game.play(c, m).is_err() {
                self.war = Some(old);
                return;
            }
        }
        if let Some(o) = old.outcome().filter(|o| o.reason.is_outside_the_rules()) {
            game.set_outcome(o);
        }
        self.war = Some(game);
    }

    fn war_mut(&mut self) -> Result<&mut WarGame, EngineError> {
        self.war.as_mut().ok_or(EngineError::War(WarIllegal::GameOver))
    }

    /// Plays a War Go turn for either colour; an illegal one changes nothing.
    pub fn war_play(&mut self, color: Color, mv: WarMove) -> Result<(), EngineError> {
        self.war_mut()?.play(color, mv)?;
        self.status_cache = None;
        Ok(())
    }

    pub fn war_undo(&mut self) -> Result<(), EngineError> {
        if self.war_mut()?.undo() {
            Ok(())
        } else {
            Err(EngineError::CannotUndo)
        }
    }

    /// The limits of `color`'s War Go move search: the clock's budget when the controller set one,
    /// else `--time`; `--playouts` on top; a fixed number of playouts when nothing limits it.
    fn war_limits(&self, color: Color) -> WarLimits {
        let o = &self.options;
        let ply = self.war_game().map_or(0, |g| g.move_count() as u32);
        let clock = super::time_manager::budget(&self.clock, color, self.size, ply, o.lag).map(|b| b.target);
        let time = clock.or(o.time_per_move);
        let playouts = o.playouts.or(if time.is_none() { Some(DEFAULT_PLAYOUTS) } else { None });
        WarLimits { playouts, time }
    }

    /// Searches for `color`'s turn; plays it when `commit`. A game already over is closed with a
    /// pass (or a resignation by the loser), as in the other variants.
    pub fn war_genmove(
        &mut self,
        color: Color,
        commit: bool,
    ) -> Result<(WarDecision, Option<WarReport>), EngineError> {
        let limits = self.war_limits(color);
        let seed = crate::search::mix_seed(
            self.game_seed,
            0x0077_6172,
            self.war_game().map_or(0, |g| g.move_count() as u64 * 2 + color.index() as u64),
        );
        let game = self.war.as_ref().ok_or(EngineError::War(WarIllegal::GameOver))?;
        if let Some(o) = game.outcome() {
            if o.reason != EndReason::TwoPasses {
                let lost = o.winner == Some(color.opponent());
                return Ok((if lost { WarDecision::Resign } else { WarDecision::Play(WarMove::Pass) }, None));
            }
        }
        let report = search::search_parallel(game, color, limits, seed, self.options.search_threads());
        let hopeless = self.options.resign_threshold.is_some_and(|t| report.winrate < t);
        let decision = if hopeless && report.playouts >= RESIGN_MIN_PLAYOUTS {
            WarDecision::Resign
        } else {
            WarDecision::Play(report.best)
        };
        if commit {
            match decision {
                WarDecision::Play(mv) => self.war_play(color, mv)?,
                WarDecision::Resign => self.war_mut()?.resign(color),
            }
        }
        Ok((decision, Some(report)))
    }

    /// The stones judged dead in the War Go position (playouts' ownership), kept until a move.
    pub fn war_dead_stones(&mut self) -> Vec<Point> {
        let Some(game) = self.war.as_ref() else { return Vec::new() };
        let seed = crate::search::mix_seed(self.game_seed, 0x6465_6164, game.move_count() as u64);
        search::dead_stones(game, STATUS_PLAYOUTS, seed)
    }

    /// The result: a resignation as it is, else the area count with the judged dead stones off.
    pub fn war_final_score(&mut self) -> Result<Outcome, EngineError> {
        let game = self.war.as_ref().ok_or(EngineError::CannotScore)?;
        if let Some(o) = game.outcome().filter(|o| o.reason != EndReason::TwoPasses) {
            return Ok(o);
        }
        let dead = self.war_dead_stones();
        Ok(self.war.as_ref().ok_or(EngineError::CannotScore)?.score(&dead))
    }

    /// The board with pieces by letter, and beside it the rules, the side to move, prisoners and
    /// the armies in hand.
    pub fn war_showboard(&mut self) -> String {
        let result = self.war_game().and_then(|g| g.outcome()).map(|_| self.war_final_score());
        let rules = self.rules.to_string();
        let Some(g) = self.war_game() else { return String::new() };
        let pos = g.position();
        let size = pos.size();
        let letters: String = "ABCDEFGHJKLMNOPQRSTUVWXYZ".chars().take(size).flat_map(|c| [' ', c]).collect();
        let army = |a: Army| {
            let items: Vec<String> = Kind::ARMY
                .iter()
                .filter(|&&k| a.count(k) > 0)
                .map(|&k| format!("{} {}", k.name(), a.count(k)))
                .collect();
            if items.is_empty() {
                "none".to_string()
            } else {
                items.join(", ")
            }
        };
        let mut notes = vec![
            format!("Rules: {rules}"),
            format!("To move: {}", g.to_move()),
            format!("Black prisoners: {}", pos.prisoners[Color::Black]),
            format!("White prisoners: {}", pos.prisoners[Color::White]),
            format!("Black in hand: {}", army(pos.army[Color::Black])),
            format!("White in hand: {}", army(pos.army[Color::White])),
            format!("Moves played: {}", g.move_count()),
        ];
        if let Some((c, m)) = g.moves().last() {
            notes.push(format!("Last move: {c} {}", m.word(&pos.geo)));
        }
        notes.push("Pieces: X O soldiers; A a ambassador, B b bomb, M m monk, S s samurai,".into());
        notes.push("C c cavalry (Black upper case); # wall, T tao, R mercenary".into());
        if let Some(Ok(o)) = result {
            notes.push(format!("Result: {o}"));
        }
        let mut lines = vec![format!("   {letters}")];
        for (row, text) in pos.rows().iter().enumerate() {
            let y = size - row;
            let cells: String = text.chars().flat_map(|c| [c, ' ']).collect();
            let mut line = format!("{y:>2} {cells}{y:>2}");
            if let Some(n) = notes.get(row) {
                line.push_str("    ");
                line.push_str(n);
            }
            lines.push(line);
        }
        lines.push(format!("   {letters}"));
        for n in notes.iter().skip(size) {
            lines.push(format!("    {n}"));
        }
        lines.join("\n")
    }
}

impl Engine {
    /// The War Go game as an SGF record: size, komi, the rules string in `RU`, soldiers as `B`/`W`
    /// points, drops and piece moves as empty `B[]`/`W[]` nodes with the move word in `WM`, and
    /// the result once the game is over.
    pub fn war_record(&mut self) -> crate::sgf::GameRecord {
        let result = if self.war_game().is_some_and(|g| g.is_over()) {
            self.war_final_score().ok().map(|o| o.to_string())
        } else {
            None
        };
        let mut record = crate::sgf::GameRecord::new(self.size);
        record.komi = Some(self.rules.komi_value());
        record.rules = Some(self.rules.to_string());
        if let Some(g) = self.war_game() {
            let geo = g.position().geo;
            record.moves = g
                .moves()
                .map(|(color, m)| crate::sgf::RecordMove {
                    color,
                    at: match m {
                        WarMove::Soldier(p) => Some(geo.xy(p)),
                        _ => None,
                    },
                    comment: None,
                    time_left: None,
                    war: matches!(m, WarMove::Drop { .. } | WarMove::Step { .. }).then(|| m.word(&geo)),
                })
                .collect();
        }
        record.result = result;
        record
    }

    /// Replaces the game by the War Go game `record` holds, up to but not including move `until`
    /// (1-based). The rules come from `RU` (a `war` rules string), else the controller's War Go
    /// rules; komi from `KM`. A record with set-up stones or a turn the rules refuse is not
    /// loaded, and then nothing changes.
    pub fn load_war_record(
        &mut self,
        record: &crate::sgf::GameRecord,
        until: Option<usize>,
    ) -> Result<(), EngineError> {
        use crate::rules::{checked_komi, Komi, RulesConfig};
        let fail = |why: String| EngineError::CannotLoad(why);
        let size = record.size;
        if !(crate::board::MIN_SIZE..=crate::board::MAX_SIZE).contains(&size) {
            return Err(fail(format!("board size {size} is not supported")));
        }
        let mut rules = match record.rules.as_deref().map(str::trim) {
            Some(ru) => RulesConfig::parse(ru).map_err(|e| fail(format!("rules '{ru}': {e}")))?,
            None => self.controller_rules.clone(),
        };
        if rules.variant() != Variant::War {
            return Err(fail("not a War Go record".into()));
        }
        rules.check_walls_fit(size).map_err(|e| fail(e.to_string()))?;
        if let Some(k) = record.komi {
            rules.komi =
                Komi::Set(checked_komi(k).ok_or_else(|| fail(format!("komi {k} is not a multiple of 0.5")))?);
        }
        if !record.black_stones.is_empty() || !record.white_stones.is_empty() {
            return Err(fail("War Go has no set-up stones".into()));
        }
        let mut game = WarGame::new(rules.war(), size, &rules.walls);
        let geo = game.position().geo;
        let count = until.map_or(record.moves.len(), |n| n.saturating_sub(1).min(record.moves.len()));
        for (i, m) in record.moves.iter().take(count).enumerate() {
            let mv = match (&m.war, m.at) {
                (Some(w), _) => {
                    WarMove::parse(w, &geo).map_err(|_| fail(format!("move {}: '{w}' is no move", i + 1)))?
                }
                (None, Some((x, y))) => WarMove::Soldier(geo.point(x, y)),
                (None, None) => WarMove::Pass,
            };
            game.play(m.color, mv).map_err(|e| fail(format!("move {}: {}", i + 1, e)))?;
        }
        self.rules = rules;
        self.size = size;
        self.game = crate::rules::AnyGame::new(&self.rules, size);
        self.phantom = None;
        self.war = Some(game);
        self.clock.reset();
        self.status_cache = None;
        Ok(())
    }
}
