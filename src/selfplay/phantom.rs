//! The Phantom Go referee (RULES.md 5.2): one game in which each player sees only its own stones.
//!
//! The referee alone holds the true board. It asks the player to move for a proposal; an illegal
//! one is answered `phantom-illegal V` (the opponent hears `phantom-opponent-illegal`) and the
//! same player proposes again, up to `MAX_ATTEMPTS` refusals, after which it passes. A legal move
//! is announced to the opponent as `phantom-opponent-moved` (with `pass` for a pass), and the
//! stones it removed to both as `phantom-removed`, the mover first. Two passes end the game,
//! counted by area with no dead stones removed. A proposal on a point the player was already told
//! is illegal in this position, or on its own stone, is a program error: refused the same way and
//! counted. A crash, a `?` to `genmove` or to a message forfeits, as in any match.
//! The record holds the true moves; each move's comment lists the illegal attempts before it.

use super::game::{finish_record, Ending, GameOutcome, GameSpec};
use super::player::{ClockReading, Player, PlayerError, PlayerMove};
use crate::board::{ByColor, Color, Point};
use crate::engine::{Clock, TimeSystem};
use crate::rules::{AnyGame, EndReason, Move, Outcome, RulesConfig, VariantConfig};
use crate::sgf::{GameRecord, RecordMove, TimeMark};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// RULES.md 5.2: after this many illegal attempts in one turn the player passes.
pub const MAX_ATTEMPTS: u32 = 50;

/// What the referee tells a Phantom Go player (GTP.md's Phantom Go commands).
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Message {
    /// `phantom-illegal V`: the proposal V was illegal.
    Illegal(Point),
    /// `phantom-opponent-moved [pass]`.
    OpponentMoved { pass: bool },
    /// `phantom-opponent-illegal`.
    OpponentIllegal,
    /// `phantom-removed V...`.
    Removed(Vec<Point>),
}

/// Each side's conduct in a Phantom Go game, as `results.jsonl` keeps it.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
pub struct Conduct {
    /// Illegal attempts (repeats included).
    pub illegal_black: u32,
    pub illegal_white: u32,
    /// Proposals of a point already refused in the same position, or of an own stone.
    pub repeats_black: u32,
    pub repeats_white: u32,
    /// Turns that reached `MAX_ATTEMPTS` refusals and were passed by the referee.
    pub limit_black: u32,
    pub limit_white: u32,
}

impl Conduct {
    fn bump(&mut self, color: Color, what: fn(&mut Conduct) -> (&mut u32, &mut u32)) {
        let (b, w) = what(self);
        match color {
            Color::Black => *b += 1,
            Color::White => *w += 1,
        }
    }

    /// (illegal attempts, repeats, limit passes) of `color`.
    pub fn of(&self, color: Color) -> (u32, u32, u32) {
        match color {
            Color::Black => (self.illegal_black, self.repeats_black, self.limit_black),
            Color::White => (self.illegal_white, self.repeats_white, self.limit_white),
        }
    }
}

/// The true game's rules: standard Go as RULES.md 5.2 fixes it, with the run's komi and walls.
fn true_rules(phantom: &RulesConfig) -> RulesConfig {
    let mut rules = phantom.clone();
    rules.variant = VariantConfig {
        variant: crate::rules::Variant::Go,
        go: phantom.standard(),
        ..phantom.variant.clone()
    };
    rules
}

/// The points `color`'s move emptied: opponent stones before it that are gone after it.
fn emptied<T: crate::board::Topology, U: crate::board::Topology>(
    before: &crate::board::Board<T>,
    after: &crate::board::Board<U>,
) -> Vec<Point> {
    let geo = before.geometry();
    geo.points().filter(|&p| before.cell(p).color().is_some() && after.is_empty_point(p)).collect()
}

/// Why a player lost outside the rules.
type Loss = (Color, Ending, String);

fn loss(color: Color, what: &str, e: PlayerError) -> Loss {
    let ending = if e.is_timeout() { Ending::Timeout } else { Ending::Forfeit };
    (color, ending, format!("{what}: {e}"))
}

/// The referee of one Phantom Go game.
struct Referee<'a> {
    game: AnyGame,
    players: ByColor<&'a mut dyn Player>,
    conduct: Conduct,
    /// Illegal attempts since the last legal move, for the next move's comment.
    attempts_note: Vec<String>,
    /// Each recorded move's comment, by move number.
    comments: Vec<Option<String>>,
}

impl Referee<'_> {
    /// Plays the legal `mv` for `color` on the true board and tells both players. `told` says
    /// whether the mover already has it (its own proposal) or must be told with `play`.
    fn apply(&mut self, color: Color, mv: Move, told: bool) -> Result<(), Loss> {
        let before = self.game.board().clone();
        self.game.play(color, mv).expect("the referee checked the move");
        let removed = emptied(&before, self.game.board());
        let note = std::mem::take(&mut self.attempts_note);
        self.comments.push((!note.is_empty()).then(|| format!("illegal attempts: {}", note.join(", "))));
        let geo = *before.geometry();
        let other = color.opponent();
        if !told {
            self.players[color]
                .play(color, mv)
                .map_err(|e| loss(color, &format!("play {color} {}", mv.to_gtp(&geo)), e))?;
        }
        let pass = mv == Move::Pass;
        let captured = Message::Removed(removed.clone());
        if !removed.is_empty() {
            self.players[color].phantom(&captured).map_err(|e| loss(color, "phantom-removed", e))?;
        }
        let moved = self.players[other].phantom(&Message::OpponentMoved { pass });
        if let Err(e) = moved {
            // A move that ended the game decided it: the opponent's failure to hear of it does not.
            if self.game.outcome().is_none() {
                return Err(loss(other, "phantom-opponent-moved", e));
            }
        }
        if !removed.is_empty() {
            self.players[other].phantom(&captured).map_err(|e| loss(other, "phantom-removed", e))?;
        }
        Ok(())
    }
}

/// Plays one Phantom Go game: `players.black` has Black. As `game::play_game`: only a player that
/// cannot start makes this fail; every other failure forfeits the game for the player at fault.
pub fn play_game(spec: &GameSpec, players: ByColor<&mut dyn Player>) -> Result<GameOutcome, PlayerError> {
    if spec.setup.handicap > 0 {
        return Err(PlayerError::Start("Phantom Go has no handicap (RULES.md 5.2)".into()));
    }
    let mut players = players;
    for c in [Color::Black, Color::White] {
        players[c].new_game(&spec.setup)?;
    }
    let rules = true_rules(&spec.setup.rules);
    let mut r = Referee {
        game: AnyGame::new(&rules, spec.setup.size),
        players,
        conduct: Conduct::default(),
        attempts_note: Vec::new(),
        comments: Vec::new(),
    };
    let geo = *r.game.board().geometry();
    let mut time = ByColor::new(0.0, 0.0);
    let mut clock = Clock::default();
    clock.set(spec.setup.clock);
    let clocked = spec.setup.clock != TimeSystem::None;
    let mut marks: Vec<(usize, TimeMark)> = Vec::new();
    let mut genmoves = ByColor::new(0u32, 0u32);
    let mut lost: Option<Loss> = None;

    // The random opening: each move is the mover's (`play`) and a move unseen by the opponent.
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(spec.opening_seed);
    let mut opening = 0;
    while opening < spec.opening_moves && !r.game.is_over() && lost.is_none() {
        let color = r.game.to_move();
        let board = r.game.board();
        let candidates: Vec<Move> = r
            .game
            .legal_moves(color)
            .into_iter()
            .filter(|m| matches!(m, Move::Place(p) if !board.is_eye(color, *p)))
            .collect();
        if candidates.is_empty() {
            break;
        }
        let mv = candidates[rng.gen_range(0..candidates.len())];
        opening += 1;
        lost = r.apply(color, mv, false).err();
    }

    'game: while lost.is_none() && !r.game.is_over() {
        if r.game.moves().len() >= spec.max_moves {
            break;
        }
        let color = r.game.to_move();
        let other = color.opponent();
        // Points refused to this player in this position.
        let mut refused: Vec<Point> = Vec::new();
        loop {
            let mut limit = None;
            if clocked {
                let (seconds, count) = clock.time_left_of(color);
                let reading =
                    ClockReading { seconds, count, limit: clock.flag_limit(color).unwrap_or_default() };
                limit = Some(reading.limit);
                if let Err(e) = r.players[color].time_left(color, reading) {
                    lost = Some(loss(color, &format!("time_left {color}"), e));
                    break 'game;
                }
            }
            let start = Instant::now();
            let answer = r.players[color].genmove(color);
            let elapsed = start.elapsed();
            time[color] += elapsed.as_secs_f64();
            genmoves[color] += 1;
            if clocked && !clock.spend(color, elapsed) {
                let limit = limit.unwrap_or_default().as_secs_f64();
                let what = format!(
                    "{color} ran out of time: {:.3} s for a move with {limit:.3} s on the clock",
                    elapsed.as_secs_f64()
                );
                lost = Some((color, Ending::Timeout, what));
                break 'game;
            }
            let mv = match answer {
                Ok(PlayerMove::Play(mv)) => mv,
                Ok(PlayerMove::Resign) => {
                    r.game.resign(color);
                    break 'game;
                }
                Err(e) => {
                    lost = Some(loss(color, &format!("genmove {color}"), e));
                    break 'game;
                }
            };
            let Move::Place(p) = mv else {
                // A pass is always legal (RULES.md 5.2).
                if let Err(l) = r.apply(color, Move::Pass, true) {
                    lost = Some(l);
                }
                break;
            };
            if r.game.check(color, mv).is_ok() {
                if let Err(l) = r.apply(color, mv, true) {
                    lost = Some(l);
                }
                break;
            }
            // An illegal attempt: answered, counted, announced (not where) to the opponent.
            r.conduct.bump(color, |c| (&mut c.illegal_black, &mut c.illegal_white));
            let own = r.game.board().cell(p).color() == Some(color);
            if own || refused.contains(&p) {
                r.conduct.bump(color, |c| (&mut c.repeats_black, &mut c.repeats_white));
            }
            refused.push(p);
            r.attempts_note.push(format!("{} {}", color.letter().to_ascii_uppercase(), geo.vertex(p)));
            if let Err(e) = r.players[color].phantom(&Message::Illegal(p)) {
                lost = Some(loss(color, &format!("phantom-illegal {}", geo.vertex(p)), e));
                break 'game;
            }
            if let Err(e) = r.players[other].phantom(&Message::OpponentIllegal) {
                lost = Some(loss(other, "phantom-opponent-illegal", e));
                break 'game;
            }
            if refused.len() as u32 >= MAX_ATTEMPTS {
                // RULES.md 5.2: the player passes; it is told so with `play C pass`.
                r.conduct.bump(color, |c| (&mut c.limit_black, &mut c.limit_white));
                if let Err(l) = r.apply(color, Move::Pass, false) {
                    lost = Some(l);
                }
                break;
            }
        }
        if clocked {
            let (seconds, count) = clock.time_left_of(color);
            let mark = TimeMark { seconds, overtime_count: (count > 0).then_some(count) };
            marks.push((r.game.moves().len().saturating_sub(1), mark));
        }
    }

    let (outcome, ending, detail) = match lost {
        Some((loser, ending, detail)) => {
            let reason = if ending == Ending::Timeout { EndReason::Time } else { EndReason::Forfeit };
            (Outcome::win(loser.opponent(), 0.0, reason), ending, Some(detail))
        }
        None => match r.game.outcome() {
            // RULES.md 5.2: area, no dead stones removed.
            Some(o) if o.reason == EndReason::TwoPasses => {
                (r.game.score(&[]).unwrap_or(o), Ending::TwoPasses, None)
            }
            Some(o) => (
                o,
                if o.reason == EndReason::Resignation { Ending::Resignation } else { Ending::Forfeit },
                None,
            ),
            None => (r.game.score(&[]).expect("area scoring"), Ending::MoveLimit, None),
        },
    };
    let result = outcome.to_string();
    let mut record = GameRecord::new(spec.setup.size);
    record.komi = Some(spec.setup.rules.komi_value());
    record.rules = Some(spec.setup.rules.to_string());
    record.moves = r
        .game
        .moves()
        .iter()
        .zip(&r.comments)
        .map(|(&(color, m), comment)| RecordMove {
            color,
            at: match m {
                Move::Place(p) => Some(geo.xy(p)),
                _ => None,
            },
            comment: comment.clone(),
            time_left: None,
            war: None,
        })
        .collect();
    if !r.attempts_note.is_empty() {
        // Attempts after the last move (a forfeit or resignation followed them).
        record.root_comment =
            Some(format!("illegal attempts after the last move: {}", r.attempts_note.join(", ")));
    }
    finish_record(&mut record, &result, marks);
    Ok(GameOutcome {
        record,
        result,
        winner: outcome.winner,
        ending,
        detail,
        moves: r.game.moves().len(),
        opening_moves: opening,
        time,
        genmoves,
        player_scores: ByColor::new(None, None),
        phantom: Some(r.conduct),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Geometry;
    use crate::engine::{Engine, EngineOptions};
    use crate::selfplay::game::GameSpec;
    use crate::selfplay::player::{EnginePlayer, GameSetup};

    fn spec(size: usize, max_moves: usize) -> GameSpec {
        GameSpec {
            setup: GameSetup {
                rules: RulesConfig::parse("phantom").unwrap(),
                size,
                handicap: 0,
                index: 0,
                clock: TimeSystem::None,
            },
            referee: EngineOptions::default(),
            opening_moves: 0,
            opening_seed: 0,
            max_moves,
        }
    }

    fn quick(seed: u64) -> EngineOptions {
        EngineOptions { playouts: Some(64), threads: Some(1), seed, ..EngineOptions::default() }
    }

    /// A scripted player: `propose` gives its answer to the n-th `genmove` (from 0); it logs every
    /// message and fails the messages `refuse` names.
    struct Scripted {
        propose: Box<dyn FnMut(u32) -> Result<PlayerMove, PlayerError> + Send>,
        asked: u32,
        log: Vec<String>,
        refuse_moved: bool,
    }

    impl Scripted {
        fn new(propose: impl FnMut(u32) -> Result<PlayerMove, PlayerError> + Send + 'static) -> Scripted {
            Scripted { propose: Box::new(propose), asked: 0, log: Vec::new(), refuse_moved: false }
        }
    }

    impl Player for Scripted {
        fn name(&self) -> String {
            "scripted".into()
        }
        fn new_game(&mut self, _: &GameSetup) -> Result<(), PlayerError> {
            Ok(())
        }
        fn play(&mut self, color: Color, mv: Move) -> Result<(), PlayerError> {
            self.log.push(format!("play {color} {mv:?}"));
            Ok(())
        }
        fn time_left(&mut self, _: Color, _: ClockReading) -> Result<(), PlayerError> {
            Ok(())
        }
        fn genmove(&mut self, _: Color) -> Result<PlayerMove, PlayerError> {
            self.asked += 1;
            (self.propose)(self.asked - 1)
        }
        fn final_score(&mut self) -> Option<String> {
            None
        }
        fn phantom(&mut self, message: &Message) -> Result<(), PlayerError> {
            self.log.push(format!("{message:?}"));
            if self.refuse_moved && matches!(message, Message::OpponentMoved { .. }) {
                return Err(PlayerError::Refused("`phantom-opponent-moved`: no".into()));
            }
            Ok(())
        }
    }

    fn at(size: usize, v: &str) -> Move {
        Move::Place(Geometry::new(size).parse_vertex(v).unwrap())
    }

    fn passer() -> Scripted {
        Scripted::new(|_| Ok(PlayerMove::Play(Move::Pass)))
    }

    #[test]
    fn a_repeated_proposal_is_refused_counted_and_ends_in_a_pass_at_the_limit() {
        // Black proposes C3 for ever: legal once, then its own stone (a repeat) every time.
        let mut black = Scripted::new(|_| Ok(PlayerMove::Play(at(5, "C3"))));
        let mut white = passer();
        let out = play_game(&spec(5, 100), ByColor::new(&mut black as &mut dyn Player, &mut white)).unwrap();
        let c = out.phantom.unwrap();
        // B C3, W pass, then 50 refusals and the referee's pass: two passes end it.
        assert_eq!((c.illegal_black, c.repeats_black, c.limit_black), (50, 50, 1));
        assert_eq!((c.illegal_white, c.repeats_white, c.limit_white), (0, 0, 0));
        assert_eq!(out.ending, Ending::TwoPasses);
        // Counted by area, nothing removed: Black's one stone owns the board.
        assert_eq!(out.result, "B+17.5");
        assert_eq!(out.genmoves.black, 51);
        // Black was told each refusal and its pass; White each attempt, the moves, the passes.
        let illegal = black.log.iter().filter(|l| l.starts_with("Illegal")).count();
        assert_eq!(illegal, 50);
        assert_eq!(black.log.last().unwrap(), "play black Pass");
        let attempts = white.log.iter().filter(|l| *l == "OpponentIllegal").count();
        assert_eq!(attempts, 50);
        assert_eq!(white.log[0], "OpponentMoved { pass: false }");
        assert_eq!(white.log.last().unwrap(), "OpponentMoved { pass: true }");
        // The record: the true moves, the attempts as the comment of the move after them.
        let moves = &out.record.moves;
        assert_eq!(moves.len(), 3);
        assert_eq!(out.record.rules.as_deref(), Some("phantom:komi=7.5,walls=none"));
        let comment = moves[2].comment.as_deref().unwrap();
        assert!(comment.starts_with("illegal attempts: B C3, B C3"), "{comment}");
        assert_eq!(comment.matches("B C3").count(), 50);
    }

    #[test]
    fn fifty_different_illegal_proposals_pass_the_turn_without_a_repeat() {
        // White fills the first six rows of a 9x9 board (54 stones, never captured: Black has
        // none); Black passes until then, then proposes White's points one by one.
        let geo = Geometry::new(9);
        let points: Vec<Move> = (0..55).map(|i| Move::Place(geo.point(i % 9, i / 9))).collect();
        let filler = points.clone();
        let mut white = Scripted::new(move |n| Ok(PlayerMove::Play(filler[n as usize])));
        let mut black = Scripted::new(move |n| {
            Ok(PlayerMove::Play(if n < 54 { Move::Pass } else { points[(n - 54) as usize] }))
        });
        // Stop after Black's forced pass (move 109) and White's next move.
        let out = play_game(&spec(9, 110), ByColor::new(&mut black as &mut dyn Player, &mut white)).unwrap();
        let c = out.phantom.unwrap();
        assert_eq!((c.illegal_black, c.repeats_black, c.limit_black), (50, 0, 1));
        assert_eq!(out.ending, Ending::MoveLimit);
        assert_eq!(out.moves, 110);
        assert_eq!(out.record.moves[108].at, None, "Black's pass at the limit");
    }

    #[test]
    fn a_crash_or_a_refusal_forfeits() {
        for (fault, detail) in [
            (PlayerError::Crashed("exit 3".into()), "crashed"),
            (PlayerError::Refused("`genmove w`: cannot".into()), "refused"),
        ] {
            let mut fault = Some(fault);
            let mut black =
                Scripted::new(|n| Ok(PlayerMove::Play(at(5, ["C3", "B2", "D4"][n as usize % 3]))));
            let mut white = Scripted::new(move |n| match n {
                0 => Ok(PlayerMove::Play(at(5, "A1"))),
                _ => Err(fault.take().unwrap()),
            });
            let out =
                play_game(&spec(5, 100), ByColor::new(&mut black as &mut dyn Player, &mut white)).unwrap();
            assert_eq!(out.ending, Ending::Forfeit);
            assert_eq!(out.result, "B+F");
            assert!(out.detail.as_deref().unwrap().contains(detail), "{:?}", out.detail);
            assert_eq!(out.moves, 3);
        }
        // A `?` to a referee's message forfeits too.
        let mut black = Scripted::new(|_| Ok(PlayerMove::Play(at(5, "C3"))));
        let mut white = passer();
        white.refuse_moved = true;
        let out = play_game(&spec(5, 100), ByColor::new(&mut black as &mut dyn Player, &mut white)).unwrap();
        assert_eq!((out.ending, out.result.as_str()), (Ending::Forfeit, "B+F"));
        assert!(out.detail.unwrap().contains("phantom-opponent-moved"));
    }

    #[test]
    fn captures_are_announced_to_both_mover_first() {
        // Black surrounds White's A1 stone: B2? No: White A1, Black A2 and B1 capture it.
        let mut black = Scripted::new(|n| Ok(PlayerMove::Play(at(5, ["A2", "B1", "E5"][n as usize]))));
        let mut white =
            Scripted::new(|n| Ok(PlayerMove::Play(if n == 0 { at(5, "A1") } else { Move::Pass })));
        let out = play_game(&spec(5, 4), ByColor::new(&mut black as &mut dyn Player, &mut white)).unwrap();
        assert_eq!(out.ending, Ending::MoveLimit);
        let a1 = Geometry::new(5).parse_vertex("A1").unwrap();
        let removed = format!("{:?}", Message::Removed(vec![a1]));
        // Black: after its B1 it hears of the capture before White's next move.
        assert_eq!(
            black.log,
            ["OpponentMoved { pass: false }", removed.as_str(), "OpponentMoved { pass: true }"]
        );
        // White: Black's move, then the capture.
        assert_eq!(
            white.log,
            ["OpponentMoved { pass: false }", "OpponentMoved { pass: false }", removed.as_str()]
        );
        // Black's 4 ... area with no dead stones removed: Black 2 stones + the empty region it
        // alone borders (all 23 other points), White 0.
        assert_eq!(out.result, "B+17.5");
    }

    #[test]
    fn tengen_against_itself_keeps_a_view_that_matches_the_true_board() {
        for index in 0..2 {
            let mut s = spec(5, 60);
            s.setup.index = index;
            s.opening_moves = 2;
            let mut a = EnginePlayer::new("A", quick(1));
            let mut b = EnginePlayer::new("B", quick(2));
            let out = play_game(&s, ByColor::new(&mut a as &mut dyn Player, &mut b)).unwrap();
            assert!(!matches!(out.ending, Ending::Forfeit | Ending::Timeout), "{:?}", out.detail);
            let c = out.phantom.unwrap();
            // tengen never proposes a point it was told is illegal, nor its own stone.
            assert_eq!((c.repeats_black, c.repeats_white, c.limit_black, c.limit_white), (0, 0, 0, 0));
            // The record replays on a normal board; each player's own stones are the true ones.
            let mut e = Engine::new(EngineOptions::default());
            e.load_record(&GameRecord::parse(&out.record.to_sgf()).unwrap(), None).unwrap();
            assert_eq!(e.game().moves().len(), out.moves);
            let truth = e.game().board();
            for (player, color) in [(&a, Color::Black), (&b, Color::White)] {
                let view = player.current_engine().unwrap().game().board();
                for p in truth.geometry().points() {
                    let mine =
                        |b: &crate::board::Board<crate::board::AnyTopology>| b.cell(p).color() == Some(color);
                    assert_eq!(
                        mine(view),
                        mine(truth),
                        "game {index}, {color} at {}",
                        truth.geometry().vertex(p)
                    );
                    // A known opponent stone is a true one.
                    if view.cell(p).color() == Some(color.opponent()) {
                        assert_eq!(
                            truth.cell(p).color(),
                            Some(color.opponent()),
                            "{}\n{}\n{}",
                            truth.to_diagram(),
                            view.to_diagram(),
                            out.record.to_sgf()
                        );
                    }
                }
            }
        }
    }
}
