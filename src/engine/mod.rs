//! The engine: the facade every front end drives (GTP, self-play, bench). It owns the game, the rules
//! configuration, the clock and the move chooser, and prints nothing itself.

mod clock;
mod display;
mod error;
mod options;
pub mod phantom;
mod record;
pub use record::is_plain_pass;
mod settings;
mod think;
pub mod time_manager;
mod war;
pub use war::WarDecision;

pub use clock::{duration_from_secs, Clock, TimeLeft, TimeSystem};
pub use error::EngineError;
pub use options::{DynamicKomi, EngineOptions, PolicyChoice};
pub use think::{MoveReports, RootKey, DEFAULT_PLAYOUTS, RESIGN_MIN_VISITS, STATUS_PLAYOUTS};

pub use crate::search::{Candidate, FinalStatus, Limits, SearchReport, ThinkRequest, TimeLimit};

use crate::board::{Cell, Color, Point, MAX_SIZE, MIN_SIZE};
use crate::rules::{handicap, AnyGame, Komi, Move, Outcome, RulesConfig, RulesError, Variant};

/// Mixed with the engine's seed and a game's number to draw that game's seed.
const NEXT_GAME_SALT: u64 = 0x6761_6d65;

/// A move as GTP speaks of it: `pass` may stand for a variant move, and the engine may resign.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Decision {
    Play(Move),
    Resign,
}

/// The engine state behind one GTP session.
pub struct Engine {
    options: EngineOptions,
    /// The rules of the game in progress: the controller's, or a loaded record's `RU`.
    rules: RulesConfig,
    /// The rules the controller set (the command line, `tengen-rules`, `kgs-rules`, `komi`): a
    /// record without `RU` (or `KM`) is read under these, not under an earlier record's.
    controller_rules: RulesConfig,
    size: usize,
    game: AnyGame,
    clock: Clock,
    /// The search tree kept between moves (reuse, pondering).
    kept: Option<think::KeptTree>,
    last_report: Option<SearchReport>,
    /// The dynamic komi the last move search played with (its win rates are under it).
    last_komi_shift: f64,
    /// What the last move search saw, when it was large enough to trust: a side far ahead plays
    /// its next searches for the score as well (`think::score_weight`, `think::lead_komi`).
    standing: Option<think::Standing>,
    /// The dead stones judged by the last search of a board.
    status_cache: Option<think::StatusCache>,
    /// Games begun after the first one (`clear_board` after a game with moves or stones).
    games: u64,
    /// The seed of this game's searches: the engine's seed in its first game, a new one drawn
    /// from it in each later game, so that a controller that keeps one engine process for many
    /// games (gogui-twogtp) does not get the same game again.
    game_seed: u64,
    /// Under `phantom`: what the engine knows of the game; its game is then this view.
    phantom: Option<phantom::View>,
    /// Under `war`: the War Go game (RULES.md section 7); `game` then stands unused beside it.
    war: Option<crate::rules::war::WarGame>,
}

impl Engine {
    pub fn new(options: EngineOptions) -> Engine {
        let game = AnyGame::new(&options.rules, options.size);
        let mut engine = Engine {
            rules: options.rules.clone(),
            controller_rules: options.rules.clone(),
            size: options.size,
            game,
            clock: Clock::default(),
            kept: None,
            last_report: None,
            last_komi_shift: 0.0,
            standing: None,
            status_cache: None,
            games: 0,
            game_seed: options.seed,
            phantom: None,
            war: None,
            options,
        };
        engine.clear_board();
        engine
    }

    /// The seed of the current game's searches: the engine's seed (`--seed`) in the first game; in
    /// game k (counted from 0) a seed drawn from it and k. An engine started with that seed plays
    /// that game again (with one thread and a playout limit).
    pub fn game_seed(&self) -> u64 {
        self.game_seed
    }

    pub fn game(&self) -> &AnyGame {
        &self.game
    }

    /// The options the engine was started with.
    pub fn options(&self) -> &EngineOptions {
        &self.options
    }

    pub fn rules(&self) -> &RulesConfig {
        &self.rules
    }

    pub fn size(&self) -> usize {
        self.size
    }

    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    pub fn clock_mut(&mut self) -> &mut Clock {
        &mut self.clock
    }

    /// Starts a new game with the current size and rules. Clearing a board that held a game
    /// (moves or stones) begins the next game, with its own seed (`game_seed`) when the options
    /// ask for one (`EngineOptions::seed_each_game`).
    pub fn clear_board(&mut self) {
        let b = self.game.board();
        let played = !self.game.moves().is_empty()
            || b.stone_count(Color::Black) + b.stone_count(Color::White) > 0
            || self.war.as_ref().is_some_and(|w| w.move_count() > 0);
        if played && self.options.seed_each_game {
            self.games += 1;
            self.game_seed = crate::search::mix_seed(self.options.seed, NEXT_GAME_SALT, self.games);
        }
        self.game = AnyGame::new(&self.rules, self.size);
        self.phantom = (self.rules.variant() == Variant::Phantom).then(phantom::View::new);
        self.sync_phantom();
        self.war = self.new_war_game();
        self.clock.reset();
        self.standing = None;
    }

    /// Changes the board size (and clears the board); komi and rules stay.
    pub fn set_size(&mut self, size: usize) -> Result<(), EngineError> {
        // A torus is at least 3x3 (RULES.md 5.1); War Go's presets are 19x19 only (section 7).
        if !(MIN_SIZE.max(self.rules.min_size())..=MAX_SIZE).contains(&size)
            || (self.rules.variant() == Variant::War
                && self.rules.variant.war.preset.is_some()
                && size != crate::rules::war::WarConfig::PRESET_SIZE)
        {
            return Err(EngineError::UnacceptableSize);
        }
        self.size = size;
        self.clear_board();
        Ok(())
    }

    /// Sets komi. The game in progress keeps its moves: it is replayed under the new komi.
    pub fn set_komi(&mut self, komi: f64) {
        self.rules.komi = Komi::Set(komi);
        self.controller_rules.komi = Komi::Set(komi);
        if self.is_phantom() {
            // The view has no moves to replay: the same view under the new komi.
            self.sync_phantom();
            return;
        }
        if self.is_war() {
            self.replay_war();
            return;
        }
        self.replay_with_rules();
    }

    /// Replaces the rules (a new game, as `clear_board`), keeping komi unless `rules` sets it.
    pub fn set_rules(&mut self, mut rules: RulesConfig) {
        if rules.komi == Komi::Default {
            rules.komi = self.rules.komi;
        }
        self.rules = rules.clone();
        self.controller_rules = rules;
        self.clear_board();
    }

    /// Changes the rules of the game in progress, as KGS's `kgs-rules` asks (a server may send it
    /// after the handicap or after replaying a resumed game): the handicap and the moves are replayed
    /// under the new rules; the clock stays, and so does komi unless `rules` sets it. When some move
    /// is not legal under the new rules, nothing changes.
    pub fn change_rules(&mut self, mut rules: RulesConfig) -> Result<(), EngineError> {
        if self.is_war() || rules.variant() == Variant::War {
            return Err(EngineError::UnknownRules(RulesError(
                "War Go's game cannot change its rules".into(),
            )));
        }
        if self.is_phantom() || rules.variant() == Variant::Phantom {
            // A view has no moves to replay, and a true game no view: a new game is needed.
            return Err(EngineError::UnknownRules(RulesError("Phantom Go's view cannot be replayed".into())));
        }
        if rules.komi == Komi::Default {
            rules.komi = self.rules.komi;
        }
        let game = self.replayed(&rules).ok_or_else(|| {
            EngineError::UnknownRules(RulesError("a move of this game is not legal under them".into()))
        })?;
        self.rules = rules.clone();
        self.controller_rules = rules;
        self.game = game;
        Ok(())
    }

    /// Rebuilds the game under the current rules and replays its moves (used when komi changes mid-game).
    fn replay_with_rules(&mut self) {
        if let Some(game) = self.replayed(&self.rules) {
            self.game = game;
        }
    }

    /// The game so far (set-up stones, moves, an ending such as a resignation) replayed under
    /// `rules`; `None` when some move is not legal under them.
    fn replayed(&self, rules: &RulesConfig) -> Option<AnyGame> {
        let setup = self.game.setup().clone();
        let moves = self.game.moves().to_vec();
        let outcome = self.game.outcome();
        let mut game = AnyGame::new(rules, self.size);
        if !setup.is_empty() && game.set_up(&setup).is_err() {
            return None;
        }
        for &(c, m) in &moves {
            game.play(c, m).ok()?;
        }
        // A resignation stays; an ending the old rules made is what the replay makes of it.
        if let (Some(o), None) = (outcome, game.outcome()) {
            if o.reason.is_outside_the_rules() {
                game.set_outcome(o);
            }
        }
        Some(game)
    }

    /// Plays a move for either colour. A GTP `pass` (`Move::Pass`) is turned into the move it stands
    /// for under the rules (button, prisoner return, stake).
    pub fn play(&mut self, color: Color, mv: Move) -> Result<Move, EngineError> {
        if self.is_war() {
            // War Go: a vertex is a soldier (RULES.md 7); drops and moves go through `war_play`.
            let war = match mv {
                Move::Place(p) => crate::rules::war::WarMove::Soldier(p),
                Move::Pass => crate::rules::war::WarMove::Pass,
                _ => return Err(EngineError::Illegal(crate::rules::Illegal::NotInVariant)),
            };
            self.war_play(color, war)?;
            return Ok(mv);
        }
        if self.is_phantom() {
            // Phantom Go: only the engine's own moves (GTP.md), on its view.
            self.phantom_play(color, mv, false)?;
            return Ok(mv);
        }
        let mv = if mv == Move::Pass { self.game.pass_move(color) } else { mv };
        self.game.play(color, mv)?;
        Ok(mv)
    }

    pub fn undo(&mut self) -> Result<(), EngineError> {
        if self.is_war() {
            return self.war_undo();
        }
        // A Phantom Go view keeps no moves to take back.
        if !self.is_phantom() && self.game.undo() {
            Ok(())
        } else {
            Err(EngineError::CannotUndo)
        }
    }

    /// Resignation by `color`.
    pub fn resign(&mut self, color: Color) {
        if let Some(war) = self.war.as_mut() {
            war.resign(color);
            return;
        }
        self.game.resign(color);
    }

    /// Places GTP's fixed handicap of `n` stones.
    pub fn fixed_handicap(&mut self, n: usize) -> Result<Vec<Point>, EngineError> {
        self.require_empty()?;
        let pts =
            handicap::fixed_points(self.game.board().geometry(), n).ok_or(EngineError::InvalidHandicap)?;
        // A wall on one of the fixed points: this board does not take that handicap (GTP has no
        // `bad vertex list` for `fixed_handicap`, whose vertices the controller did not choose).
        let geo = *self.game.board().geometry();
        let wall = pts.iter().find(|&&p| self.game.board().cell(p) == Cell::Wall).map(|&p| geo.vertex(p));
        self.place_handicap(&pts)
            .map_err(|_| wall.map_or(EngineError::InvalidHandicap, EngineError::HandicapOnWall))?;
        Ok(pts)
    }

    /// Places `n` handicap stones where the engine likes them.
    pub fn place_free_handicap(&mut self, n: usize) -> Result<Vec<Point>, EngineError> {
        self.require_empty()?;
        let board = self.game.board();
        let pts =
            handicap::free_points(board.geometry(), n, board.walls()).ok_or(EngineError::InvalidHandicap)?;
        self.place_handicap(&pts)?;
        Ok(pts)
    }

    /// Places handicap stones where the controller says.
    pub fn set_free_handicap(&mut self, pts: &[Point]) -> Result<(), EngineError> {
        self.require_empty()?;
        let free = self.game.board().empties().len();
        let distinct = pts.iter().enumerate().all(|(i, p)| !pts[..i].contains(p));
        if pts.len() < 2 || pts.len() > handicap::MAX_HANDICAP || pts.len() >= free || !distinct {
            return Err(EngineError::BadVertexList);
        }
        self.place_handicap(pts).map_err(|_| EngineError::BadVertexList)
    }

    fn require_empty(&self) -> Result<(), EngineError> {
        if self.is_war() {
            // RULES.md 7 has no handicap: its armies are the players' set-up.
            return Err(EngineError::InvalidHandicap);
        }
        if self.is_phantom() {
            // RULES.md 5.2 has no handicap: the opponent would have to be told of stones it
            // cannot see.
            return Err(EngineError::InvalidHandicap);
        }
        let b = self.game.board();
        if !self.game.moves().is_empty() || b.stone_count(Color::Black) + b.stone_count(Color::White) > 0 {
            Err(EngineError::BoardNotEmpty)
        } else {
            Ok(())
        }
    }

    fn place_handicap(&mut self, pts: &[Point]) -> Result<(), EngineError> {
        self.game.set_handicap(pts).map_err(|_| EngineError::BadVertexList)
    }

    /// The result under the current rules, dead stones removed by the engine's judgement.
    pub fn final_score(&mut self) -> Result<Outcome, EngineError> {
        if self.is_war() {
            return self.war_final_score();
        }
        if self.is_phantom() {
            // RULES.md 5.2: area with no dead stones removed, here of the engine's view (the
            // true count is the referee's).
            return self.game.score(&[]).ok_or(EngineError::CannotScore);
        }
        match self.game.outcome() {
            Some(o) if !matches!(o.reason, crate::rules::EndReason::TwoPasses) => Ok(o),
            outcome => {
                let dead = self.dead_stones();
                let count = self.game.score(&dead).ok_or(EngineError::CannotScore)?;
                if outcome.is_some() {
                    return Ok(count);
                }
                // An unfinished game: the count as it stands gives open areas to no one, so the
                // judging search's ownership estimates who will have them (as GNU Go's and
                // KataGo's `final_score` estimate the end of a game in progress).
                let estimate = count.black_margin() + self.open_points_estimate(&dead);
                Ok(Outcome::from_margin(estimate, count.reason))
            }
        }
    }

    /// The game's result once it is over, `None` while it goes on. After two passes that is
    /// `final_score`'s count, with the engine's dead stones removed (RULES.md section 2), so that
    /// `final_score`, `showboard`, the record's `RE` and GoGui's `gogui-rules_final_result` agree.
    pub fn game_result(&mut self) -> Option<Outcome> {
        if let Some(war) = self.war_game() {
            war.outcome()?;
            return self.war_final_score().ok();
        }
        // `final_score` gives every other ending as it is.
        let outcome = self.game.outcome()?;
        Some(self.final_score().unwrap_or(outcome))
    }

    pub fn variant(&self) -> Variant {
        if self.is_war() {
            return Variant::War;
        }
        self.game.variant()
    }

    /// Does a GUI that knows only standard Go need tengen as its referee under the rules in force:
    /// Stones, Stoical Go, and any variant on a torus. Standard Go and Phantom Go (whose player
    /// sees an ordinary board of its own stones) need none.
    pub fn needs_referee(&self) -> bool {
        self.rules.torus || matches!(self.rules.variant(), Variant::Stones | Variant::Stoical | Variant::War)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::EndReason;

    fn engine(rules: &str, size: usize) -> Engine {
        let rules = RulesConfig::parse(rules).unwrap();
        Engine::new(EngineOptions {
            rules,
            size,
            threads: Some(1),
            playouts: Some(16),
            ..EngineOptions::default()
        })
    }

    fn play(e: &mut Engine, moves: &[(Color, &str)]) {
        for &(color, vertex) in moves {
            let geo = *e.game().board().geometry();
            let mv =
                if vertex == "pass" { Move::Pass } else { Move::Place(geo.parse_vertex(vertex).unwrap()) };
            e.play(color, mv).unwrap_or_else(|err| panic!("{color} {vertex}: {err:?}"));
        }
    }

    #[test]
    fn a_change_of_rules_keeps_a_resignation_but_not_the_old_rules_endings() {
        use Color::{Black as B, White as W};
        // 2x2, Stoical: White's last stone at A1 captures at B2 and recreates the position after
        // White's B1 (White A1 and B1, Black's A2 and B2 captured), a draw by repetition there.
        let mut e = engine("stoical:komi=0", 2);
        let moves = [
            (B, "A2"),
            (B, "B1"),
            (B, "B2"),
            (W, "A1"),
            (W, "B1"),
            (B, "A2"),
            (W, "pass"),
            (B, "B2"),
            (W, "B1"),
            (W, "A1"),
        ];
        play(&mut e, &moves);
        assert_eq!(e.game().outcome().map(|o| o.reason), Some(EndReason::Repetition));
        // In go the same moves end nothing: play goes on.
        e.change_rules(RulesConfig::parse("go").unwrap()).unwrap();
        assert_eq!(e.game().outcome(), None);
        assert_eq!(e.game().moves().len(), moves.len());
        play(&mut e, &[(B, "A2")]);
        // Back to Stoical is refused: that move came after the game's end there.
        assert!(e.change_rules(RulesConfig::parse("stoical").unwrap()).is_err());
        // A resignation is the player's, not the rules': it stays whatever the rules become.
        e.resign(W);
        e.change_rules(RulesConfig::parse("go:scoring=territory").unwrap()).unwrap();
        let o = e.game().outcome().expect("still over");
        assert_eq!((o.winner, o.reason), (Some(B), EndReason::Resignation));
    }
}
