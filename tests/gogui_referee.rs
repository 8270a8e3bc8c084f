//! GoGui's referee mode, scripted: one tengen plays (`genmove` for both colours), a second copy started
//! with the same command line referees, and it receives exactly the commands GoGui sends a rules
//! program (attach: `gogui-analyze_commands`, `gogui-rules_game_id`, `_board_size`; every move:
//! `_side_to_move`, `_legal_moves`, `play`, `_board`, `_board_size`, `_side_to_move`, `_legal_moves`,
//! `_captured_count`; at the end `_final_result`). The player and the referee are the same binary, so
//! their agreement alone proves little: every answer the referee gives is also checked against the
//! independent reference implementation of RULES.md (`tests/reference/`), which replays the game
//! beside it: the legal moves GoGui offers, the board it draws, the prisoners, the side to move, and
//! the final result (after two passes, counted by the reference with the referee's dead stones
//! removed). The player never resigns (`--resign off`), so every game reaches its end by the rules and
//! the end is always checked.

mod reference;

use reference::{End, Game, Mv, Rules, Variant, BLACK, WHITE};
use std::collections::BTreeSet;
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

/// The reference's side to move, as GTP names it.
fn colour(c: u8) -> &'static str {
    if c == BLACK {
        "black"
    } else {
        "white"
    }
}

/// The reference's legal moves as GoGui lists them: the placements, and `pass` for any pass-like move.
fn legal_moves(g: &Game) -> BTreeSet<String> {
    if g.end().is_some() {
        return BTreeSet::new();
    }
    let (placements, pass) = g.legal(g.to_move());
    let mut moves: BTreeSet<String> = placements.iter().map(|&p| g.vertex(p)).collect();
    if pass {
        moves.insert("pass".into());
    }
    moves
}

/// Plays one game of `rules` (`reference` the same rules for the reference) on `size` under the
/// referee; returns the number of moves and the result.
fn refereed_game(
    rules: &str,
    reference: Rules,
    size: usize,
    seed: &str,
    max_moves: usize,
) -> (usize, String) {
    let common = ["--rules", rules, "--seed", seed, "--threads", "1", "--playouts", "60", "--resign", "off"];
    let mut player = tengen(&common);
    // The referee searches only to judge dead stones at the end; a seed of its own keeps that
    // reproducible too.
    let mut referee = tengen(&["--rules", rules, "--seed", "1", "--threads", "1"]);
    let komi = reference.default_komi();
    let mut model = Game::new(size, reference, komi);

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
    assert_eq!(stones(&send(&mut referee, "gogui-rules_board")), stones(&model.board_rows()));

    let mut moves = 0;
    loop {
        let legal = send(&mut referee, "gogui-rules_legal_moves");
        let listed: BTreeSet<String> = legal.split_whitespace().map(|w| w.to_ascii_uppercase()).collect();
        let expected: BTreeSet<String> = legal_moves(&model).iter().map(|w| w.to_ascii_uppercase()).collect();
        assert_eq!(listed, expected, "{rules}: legal moves after {moves} moves\n{}", model.board_rows());
        if legal.is_empty() {
            break;
        }
        assert!(moves < max_moves, "{rules}: no end after {moves} moves");
        let to_move = send(&mut referee, "gogui-rules_side_to_move");
        assert_eq!(to_move, colour(model.to_move()), "side to move after {moves} moves");
        assert_eq!(
            to_move,
            send(&mut player, "gogui-rules_side_to_move"),
            "side to move after {moves} moves"
        );
        let mv = send(&mut player, &format!("genmove {to_move}"));
        assert_ne!(mv, "resign", "{rules}: the player resigned with --resign off");
        // GoGui lets the user click only what the referee lists.
        let word = mv.to_ascii_uppercase();
        assert!(
            listed.contains(&word),
            "{rules}: {to_move} {mv} is not among the referee's legal moves: {legal}"
        );
        let color = model.to_move();
        let reference_move = match model.point(&mv) {
            Some(p) => Mv::Place(p),
            None => {
                assert!(mv.eq_ignore_ascii_case("pass"), "{rules}: {mv}");
                model.pass_move(color)
            }
        };
        assert!(model.play(color, reference_move), "{rules}: the reference refuses {to_move} {mv}");
        send(&mut referee, "gogui-rules_side_to_move");
        send(&mut referee, &format!("play {to_move} {mv}"));
        moves += 1;
        let board = send(&mut referee, "gogui-rules_board");
        assert_eq!(send(&mut referee, "gogui-rules_board_size"), size.to_string());
        assert_eq!(board.lines().count(), size, "{board}");
        assert_eq!(
            stones(&board),
            stones(&model.board_rows()),
            "{rules}: the referee's board differs from the reference after move {moves} ({to_move} {mv})"
        );
        assert_eq!(
            stones(&board),
            stones(&send(&mut player, "gogui-rules_board")),
            "{rules}: boards differ after move {moves} ({to_move} {mv})"
        );
        assert_eq!(send(&mut referee, "gogui-rules_side_to_move"), colour(model.to_move()));
        assert_eq!(
            send(&mut referee, "gogui-rules_side_to_move"),
            send(&mut player, "gogui-rules_side_to_move")
        );
        let captured = send(&mut referee, "gogui-rules_captured_count");
        assert_eq!(
            captured,
            format!("{} {}", model.prisoners(BLACK), model.prisoners(WHITE)),
            "{rules}: prisoners"
        );
        assert_eq!(captured, send(&mut player, "gogui-rules_captured_count"));
    }
    // The end, by the rules: GoGui shows the referee's result, which must be the reference's.
    let end = model.end().expect("no legal moves only once the game is over");
    let result = send(&mut referee, "gogui-rules_final_result");
    let expected = if end == End::TwoPasses {
        // A count: the dead stones are the referee's judgement, the count the reference's.
        let dead = send(&mut referee, "final_status_list dead");
        let dead: Vec<usize> = dead
            .split_whitespace()
            .map(|v| model.point(v).unwrap_or_else(|| panic!("dead stone {v}?")))
            .collect();
        model.result_without(&dead)
    } else {
        model.result()
    };
    assert_eq!(result, expected, "{rules}: the referee's result ({end:?})");
    assert_eq!(result, send(&mut player, "gogui-rules_final_result"));
    player.quit().unwrap();
    referee.quit().unwrap();
    (moves, result)
}

fn rules(variant: Variant) -> Rules {
    Rules::new(variant)
}

#[test]
fn referee_matches_the_reference_in_stones() {
    for seed in ["1", "2"] {
        let (moves, result) = refereed_game("stones", rules(Variant::Stones), 7, seed, 2_000);
        eprintln!("stones seed {seed}: {moves} moves, {result}");
    }
}

#[test]
fn referee_matches_the_reference_in_stoical() {
    let snapback = Rules { snapback: true, ..rules(Variant::Stoical) };
    for (name, reference, seed) in
        [("stoical", rules(Variant::Stoical), "1"), ("stoical:snapback=on", snapback, "2")]
    {
        let (moves, result) = refereed_game(name, reference, 7, seed, 2_000);
        eprintln!("{name} seed {seed}: {moves} moves, {result}");
    }
}

#[test]
fn referee_sees_walls_and_small_threshold_games() {
    // D4 is the point (3, 3), counted from A1.
    let reference = Rules { threshold: 2, walls: vec![(3, 3)], ..rules(Variant::Stones) };
    let (moves, result) = refereed_game("stones:threshold=2,walls=D4", reference, 7, "3", 2_000);
    eprintln!("stones with a wall: {moves} moves, {result}");
}
