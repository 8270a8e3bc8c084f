//! Whole games over GTP through the real binary, the engine generating both colours, under a game
//! clock and with one and two search threads.
//!
//! The test is the controller: it announces the clock (`time_settings`, or `kgs-time_settings` for
//! byo-yomi and Canadian overtime), keeps both players' clocks as a match referee does (with the
//! engine's own [`Clock`] model, which `tengen match --clock` also referees with), sends `time_left`
//! before every `genmove` and charges each move the time from sending `genmove` to its answer. The
//! flag must never fall over a whole game: the engine's time manager, its `--lag` margin and the
//! end-of-game judgement it runs before passing must all stay within the clock. There is no timing
//! threshold of the test's own: the clock's rules decide.
//!
//! Every move is also replayed on the reference implementation of the rules (`tests/reference/`):
//! it must be legal there, the engine's board must stay equal to the reference's, and at the end the
//! engine's `final_score` must be the reference's count with the engine's dead stones removed. With
//! two threads this checks that a multi-threaded `genmove` answers a legal move and leaves the game
//! state consistent.

mod reference;

use reference::{End, Game, Mv, Rules, Variant, BLACK};
use std::time::{Duration, Instant};
use tengen::board::Color;
use tengen::engine::{Clock, TimeSystem};
use tengen::selfplay::gtp_client::{GtpClient, SpawnOptions};

/// Guards against hangs only (the machine is shared); the clock is what the test checks.
const HANG_GUARD: Duration = Duration::from_secs(120);

/// The board of the timed games: small, so that a whole game under a real clock stays short.
const SIZE: usize = 7;

/// Seconds kept in reserve on every clock reading (`--lag`): the pipe and process switches between
/// this controller and the engine.
const LAG: &str = "0.1";

fn tengen(args: &[&str]) -> GtpClient {
    let mut argv = vec![env!("CARGO_BIN_EXE_tengen").to_string(), "gtp".into()];
    argv.extend(args.iter().map(|s| s.to_string()));
    GtpClient::spawn_argv(
        &argv,
        SpawnOptions { admin_timeout: HANG_GUARD, startup_timeout: HANG_GUARD, ..SpawnOptions::default() },
    )
    .expect("tengen starts")
}

fn send(c: &mut GtpClient, cmd: &str) -> String {
    c.send(cmd, HANG_GUARD).unwrap_or_else(|e| panic!("{cmd}: {e:?}"))
}

fn name(c: Color) -> &'static str {
    match c {
        Color::Black => "black",
        Color::White => "white",
    }
}

/// Plays a whole game of Go on 7x7 under `system`, announced by `announce`, with `threads` search
/// threads; returns the number of moves and the result.
fn timed_game(announce: &str, system: TimeSystem, threads: usize, seed: u64) -> (usize, String) {
    let label = format!("{announce}, {threads} thread(s), seed {seed}");
    let (threads_arg, seed_arg) = (threads.to_string(), seed.to_string());
    // No resignation: every game ends in two passes, so the pass decisions and their end-of-game
    // judgement run under the clock too, and the count is checked.
    let mut e = tengen(&["--threads", &threads_arg, "--seed", &seed_arg, "--lag", LAG, "--resign", "off"]);
    send(&mut e, &format!("boardsize {SIZE}"));
    send(&mut e, "clear_board");
    send(&mut e, announce);
    // About a fair komi on 7x7, so that neither side resigns at once.
    send(&mut e, "komi 8.5");
    let mut model = Game::new(SIZE, Rules::new(Variant::Go), 8.5);
    let mut clock = Clock::default();
    clock.set(system);
    let mut color = Color::Black;
    let mut moves = 0;
    loop {
        assert!(moves < 3 * SIZE * SIZE, "{label}: no end after {moves} moves");
        let (seconds, count) = clock.time_left_of(color);
        send(&mut e, &format!("time_left {} {seconds} {count}", name(color)));
        let flag = clock.flag_limit(color).expect("a clock");
        let asked = Instant::now();
        let mv = send(&mut e, &format!("genmove {}", name(color)));
        let elapsed = asked.elapsed();
        assert!(
            clock.spend(color, elapsed),
            "{label}: {} lost on time at move {}: {:.3} s for a move with {:.3} s on the clock",
            name(color),
            moves + 1,
            elapsed.as_secs_f64(),
            flag.as_secs_f64()
        );
        assert_ne!(mv, "resign", "{label}: resigned with --resign off");
        let c = if color == Color::Black { BLACK } else { reference::WHITE };
        let m = match model.point(&mv) {
            Some(p) => Mv::Place(p),
            None => {
                assert!(mv.eq_ignore_ascii_case("pass"), "{label}: {mv}");
                Mv::Pass
            }
        };
        assert!(model.play(c, m), "{label}: {} {mv} is illegal\n{}", name(color), model.board_rows());
        moves += 1;
        assert_eq!(send(&mut e, "gogui-rules_board"), model.board_rows(), "{label}: after {mv}");
        if model.end().is_some() {
            break;
        }
        color = color.opponent();
    }
    assert_eq!(model.end(), Some(End::TwoPasses));
    let dead = send(&mut e, "final_status_list dead");
    let dead: Vec<usize> = dead.split_whitespace().map(|v| model.point(v).expect("a vertex")).collect();
    let result = send(&mut e, "final_score");
    assert_eq!(result, model.result_without(&dead), "{label}: the count");
    e.quit().unwrap();
    eprintln!("{label}: {moves} moves, {result}");
    (moves, result)
}

/// Absolute time (`time_settings M 0 0`): the main time is spread over the game.
#[test]
fn absolute_time_over_a_whole_game() {
    for threads in [1, 2] {
        timed_game("time_settings 4 0 0", TimeSystem::Absolute { main: 4.0 }, threads, 1);
    }
}

/// Japanese byo-yomi (`kgs-time_settings byoyomi`): a little main time, then every move within a
/// period of 0.25 s (two of them).
#[test]
fn byoyomi_over_a_whole_game() {
    let system = TimeSystem::Byoyomi { main: 1.0, period: 0.25, periods: 2 };
    for threads in [1, 2] {
        timed_game("kgs-time_settings byoyomi 1 0.25 2", system, threads, 2);
    }
}

/// Canadian overtime, announced both ways: `kgs-time_settings canadian` and GTP's own
/// `time_settings M B S` (B seconds for S stones).
#[test]
fn canadian_overtime_over_a_whole_game() {
    let system = TimeSystem::Canadian { main: 1.0, period: 1.5, stones: 5 };
    timed_game("kgs-time_settings canadian 1 1.5 5", system, 1, 3);
    timed_game("time_settings 1 1.5 5", system, 2, 3);
}
