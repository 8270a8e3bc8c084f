//! Diagram tests for RULES.md section 6 (walls), in every variant. Each test's doc comment quotes the line
//! of RULES.md it checks. Diagrams are rows top first: `X` black, `O` white, `.` empty, `#` wall.

mod common;

use common::{game, mv, play, pt, state, try_play};
use tengen::board::{Board, Cell, Color};
use tengen::engine::{Engine, EngineOptions};
use tengen::rules::{Game, Illegal, Move, Position, Rules, RulesConfig};

fn config(s: &str) -> RulesConfig {
    RulesConfig::parse(s).unwrap()
}

/// Runs `$check` (a generic function taking the rules) once per variant, with the given options.
macro_rules! in_every_variant {
    ($check:ident) => {
        $check(config("go").standard());
        $check(config("go:suicide=allowed,ko=positional").standard());
        $check(config("stones").stones());
        $check(config("stoical").stoical());
    };
}

/// Black's A2 sits between two walls; its only liberty is B2.
const BETWEEN_WALLS: &str = "
    . . . . .
    . . . . .
    # . . . .
    X . . . .
    # . . . .
";

/// RULES.md 6: "A *wall* is a neutral, uncapturable blocked point ... It is not a liberty of anyone":
/// White B2 takes Black's A2 although A1 and A3 are not stones.
#[test]
fn a_wall_is_no_liberty() {
    fn check<R: Rules>(rules: R) {
        let mut g = game(rules, BETWEEN_WALLS, Color::White);
        let before = g.position().prisoners.white;
        assert_eq!(play(&mut g, "B2").captured, 1, "{:?}", g.rules());
        assert_eq!(g.position().prisoners.white, before + 1);
        assert!(g.board().is_empty_point(pt(g.board(), "A2")));
    }
    in_every_variant!(check);
}

/// RULES.md 6: a wall is "a neutral, uncapturable blocked point": no one may play there, and it is never
/// taken off the board, whatever happens around it.
#[test]
fn nobody_plays_on_a_wall_and_it_never_changes() {
    fn check<R: Rules>(rules: R) {
        let mut g = game(rules, BETWEEN_WALLS, Color::White);
        for c in Color::BOTH {
            assert_eq!(g.check(c, mv(g.board(), "A1")), Err(Illegal::OffBoard));
            assert!(!g.legal_moves(c).contains(&mv(g.board(), "A3")));
        }
        play(&mut g, "B2");
        assert!(g.undo());
        play(&mut g, "B2 B3");
        for v in ["A1", "A3"] {
            assert_eq!(g.board().cell(pt(g.board(), v)), Cell::Wall, "{v}");
        }
        assert_eq!(g.board().walls().len(), 2);
        g.board().check_consistency().unwrap();
    }
    in_every_variant!(check);
}

/// RULES.md 6: a wall "counts for nobody in scoring". Black's A column (A3 a wall) is 4 points of
/// territory; White's D-E side has 7 (D1 and E2 are walls, E1 is walled off and touches no stone: it is
/// nobody's). Area: Black 5 + 4, White 5 + 7: W+3 at komi 0; territory: 4 + 5 prisoners against 7: B+2.
#[test]
fn a_wall_counts_for_nobody() {
    let diagram = "
        . X O . .
        . X O . .
        # X O . .
        . X O . #
        . X O # .
    ";
    let scored = |rules_string: &str, black_prisoners: u32| -> String {
        let cfg = config(rules_string);
        fn score<R: Rules>(rules: R, diagram: &str, black_prisoners: u32) -> String {
            let mut pos = Position::new(&rules, Board::from_diagram_shaped(diagram));
            pos.prisoners.black = black_prisoners;
            Game::from_position(rules, pos).score(&[]).unwrap().to_string()
        }
        match cfg.variant() {
            tengen::rules::Variant::Stoical => score(cfg.stoical(), diagram, black_prisoners),
            _ => score(cfg.standard(), diagram, black_prisoners),
        }
    };
    assert_eq!(scored("go:komi=0", 0), "W+3");
    assert_eq!(scored("go:komi=0", 5), "W+3", "prisoners do not count under area scoring");
    assert_eq!(scored("go:scoring=territory,komi=0", 5), "B+2");
    assert_eq!(scored("stoical:komi=0", 5), "W+3");
}

/// RULES.md 6: "A wall set is part of the game set-up, not a move." The rules string's walls are on the
/// board from the start, in no move list and no undo, and every new game (clear_board, a new size) has
/// them again; walls that do not fit a smaller board are left out there.
#[test]
fn walls_are_set_up_not_moves() {
    let cfg = config("go:walls=C3+G7");
    let mut engine = Engine::new(EngineOptions { rules: cfg.clone(), size: 9, ..EngineOptions::default() });
    let walled = |e: &Engine| -> Vec<String> {
        let b = e.game().board();
        b.walls().iter().map(|&w| b.geometry().vertex(w)).collect()
    };
    assert_eq!(walled(&engine), ["C3", "G7"]);
    assert!(engine.game().moves().is_empty());
    assert!(engine.undo().is_err(), "a wall is not a move to take back");
    let d4 = pt(engine.game().board(), "D4");
    engine.play(Color::Black, Move::Place(d4)).unwrap();
    engine.clear_board();
    assert_eq!(walled(&engine), ["C3", "G7"]);
    engine.set_size(5).unwrap();
    assert_eq!(walled(&engine), ["C3"], "G7 is off a 5x5 board");
    engine.set_size(9).unwrap();
    assert_eq!(walled(&engine), ["C3", "G7"]);
    for rules in ["stones:walls=C3+G7", "stoical:walls=C3+G7"] {
        engine.set_rules(config(rules));
        assert_eq!(walled(&engine), ["C3", "G7"], "{rules}");
    }
}

/// RULES.md 6 with RULES.md 2 and 3: a wall is no liberty, so a lone stone walled into a pocket is a
/// single-stone suicide: illegal in Go (suicide forbidden or allowed), in Stones (it repeats the position)
/// and in Stoical Go (suicide forbidden).
#[test]
fn a_walled_pocket_is_a_lone_stone_suicide() {
    fn check<R: Rules>(rules: R) {
        let diagram = "
            . . . . .
            . . . . .
            . . . . .
            O . . . .
            . # . . .
        ";
        let mut g = game(rules, diagram, Color::Black);
        assert!(try_play(&mut g, "A1").is_err(), "{:?}", g.rules());
        // White may fill it: A1 joins A2.
        play(&mut g, "E5");
        assert!(try_play(&mut g, "A1").is_ok());
    }
    in_every_variant!(check);
}

/// RULES.md 6 with RULES.md 3 ("A group may carry at most as many stakes as it has liberties"): a wall
/// is no liberty, so Black's A1 beside the wall at A2 has one liberty and takes one stake only; and a
/// multi-stone suicide into the walls gives White the stones and the stake.
#[test]
fn stones_stakes_and_suicide_beside_walls() {
    let diagram = "
        . . . . .
        . . . . .
        . . . . .
        # O . . .
        X . O . .
    ";
    let mut g = game(config("stones:compensation=0").stones(), diagram, Color::Black);
    play(&mut g, "stake:A1 E5");
    assert_eq!(g.board().chain_stakes(pt(g.board(), "A1")), 1);
    assert_eq!(try_play(&mut g, "stake:A1"), Err(Illegal::CannotStake));
    let placed = play(&mut g, "B1");
    assert_eq!((placed.suicided, placed.suicided_stakes), (2, 1));
    assert_eq!(g.position().prisoners.white, 3);
}

/// RULES.md 4: "The seed notes that the Zillions implementation allows neutral blocking points to reshape
/// the board (see section 6)." Stoical Go's rules work the same on a reshaped board: the 3x3 repetition
/// of `rules_stoical.rs`, played in the corner of a 4x4 board whose bottom row and right column are walls,
/// ends in a draw (White A3 takes A4, Black passes, White A2, Black A4 takes A2-A3).
#[test]
fn stoical_on_a_walled_board() {
    let start = "
        X O . #
        . X O #
        . X . #
        # # # #
    ";
    let mut g = game(config("stoical").stoical(), start, Color::White);
    play(&mut g, "A3 pass A2");
    assert!(!g.is_over());
    assert_eq!(play(&mut g, "A4").captured, 2);
    assert_eq!(g.outcome().map(|o| o.to_string()), Some("0".into()));
}

/// Undo restores everything on a walled board too (walls never move).
#[test]
fn undo_on_a_walled_board() {
    fn check<R: Rules>(rules: R) {
        let mut g = game(rules, BETWEEN_WALLS, Color::White);
        let start = state(&g);
        play(&mut g, "B2 B3");
        assert!(g.undo() && g.undo());
        assert_eq!(state(&g), start);
    }
    in_every_variant!(check);
}
