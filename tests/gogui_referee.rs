//! GoGui's referee mode, scripted: one tengen plays (`genmove` for both colours), a second copy started
//! with the same command line referees, and it receives exactly the commands GoGui sends a rules
//! program (attach: `gogui-analyze_commands`, `gogui-rules_game_id`, `_board_size`; every move:
//! `_side_to_move`, `_legal_moves`, `play`, `_board`, `_board_size`, `_side_to_move`, `_legal_moves`,
//! `_captured_count`; at the end `_final_result`). After every move the board GoGui would draw (the
//! referee's `gogui-rules_board`) must equal the player's, and the game must end with a result shown.

use std::time::Duration;
use tengen::selfplay::gtp_client::{GtpClient, SpawnOptions};

/// Guards against hangs only; the machine is shared.
const LONG: Duration = Duration::from_secs(120);

fn tengen(args: &[&str]) -> GtpClient {
    let mut argv = vec![env!("CARGO_BIN_EXE_tengen").to_string(), "gtp".into()];
    argv.extend(args.iter().map(|s| s.to_string()));
    GtpClient::spawn_argv(
        &argv,
        SpawnOptions { admin_timeout: LONG, startup_timeout: LONG, ..SpawnOptions::default() },
    )
    .expect("tengen starts")
}

fn send(c: &mut GtpClient, cmd: &str) -> String {
    c.send(cmd, LONG).unwrap_or_else(|e| panic!("{cmd}: {e:?}"))
}

/// The stones of a `gogui-rules_board` answer the way GoGui reads them: `X`, `O` and `.` in order.
fn stones(board: &str) -> String {
    board.chars().filter(|c| matches!(c, 'X' | 'O' | '.' | '\n')).collect()
}

/// Plays one game of `rules` on `size` under the referee; returns the number of moves and the result.
fn refereed_game(rules: &str, size: usize, seed: &str, max_moves: usize) -> (usize, String) {
    let common = ["--rules", rules, "--seed", seed, "--threads", "1", "--playouts", "60"];
    let mut player = tengen(&common);
    // The referee judges dead stones with a search of its own: a fixed seed keeps that judgement,
    // and so the result compared below, the same on every run (without one it draws a seed).
    let mut referee = tengen(&["--rules", rules, "--seed", "0"]);

    // Attaching the rules program.
    let menu = send(&mut referee, "gogui-analyze_commands");
    assert!(!menu.is_empty(), "a rules program must list analyze commands");
    let game_id = send(&mut referee, "gogui-rules_game_id");
    assert_ne!(game_id, "Go", "GoGui referees only games other than Go");
    let listed = send(&mut referee, "list_commands");
    for needed in ["gogui-rules_game_id", "gogui-rules_legal_moves", "gogui-rules_side_to_move"] {
        assert!(listed.lines().any(|l| l == needed), "{needed} listed");
    }
    for c in [&mut player, &mut referee] {
        send(c, &format!("boardsize {size}"));
        send(c, "clear_board");
    }
    assert_eq!(send(&mut referee, "gogui-rules_board_size"), size.to_string());

    let mut moves = 0;
    loop {
        let legal = send(&mut referee, "gogui-rules_legal_moves");
        if legal.is_empty() {
            break;
        }
        assert!(moves < max_moves, "{rules}: no end after {moves} moves");
        let to_move = send(&mut referee, "gogui-rules_side_to_move");
        assert_eq!(
            to_move,
            send(&mut player, "gogui-rules_side_to_move"),
            "side to move after {moves} moves"
        );
        let mv = send(&mut player, &format!("genmove {to_move}"));
        if mv == "resign" {
            // GoGui records a resignation itself; the referee is not told.
            return (moves, "resigned".into());
        }
        // GoGui lets the user click only what the referee lists.
        let word = mv.to_ascii_uppercase();
        let allowed = legal.split_whitespace().any(|w| w.eq_ignore_ascii_case(&word));
        assert!(allowed, "{rules}: {to_move} {mv} is not among the referee's legal moves: {legal}");
        send(&mut referee, "gogui-rules_side_to_move");
        send(&mut referee, &format!("play {to_move} {mv}"));
        moves += 1;
        let board = send(&mut referee, "gogui-rules_board");
        assert_eq!(send(&mut referee, "gogui-rules_board_size"), size.to_string());
        assert_eq!(board.lines().count(), size, "{board}");
        assert_eq!(
            stones(&board),
            stones(&send(&mut player, "gogui-rules_board")),
            "{rules}: boards differ after move {moves} ({to_move} {mv})"
        );
        assert_eq!(
            send(&mut referee, "gogui-rules_side_to_move"),
            send(&mut player, "gogui-rules_side_to_move")
        );
        assert_eq!(
            send(&mut referee, "gogui-rules_captured_count"),
            send(&mut player, "gogui-rules_captured_count")
        );
    }
    let result = send(&mut referee, "gogui-rules_final_result");
    assert!(!result.is_empty(), "{rules}: a finished game shows its result");
    assert_eq!(result, send(&mut player, "gogui-rules_final_result"));
    player.quit().unwrap();
    referee.quit().unwrap();
    (moves, result)
}

#[test]
fn referee_matches_the_player_in_stones() {
    for seed in ["1", "2"] {
        let (moves, result) = refereed_game("stones", 7, seed, 2_000);
        eprintln!("stones seed {seed}: {moves} moves, {result}");
    }
}

#[test]
fn referee_matches_the_player_in_stoical() {
    for (rules, seed) in [("stoical", "1"), ("stoical:snapback=on", "2")] {
        let (moves, result) = refereed_game(rules, 7, seed, 2_000);
        eprintln!("{rules} seed {seed}: {moves} moves, {result}");
    }
}

#[test]
fn referee_sees_walls_and_small_threshold_games() {
    let (moves, result) = refereed_game("stones:threshold=2,walls=D4", 7, "3", 2_000);
    eprintln!("stones with a wall: {moves} moves, {result}");
}
