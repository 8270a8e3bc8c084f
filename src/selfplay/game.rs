//! One refereed game between two players.
//!
//! tengen's own rules are the referee: every move a player answers is checked by a referee engine
//! before the other player hears of it, the referee decides when the game is over, and it scores the
//! game itself (dead stones from its own judgement). The players' own `final_score` is asked for and
//! compared, so a disagreement shows up in the results instead of silently deciding a game.

use super::player::{ClockReading, GameSetup, Player, PlayerError, PlayerMove};
use crate::board::{ByColor, Color};
use crate::engine::{Clock, Engine, EngineError, EngineOptions, TimeSystem};
use crate::rules::{EndReason, Move, Outcome};
use crate::sgf::{GameRecord, TimeMark};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::time::{Duration, Instant};

/// How a game ended.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// Two passes; the referee scored the position.
    TwoPasses,
    /// Stones: a decisive capture.
    Decisive,
    /// Stones: the player to move had no legal move.
    NoLegalMove,
    /// Stoical Go: a repeated position (a draw).
    Repetition,
    Resignation,
    /// An illegal move, a crash, a `?` answer to `genmove`, or a legal move refused.
    Forfeit,
    /// No answer to `genmove` in time.
    Timeout,
    /// The move cap was reached; the referee scored the position as it stood.
    MoveLimit,
}

impl Ending {
    pub fn name(self) -> &'static str {
        match self {
            Ending::TwoPasses => "two passes",
            Ending::Decisive => "decisive move",
            Ending::NoLegalMove => "no legal move",
            Ending::Repetition => "repetition",
            Ending::Resignation => "resignation",
            Ending::Forfeit => "forfeit",
            Ending::Timeout => "timeout",
            Ending::MoveLimit => "move limit",
        }
    }

    /// Was the result decided by counting the board?
    pub fn is_scored(self) -> bool {
        matches!(self, Ending::TwoPasses | Ending::MoveLimit)
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Everything about one game of a run that is fixed before it starts.
#[derive(Clone, Debug)]
pub struct GameSpec {
    pub setup: GameSetup,
    /// The referee's engine settings (rules and size come from `setup`): its search decides which
    /// stones are dead when a finished game is scored.
    pub referee: EngineOptions,
    /// Random opening moves played for both players before they take over.
    pub opening_moves: usize,
    /// Seed of the opening; the two games of a colour-swapped pair share it.
    pub opening_seed: u64,
    /// The game is scored as it stands after this many moves.
    pub max_moves: usize,
}

/// What happened in one game.
#[derive(Clone, Debug)]
pub struct GameOutcome {
    /// Every move (exactly as the referee applied it) with size, komi and `RU`; names and result are
    /// filled in by the caller that knows them.
    pub record: GameRecord,
    /// `B+3.5`, `W+R`, `B+F`, `0`, ...
    pub result: String,
    pub winner: Option<Color>,
    pub ending: Ending,
    /// For forfeits and timeouts: what the offender did.
    pub detail: Option<String>,
    /// Moves played, the opening included.
    pub moves: usize,
    pub opening_moves: usize,
    /// Seconds spent in `genmove`, per colour.
    pub time: ByColor<f64>,
    pub genmoves: ByColor<u32>,
    /// Each player's own `final_score` of a scored game.
    pub player_scores: ByColor<Option<String>>,
    /// Phantom Go: each side's illegal attempts, repeats and passes forced by the attempt limit.
    pub phantom: Option<super::phantom::Conduct>,
}

impl GameOutcome {
    /// Does some player's own score disagree with the referee's result?
    pub fn score_disagrees(&self) -> bool {
        [&self.player_scores.black, &self.player_scores.white]
            .into_iter()
            .flatten()
            .any(|s| !same_result(s, &self.result))
    }
}

/// Compares two result strings by meaning: `B+3.5` equals `B+3.50`, `0` equals `Draw`.
pub fn same_result(a: &str, b: &str) -> bool {
    fn norm(s: &str) -> Option<(char, Option<f64>)> {
        let s = s.trim().to_ascii_uppercase();
        if s == "0" || s == "DRAW" || s == "JIGO" {
            return Some(('0', None));
        }
        let (who, rest) = s.split_once('+')?;
        let who = who.chars().next()?;
        Some((who, rest.trim().parse::<f64>().ok()))
    }
    match (norm(a), norm(b)) {
        (Some((wa, ma)), Some((wb, mb))) => {
            wa == wb && (ma.zip(mb).is_none_or(|(x, y)| (x - y).abs() < 1e-6)) && ma.is_some() == mb.is_some()
        }
        _ => a.trim().eq_ignore_ascii_case(b.trim()),
    }
}

/// A random legal placement that fills no own eye and does not end the game (a decisive capture in
/// Stones: the opening is there to vary the games, not to decide them), from the referee's rules;
/// `None` if there is none.
fn opening_move(referee: &Engine, color: Color, rng: &mut Xoshiro256PlusPlus) -> Option<Move> {
    let g = referee.game();
    let board = g.board();
    let mut candidates: Vec<Move> = g
        .legal_moves(color)
        .into_iter()
        .filter(|m| matches!(m, Move::Place(p) if !board.is_eye(color, *p)))
        .collect();
    while !candidates.is_empty() {
        let mv = candidates.swap_remove(rng.gen_range(0..candidates.len()));
        let mut trial = g.clone();
        if trial.play(color, mv).is_ok() && !trial.is_over() {
            return Some(mv);
        }
    }
    None
}

/// Writes the result into a game's record and each clock reading beside the move it followed (a
/// refused move never made it into the record, so its reading is dropped). Shared by every referee.
/// The match clock, which a referee keeps as a controller does: it tells each player its time
/// before every move, charges it the whole round trip of `genmove`, and lets the flag fall. The
/// random opening is off the clock. Without a match clock (`TimeSystem::None`) it does nothing.
pub(super) struct RefereeClock {
    clock: Clock,
    clocked: bool,
    /// The flag limit told to the player now moving.
    limit: Duration,
    /// Each timed move's clock reading after it, by move number, for the record.
    pub marks: Vec<(usize, TimeMark)>,
}

impl RefereeClock {
    pub fn new(system: TimeSystem) -> RefereeClock {
        let mut clock = Clock::default();
        clock.set(system);
        RefereeClock { clock, clocked: system != TimeSystem::None, limit: Duration::ZERO, marks: Vec::new() }
    }

    /// Tells `color` its clock before its move; a player that fails to take it in loses the game
    /// (the loser, the ending and what happened).
    pub fn announce(&mut self, player: &mut dyn Player, color: Color) -> Result<(), (Color, Ending, String)> {
        if !self.clocked {
            return Ok(());
        }
        let (seconds, count) = self.clock.time_left_of(color);
        let reading =
            ClockReading { seconds, count, limit: self.clock.flag_limit(color).unwrap_or_default() };
        self.limit = reading.limit;
        player.time_left(color, reading).map_err(|e| {
            let ending = if e.is_timeout() { Ending::Timeout } else { Ending::Forfeit };
            (color, ending, format!("time_left {color}: {e}"))
        })
    }

    /// Charges `color` a move that took `elapsed`, the game's move `move_number`; its flag falling
    /// loses the game, whatever the answer was.
    pub fn charge(
        &mut self,
        color: Color,
        elapsed: Duration,
        move_number: usize,
    ) -> Result<(), (Color, Ending, String)> {
        if !self.clocked {
            return Ok(());
        }
        if !self.clock.spend(color, elapsed) {
            let what = format!(
                "{color} ran out of time: {:.3} s for a move with {:.3} s on the clock",
                elapsed.as_secs_f64(),
                self.limit.as_secs_f64()
            );
            return Err((color, Ending::Timeout, what));
        }
        let (seconds, count) = self.clock.time_left_of(color);
        self.marks.push((move_number, TimeMark { seconds, overtime_count: (count > 0).then_some(count) }));
        Ok(())
    }
}

pub(super) fn finish_record(record: &mut GameRecord, result: &str, marks: Vec<(usize, TimeMark)>) {
    record.result = Some(result.to_string());
    for (i, mark) in marks {
        if let Some(m) = record.moves.get_mut(i) {
            m.time_left = Some(mark);
        }
    }
}

fn ending_of(reason: EndReason) -> Ending {
    match reason {
        EndReason::TwoPasses => Ending::TwoPasses,
        EndReason::Decisive => Ending::Decisive,
        EndReason::NoLegalMove => Ending::NoLegalMove,
        EndReason::Repetition => Ending::Repetition,
        EndReason::Resignation => Ending::Resignation,
        EndReason::Time => Ending::Timeout,
        EndReason::Forfeit => Ending::Forfeit,
    }
}

/// The referee's score of the position as it stands (the move cap). Stones has no score: the prisoner
/// lead decides, compensation included.
fn score_now(referee: &mut Engine) -> Outcome {
    referee.final_score().unwrap_or_else(|_| {
        let g = referee.game();
        let lead = g.prisoners(Color::Black) as f64 - g.prisoners(Color::White) as f64;
        Outcome::from_margin(lead, EndReason::TwoPasses)
    })
}

/// Plays one game: `players.black` has Black. Only a player that cannot start (`PlayerError::Start`)
/// makes this fail; every other failure forfeits the game for the player at fault.
pub fn play_game(spec: &GameSpec, players: ByColor<&mut dyn Player>) -> Result<GameOutcome, PlayerError> {
    if spec.setup.rules.variant() == crate::rules::Variant::Phantom {
        return super::phantom::play_game(spec, players);
    }
    if spec.setup.rules.variant() == crate::rules::Variant::War {
        return super::war::play_game(spec, players);
    }
    let mut players = players;
    for c in [Color::Black, Color::White] {
        players[c].new_game(&spec.setup)?;
    }
    let mut referee = Engine::new(EngineOptions {
        rules: spec.setup.rules.clone(),
        size: spec.setup.size,
        seed: spec.referee.seed.wrapping_add(spec.setup.index),
        ..spec.referee.clone()
    });
    if spec.setup.handicap > 0 {
        // The run checked that the board takes this handicap.
        referee.fixed_handicap(spec.setup.handicap).expect("a handicap the board takes");
    }
    let geo = *referee.game().board().geometry();
    let mut time = ByColor::new(0.0, 0.0);
    let mut clock = RefereeClock::new(spec.setup.clock);
    let mut genmoves = ByColor::new(0u32, 0u32);
    // (loser, ending, detail) once a player loses outside the rules.
    let mut lost: Option<(Color, Ending, String)> = None;

    // The random opening: both players are told each move, the referee checks it like any other.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(spec.opening_seed);
    let mut opening = 0;
    while opening < spec.opening_moves && !referee.game().is_over() && lost.is_none() {
        let color = referee.game().to_move();
        let Some(mv) = opening_move(&referee, color, &mut rng) else { break };
        referee.play(color, mv).expect("opening moves are chosen among the legal ones");
        opening += 1;
        for c in [Color::Black, Color::White] {
            if let Err(e) = players[c].play(color, mv) {
                let ending = if e.is_timeout() { Ending::Timeout } else { Ending::Forfeit };
                lost = Some((c, ending, format!("opening move {} {}: {e}", color, mv.describe(&geo))));
                break;
            }
        }
    }

    while lost.is_none() && !referee.game().is_over() {
        if referee.game().moves().len() >= spec.max_moves {
            break;
        }
        let color = referee.game().to_move();
        if let Err(loss) = clock.announce(&mut *players[color], color) {
            lost = Some(loss);
            break;
        }
        let start = Instant::now();
        let answer = players[color].genmove(color);
        let elapsed = start.elapsed();
        time[color] += elapsed.as_secs_f64();
        genmoves[color] += 1;
        if let Err(loss) = clock.charge(color, elapsed, referee.game().moves().len()) {
            lost = Some(loss);
            break;
        }
        let mv = match answer {
            Ok(PlayerMove::Play(mv)) => mv,
            Ok(PlayerMove::Resign) => {
                referee.resign(color);
                break;
            }
            Err(e) => {
                let ending = if e.is_timeout() { Ending::Timeout } else { Ending::Forfeit };
                lost = Some((color, ending, format!("genmove {color}: {e}")));
                break;
            }
        };
        let played = match referee.play(color, mv) {
            Ok(m) => m,
            Err(e) => {
                let why = match e {
                    EngineError::Illegal(i) => i.to_string(),
                    other => other.to_string(),
                };
                let what = format!("{color} played an illegal move {} ({why})", mv.describe(&geo));
                lost = Some((color, Ending::Forfeit, what));
                break;
            }
        };
        let other = color.opponent();
        // A move that ended the game (the second pass, a decisive capture) decided it: a program
        // that fails to take that move in only loses its say in the count, not the game.
        if let Err(e) = players[other].play(color, played) {
            if referee.game().outcome().is_some() {
                continue;
            }
            let ending = if e.is_timeout() { Ending::Timeout } else { Ending::Forfeit };
            let what =
                format!("{other} did not accept the legal move {} {}: {e}", color, played.describe(&geo));
            lost = Some((other, ending, what));
        }
    }

    let (outcome, ending, detail) = match lost {
        Some((loser, ending, detail)) => {
            let reason = if ending == Ending::Timeout { EndReason::Time } else { EndReason::Forfeit };
            (Outcome::win(loser.opponent(), 0.0, reason), ending, Some(detail))
        }
        None => match referee.game().outcome() {
            Some(o) if o.reason == EndReason::TwoPasses => {
                (referee.final_score().unwrap_or(o), Ending::TwoPasses, None)
            }
            Some(o) => (o, ending_of(o.reason), None),
            None => (score_now(&mut referee), Ending::MoveLimit, None),
        },
    };
    let mut player_scores = ByColor::new(None, None);
    if ending.is_scored() {
        for c in [Color::Black, Color::White] {
            player_scores[c] = players[c].final_score();
        }
    }
    let result = outcome.to_string();
    let mut record = referee.to_record();
    finish_record(&mut record, &result, clock.marks);
    Ok(GameOutcome {
        record,
        result,
        winner: outcome.winner,
        ending,
        detail,
        moves: referee.game().moves().len(),
        opening_moves: opening,
        time,
        genmoves,
        player_scores,
        phantom: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::RulesConfig;
    use crate::selfplay::player::EnginePlayer;

    /// Settings that keep a real search short: a few playouts on one thread.
    fn quick(seed: u64) -> EngineOptions {
        EngineOptions { playouts: Some(16), threads: Some(1), seed, ..EngineOptions::default() }
    }

    fn spec(rules: &str, size: usize, index: u64) -> GameSpec {
        GameSpec {
            setup: GameSetup {
                rules: RulesConfig::parse(rules).unwrap(),
                size,
                handicap: 0,
                index,
                clock: TimeSystem::None,
            },
            referee: quick(0),
            opening_moves: 2,
            opening_seed: 7,
            max_moves: 4 * size * size,
        }
    }

    #[test]
    fn results_compare_by_meaning() {
        assert!(same_result("B+3.5", "b+3.50"));
        assert!(same_result("0", "Draw"));
        assert!(same_result("W+R", "W+R"));
        assert!(!same_result("W+R", "B+R"));
        assert!(!same_result("B+3.5", "B+4.5"));
        assert!(!same_result("B+3.5", "W+3.5"));
        assert!(!same_result("0", "B+0.5"));
    }

    #[test]
    fn a_random_opening_never_ends_the_game() {
        // Long random openings on a tiny Stones board run into decisive captures often (the audit
        // that found this saw one game in ten decided before either player moved).
        for seed in 0..40 {
            let mut referee = Engine::new(EngineOptions {
                rules: RulesConfig::parse("stones").unwrap(),
                size: 5,
                ..quick(0)
            });
            let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
            for _ in 0..30 {
                let color = referee.game().to_move();
                let Some(mv) = opening_move(&referee, color, &mut rng) else { break };
                referee.play(color, mv).unwrap();
                assert!(!referee.game().is_over(), "seed {seed}: the opening move {mv:?} ended the game");
            }
        }
    }

    #[test]
    fn every_variant_finishes_and_replays() {
        for rules in ["go", "stones", "stoical", "go:button=on,scoring=territory"] {
            for index in 0..3 {
                let s = spec(rules, 5, index);
                let mut a = EnginePlayer::new("A", quick(0));
                let mut b = EnginePlayer::new("B", quick(99));
                let out = play_game(&s, ByColor::new(&mut a as &mut dyn Player, &mut b)).unwrap();
                assert!(out.moves <= s.max_moves);
                assert_eq!(out.opening_moves, 2);
                assert_eq!(out.record.moves.len(), out.moves);
                assert_ne!(out.ending, Ending::Forfeit, "{rules}: {:?}", out.detail);
                // The record replays legally under its own RU.
                let text = out.record.to_sgf();
                let mut e = Engine::new(EngineOptions::default());
                e.load_record(&GameRecord::parse(&text).unwrap(), None).unwrap();
                assert_eq!(e.game().moves().len(), out.moves);
                // The same game index plays the same game.
                let mut a = EnginePlayer::new("A", quick(0));
                let mut b = EnginePlayer::new("B", quick(99));
                let again = play_game(&s, ByColor::new(&mut a as &mut dyn Player, &mut b)).unwrap();
                assert_eq!(again.record, out.record);
            }
        }
    }

    /// tengen that answers GTP `pass` whenever the rules make something of it (in Stones: a return or
    /// a stake), as an external program would; the referee decides which move the pass stands for.
    struct Passer(EnginePlayer, Engine);
    impl Player for Passer {
        fn name(&self) -> String {
            "passer".into()
        }
        fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
            self.1 = Engine::new(EngineOptions { rules: setup.rules.clone(), size: setup.size, ..quick(5) });
            self.0.new_game(setup)
        }
        fn play(&mut self, color: Color, mv: Move) -> Result<(), PlayerError> {
            self.1.play(color, mv).map_err(|e| PlayerError::Refused(e.to_string()))?;
            self.0.play(color, mv)
        }
        fn time_left(&mut self, color: Color, clock: ClockReading) -> Result<(), PlayerError> {
            self.0.time_left(color, clock)
        }
        fn genmove(&mut self, color: Color) -> Result<PlayerMove, PlayerError> {
            let g = self.1.game();
            if g.legal_moves(color).contains(&g.pass_move(color)) {
                let played =
                    self.1.play(color, Move::Pass).map_err(|e| PlayerError::Refused(e.to_string()))?;
                self.0.play(color, played)?;
                return Ok(PlayerMove::Play(Move::Pass));
            }
            let answer = self.0.genmove(color)?;
            if let PlayerMove::Play(mv) = answer {
                self.1.play(color, mv).map_err(|e| PlayerError::Refused(e.to_string()))?;
            }
            Ok(answer)
        }
        fn final_score(&mut self) -> Option<String> {
            None
        }
    }

    #[test]
    fn stones_returns_and_stakes_are_commented_passes_that_replay() {
        let mut commented = Vec::new();
        for index in 0..6 {
            let s = spec("stones:threshold=5,compensation=2", 5, index);
            let mut a = EnginePlayer::new("A", quick(1));
            let mut b = Passer(EnginePlayer::new("B", quick(2)), Engine::new(quick(5)));
            let out = play_game(&s, ByColor::new(&mut a as &mut dyn Player, &mut b)).unwrap();
            assert_ne!(out.ending, Ending::Forfeit, "{:?}", out.detail);
            let text = out.record.to_sgf();
            let mut e = Engine::new(EngineOptions::default());
            e.load_record(&GameRecord::parse(&text).unwrap(), None).unwrap();
            assert_eq!(e.game().moves().len(), out.moves);
            for (m, &(_, mv)) in out.record.moves.iter().zip(e.game().moves()) {
                if m.at.is_none() {
                    // Every pass of the record names the move it stands for, and replays as that move.
                    let said = m.comment.clone().expect("a Stones pass has a comment");
                    assert_eq!(said, mv.describe(e.game().board().geometry()));
                    commented.push(said);
                }
            }
        }
        // The games did make returns and stakes (so the check above is not vacuous).
        assert!(commented.iter().any(|c| c == "prisoner return"), "{commented:?}");
        assert!(commented.iter().any(|c| c.starts_with("stake on ")), "{commented:?}");
    }

    /// A player that always answers the same vertex: its second answer is illegal.
    struct Stubborn;
    impl Player for Stubborn {
        fn name(&self) -> String {
            "stubborn".into()
        }
        fn new_game(&mut self, _: &GameSetup) -> Result<(), PlayerError> {
            Ok(())
        }
        fn play(&mut self, _: Color, _: Move) -> Result<(), PlayerError> {
            Ok(())
        }
        fn time_left(&mut self, _: Color, _: ClockReading) -> Result<(), PlayerError> {
            Ok(())
        }
        fn genmove(&mut self, _: Color) -> Result<PlayerMove, PlayerError> {
            Ok(PlayerMove::Play(Move::Place(crate::board::Geometry::new(5).point(2, 2))))
        }
        fn final_score(&mut self) -> Option<String> {
            None
        }
    }

    #[test]
    fn an_illegal_move_forfeits() {
        let mut s = spec("go", 5, 0);
        s.opening_moves = 0;
        let mut a = EnginePlayer::new("A", quick(0));
        let mut b = Stubborn;
        let out = play_game(&s, ByColor::new(&mut a as &mut dyn Player, &mut b)).unwrap();
        assert_eq!(out.ending, Ending::Forfeit);
        assert_eq!(out.winner, Some(Color::Black));
        assert_eq!(out.result, "B+F");
        assert!(out.detail.unwrap().contains("illegal move C3"));
    }
}
