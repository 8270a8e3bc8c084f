//! Thinking: the tree search behind `genmove`, `reg_genmove`, `kgs-genmove_cleanup`, the analysis
//! commands and the end-of-game judgement; the tree kept between searches; the pass and resign
//! decisions.

use super::{time_manager, Decision, Engine, EngineError, PolicyChoice};
use crate::board::{Cell, Color, Point};
use crate::playout::{Policy, Simulate};
use crate::rules::{EndReason, Game, Move, Rules, RulesConfig, Setup, Variant};
use crate::search::{
    self, judge, mix_seed, ownership_index, FinalStatus, Limits, SearchConfig, SearchInput, SearchReport,
    ThinkRequest, TimeLimit, Tree,
};
use crate::with_game;
use std::time::{Duration, Instant};

/// Playouts per move when nothing else limits the search (no `--playouts`, no `--time`, no clock).
pub const DEFAULT_PLAYOUTS: u64 = 10_000;
/// Playouts of the search that judges dead stones when no move search has judged the position.
pub const STATUS_PLAYOUTS: u64 = 3_000;
/// Memory of that search's own tree (it does not disturb the kept one).
const STATUS_TREE_MB: usize = 64;
/// Resigning needs at least this many visits of the root, so that noise never resigns.
pub const RESIGN_MIN_VISITS: u64 = 1_000;
/// A move search with fewer root visits than this says too little about who is ahead to change
/// how the next one values its playouts.
const STANDING_MIN_VISITS: u64 = 1_000;
/// From this win rate on a side plays for the score as well (`Engine::score_weight`).
const AHEAD_WINRATE: f64 = 0.9;
/// An open point (`Engine::open_points_estimate`) goes to the side whose mean ownership of it is at
/// least this.
const OPEN_POINT_OWNED: f32 = 0.2;
/// The score's share of a playout's value for a side that far ahead.
const SCORE_WEIGHT_AHEAD: f64 = 0.2;
/// The share of its expected lead a side far ahead gives as komi (`Engine::lead_komi`).
const LEAD_KOMI_SHARE: f64 = 0.5;
/// The smallest board where it does: it was measured on 19x19 only, and the 9x9 and 13x13 matches
/// against GNU Go and Pachi without it; a change that costs strength is not wanted there.
const LEAD_KOMI_MIN_SIZE: usize = 19;

/// What a side's last move search saw (`Engine::score_weight`, `Engine::lead_komi`).
#[derive(Copy, Clone, PartialEq, Debug)]
pub(super) struct Standing {
    pub color: Color,
    /// The best move's win rate (under the komi that search played with).
    pub winrate: f64,
    /// The best move's expected Black margin against the real komi.
    pub black_margin: f64,
}

impl Standing {
    fn of(color: Color, report: &SearchReport) -> Standing {
        let sign = if color == Color::Black { 1.0 } else { -1.0 };
        Standing { color, winrate: report.winrate, black_margin: sign * report.score_lead }
    }
}

/// Passing on a draw needs the best move to promise no better than this.
const DRAW_PASS_WINRATE: f64 = 0.55;
/// A side this far behind that may not resign (`--resign off`) passes instead, once the game has
/// run longer than the board has points and the count now is within `CONCEDE_POINTS` of the margin
/// the search expects from playing on: stones thrown into the winner's area, taken again and again,
/// only lengthen a decided game (on a small board under a clock, past any move limit a controller
/// sets). Not earlier: a search can misjudge a semeai as lost that a move still wins (the tactical
/// suite's `go-9x9-semeai-areagame0003-move69`, at move 69 of 81 points).
const CONCEDE_WINRATE: f64 = 0.02;
const CONCEDE_POINTS: f64 = 1.0;
/// Cleanup takes a move on the dead stones' liberties over the search's favourite when the search
/// rates it within this much of the favourite's win rate, on at least `CLEANUP_MIN_VISITS` visits
/// (or as many as the favourite has): as good a move by the search's own measure, not a lucky one.
const CLEANUP_TOLERANCE: f64 = 0.02;
const CLEANUP_MIN_VISITS: u32 = 16;
/// A won game (the favourite's win rate at least this): cleanup then plays on the dead stones'
/// liberties whatever the search favours, unless the favourite saves a chain or captures, and but
/// for liberties it rated clearly lower. A decided search spends its playouts on one move and
/// rates no other, so the rule above rarely finds a rated liberty.
const CLEANUP_DECIDED: f64 = 0.95;
/// Moves over which the dynamic komi of a 19x19 handicap game fades out (Pachi's figure); other
/// sizes in proportion to their area.
const DYNAMIC_KOMI_MOVES_19X19: f64 = 100.0;

/// How `genmove` reports while it searches (analysis during genmove: `genmove_analyze`, gogui
/// live graphics). The default reports only once, at the end.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct MoveReports {
    pub every: Option<Duration>,
    pub want_ownership: bool,
    pub min_moves: usize,
    pub max_moves: Option<usize>,
}

/// A position to search, as the game reached it: what a search tree was grown for (a new search
/// reuses it when the game has only gone on from it), and what GoGui's gfx analysis remembers.
#[derive(Clone, PartialEq, Debug)]
pub struct RootKey {
    rules: RulesConfig,
    size: usize,
    setup: Setup,
    moves: Vec<(Color, Move)>,
    to_move: Color,
}

/// The tree kept between searches (tree reuse and pondering).
pub(super) struct KeptTree {
    tree: Tree,
    key: RootKey,
    /// Grown by searches that played with a dynamic komi (move searches of a handicap game's
    /// opening): its win rates are not the real ones, so analysis does not reuse it, nor it analysis.
    shifted: bool,
}

/// The engine's judgement of the stones on one board, remembered so that `final_status_list` and
/// `final_score` agree with the pass decision made from the same search when that search was a
/// full one (`settled`); a smaller one decides the pass only, and the count judges anew.
#[derive(Clone, Debug)]
pub(super) struct StatusCache {
    hash: u64,
    size: usize,
    /// The rules it was judged under: the same board may be judged otherwise under other rules
    /// (a Stoical search is not a Go search), and rules change without a move (`tengen-rules`,
    /// `kgs-rules`, `loadsgf`).
    rules: RulesConfig,
    status: FinalStatus,
    /// Judged by a status search (seki kept standing), not from a move search's ownership.
    settled: bool,
    /// The judging search's ownership (`SearchReport::ownership`), for the estimate of an
    /// unfinished game's count (`Engine::final_score`).
    ownership: Option<Vec<f32>>,
}

impl Engine {
    /// Searches the current position for `color` as `req` asks, calling `on_report` (from this
    /// thread) every `req.report_every` and once more at the end, until the limits or `stop` end the
    /// search. The tree is kept for the next search of this position or of one after it.
    ///
    /// This is analysis: the real komi, whatever the game's handicap.
    pub fn think(
        &mut self,
        color: Color,
        req: &ThinkRequest,
        stop: &(dyn Fn() -> bool + Sync),
        on_report: &mut dyn FnMut(&SearchReport),
    ) -> Result<SearchReport, EngineError> {
        self.think_from(color, req, stop, on_report, Instant::now(), 0.0)
    }

    /// `think` for `color`, on the opponent's time before the engine's next move (by
    /// `color.opponent()`): with the dynamic komi that move's search will use, so that it can reuse
    /// this tree.
    pub fn ponder(
        &mut self,
        color: Color,
        req: &ThinkRequest,
        stop: &(dyn Fn() -> bool + Sync),
        on_report: &mut dyn FnMut(&SearchReport),
    ) -> Result<SearchReport, EngineError> {
        let shift = self.komi_shift(color.opponent());
        self.think_from(color, req, stop, on_report, Instant::now(), shift)
    }

    /// The extra komi for White that the engine's move searches play with now when it plays
    /// `engine` (0 outside the opening of a handicap game): `--dynamic-komi` points per handicap
    /// stone for that colour before the first move, falling linearly to none by move 100 on 19x19
    /// (in proportion to the area on other boards).
    ///
    /// It gives back part of the handicap, so the search sees the game as closer to even than the
    /// stones say. A Black that counts its handicap as it stands sees nearly every move win and
    /// plays slack moves; a stronger White then catches up (Pachi's linear dynamic komi; Baudiš,
    /// "Balancing MCTS by dynamically adjusting the komi value", 2011). By default only Black gets
    /// it (see `DynamicKomi`).
    ///
    /// A side far ahead gives komi as well (`lead_komi`): White's extra komi is then larger when
    /// the engine has Black, smaller (negative) when it has White.
    pub fn komi_shift(&self, engine: Color) -> f64 {
        let lead = self.lead_komi(engine);
        let per_stone = self.options.dynamic_komi.per_stone(engine);
        let stones = self.game.setup().handicap_stones();
        if per_stone == 0.0 || stones < 2 || self.variant() == Variant::Stones {
            return lead;
        }
        let fade = DYNAMIC_KOMI_MOVES_19X19 * (self.size * self.size) as f64 / 361.0;
        let played = self.game.moves().len() as f64;
        lead + (per_stone * stones as f64 * (1.0 - played / fade)).max(0.0)
    }

    fn think_from(
        &mut self,
        color: Color,
        req: &ThinkRequest,
        stop: &(dyn Fn() -> bool + Sync),
        on_report: &mut dyn FnMut(&SearchReport),
        started: Instant,
        komi_shift: f64,
    ) -> Result<SearchReport, EngineError> {
        self.require_playable()?;
        if self.is_phantom() {
            return self.phantom_think(color, req, stop, on_report, started);
        }
        let key = self.root_key(color);
        let shifted = komi_shift != 0.0;
        // Copying a big reused tree must not eat the move's time: stop copying at a quarter of it.
        let deadline = req.limits.time.map(|t| started + t.limit / 4);
        let mut tree = self.take_tree(&key, shifted, deadline);
        let config = self.search_config(color, 0);
        // The search counts with the shifted komi; every report gives the margins under the real one.
        // (Adding a zero shift changes nothing; only the copy for a streamed report is spared.)
        let real = |r: SearchReport| r.with_black_margin_added(komi_shift, color);
        let mut on_real_report =
            |r: &SearchReport| if shifted { on_report(&real(r.clone())) } else { on_report(r) };
        let report = with_game!(&self.game, g => {
            let rules = g.rules().with_extra_komi(komi_shift);
            run_search(g, &rules, color, &mut tree, &config, req, stop, &mut on_real_report, started)
        });
        let report = real(report);
        on_report(&report);
        self.kept = Some(KeptTree { tree, key, shifted });
        if report.ownership.is_some() {
            self.remember_status(&report, false);
        }
        Ok(report)
    }

    /// Chooses a move for `color` and, when `commit`, plays it.
    pub fn genmove(&mut self, color: Color, commit: bool) -> Result<Decision, EngineError> {
        self.genmove_with(color, commit, &|| false, &mut |_| {})
    }

    /// `genmove` that `stop` can cut short (it then answers the best move so far); `on_report` gets
    /// the final report of the search.
    pub fn genmove_with(
        &mut self,
        color: Color,
        commit: bool,
        stop: &(dyn Fn() -> bool + Sync),
        on_report: &mut dyn FnMut(&SearchReport),
    ) -> Result<Decision, EngineError> {
        self.generate(color, commit, false, &MoveReports::default(), stop, on_report)
    }

    /// `genmove` with reports during the search (`genmove_analyze`, live graphics).
    pub fn genmove_reporting(
        &mut self,
        color: Color,
        commit: bool,
        reports: &MoveReports,
        stop: &(dyn Fn() -> bool + Sync),
        on_report: &mut dyn FnMut(&SearchReport),
    ) -> Result<Decision, EngineError> {
        self.generate(color, commit, false, reports, stop, on_report)
    }

    /// `kgs-genmove_cleanup`: like genmove (played), but never passes while the opponent has dead
    /// stones on the board that could be captured first.
    pub fn genmove_cleanup(
        &mut self,
        color: Color,
        stop: &(dyn Fn() -> bool + Sync),
        on_report: &mut dyn FnMut(&SearchReport),
    ) -> Result<Decision, EngineError> {
        self.generate(color, true, true, &MoveReports::default(), stop, on_report)
    }

    /// The report of the last move search (for the statistics GTP prints on stderr).
    pub fn last_report(&self) -> Option<&SearchReport> {
        self.last_report.as_ref()
    }

    /// The dynamic komi the last move search played with: its win rates are under it (its scores
    /// are not: they are given against the real komi).
    pub fn last_komi_shift(&self) -> f64 {
        self.last_komi_shift
    }

    fn generate(
        &mut self,
        color: Color,
        commit: bool,
        cleanup: bool,
        reports: &MoveReports,
        stop: &(dyn Fn() -> bool + Sync),
        on_report: &mut dyn FnMut(&SearchReport),
    ) -> Result<Decision, EngineError> {
        let started = Instant::now();
        if let Some(decision) = self.closing_move(color) {
            if commit {
                if let Decision::Play(mv) = decision {
                    self.game.play(color, mv)?;
                }
            }
            // No search was made: no statistics to show for this move.
            self.last_report = None;
            return Ok(decision);
        }
        let req = ThinkRequest {
            limits: self.move_limits(color),
            report_every: reports.every,
            // The pass decision needs the dead stones, which come from ownership.
            want_ownership: true,
            min_moves: reports.min_moves,
            max_moves: reports.max_moves,
        };
        if self.is_phantom() {
            // Phantom Go: a search over sampled boards, and the proposal goes on the view (RULES.md 5.2).
            let req = ThinkRequest { want_ownership: false, ..req };
            let report = self.phantom_think(color, &req, stop, on_report, started)?;
            let decision = self.phantom_decide(color, &report);
            self.last_report = Some(report);
            self.last_komi_shift = 0.0;
            if commit {
                if let Decision::Play(mv) = decision {
                    self.phantom_play(color, mv, true)?;
                }
                self.clock.spend(color, started.elapsed());
            }
            return Ok(decision);
        }
        let komi_shift = self.komi_shift(color);
        let report = self.think_from(color, &req, stop, on_report, started, komi_shift)?;
        let status = self.status_for_decision(color, &report, &req.limits, started, cleanup);
        let decision = self.decide(color, &report, cleanup, &status);
        self.standing = (report.root_visits >= STANDING_MIN_VISITS).then(|| Standing::of(color, &report));
        self.last_report = Some(report);
        self.last_komi_shift = komi_shift;
        if commit {
            if let Decision::Play(mv) = decision {
                self.game.play(color, mv)?;
            }
            self.clock.spend(color, started.elapsed());
        }
        Ok(decision)
    }

    /// The answer of a move command once the game is over for good (`Game::is_closed`: a Stones
    /// decisive move or a player without moves, a Stoical repetition draw, a resignation): `resign`
    /// for the side that lost, `pass` for the other side and after a draw (a pass that changes
    /// nothing, `Game::play`). A controller that ends a game only on two passes or a resignation,
    /// as gogui-twogtp does, then closes it cleanly instead of meeting `? game is over`.
    fn closing_move(&self, color: Color) -> Option<Decision> {
        if !self.game.is_closed() {
            return None;
        }
        let lost = self.game.outcome().is_some_and(|o| o.winner == Some(color.opponent()));
        Some(if lost { Decision::Resign } else { Decision::Play(Move::Pass) })
    }

    fn require_playable(&self) -> Result<(), EngineError> {
        match self.game.outcome() {
            Some(o) if o.reason != EndReason::TwoPasses => Err(EngineError::GameOver),
            _ => Ok(()),
        }
    }

    /// The limits of a move search: the clock's budget when the controller set one, else `--time`;
    /// `--playouts` on top; a default number of playouts when nothing limits the search.
    fn move_limits(&self, color: Color) -> Limits {
        let o = &self.options;
        let clock = time_manager::budget(&self.clock, color, self.size, self.game.ply(), o.lag)
            .map(|b| TimeLimit { target: b.target, limit: b.limit });
        let time = clock.or(o.time_per_move.map(TimeLimit::fixed));
        let playouts = o.playouts.or(if time.is_none() { Some(DEFAULT_PLAYOUTS) } else { None });
        Limits { playouts, time, early_stop: true }
    }

    /// The search settings for a search by `color` now. The seed mixes the game's seed with the
    /// move number and colour, so a position gets the same search whatever came before in the game.
    pub(super) fn search_config(&self, color: Color, salt: u64) -> SearchConfig {
        let o = &self.options;
        SearchConfig {
            threads: o.search_threads(),
            policy: match o.policy {
                PolicyChoice::Light => Policy::Light,
                PolicyChoice::Heavy => Policy::Heavy,
            },
            seed: mix_seed(self.game_seed, self.game.ply() as u64 * 2 + color.index() as u64, salt),
            mercy: o.mercy,
            score_weight: self.score_weight(color),
            ..SearchConfig::default()
        }
    }

    /// The share of a playout's value that its margin gives (`SearchConfig::score_weight`) in a
    /// search for `color`: none while the game is open, where every point of value belongs to
    /// winning, and `SCORE_WEIGHT_AHEAD` once `color`'s last search saw it winning by
    /// `AHEAD_WINRATE` or more. A search by wins alone, far ahead, sees every move win and gives
    /// points away; the score term makes it keep them, and a margin kept is a margin that can
    /// absorb a later mistake.
    fn score_weight(&self, color: Color) -> f64 {
        let base = SearchConfig::default().score_weight;
        match self.standing {
            Some(s) if s.color == color && s.winrate >= AHEAD_WINRATE => base.max(SCORE_WEIGHT_AHEAD),
            _ => base,
        }
    }

    /// The extra komi for White in `engine`'s move searches because it is far ahead (negative when
    /// `engine` is White): the opponent gets half the lead `engine`'s last search expected against
    /// the real komi, once that lead is at least half the board's side, on boards from
    /// `LEAD_KOMI_MIN_SIZE` up (Pachi's adaptive dynamic komi does the same in even games). A
    /// search that needs to win by only the real komi sees every move win once far ahead, and gives
    /// points away until the game is close (nearly every 19x19 win against GNU Go was counted by
    /// the smallest margin area scoring allows); one that needs half its lead keeps the rest. The
    /// share follows the lead, which is read against the real komi, so it does not feed on itself
    /// as a win rate under the shifted komi would.
    fn lead_komi(&self, engine: Color) -> f64 {
        if self.size < LEAD_KOMI_MIN_SIZE || self.variant() == Variant::Stones {
            return 0.0;
        }
        let Some(s) = self.standing.filter(|s| s.color == engine) else { return 0.0 };
        let sign = if engine == Color::Black { 1.0 } else { -1.0 };
        let lead = sign * s.black_margin;
        if lead < self.size as f64 / 2.0 {
            return 0.0;
        }
        // Whole points, so that the count never ties.
        sign * (lead * LEAD_KOMI_SHARE).floor()
    }

    /// The current position with `color` to move.
    pub fn root_key(&self, color: Color) -> RootKey {
        RootKey {
            rules: self.rules.clone(),
            size: self.size,
            setup: self.game.setup().clone(),
            moves: self.game.moves().to_vec(),
            to_move: color,
        }
    }

    /// The kept tree moved down to `key`'s position, or a new tree when it was grown for another game.
    /// A tree grown with a dynamic komi is reused only by searches with one (`shifted`), and the
    /// other way round.
    fn take_tree(&mut self, key: &RootKey, shifted: bool, deadline: Option<Instant>) -> Tree {
        let fresh = || Tree::with_megabytes(self.options.max_tree_mb);
        let Some(kept) = self.kept.take() else { return fresh() };
        let old = &kept.key;
        if kept.shifted != shifted
            || old.rules != key.rules
            || old.size != key.size
            || old.setup != key.setup
            || !key.moves.starts_with(&old.moves)
        {
            return fresh();
        }
        let mut node = search::tree::ROOT;
        let mut to_move = old.to_move;
        for &(c, m) in &key.moves[old.moves.len()..] {
            if c != to_move {
                return fresh();
            }
            match kept.tree.find_child(node, m) {
                Some(child) => node = child,
                None => return fresh(),
            }
            to_move = c.opponent();
        }
        if to_move != key.to_move {
            return fresh();
        }
        if node == search::tree::ROOT {
            kept.tree
        } else {
            Tree::reroot(&kept.tree, node, deadline)
        }
    }

    /// The dead stones a move decision counts with. After the opponent's pass, our pass would end the
    /// game, and a disputed group would be settled with the opponent to move: so the judgement then
    /// comes from a search with the opponent to move, on what is left of the move's time (the main
    /// search's judgement when none is left). Otherwise the main search's.
    fn status_for_decision(
        &mut self,
        color: Color,
        report: &SearchReport,
        limits: &Limits,
        started: Instant,
        cleanup: bool,
    ) -> FinalStatus {
        let opponent = color.opponent();
        let opponent_passed = self.game.moves().last() == Some(&(opponent, Move::Pass));
        // Cleanup captures what the judgement calls dead, so it judges whether or not the
        // opponent passed (a player may capture during a cleanup).
        if self.variant() == Variant::Stones || !(opponent_passed || cleanup) {
            return self.final_status_from(report);
        }
        let time = match limits.time {
            None => None,
            Some(t) => {
                let left = t.limit.saturating_sub(started.elapsed()).mul_f64(0.8);
                if left < Duration::from_millis(20) {
                    return self.final_status_from(report);
                }
                Some(TimeLimit { target: left.min(t.target), limit: left })
            }
        };
        // Cleanup captures what this judgement calls dead, so it gets the full judgement whatever
        // the move's playouts: a small one leaves dead stones standing or calls living ones dead.
        let playouts = match limits.playouts {
            Some(n) if !cleanup => n.min(STATUS_PLAYOUTS),
            _ => STATUS_PLAYOUTS,
        };
        self.status_search(opponent, Limits { playouts: Some(playouts), time, early_stop: false })
    }

    /// Judges the stones by a search from the current board with `to_move` to play, as if the game
    /// went on (no passes pending), in a tree of its own; remembers and returns the judgement.
    fn status_search(&mut self, to_move: Color, limits: Limits) -> FinalStatus {
        let req = ThinkRequest { limits, want_ownership: true, ..ThinkRequest::default() };
        // Heavy playouts that keep a seki standing, whatever the policy option says: playouts that
        // fill a seki's shared liberty make the judgement call the seki's groups dead. No eye fills
        // in the tree either, and a value that counts points, not only wins (see
        // `SearchConfig::keep_eyes` and `score_utility`).
        let config = SearchConfig {
            policy: Policy::Heavy,
            keep_seki: true,
            keep_eyes: true,
            score_utility: true,
            mercy: false,
            ..self.search_config(to_move, 1)
        };
        let mut tree = Tree::with_megabytes(STATUS_TREE_MB.min(self.options.max_tree_mb));
        let report = with_game!(&self.game, g => {
            let mut root = g.position().clone();
            root.to_move = to_move;
            root.outcome = None;
            root.passes = 0;
            let input = SearchInput {
                rules: g.rules(),
                root: &root,
                history: g.history(),
                last_move: Point::NONE,
                own_last_move: Point::NONE,
                opponent_passed: false,
                started: Instant::now(),
            };
            search::search(&input, &mut tree, &config, &req, &|| false, &mut |_| {})
        });
        // Only a judgement as thorough as `final_status`'s own stands for the count: one cut short
        // by a small playout limit or the clock (it decided a pass) is not what `final_score` and
        // `final_status_list` should answer from.
        self.remember_status(&report, report.root_visits >= STATUS_PLAYOUTS);
        self.cached_status().unwrap_or_default()
    }

    /// The move to answer from a search: the most visited, but pass when passing does not lose, never
    /// pass into a lost count, resign when hopeless. `status` is the dead-stone judgement to count with.
    fn decide(
        &mut self,
        color: Color,
        report: &SearchReport,
        cleanup: bool,
        status: &FinalStatus,
    ) -> Decision {
        let Some(best) = report.best() else { return self.fallback_move(color) };
        let ply = self.game.ply() as usize;
        let points = self.size * self.size;
        // A dynamic komi against `color` (Black receiving a handicap) makes the win rate look worse
        // than it is: no resigning on it.
        let handicapped_by_komi = self.komi_shift(color) > 0.0 && color == Color::Black;
        // The side giving a handicap reads its win rate as if the players were equal, which the
        // handicap says they are not: a quarter into the game it often still trails by about the
        // stones' worth, and wins by playing on. It resigns from half the game on (measured:
        // docs/strength.md, "Handicap games and dynamic komi").
        let gives_handicap = color == Color::White && self.game.setup().handicap_stones() >= 2;
        let earliest = if gives_handicap { points / 2 } else { points / 4 };
        let hopeless = self.options.resign_threshold.is_some_and(|t| best.winrate < t)
            && report.root_visits >= RESIGN_MIN_VISITS
            && ply >= earliest
            && !handicapped_by_komi;
        if self.variant() == Variant::Stones {
            return if hopeless { Decision::Resign } else { Decision::Play(best.mv) };
        }
        let opponent = color.opponent();
        let opponent_passed = self.game.moves().last() == Some(&(opponent, Move::Pass));
        let pass_legal = self.game.check(color, Move::Pass).is_ok()
            || self.game.outcome().is_some_and(|o| o.reason == EndReason::TwoPasses);
        let board = self.game.board();
        // The count if the game ended now, the dead stones removed by our judgement.
        let margin = self.game.score(&status.dead).map_or(0.0, |o| match o.winner {
            Some(w) if w == color => o.margin,
            Some(_) => -o.margin,
            None => 0.0,
        });
        let pass_wins = margin > 0.0 || (margin == 0.0 && best.winrate < DRAW_PASS_WINRATE);
        // The best move other than passing that does no harm: never an own eye filled, which in a
        // settled position can be among the search's candidates with no worse a win rate.
        let non_pass = report.candidates.iter().map(|c| c.mv).find(|&mv| match mv {
            Move::Pass => false,
            Move::Place(p) => !board.is_eye(color, p),
            _ => true,
        });
        let liberties = if cleanup { self.cleanup_liberties(color, status) } else { Vec::new() };
        // Cleanup does not pass while a dead stone can be taken, even when the search, seeing the
        // game won, spent every visit on the pass.
        let must_clean = !liberties.is_empty();
        if opponent_passed && pass_legal && pass_wins && !must_clean {
            return Decision::Play(Move::Pass);
        }
        if hopeless {
            return Decision::Resign;
        }
        let concedes = best.winrate < CONCEDE_WINRATE
            && report.root_visits >= RESIGN_MIN_VISITS
            && ply >= points
            && !handicapped_by_komi
            && margin >= best.score_lead - CONCEDE_POINTS;
        if concedes && pass_legal && !must_clean {
            return Decision::Play(Move::Pass);
        }
        if must_clean {
            if let Some(mv) = cleanup_move(report, &liberties, |mv| self.defends(color, mv)) {
                return Decision::Play(mv);
            }
        }
        if best.mv == Move::Pass {
            // Not into a lost count: after the opponent's pass ours ends the game, and before it
            // the opponent can end it with a pass of its own (Pachi's "pass is safe" rule). Playing
            // on costs nothing under area scoring, and the game is lost by the count anyway.
            if let (true, Some(mv)) = (!pass_wins || must_clean, non_pass) {
                return Decision::Play(mv);
            }
        }
        Decision::Play(best.mv)
    }

    /// The points where cleanup may play to take the opponent's dead stones: their empty
    /// neighbours where a stone of `color` is legal, touches no stone in seki, recreates no earlier
    /// position (a draw in Stoical Go) and keeps two liberties once its captures are taken; when
    /// no point keeps two, those that do not (a throw-in: a dead group's last eye space is taken
    /// that way). Sorted by point.
    fn cleanup_liberties(&self, color: Color, status: &FinalStatus) -> Vec<Point> {
        let board = self.game.board();
        let opponent = Some(color.opponent());
        let repeats = |p: Point| {
            let after = board.hash_after(color, p);
            with_game!(&self.game, g => g.history().iter().any(|&(h, _)| h == after))
        };
        let playable = |p: Point| {
            self.game.check(color, Move::Place(p)).is_ok()
                && !board.neighbours(p).iter().any(|q| status.seki.contains(q))
                && !repeats(p)
        };
        let mut liberties: Vec<Point> = status
            .dead
            .iter()
            .filter(|&&p| board.cell(p).color() == opponent)
            .flat_map(|&p| board.neighbours(p))
            .filter(|&q| playable(q))
            .collect();
        liberties.sort_unstable();
        liberties.dedup();
        let keeps_two = |p: Point| board.liberties_after_up_to(color, p, 2) >= 2;
        if liberties.iter().any(|&p| keeps_two(p)) {
            liberties.retain(|&p| keeps_two(p));
        }
        liberties
    }

    /// Does `mv` save an own chain in atari (it is the chain's last liberty) or capture
    /// something? Such a search move is left standing: a rule about liberties cannot tell a
    /// defence from a fill. Own chains count even when judged dead (the judgement's playouts may
    /// lose a stone the search would save).
    fn defends(&self, color: Color, mv: Move) -> bool {
        let Move::Place(p) = mv else { return false };
        let board = self.game.board();
        board.captures_any(color, p)
            || board
                .neighbours(p)
                .iter()
                .any(|&q| board.cell(q).color() == Some(color) && board.atari_liberty(q) == Some(p))
    }

    /// A move when the search visited nothing (no playouts allowed): the pass-like move if legal,
    /// else the first legal move, else resignation.
    fn fallback_move(&self, color: Color) -> Decision {
        let pass = self.game.pass_move(color);
        if self.game.check(color, pass).is_ok() {
            return Decision::Play(pass);
        }
        match self.game.legal_moves(color).first() {
            Some(&mv) => Decision::Play(mv),
            None => Decision::Resign,
        }
    }

    /// Dead stones and seki from a report's ownership, or the judgement remembered for this board
    /// when the report has none (a reused tree that needed no new playouts).
    fn final_status_from(&mut self, report: &SearchReport) -> FinalStatus {
        if report.ownership.is_some() {
            return judge(self.game.board(), report);
        }
        self.cached_status().unwrap_or_default()
    }

    /// The judgement remembered for this board.
    fn cached_status(&self) -> Option<FinalStatus> {
        self.cached_entry().map(|c| c.status.clone())
    }

    fn cached_entry(&self) -> Option<&StatusCache> {
        let b = self.game.board();
        let rules = &self.rules;
        self.status_cache.as_ref().filter(|c| c.hash == b.hash() && c.size == b.size() && c.rules == *rules)
    }

    fn remember_status(&mut self, report: &SearchReport, settled: bool) {
        let b = self.game.board();
        let status = judge(b, report);
        let rules = self.rules.clone();
        let ownership = report.ownership.clone();
        self.status_cache =
            Some(StatusCache { hash: b.hash(), size: b.size(), rules, status, settled, ownership });
    }

    /// Dead stones and stones in seki on the current board, as the engine judges them: from the last
    /// status search of this board (the one that decided to pass after the opponent's pass) if it
    /// ran its full `STATUS_PLAYOUTS`, else from one made now. Never from a move search's
    /// ownership, whose playouts fill sekis.
    pub fn final_status(&mut self) -> FinalStatus {
        if self.variant() == Variant::Stones {
            // Stones has no count: every stone on the board stands.
            return FinalStatus::default();
        }
        if let Some(c) = self.cached_entry().filter(|c| c.settled) {
            return c.status.clone();
        }
        let limits = Limits { playouts: Some(STATUS_PLAYOUTS), time: None, early_stop: false };
        self.status_search(self.game.to_move(), limits)
    }

    /// Stones the engine considers dead at the end of the game.
    pub fn dead_stones(&mut self) -> Vec<Point> {
        self.final_status().dead
    }

    /// What the points the count leaves to nobody will add to Black's margin by the end of the
    /// game, from the judging search's ownership (`final_status` made it): each empty or dead
    /// point of a region that touches both colours goes to the side that owned it at the end of
    /// at least three playouts in five (mean ownership 0.2 or more). In an unfinished game those
    /// are the open areas and the frameworks, which the count alone gives to no one (and which
    /// random playouts often let the other side invade, so a stricter majority gives too few);
    /// in a settled one they are the dame, owned by either side about as often, and change
    /// nothing.
    pub(super) fn open_points_estimate(&self, dead: &[Point]) -> f64 {
        let Some(own) = self.cached_entry().and_then(|c| c.ownership.as_ref()) else { return 0.0 };
        with_game!(&self.game, g => {
            let board = &g.position().board;
            let geo = board.geometry();
            let owners = crate::rules::scoring::owners(board, dead);
            geo.points()
                .filter(|&p| owners[p.idx()].is_none() && (board.cell(p) == Cell::Empty || dead.contains(&p)))
                .map(|p| {
                    let o = own[ownership_index(geo, p)];
                    if o >= OPEN_POINT_OWNED {
                        1.0
                    } else if o <= -OPEN_POINT_OWNED {
                        -1.0
                    } else {
                        0.0
                    }
                })
                .sum()
        })
    }
}

/// Runs one search of `game`'s position with `color` to move.
#[allow(clippy::too_many_arguments)]
fn run_search<R: Simulate>(
    game: &Game<R>,
    rules: &R,
    color: Color,
    tree: &mut Tree,
    config: &SearchConfig,
    req: &ThinkRequest,
    stop: &(dyn Fn() -> bool + Sync),
    on_report: &mut dyn FnMut(&SearchReport),
    started: Instant,
) -> SearchReport {
    let mut root = game.position().clone();
    root.to_move = color;
    // A game ended by two passes goes on with the next move (as `Game::play` resumes it).
    root.resume();
    let last = game.moves().last().copied();
    let input = SearchInput {
        rules,
        root: &root,
        history: game.history(),
        last_move: match last {
            Some((_, Move::Place(p))) => p,
            _ => Point::NONE,
        },
        own_last_move: match game.moves().iter().rev().nth(1) {
            Some(&(c, Move::Place(p))) if c == color => p,
            _ => Point::NONE,
        },
        opponent_passed: last == Some((color.opponent(), Move::Pass)),
        started,
    };
    search::search(&input, tree, config, req, stop, on_report)
}

/// Cleanup's move among `liberties` (`Engine::cleanup_liberties`), or `None` to leave the search's
/// move standing. Once both players have passed every move tends to win, so the search's favourite
/// may fill one's own territory (a point a stone under territory scoring) before anything is
/// captured; but it may also be defending, which no rule about liberties knows. So a favourite
/// that saves an own chain in atari or captures (`defends`) stands. Otherwise a liberty is taken
/// when the search rates it within `CLEANUP_TOLERANCE` of its favourite on enough visits; else,
/// only when the favourite is to pass or the game is won (`CLEANUP_DECIDED`), and then never one
/// the search rated clearly lower: the searched liberties first, in the search's order, then the
/// others by point.
fn cleanup_move(report: &SearchReport, liberties: &[Point], defends: impl Fn(Move) -> bool) -> Option<Move> {
    let best = report.best()?;
    if defends(best.mv) {
        // In a decided game every move rates alike, so a liberty "as good" as a defence says
        // nothing: the search's move.
        return None;
    }
    let min_visits = CLEANUP_MIN_VISITS.min(best.visits);
    let on_liberty = |mv: Move| match mv {
        Move::Place(p) if liberties.binary_search(&p).is_ok() => Some(p),
        _ => None,
    };
    let rated =
        |p: Point| report.candidates.iter().find(|c| c.mv == Move::Place(p) && c.visits >= min_visits);
    let as_good = |p: Point| rated(p).is_some_and(|c| c.winrate >= best.winrate - CLEANUP_TOLERANCE);
    let rated_lower = |p: Point| rated(p).is_some_and(|c| c.winrate < best.winrate - CLEANUP_TOLERANCE);
    if let Some(p) = report.candidates.iter().filter_map(|c| on_liberty(c.mv)).find(|&p| as_good(p)) {
        return Some(Move::Place(p));
    }
    if best.mv != Move::Pass && best.winrate < CLEANUP_DECIDED {
        return None;
    }
    let searched = report.candidates.iter().filter_map(|c| on_liberty(c.mv)).find(|&p| !rated_lower(p));
    searched.or_else(|| liberties.iter().copied().find(|&p| !rated_lower(p))).map(Move::Place)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{DynamicKomi, EngineOptions};
    use crate::search::Candidate;

    /// Black walls off columns A-E, White F-J; the white stone at B5 (in atari) is dead. With it
    /// removed Black wins by 1.5 (45 points against 36 and 7.5 komi).
    const LOST_FOR_WHITE: &str = "
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . X . . X O . . .
        X O X . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .
        . . . . X O . . .";

    /// Plays the stones of `diagram`, White's then Black's, each in reading order (so Black's last:
    /// White is to move next).
    fn play_diagram(e: &mut Engine, diagram: &str) {
        let diagram = crate::board::Board::from_diagram(diagram);
        for color in [Color::White, Color::Black] {
            for p in diagram.geometry().points() {
                if diagram.cell(p).color() == Some(color) {
                    e.play(color, Move::Place(p)).unwrap();
                }
            }
        }
    }

    /// One thread, a small tree, `playouts` a move: the options of these tests' engines.
    fn options(rules: &str, size: usize, playouts: u64) -> EngineOptions {
        EngineOptions {
            rules: RulesConfig::parse(rules).unwrap(),
            size,
            threads: Some(1),
            playouts: Some(playouts),
            max_tree_mb: 16,
            ..EngineOptions::default()
        }
    }

    /// An engine at `LOST_FOR_WHITE` (its stones played in reading order, Black's last, so White is
    /// to move) and the judgement that B5 is dead.
    fn lost_for_white() -> (Engine, FinalStatus) {
        let mut e = Engine::new(options("go", 9, 100));
        play_diagram(&mut e, LOST_FOR_WHITE);
        let b5 = e.game().board().geometry().parse_vertex("B5").unwrap();
        (e, FinalStatus { dead: vec![b5], seki: Vec::new() })
    }

    /// A search report whose candidates are `moves`, best first, all at a 14% win rate.
    fn report(moves: &[Move]) -> SearchReport {
        let candidates = moves
            .iter()
            .enumerate()
            .map(|(i, &mv)| Candidate {
                mv,
                visits: 1000 - i as u32,
                winrate: 0.14,
                prior: 0.0,
                lcb: 0.1,
                score_lead: -1.5,
                pv: vec![mv],
            })
            .collect();
        SearchReport {
            playouts: 5000,
            playout_moves: 0,
            root_visits: 5000,
            nodes: 0,
            tree_slots: 0,
            elapsed: Duration::ZERO,
            winrate: 0.14,
            score_lead: -1.5,
            candidates,
            ownership: None,
            neutral: None,
        }
    }

    #[test]
    fn a_search_that_prefers_pass_does_not_pass_into_a_lost_count() {
        let (mut e, status) = lost_for_white();
        let geo = *e.game().board().geometry();
        let (j1, b4) = (geo.parse_vertex("J1").unwrap(), geo.parse_vertex("B4").unwrap());
        // The opponent has not passed, yet a pass would let it end the game with a pass of its own.
        let d = e.decide(Color::White, &report(&[Move::Pass, Move::Place(b4)]), false, &status);
        assert_eq!(d, Decision::Play(Move::Place(b4)));
        // Nothing else to play: the pass stands.
        let d = e.decide(Color::White, &report(&[Move::Pass]), false, &status);
        assert_eq!(d, Decision::Play(Move::Pass));
        // Playing on never fills an own eye: J1 becomes one once White holds H1 and J2.
        e.play(Color::Black, Move::Place(geo.parse_vertex("D1").unwrap())).unwrap();
        e.play(Color::White, Move::Place(geo.parse_vertex("H1").unwrap())).unwrap();
        e.play(Color::Black, Move::Place(geo.parse_vertex("D2").unwrap())).unwrap();
        e.play(Color::White, Move::Place(geo.parse_vertex("J2").unwrap())).unwrap();
        e.play(Color::Black, Move::Place(geo.parse_vertex("D3").unwrap())).unwrap();
        assert!(e.game().board().is_eye(Color::White, j1));
        let d = e.decide(Color::White, &report(&[Move::Pass, Move::Place(j1)]), false, &status);
        assert_eq!(d, Decision::Play(Move::Pass));
        let d =
            e.decide(Color::White, &report(&[Move::Pass, Move::Place(j1), Move::Place(b4)]), false, &status);
        assert_eq!(d, Decision::Play(Move::Place(b4)));
    }

    #[test]
    fn a_search_that_prefers_pass_passes_when_the_count_wins() {
        let (mut e, status) = lost_for_white();
        // Black to move, White having played inside its own area rather than passed: the same
        // count wins for Black, so its pass stands.
        let h5 = e.game().board().geometry().parse_vertex("H5").unwrap();
        e.play(Color::White, Move::Place(h5)).unwrap();
        let b4 = e.game().board().geometry().parse_vertex("B4").unwrap();
        let d = e.decide(Color::Black, &report(&[Move::Pass, Move::Place(b4)]), false, &status);
        assert_eq!(d, Decision::Play(Move::Pass));
    }

    /// A report whose candidates are `(move, visits, win rate)`, best first.
    fn rated(moves: &[(Move, u32, f64)]) -> SearchReport {
        let mut r = report(&[]);
        r.candidates = moves
            .iter()
            .map(|&(mv, visits, winrate)| Candidate {
                mv,
                visits,
                winrate,
                prior: 0.0,
                lcb: winrate - 0.05,
                score_lead: 1.5,
                pv: vec![mv],
            })
            .collect();
        r.winrate = moves[0].2;
        r
    }

    #[test]
    fn cleanup_takes_the_dead_stones_liberties_where_the_search_leaves_room_for_it() {
        let (mut e, status) = lost_for_white();
        e.play(Color::White, Move::Pass).unwrap();
        let geo = *e.game().board().geometry();
        let at = |v: &str| Move::Place(geo.parse_vertex(v).unwrap());
        let (b4, c3, g5) = (at("B4"), at("C3"), at("G5"));
        // B4 captures the dead B5. C3 fills Black's own area (a point lost, were the game scored by
        // territory; this one is scored by area).
        let d = e.decide(Color::Black, &rated(&[(c3, 1000, 0.90), (b4, 500, 0.89)]), true, &status);
        assert_eq!(d, Decision::Play(b4));
        // A move the search rates clearly higher stands (it may be a defence): no liberty rule
        // overrides it.
        let d = e.decide(Color::Black, &rated(&[(g5, 1000, 0.90), (b4, 500, 0.60)]), true, &status);
        assert_eq!(d, Decision::Play(g5));
        // Nor does a liberty whose rate rests on a handful of visits.
        let d = e.decide(Color::Black, &rated(&[(c3, 1000, 0.90), (b4, 3, 1.0)]), true, &status);
        assert_eq!(d, Decision::Play(c3));
        // In a won game with no living chain in atari, the capture comes first, searched or not...
        let d = e.decide(Color::Black, &rated(&[(c3, 1000, 0.99)]), true, &status);
        assert_eq!(d, Decision::Play(b4));
        // ... but not one the search rated clearly lower.
        let d = e.decide(Color::Black, &rated(&[(c3, 1000, 0.99), (b4, 500, 0.30)]), true, &status);
        assert_eq!(d, Decision::Play(c3));
        // A search that spent every visit on the pass still captures first...
        let d = e.decide(Color::Black, &rated(&[(Move::Pass, 1000, 0.9)]), true, &status);
        assert_eq!(d, Decision::Play(b4));
        // ... as when the search would pass with other moves rated.
        let d = e.decide(Color::Black, &rated(&[(Move::Pass, 1000, 0.9), (c3, 500, 0.9)]), true, &status);
        assert_eq!(d, Decision::Play(b4));
        // Outside cleanup the won count is passed.
        let d = e.decide(Color::Black, &rated(&[(c3, 1000, 0.90), (b4, 500, 0.89)]), false, &status);
        assert_eq!(d, Decision::Play(Move::Pass));
        // A black stone in atari at G5 (White at F5, H5 and G4): the search's move stands, won
        // game or not, since it may be the escape.
        let g6 = at("G6");
        for (color, v) in [("W", "H5"), ("B", "G5"), ("W", "G4"), ("B", "C7"), ("W", "pass")] {
            let color = if color == "B" { Color::Black } else { Color::White };
            e.play(color, if v == "pass" { Move::Pass } else { at(v) }).unwrap();
        }
        assert!(e.game().board().in_atari(geo.parse_vertex("G5").unwrap()));
        let d = e.decide(Color::Black, &rated(&[(g6, 1000, 0.99)]), true, &status);
        assert_eq!(d, Decision::Play(g6));
        // In a won game a liberty rates as high as the escape: the escape still stands, and does
        // when the judgement has given the stone up too.
        let d = e.decide(Color::Black, &rated(&[(g6, 1000, 0.99), (b4, 900, 0.99)]), true, &status);
        assert_eq!(d, Decision::Play(g6));
        let mut given_up = status.clone();
        given_up.dead.push(geo.parse_vertex("G5").unwrap());
        let d = e.decide(Color::Black, &rated(&[(g6, 1000, 0.99), (b4, 900, 0.99)]), true, &given_up);
        assert_eq!(d, Decision::Play(g6));
        // A stone in atari elsewhere does not stop the capture when the favourite does not save it.
        let d = e.decide(Color::Black, &rated(&[(c3, 1000, 0.99)]), true, &given_up);
        assert_eq!(d, Decision::Play(b4));
    }

    #[test]
    fn cleanup_throws_in_where_no_liberty_keeps_two() {
        // White's A2 B2 C2 C1 is dead in Black's corner with a two-point eye, A1 and B1, its last
        // liberties: a black stone on either has one liberty. Capturing takes a throw-in first.
        let mut e = Engine::new(options("go", 7, 100));
        let geo = *e.game().board().geometry();
        let at = |v: &str| geo.parse_vertex(v).unwrap();
        for v in ["A3", "B3", "C3", "D3", "D2", "D1"] {
            e.play(Color::Black, Move::Place(at(v))).unwrap();
        }
        for v in ["A2", "B2", "C2", "C1"] {
            e.play(Color::White, Move::Place(at(v))).unwrap();
        }
        let status = FinalStatus { dead: ["A2", "B2", "C2", "C1"].map(at).to_vec(), seki: Vec::new() };
        let d = e.decide(Color::Black, &rated(&[(Move::Pass, 1000, 0.99)]), true, &status);
        assert!(matches!(d, Decision::Play(Move::Place(p)) if p == at("A1") || p == at("B1")), "{d:?}");
    }

    #[test]
    fn cleanup_captures_dead_stones_without_filling_its_own_territory_first() {
        // Black owns columns A to D, White E to G; White's A4 is dead inside Black's area, and
        // capturing it takes A3, B4 and A5. Under territory scoring every other black stone played
        // in Black's area costs a point.
        let mut e =
            Engine::new(EngineOptions { seed: 3, ..options("go:scoring=territory,komi=0.5", 7, 1000) });
        let geo = *e.game().board().geometry();
        let at = |v: &str| geo.parse_vertex(v).unwrap();
        for (color, stones) in [
            (Color::Black, ["D1", "D2", "D3", "D4", "D5", "D6", "D7", "B6"].as_slice()),
            (Color::White, ["E1", "E2", "E3", "E4", "E5", "E6", "E7", "A4", "F6"].as_slice()),
        ] {
            for v in stones {
                e.play(color, Move::Place(at(v))).unwrap();
            }
        }
        e.play(Color::White, Move::Pass).unwrap();
        let liberties = [at("A3"), at("B4"), at("A5")];
        let mut played = Vec::new();
        for _ in 0..6 {
            match e.genmove_cleanup(Color::Black, &|| false, &mut |_| {}).unwrap() {
                Decision::Play(Move::Place(p)) => played.push(p),
                _ => break,
            }
            if e.game().board().is_empty_point(at("A4")) {
                break;
            }
            e.play(Color::White, Move::Pass).unwrap();
        }
        assert!(played.iter().all(|p| liberties.contains(p)), "{played:?}");
        assert!(e.game().board().is_empty_point(at("A4")), "A4 captured: {played:?}");
    }

    /// A `size` board with a `stones`-stone fixed handicap, komi 0.5, White to move.
    fn handicap_game(size: usize, stones: usize, dynamic_komi: DynamicKomi) -> Engine {
        let options = EngineOptions {
            rules: RulesConfig::parse("go").unwrap(),
            size,
            seed: 1,
            threads: Some(1),
            playouts: Some(2000),
            max_tree_mb: 16,
            dynamic_komi,
            ..EngineOptions::default()
        };
        let mut e = Engine::new(options);
        e.set_komi(0.5);
        if stones > 0 {
            e.fixed_handicap(stones).unwrap();
        }
        e
    }

    #[test]
    fn a_small_searchs_judgement_decides_its_pass_but_not_the_count() {
        for (playouts, settled) in [(10, false), (STATUS_PLAYOUTS, true)] {
            let mut e = Engine::new(options("go", 9, playouts));
            let e5 = e.game().board().geometry().parse_vertex("E5").unwrap();
            e.play(Color::Black, Move::Place(e5)).unwrap();
            e.play(Color::White, Move::Pass).unwrap();
            // After the opponent's pass the move search judges the stones, with its own budget.
            e.genmove(Color::Black, false).unwrap();
            let cached = e.cached_entry().expect("a judgement of this board");
            assert_eq!(cached.settled, settled, "{playouts} playouts");
            // final_status answers from a full judgement either way, and keeps it.
            e.final_status();
            assert!(e.cached_entry().unwrap().settled);
        }
    }

    #[test]
    fn cleanup_judges_the_stones_in_full_whatever_the_moves_playouts() {
        // Cleanup captures what the judgement calls dead: a ten-playout judgement would decide it.
        let options = options("go", 9, 10);
        let geo = *Engine::new(options.clone()).game().board().geometry();
        let at = |v: &str| Move::Place(geo.parse_vertex(v).unwrap());
        // After the opponent's pass, and after a stone of its (a capture during cleanup, say).
        for last in [Move::Pass, at("A1")] {
            let mut e = Engine::new(options.clone());
            e.play(Color::Black, at("E5")).unwrap();
            e.play(Color::White, last).unwrap();
            e.genmove_cleanup(Color::Black, &|| false, &mut |_| {}).unwrap();
            e.undo().unwrap();
            assert!(e.cached_entry().is_some_and(|c| c.settled), "a full judgement after {last:?}");
        }
    }

    #[test]
    fn no_time_at_all_still_searches_a_few_playouts() {
        // A time per move too short for any playout (or a clock run down to nothing) used to answer
        // from an unexpanded root: a pass on the empty board.
        let options = EngineOptions {
            rules: RulesConfig::parse("go").unwrap(),
            size: 9,
            threads: Some(1),
            time_per_move: Some(Duration::ZERO),
            max_tree_mb: 16,
            ..EngineOptions::default()
        };
        let mut e = Engine::new(options);
        let mut visits = 0;
        let d = e.genmove_with(Color::Black, true, &|| false, &mut |r| visits = r.root_visits).unwrap();
        assert!(matches!(d, Decision::Play(Move::Place(_))), "{d:?}");
        assert!(visits >= 32, "{visits} visits");
    }

    /// Plays `n` more moves: the first legal placement in reading order for the side to move.
    fn play_on(e: &mut Engine, n: usize) {
        for _ in 0..n {
            let color = e.game().to_move();
            let points: Vec<Point> = e.game().board().geometry().points().collect();
            let mv = points.into_iter().map(Move::Place).find(|&m| e.game().check(color, m).is_ok());
            e.play(color, mv.expect("a legal placement")).unwrap();
        }
    }

    #[test]
    fn dynamic_komi_gives_back_part_of_the_handicap_and_fades_out() {
        let (black, white) = (Color::Black, Color::White);
        let default = DynamicKomi::default();
        assert_eq!(handicap_game(19, 0, default).komi_shift(black), 0.0, "no handicap");
        assert_eq!(handicap_game(19, 4, DynamicKomi::OFF).komi_shift(black), 0.0, "switched off");
        let mut e = handicap_game(19, 4, default);
        assert_eq!(e.komi_shift(black), 28.0, "7 points a stone before the first move");
        assert_eq!(e.komi_shift(white), 0.0, "none by default for the side giving the handicap");
        play_on(&mut e, 50);
        assert_eq!(e.komi_shift(black), 14.0, "half of it at move 50 of 100");
        play_on(&mut e, 50);
        assert_eq!(e.komi_shift(black), 0.0, "none from move 100");
        let e = handicap_game(19, 4, DynamicKomi { black: 7.0, white: 2.0 });
        assert_eq!((e.komi_shift(black), e.komi_shift(white)), (28.0, 8.0));
        // Smaller boards fade out sooner, in proportion to their area (9x9: 100 * 81 / 361 moves).
        let mut e = handicap_game(9, 4, default);
        play_on(&mut e, 11);
        let fade = 100.0 * 81.0 / 361.0;
        assert!((e.komi_shift(black) - 28.0 * (1.0 - 11.0 / fade)).abs() < 1e-9, "{}", e.komi_shift(black));
        play_on(&mut e, 12);
        assert_eq!(e.komi_shift(black), 0.0);
        // Stoical counts with komi too; Stones has none to shift.
        let mut e = handicap_game(19, 4, default);
        e.change_rules(RulesConfig::parse("stoical").unwrap()).unwrap();
        assert_eq!(e.komi_shift(black), 28.0);
        e.change_rules(RulesConfig::parse("stones").unwrap()).unwrap();
        assert_eq!(e.game().setup().black.len(), 4);
        assert_eq!(e.komi_shift(black), 0.0);
    }

    #[test]
    fn move_searches_count_with_the_dynamic_komi_and_report_the_real_margin() {
        // White giving four stones on 9x9: hopeless by the count, nearer even with 28 points back
        // (White's dynamic komi, off by default, set here to see the search use it).
        let mut plain = handicap_game(9, 4, DynamicKomi::default());
        let mut shifted = handicap_game(9, 4, DynamicKomi { black: 0.0, white: 7.0 });
        plain.genmove(Color::White, false).unwrap();
        shifted.genmove(Color::White, false).unwrap();
        let (p, s) = (plain.last_report().unwrap(), shifted.last_report().unwrap());
        assert_eq!((plain.last_komi_shift(), shifted.last_komi_shift()), (0.0, 28.0));
        assert!(p.winrate < 0.3 && s.winrate > 0.3, "{} {}", p.winrate, s.winrate);
        // Both margins are against the real komi: White far behind in both.
        assert!(p.score_lead < -15.0 && s.score_lead < -15.0, "{} {}", p.score_lead, s.score_lead);
        assert!((p.score_lead - s.score_lead).abs() < 10.0, "{} {}", p.score_lead, s.score_lead);
        // Analysis of the same position counts with the real komi, in a tree of its own.
        let req = ThinkRequest { limits: Limits::playouts(2000), ..ThinkRequest::default() };
        let analysed = shifted.think(Color::White, &req, &|| false, &mut |_| {}).unwrap();
        assert!(analysed.winrate < 0.3, "{}", analysed.winrate);
        assert_eq!(analysed.root_visits, analysed.playouts, "the shifted tree is not reused");
        // Black, receiving the handicap, counts with the default 28 points against it.
        plain.play(Color::White, Move::Pass).unwrap();
        let expected = 28.0 * (1.0 - 1.0 / (100.0 * 81.0 / 361.0));
        assert!((plain.komi_shift(Color::Black) - expected).abs() < 1e-9);
        plain.genmove(Color::Black, false).unwrap();
        assert_eq!(plain.last_komi_shift(), plain.komi_shift(Color::Black));
        assert!(plain.last_report().unwrap().winrate < 0.75, "{}", plain.last_report().unwrap().winrate);
    }

    #[test]
    fn a_handicap_receiver_does_not_resign_on_a_win_rate_lowered_by_dynamic_komi() {
        let mut e = handicap_game(9, 4, DynamicKomi::default());
        // Late enough to resign (a quarter of the points played), early enough for some dynamic
        // komi to remain, Black to move.
        play_on(&mut e, 21);
        assert!(e.komi_shift(Color::Black) > 0.0 && e.game().to_move() == Color::Black);
        let b = e.game().board().geometry().parse_vertex("J9").unwrap();
        let status = FinalStatus::default();
        let mut hopeless = report(&[Move::Place(b)]);
        hopeless.candidates[0].winrate = 0.05;
        let d = e.decide(Color::Black, &hopeless, false, &status);
        assert_eq!(d, Decision::Play(Move::Place(b)));
        // Without it the same report resigns.
        e.options.dynamic_komi = DynamicKomi::OFF;
        let d = e.decide(Color::Black, &hopeless, false, &status);
        assert_eq!(d, Decision::Resign);
    }

    #[test]
    fn a_hopeless_side_that_may_not_resign_passes_when_passing_gives_nothing_away() {
        let mut e = handicap_game(9, 0, DynamicKomi::OFF);
        e.options.resign_threshold = None;
        let white = Color::White;
        let j9 = Move::Place(e.game().board().geometry().parse_vertex("J9").unwrap());
        let early = |e: &Engine| {
            let mut r = report(&[j9]);
            r.candidates[0].winrate = 0.01;
            let o = e.game().score(&[]).unwrap();
            r.candidates[0].score_lead = if o.winner == Some(white) { o.margin } else { -o.margin };
            r
        };
        // Not before the game has run longer than the board has points (81): the search may
        // misjudge a fight that a move still wins.
        play_on(&mut e, 79);
        assert_eq!(e.game().to_move(), white);
        assert_eq!(e.decide(white, &early(&e), false, &FinalStatus::default()), Decision::Play(j9));
        play_on(&mut e, 2);
        assert_eq!(e.game().to_move(), white);
        let status = FinalStatus::default();
        let o = e.game().score(&[]).unwrap();
        let count = if o.winner == Some(white) { o.margin } else { -o.margin };
        let lost = |winrate: f64, score_lead: f64| {
            let mut r = report(&[j9]);
            r.candidates[0].winrate = winrate;
            r.candidates[0].score_lead = score_lead;
            r
        };
        // Every move loses and playing on is expected to end no better than the count now.
        let d = e.decide(white, &lost(0.01, count), false, &status);
        assert_eq!(d, Decision::Play(Move::Pass));
        // Playing on would still win back points: it plays on.
        assert_eq!(e.decide(white, &lost(0.01, count + 5.0), false, &status), Decision::Play(j9));
        // Not quite hopeless: it plays on.
        assert_eq!(e.decide(white, &lost(0.05, count), false, &status), Decision::Play(j9));
        // Allowed to resign, it resigns.
        e.options.resign_threshold = Some(0.1);
        assert_eq!(e.decide(white, &lost(0.01, count), false, &status), Decision::Resign);
    }

    #[test]
    fn the_side_giving_a_handicap_resigns_from_half_the_game_on() {
        let hopeless = |e: &Engine| {
            let mut r = report(&[Move::Pass]);
            r.candidates[0].winrate = 0.05;
            let b = e.game().board().geometry().parse_vertex("J9").unwrap();
            r.candidates[0].mv = Move::Place(b);
            r
        };
        let status = FinalStatus::default();
        // 9x9: an even game's White may resign from move 20 (a quarter of 81 points) on: at 23.
        let mut even = handicap_game(9, 0, DynamicKomi::OFF);
        play_on(&mut even, 23);
        assert_eq!(even.game().to_move(), Color::White);
        assert_eq!(even.decide(Color::White, &hopeless(&even), false, &status), Decision::Resign);
        // Giving four stones, White plays on at move 22 and resigns only from move 40 on.
        let mut e = handicap_game(9, 4, DynamicKomi::OFF);
        play_on(&mut e, 22);
        assert_eq!(e.game().to_move(), Color::White);
        assert!(matches!(e.decide(Color::White, &hopeless(&e), false, &status), Decision::Play(_)));
        play_on(&mut e, 18);
        assert_eq!((e.game().ply(), e.game().to_move()), (40, Color::White));
        assert_eq!(e.decide(Color::White, &hopeless(&e), false, &status), Decision::Resign);
    }

    /// Two-point eyes only: Black has columns A-E (39 stones, 6 points of territory), White F-J
    /// (32 stones, 4 points), White to move. Area 45 to 36, territory 6 to 4: with komi 5.5 Black
    /// wins by area (B+3.5) and loses by territory (W+3.5). Black's 7 stones more are what the two
    /// counts differ by: a stone placed in one's own territory costs a point there only. (Eyes of
    /// two points, so that the tree's fills are not one-point eye fills, which priors discourage.)
    const SETTLED: &str = "
        X X X X X O O O O
        X . . X X O . . O
        X X X X X O O O O
        X X X X X O O O O
        X . . X X O O O O
        X X X X X O . . O
        X X X X X O O O O
        X . . X X O O O O
        X X X X X O O O O";

    /// `SETTLED` under `scoring`, komi 5.5, White to move, and White's win rate and score lead by
    /// an analysis search.
    fn settled_for_white(scoring: &str) -> (f64, f64) {
        let options = EngineOptions {
            rules: RulesConfig::parse(&format!("go:scoring={scoring},komi=5.5")).unwrap(),
            size: 9,
            seed: 3,
            threads: Some(1),
            max_tree_mb: 16,
            ..EngineOptions::default()
        };
        let mut e = Engine::new(options);
        play_diagram(&mut e, SETTLED);
        assert_eq!(e.game().to_move(), Color::White);
        let exact = e.game().score(&[]).unwrap();
        let req = ThinkRequest { limits: Limits::playouts(3000), ..ThinkRequest::default() };
        let r = e.think(Color::White, &req, &|| false, &mut |_| {}).unwrap();
        eprintln!("{scoring}: exact {exact}, White's win rate {:.3}, lead {:.2}", r.winrate, r.score_lead);
        (r.winrate, r.score_lead)
    }

    #[test]
    fn searches_count_territory_as_territory() {
        // By area Black keeps the win whatever White does.
        let (area_winrate, area_lead) = settled_for_white("area");
        assert!(area_winrate < 0.3 && area_lead < 0.0, "{area_winrate} {area_lead}");
        // By territory White wins by passing: the playouts count the stones each side placed,
        // where they used to count area (Black's extra stones free, White's win rate near 0).
        let (winrate, lead) = settled_for_white("territory");
        assert!(winrate > 0.7 && lead > 0.0, "{winrate} {lead}");
    }

    #[test]
    fn a_side_far_ahead_plays_for_the_score_too() {
        let mut e = Engine::new(options("go", 9, 2000));
        assert_eq!(e.search_config(Color::Black, 0).score_weight, 0.0);
        // A big enough search that saw Black winning: Black's next search counts points as well,
        // White's does not, and a new game forgets it.
        e.genmove(Color::Black, true).unwrap();
        let black = |winrate, black_margin| Some(Standing { color: Color::Black, winrate, black_margin });
        e.standing = black(AHEAD_WINRATE, 3.0);
        assert_eq!(e.search_config(Color::Black, 0).score_weight, SCORE_WEIGHT_AHEAD);
        assert_eq!(e.search_config(Color::White, 0).score_weight, 0.0);
        e.standing = black(AHEAD_WINRATE - 0.01, 3.0);
        assert_eq!(e.search_config(Color::Black, 0).score_weight, 0.0);
        e.standing = black(0.99, 3.0);
        e.clear_board();
        assert_eq!(e.search_config(Color::Black, 0).score_weight, 0.0);
        // The standing comes from the move search itself.
        e.genmove(Color::Black, true).unwrap();
        let r = e.last_report().unwrap();
        assert_eq!(
            e.standing,
            Some(Standing { color: Color::Black, winrate: r.winrate, black_margin: r.score_lead })
        );
    }

    #[test]
    fn a_side_far_ahead_gives_half_its_lead_as_komi() {
        let mut e = Engine::new(options("go", 19, 2000));
        let standing = |color, black_margin| Some(Standing { color, winrate: 0.95, black_margin });
        // Black expects to win by 30.6: its searches give White 15 more points; White's do not.
        e.standing = standing(Color::Black, 30.6);
        assert_eq!(e.komi_shift(Color::Black), 15.0);
        assert_eq!(e.komi_shift(Color::White), 0.0);
        // White ahead by 20 gives Black 10 (White's komi shrinks).
        e.standing = standing(Color::White, -20.0);
        assert_eq!(e.komi_shift(Color::White), -10.0);
        // Less than half the board's side ahead, or behind: nothing.
        e.standing = standing(Color::White, -9.0);
        assert_eq!(e.komi_shift(Color::White), 0.0);
        e.standing = standing(Color::White, 30.0);
        assert_eq!(e.komi_shift(Color::White), 0.0);
        // Not below 19x19.
        let mut small = Engine::new(options("go", 13, 2000));
        small.standing = standing(Color::Black, 30.0);
        assert_eq!(small.komi_shift(Color::Black), 0.0);
        // The move search plays with it, and its scores are still given against the real komi.
        e.standing = standing(Color::Black, 30.0);
        e.genmove(Color::Black, true).unwrap();
        assert_eq!(e.last_komi_shift(), 15.0);
    }

    #[test]
    fn an_unfinished_games_final_score_gives_open_areas_to_their_owner() {
        // Black's wall faces an open area of 36 points (and J5), which the count as it stands
        // gives to no one, as J5 touches White's J4.
        let mut e = Engine::new(options("go", 9, 100));
        play_diagram(
            &mut e,
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            X X X X X X X X .
            O O O O O O O O O
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        let as_it_stands = e.game().score(&[]).unwrap().black_margin();
        assert_eq!(as_it_stands, 8.0 - 36.0 - 7.5);
        let estimate = e.final_score().unwrap().black_margin();
        assert!(estimate >= as_it_stands + 30.0, "{estimate} against {as_it_stands}");
        // Once the game is over, the count is the count.
        e.play(Color::White, Move::Pass).unwrap();
        e.play(Color::Black, Move::Pass).unwrap();
        assert_eq!(e.final_score().unwrap().black_margin(), as_it_stands);
    }
}
