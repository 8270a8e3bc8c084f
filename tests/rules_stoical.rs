//! Diagram tests for RULES.md section 4 (Stoical Go, seed 002). Each test's doc comment quotes the line of
//! RULES.md it checks. Diagrams are rows top first: `X` black, `O` white, `.` empty.

mod common;

use common::{game, mv, play, pt, state, try_play};
use tengen::board::{Board, Color};
use tengen::rules::{EndReason, Game, Illegal, Position, RulesConfig, Stoical};

fn stoical(s: &str) -> Stoical {
    RulesConfig::parse(s).unwrap().stoical()
}

/// Three kos on a 9x9 board (as in `rules_go.rs`). k1 (A1-D3): White's stone at B2 can be taken at C2,
/// then retaken at B2. k2 (F1-J3): Black's stone at H2 can be taken at G2. k3 (A5-D7): like k1.
const TRIPLE_KO: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . X O . . . . . .
    X O . O . . . . .
    . X O . . . . . .
    . . . . . . . . .
    . X O . . . X O .
    X O . O . X . X O
    . X O . . . X O .
";

/// Black owns A1-A5 behind B1-B5; White's C1-C5 faces D1-E5, where Black's D2 stands.
const SCORE: &str = "
    . X O . .
    . X O . .
    . X O . .
    . X O X .
    . X O . .
";

/// Captures on both sides, each one move away: Black A2 takes A1, Black C4 takes C5, White E2 takes E1.
const CAPTURES: &str = "
    . X O X .
    . . . . .
    . . . . .
    . . . . .
    O X . O X
";

/// A snapback: Black's throw-in at B1 is taken by White A1 (one stone, by a stone joining A2-C1), which
/// leaves White's five stones with B1 as their last liberty.
const SNAPBACK: &str = "
    . . . . .
    . . . . .
    X X X X .
    O O O X .
    . . O X .
";

/// RULES.md 4: "Standard Go with **area scoring** and komi, passes, two passes end the game". The
/// default komi is 7.5; with D2 alive Black has 11 points against White's 5 (W+1.5); prisoners do not
/// count. With komi 6 the same count is a draw.
#[test]
fn area_scoring_with_komi_after_two_passes() {
    assert_eq!(stoical("stoical").komi, 7.5);
    let mut pos = Position::new(&stoical("stoical"), Board::from_diagram(SCORE));
    pos.prisoners.black = 9;
    let mut g = Game::from_position(stoical("stoical"), pos);
    play(&mut g, "pass");
    assert!(!g.is_over());
    play(&mut g, "pass");
    let out = g.outcome().expect("two passes");
    assert_eq!((out.reason, out.to_string()), (EndReason::TwoPasses, "W+1.5".into()));
    let mut g = game(stoical("stoical:komi=6"), SCORE, Color::Black);
    play(&mut g, "pass pass");
    assert_eq!(g.outcome().unwrap().to_string(), "0");
}

/// RULES.md 4: "**suicide forbidden**" (one stone or several).
#[test]
fn suicide_is_forbidden() {
    let diagram = "
        . . . O .
        . . . . O
        O O . . .
        X X O . .
        . O . . .
    ";
    let mut g = game(stoical("stoical"), diagram, Color::Black);
    assert_eq!(try_play(&mut g, "A1"), Err(Illegal::Suicide));
    assert_eq!(try_play(&mut g, "E5"), Err(Illegal::Suicide));
}

/// RULES.md 4: "a **capturing** placement is illegal if the opponent's previous move was a capturing
/// placement. (If the opponent passed, or played without capturing, any capture is allowed.)" The ban
/// covers every capture on the board, not only a recapture.
#[test]
fn no_capture_right_after_a_capture() {
    let mut g = game(stoical("stoical"), CAPTURES, Color::Black);
    assert_eq!(play(&mut g, "A2").captured, 1);
    assert_eq!(try_play(&mut g, "E2"), Err(Illegal::CaptureAfterCapture));
    assert!(!g.legal_moves(Color::White).contains(&mv(g.board(), "E2")));
    // White passes: Black may capture again.
    play(&mut g, "pass");
    assert_eq!(play(&mut g, "C4").captured, 1);
    assert_eq!(try_play(&mut g, "E2"), Err(Illegal::CaptureAfterCapture));
    // White plays without capturing, Black too: now White's capture is allowed.
    play(&mut g, "B3 D3");
    assert_eq!(play(&mut g, "E2").captured, 1);
    assert_eq!(g.position().prisoners.black, 2);
    assert_eq!(g.position().prisoners.white, 1);
}

/// RULES.md 4: "**No ko rule.**" The immediate ko recapture is refused only as a capture after a capture;
/// once a move without a capture came between, the ko is retaken as in Go.
#[test]
fn no_ko_rule_only_the_capture_ban() {
    let mut g = game(stoical("stoical"), TRIPLE_KO, Color::Black);
    play(&mut g, "C2");
    assert_eq!(try_play(&mut g, "B2"), Err(Illegal::CaptureAfterCapture));
    play(&mut g, "E5 E6");
    assert_eq!(play(&mut g, "B2").captured, 1);
}

/// RULES.md 4: "**Repetition ends the game in a draw:** if a placement produces a board position equal to
/// any earlier board position of the game, the game ends at once, result `0` (draw)." On 3x3 with White to
/// move: White A2 takes A3, Black passes, White A1 (no capture), and Black A3 takes A1-A2: the start
/// position again. Under positional superko this move would be illegal; here it is legal and draws.
#[test]
fn repetition_ends_in_a_draw() {
    let start = "
        X O .
        . X O
        . X .
    ";
    let mut g = game(stoical("stoical"), start, Color::White);
    play(&mut g, "A2 pass A1");
    assert!(!g.is_over());
    let placed = play(&mut g, "A3");
    assert_eq!(placed.captured, 2);
    assert_eq!(g.board().to_diagram(), Board::from_diagram(start).to_diagram());
    let out = g.outcome().expect("a repetition ends the game");
    assert_eq!((out.winner, out.reason, out.to_string()), (None, EndReason::Repetition, "0".into()));
    assert!(g.legal_moves(Color::White).is_empty());
    assert_eq!(try_play(&mut g, "C3"), Err(Illegal::GameOver));
    // The same moves under standard Go with positional superko: the last one is refused.
    let mut go = game(RulesConfig::parse("go:ko=positional").unwrap().standard(), start, Color::White);
    play(&mut go, "A2 pass A1");
    assert_eq!(try_play(&mut go, "A3"), Err(Illegal::Superko));
}

/// RULES.md 4: repetition: "Passes never trigger this." A pass leaves the position as it was, and two
/// passes end the game with the area count, not a draw.
#[test]
fn passes_never_trigger_the_repetition_draw() {
    let mut g = game(stoical("stoical"), SCORE, Color::Black);
    play(&mut g, "pass E1 pass");
    assert!(!g.is_over());
    play(&mut g, "pass");
    let out = g.outcome().unwrap();
    assert_eq!(out.reason, EndReason::TwoPasses);
    assert_eq!(out.to_string(), "W+2.5");
}

/// RULES.md 4: "Option `snapback` (off by default ...): the second capture of a snapback is exempt from
/// the capture restriction. A snapback's first capture takes exactly one stone with a stone that joined an
/// already existing group; its second capture is a stone placed on the point just vacated that captures
/// that capturing group and, after the capture, has at least two liberties".
#[test]
fn snapback_option_exempts_the_second_capture() {
    assert!(!stoical("stoical").snapback);
    let mut g = game(stoical("stoical"), SNAPBACK, Color::Black);
    play(&mut g, "B1 A1");
    assert_eq!(try_play(&mut g, "B1"), Err(Illegal::CaptureAfterCapture));
    let mut g = game(stoical("stoical:snapback=on"), SNAPBACK, Color::Black);
    play(&mut g, "B1");
    assert_eq!(play(&mut g, "A1").captured, 1);
    let placed = play(&mut g, "B1");
    assert_eq!(placed.captured, 5);
    assert_eq!(g.position().prisoners.black, 5);
}

/// RULES.md 4: the exemption is only for a snapback's second capture: not for a capture elsewhere
/// ("a stone placed on the point just vacated"), not after a first capture of two stones ("takes exactly
/// one stone"), not when the recapturing stone is left with one liberty ("has at least two liberties"),
/// and not for a ko ("a stone that joined an already existing group").
#[test]
fn snapback_exemption_is_narrow() {
    let rules = stoical("stoical:snapback=on");
    // A capture elsewhere right after the first capture: the extra white stone at E3 could be taken at E2.
    let elsewhere = "
        . . . . .
        . . . . X
        X X X X O
        O O O X .
        . . O X .
    ";
    let mut g = game(rules.clone(), elsewhere, Color::Black);
    play(&mut g, "B1 A1");
    assert_eq!(try_play(&mut g, "E2"), Err(Illegal::CaptureAfterCapture));
    assert!(try_play(&mut g, "B1").is_ok());
    // White A3 takes two stones (A1-A2) by joining A4; Black A2 on a vacated point would take A3-A4 with
    // two liberties after, but the first capture took two stones.
    let two = "
        X . . . .
        O X . . .
        . X . . .
        X O . . .
        X O . . .
    ";
    let mut g = game(rules.clone(), two, Color::White);
    assert_eq!(play(&mut g, "A3").captured, 2);
    assert_eq!(try_play(&mut g, "A2"), Err(Illegal::CaptureAfterCapture));
    // Black's throw-in at A1 is taken by White A2 joining A3; Black A1 again would take A2-A3 but keep
    // only the liberty A2 (B1 is White's).
    let one_liberty = "
        . . . . .
        X . . . .
        O X . . .
        . X . . .
        . O . . .
    ";
    let mut g = game(rules.clone(), one_liberty, Color::Black);
    play(&mut g, "A1");
    assert_eq!(play(&mut g, "A2").captured, 1);
    assert_eq!(try_play(&mut g, "A1"), Err(Illegal::CaptureAfterCapture));
    // A ko: the capturing stone C2 joined no group.
    let mut g = game(rules, TRIPLE_KO, Color::Black);
    play(&mut g, "C2");
    assert_eq!(try_play(&mut g, "B2"), Err(Illegal::CaptureAfterCapture));
}

/// Undo restores everything: prisoners, stakes, ko state, a finished game. Through captures,
/// the capture ban, a snapback and a repetition draw, each undo gives back exactly the state before that
/// move (board internals, prisoners, the last-capture and snapback state, the outcome, the history).
#[test]
fn undo_restores_everything() {
    let mut g = game(stoical("stoical:snapback=on"), SNAPBACK, Color::Black);
    let mut states = vec![state(&g)];
    for m in ["B1", "A1", "B1", "pass", "E5"] {
        play(&mut g, m);
        states.push(state(&g));
    }
    states.pop();
    while let Some(before) = states.pop() {
        assert!(g.undo());
        assert_eq!(state(&g), before);
    }
    assert!(!g.undo());
    // The capture ban comes back with the capture it follows.
    play(&mut g, "B1 A1");
    assert!(g.check(Color::Black, mv(g.board(), "B1")).is_ok());
    assert!(g.undo());
    assert!(g.undo());
    assert_eq!(state(&g), state(&game(stoical("stoical:snapback=on"), SNAPBACK, Color::Black)));
    // A finished game (the repetition draw) is unfinished by undo.
    let start = "
        X O .
        . X O
        . X .
    ";
    let mut g = game(stoical("stoical"), start, Color::White);
    play(&mut g, "A2 pass A1");
    let before = state(&g);
    play(&mut g, "A3");
    assert!(g.is_over());
    assert!(g.undo());
    assert_eq!(state(&g), before);
    assert!(!g.is_over());
    assert_eq!(g.board().cell(pt(g.board(), "A1")), tengen::board::Cell::White);
}
