//! The referee of a War Go game (RULES.md section 7): a tengen engine under `war` keeps the true
//! game; each player answers `genmove` with a move word, which the referee checks and tells the
//! other player with `play`. The random opening places soldiers. A match clock is kept as in the
//! other variants (`RefereeClock`).

use super::game::{finish_record, Ending, GameOutcome, GameSpec, RefereeClock};
use super::player::{Player, PlayerError};
use crate::board::{ByColor, Color};
use crate::engine::{Engine, EngineOptions};
use crate::rules::war::WarMove;
use crate::rules::{EndReason, Outcome};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::time::Instant;

/// A random soldier placement for `color` that is legal and does not fill one of its own eyes.
fn opening_move(referee: &Engine, color: Color, rng: &mut Xoshiro256PlusPlus) -> Option<WarMove> {
    let game = referee.war_game()?;
    let pos = game.position();
    let mut points: Vec<_> = pos
        .geo
        .points()
        .filter(|&p| {
            pos.cell(p).is_empty() && pos.neighbours(p).iter().any(|&n| pos.cell(n).color() != Some(color))
        })
        .collect();
    while !points.is_empty() {
        let p = points.swap_remove(rng.gen_range(0..points.len()));
        if game.check(color, WarMove::Soldier(p)).is_ok() {
            return Some(WarMove::Soldier(p));
        }
    }
    None
}

/// Plays one War Go game: `players.black` has Black.
pub fn play_game(spec: &GameSpec, players: ByColor<&mut dyn Player>) -> Result<GameOutcome, PlayerError> {
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
    let geo = referee.war_game().expect("a War Go referee").position().geo;
    let mut time = ByColor::new(0.0, 0.0);
    let mut clock = RefereeClock::new(spec.setup.clock);
    let mut genmoves = ByColor::new(0u32, 0u32);
    let mut lost: Option<(Color, Ending, String)> = None;
    let moves = |r: &Engine| r.war_game().map_or(0, |g| g.move_count());
    let over = |r: &Engine| r.war_game().is_none_or(|g| g.is_over());

    let mut rng = Xoshiro256PlusPlus::seed_from_u64(spec.opening_seed);
    let mut opening = 0;
    while opening < spec.opening_moves && !over(&referee) && lost.is_none() {
        let color = referee.war_game().map_or(Color::Black, |g| g.to_move());
        let Some(mv) = opening_move(&referee, color, &mut rng) else { break };
        referee.war_play(color, mv).expect("opening moves are chosen among the legal ones");
        opening += 1;
        let word = mv.word(&geo);
        for c in [Color::Black, Color::White] {
            if let Err(e) = players[c].war_play(color, &word) {
                let ending = if e.is_timeout() { Ending::Timeout } else { Ending::Forfeit };
                lost = Some((c, ending, format!("opening move {color} {word}: {e}")));
                break;
            }
        }
    }

    while lost.is_none() && !over(&referee) {
        if moves(&referee) >= spec.max_moves {
            break;
        }
        let color = referee.war_game().map_or(Color::Black, |g| g.to_move());
        if let Err(loss) = clock.announce(&mut *players[color], color) {
            lost = Some(loss);
            break;
        }
        let start = Instant::now();
        let answer = players[color].war_genmove(color);
        let elapsed = start.elapsed();
        time[color] += elapsed.as_secs_f64();
        genmoves[color] += 1;
        if let Err(loss) = clock.charge(color, elapsed, moves(&referee)) {
            lost = Some(loss);
            break;
        }
        let word = match answer {
            Ok(Some(word)) => word,
            Ok(None) => {
                referee.resign(color);
                break;
            }
            Err(e) => {
                let ending = if e.is_timeout() { Ending::Timeout } else { Ending::Forfeit };
                lost = Some((color, ending, format!("genmove {color}: {e}")));
                break;
            }
        };
        let legal = WarMove::parse(&word, &geo).ok().map(|mv| referee.war_play(color, mv));
        if !matches!(legal, Some(Ok(()))) {
            lost = Some((color, Ending::Forfeit, format!("{color} played an illegal move {word}")));
            break;
        }
        let other = color.opponent();
        if let Err(e) = players[other].war_play(color, &word) {
            if over(&referee) {
                continue;
            }
            let ending = if e.is_timeout() { Ending::Timeout } else { Ending::Forfeit };
            lost =
                Some((other, ending, format!("{other} did not accept the legal move {color} {word}: {e}")));
        }
    }

    let outcome_now = referee.war_game().and_then(|g| g.outcome());
    let (outcome, ending, detail) = match lost {
        Some((loser, ending, detail)) => {
            let reason = if ending == Ending::Timeout { EndReason::Time } else { EndReason::Forfeit };
            (Outcome::win(loser.opponent(), 0.0, reason), ending, Some(detail))
        }
        None => match outcome_now {
            Some(o) if o.reason == EndReason::TwoPasses => {
                (referee.war_final_score().unwrap_or(o), Ending::TwoPasses, None)
            }
            Some(o) if o.reason == EndReason::Resignation => (o, Ending::Resignation, None),
            Some(o) => (o, Ending::Forfeit, None),
            None => (
                referee.war_final_score().unwrap_or(Outcome::draw(EndReason::TwoPasses)),
                Ending::MoveLimit,
                None,
            ),
        },
    };
    let mut player_scores = ByColor::new(None, None);
    if ending.is_scored() {
        for c in [Color::Black, Color::White] {
            player_scores[c] = players[c].final_score();
        }
    }
    let result = outcome.to_string();
    let mut record = referee.war_record();
    finish_record(&mut record, &result, clock.marks);
    Ok(GameOutcome {
        record,
        result,
        winner: outcome.winner,
        ending,
        detail,
        moves: moves(&referee),
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
    use crate::engine::TimeSystem;
    use crate::rules::RulesConfig;
    use crate::selfplay::player::{EnginePlayer, GameSetup};

    fn quick(seed: u64) -> EngineOptions {
        EngineOptions { playouts: Some(30), threads: Some(1), seed, ..EngineOptions::default() }
    }

    /// A self-play game under `war` ends, and its record replays move for move (every kind) with
    /// the referee's result.
    #[test]
    fn a_war_game_finishes_and_its_record_replays() {
        for index in 0..3 {
            let spec = GameSpec {
                setup: GameSetup {
                    rules: RulesConfig::parse("war:army=spy2+mercenary1+samurai2+bomb1+wall2").unwrap(),
                    size: 6,
                    handicap: 0,
                    index,
                    clock: TimeSystem::None,
                },
                referee: quick(0),
                opening_moves: 2,
                opening_seed: 7 + index,
                max_moves: 150,
            };
            let mut a = EnginePlayer::new("A", quick(1));
            let mut b = EnginePlayer::new("B", quick(2));
            let out = play_game(&spec, ByColor::new(&mut a as &mut dyn Player, &mut b)).unwrap();
            assert_ne!(out.ending, Ending::Forfeit, "{:?}", out.detail);
            assert_eq!(out.record.moves.len(), out.moves);
            assert!(out.moves > spec.opening_moves);
            let sgf = out.record.to_sgf();
            let record = crate::sgf::GameRecord::parse(&sgf).unwrap();
            let mut e = Engine::new(EngineOptions { size: 6, ..quick(3) });
            e.load_war_record(&record, None).unwrap();
            assert_eq!(e.war_game().unwrap().move_count(), out.moves);
            if out.ending == Ending::TwoPasses {
                assert!(e.war_game().unwrap().is_over());
            }
        }
    }

    /// Under a match clock the referee tells each player its time and records each timed move's
    /// clock reading (SGF `BL`/`WL`), as in the other variants; the opening is off the clock.
    #[test]
    fn a_war_game_on_a_match_clock_records_the_clock_after_every_timed_move() {
        let clock = crate::selfplay::clock::parse_clock("600+10x3").unwrap();
        let spec = GameSpec {
            setup: GameSetup {
                rules: RulesConfig::parse("war:army=spy1+samurai1").unwrap(),
                size: 5,
                handicap: 0,
                index: 0,
                clock,
            },
            referee: quick(0),
            opening_moves: 2,
            opening_seed: 3,
            max_moves: 80,
        };
        let mut a = EnginePlayer::new("A", quick(1));
        let mut b = EnginePlayer::new("B", quick(2));
        let out = play_game(&spec, ByColor::new(&mut a as &mut dyn Player, &mut b)).unwrap();
        assert_ne!(out.ending, Ending::Timeout, "{:?}", out.detail);
        let moves = &out.record.moves;
        assert!(moves.len() > 2);
        assert!(moves[..2].iter().all(|m| m.time_left.is_none()), "the opening is off the clock");
        for m in &moves[2..] {
            let left = m.time_left.expect("a timed move's clock reading");
            assert!(left.seconds > 0.0 && left.seconds <= 600.0, "{left:?}");
        }
        assert!(out.record.to_sgf().contains("BL["));
    }
}
