//! Diagram tests for RULES.md section 1 (what all variants share) and section 2 (standard Go).
//! Each test's doc comment quotes the line of RULES.md it checks.

mod common;

use common::{game, play, pt, state, try_play};
use tengen::board::{Board, Cell, Color};
use tengen::rules::handicap::fixed_points;
use tengen::rules::{
    EndReason, Game, Illegal, KoRule, Move, Position, RulesConfig, Scoring, Setup, Standard,
};

fn go(s: &str) -> Standard {
    RulesConfig::parse(s).unwrap().standard()
}

/// Three kos on a 9x9 board. k1 (A1-D3): White's stone at B2 can be taken at C2, then retaken at B2.
/// k2 (F1-J3): Black's stone at H2 can be taken at G2, then retaken at H2. k3 (A5-D7): like k1, taken at
/// C6, retaken at B6.
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

/// k1 and k2 of `TRIPLE_KO`, both with Black's stone in the ko (C2 and H2), nothing else.
const DOUBLE_KO_BLACK: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . X O . . . X O .
    X . X O . X . X O
    . X O . . . X O .
";

/// RULES.md 1: "Black moves first (unless handicap stones were placed, then White)."
#[test]
fn black_moves_first() {
    let g = Game::new(Standard::default(), Board::new(9));
    assert_eq!(g.to_move(), Color::Black);
    assert_eq!(g.position().ply, 0);
}

/// RULES.md 1: "Placing a stone: first remove every **opponent** group left with no liberties (the mover
/// captures first ...); then, if the mover's own group has no liberties, it is a self-capture". A1 has no
/// liberty until it captures A2 and B1, so it is legal even with suicide forbidden.
#[test]
fn capture_comes_before_self_capture() {
    let mut g = game(
        go("go:suicide=forbidden"),
        "
        . . . . .
        . . . . .
        X . . . .
        O X . . .
        . O X . .
        ",
        Color::Black,
    );
    let b = g.board().clone();
    let placed = play(&mut g, "A1");
    assert_eq!((placed.captured, placed.suicided), (2, 0));
    assert_eq!(g.board().cell(pt(&b, "A1")), Cell::Black);
    assert!(g.board().is_empty_point(pt(&b, "A2")) && g.board().is_empty_point(pt(&b, "B1")));
    assert_eq!(g.position().prisoners.black, 2);
    assert_eq!(g.position().prisoners.white, 0);
}

/// Black's A2-B2 group has A1 as its last liberty; B1 (White) keeps C1. E5 is a lone-stone suicide point.
const SUICIDE: &str = "
    . . . O .
    . . . . O
    O O . . .
    X X O . .
    . O . . .
";

/// RULES.md 2: "suicide | `forbidden` / `allowed` ... | `forbidden`", and RULES.md 1: "legal only where
/// the variant allows suicide".
#[test]
fn suicide_is_forbidden_by_default() {
    let mut g = game(go("go"), SUICIDE, Color::Black);
    assert_eq!(try_play(&mut g, "A1"), Err(Illegal::Suicide));
    assert_eq!(try_play(&mut g, "E5"), Err(Illegal::Suicide));
}

/// RULES.md 1: "Stones removed by self-capture are prisoners of the **opponent**." RULES.md 2: suicide
/// "`allowed` (multi-stone suicide only; a single-stone suicide never changes the position)".
#[test]
fn allowed_suicide_is_multi_stone_only_and_feeds_the_opponent() {
    let mut g = game(go("go:suicide=allowed"), SUICIDE, Color::Black);
    assert_eq!(try_play(&mut g, "E5"), Err(Illegal::Suicide));
    let placed = play(&mut g, "A1");
    assert_eq!((placed.captured, placed.suicided), (0, 3));
    for v in ["A1", "A2", "B2"] {
        assert!(g.board().is_empty_point(pt(g.board(), v)), "{v}");
    }
    assert_eq!(g.position().prisoners.white, 3);
    assert_eq!(g.position().prisoners.black, 0);
    assert_eq!(g.to_move(), Color::White);
}

/// RULES.md 2: ko "`simple` (may not recreate the position of one move ago)": the immediate recapture is
/// refused, and allowed once another move intervened. Every ko rule forbids the immediate recapture.
#[test]
fn simple_ko_forbids_only_the_immediate_recapture() {
    for ko in ["simple", "positional", "situational"] {
        let mut g = game(go(&format!("go:ko={ko}")), TRIPLE_KO, Color::Black);
        let placed = play(&mut g, "C2");
        assert_eq!(placed.captured, 1);
        assert!(try_play(&mut g, "B2").is_err(), "{ko}: immediate recapture");
        play(&mut g, "E5 E7");
        let placed = play(&mut g, "B2");
        assert_eq!(placed.captured, 1, "{ko}");
    }
}

/// RULES.md 2: simple ko forbids only the position of one move ago, so a triple ko cycles: after six
/// captures the start position is back, Black to move again. `positional` ("superko: no earlier
/// position") and `situational` ("no earlier position with the same player to move") refuse the sixth.
#[test]
fn triple_ko_cycles_under_simple_ko_only() {
    let cycle = ["C2", "G2", "C6", "B2", "H2", "B6"];
    for ko in ["simple", "positional", "situational"] {
        let mut g = game(go(&format!("go:ko={ko}")), TRIPLE_KO, Color::Black);
        let start = g.board().to_diagram();
        play(&mut g, &cycle[..5].join(" "));
        let sixth = try_play(&mut g, "B6");
        if ko == "simple" {
            assert_eq!(sixth.map(|p| p.captured), Ok(1));
            assert_eq!(g.board().to_diagram(), start);
            // And round again.
            play(&mut g, &cycle.join(" "));
            assert_eq!(g.board().to_diagram(), start);
        } else {
            assert_eq!(sixth, Err(Illegal::Superko), "{ko}");
        }
    }
}

/// RULES.md 2: `positional` (no earlier position) against `situational` (no earlier position with the
/// same player to move). With a pass, the start position comes back with White to move: positional
/// superko refuses it, situational superko does not (that situation never occurred).
#[test]
fn positional_and_situational_superko_differ_after_a_pass() {
    // k1 is White's (B2), k2 is Black's (H2); ko k3 plays no part.
    let seq = "C2 G2 pass B2";
    for (ko, expect) in [("simple", Ok(())), ("positional", Err(Illegal::Superko)), ("situational", Ok(()))] {
        let mut g = game(go(&format!("go:ko={ko}")), TRIPLE_KO, Color::Black);
        let start = g.board().to_diagram();
        play(&mut g, seq);
        let r = try_play(&mut g, "H2");
        assert_eq!(r.map(|_| ()), expect, "{ko}");
        if r.is_ok() {
            assert_eq!(g.board().to_diagram(), start);
            assert_eq!(g.to_move(), Color::White);
        }
    }
}

/// RULES.md 2: `situational` "(no earlier position with the same player to move)". A pass creates a
/// situation too: after Black's opening pass the start position stood with White to move, so Black may not
/// recreate it later with White to move, even though no placement produced it.
#[test]
fn situational_superko_counts_positions_after_a_pass() {
    let seq = "pass B2 pass G2 C2 pass";
    for (ko, expect) in
        [("simple", Ok(())), ("positional", Err(Illegal::Superko)), ("situational", Err(Illegal::Superko))]
    {
        let mut g = game(go(&format!("go:ko={ko}")), DOUBLE_KO_BLACK, Color::Black);
        play(&mut g, seq);
        assert_eq!(try_play(&mut g, "H2").map(|_| ()), expect, "{ko}");
    }
}

/// RULES.md 2: positional superko forbids "no earlier position", whatever produced it: a multi-stone
/// suicide (with `suicide=allowed`) that brings back the start position is refused; under simple ko it
/// is legal (the position of one move ago is a different one).
#[test]
fn superko_covers_suicides() {
    let diagram = "
        . . . . .
        . . . . .
        O . . . .
        . O . . .
        . O . . .
    ";
    for (ko, expect) in [("simple", Ok(2)), ("positional", Err(Illegal::Superko))] {
        let mut g = game(go(&format!("go:ko={ko},suicide=allowed")), diagram, Color::Black);
        play(&mut g, "A2 pass");
        assert_eq!(try_play(&mut g, "A1").map(|p| p.suicided), expect, "{ko}");
    }
}

/// The final position the scoring tests count: Black owns A1-A5 behind B1-B5; White's C1-C5 wall faces
/// D1-E5, where the black stone D2 is dead once agreed.
const SCORE: &str = "
    . X O . .
    . X O . .
    . X O . .
    . X O X .
    . X O . .
";

fn scored(rules: Standard, prisoners: (u32, u32), dead: &[&str]) -> String {
    let mut pos = Position::new(&rules, Board::from_diagram(SCORE));
    pos.prisoners.black = prisoners.0;
    pos.prisoners.white = prisoners.1;
    let g = Game::from_position(rules, pos);
    let dead: Vec<_> = dead.iter().map(|v| pt(g.board(), v)).collect();
    g.score(&dead).unwrap().to_string()
}

/// RULES.md 2: scoring "`area` (stones + surrounded empty points)" with komi "7.5 with area scoring":
/// alive D2 makes D1-E5 neutral (Black 6 stones + 5, White 5: B+6-7.5); dead, it gives White 10 points
/// (Black 10, White 15: W+12.5). Prisoners do not count.
#[test]
fn area_scoring_with_dead_stones_and_default_komi() {
    assert_eq!(RulesConfig::parse("go").unwrap().komi_value(), 7.5);
    assert_eq!(scored(go("go"), (0, 0), &[]), "W+1.5");
    assert_eq!(scored(go("go"), (9, 0), &[]), "W+1.5");
    assert_eq!(scored(go("go"), (0, 0), &["D2"]), "W+12.5");
}

/// RULES.md 2: "`territory` (surrounded empty points + prisoners, dead stones count as prisoners)", komi
/// "6.5 with territory scoring". With prisoners 3 (Black) and 1 (White): alive D2, Black 5 + 3 against
/// White 1: B+0.5; dead D2, Black 8 against White 10 + 1 + 1: W+10.5.
#[test]
fn territory_scoring_counts_prisoners_and_dead_stones() {
    assert_eq!(RulesConfig::parse("go:scoring=territory").unwrap().komi_value(), 6.5);
    let rules = go("go:scoring=territory");
    assert_eq!(rules.scoring, Scoring::Territory);
    assert_eq!(scored(rules.clone(), (3, 1), &[]), "B+0.5");
    assert_eq!(scored(rules, (3, 1), &["D2"]), "W+10.5");
}

/// RULES.md 2: "komi | any multiple of 0.5 | ... until the controller sends `komi`", and "Results: ...
/// `0` (a draw is possible only with integer komi)".
#[test]
fn integer_komi_can_draw() {
    let rules = Standard { komi: 6.0, ..go("go") };
    assert_eq!(scored(rules.clone(), (0, 0), &[]), "0");
    assert_eq!(RulesConfig::parse("go:komi=6").unwrap().komi_value(), 6.0);
    let g = game(rules, SCORE, Color::Black);
    assert_eq!(g.score(&[]).unwrap().winner, None);
}

/// RULES.md 2: "A player may pass. The game ends after two consecutive passes", scored as the position
/// stands.
#[test]
fn two_passes_end_the_game() {
    let mut g = game(go("go"), SCORE, Color::Black);
    play(&mut g, "pass");
    assert!(!g.is_over());
    play(&mut g, "E1 pass");
    assert!(!g.is_over(), "a placement between passes resets the count");
    play(&mut g, "pass");
    let out = g.outcome().expect("over after two passes");
    assert_eq!(out.reason, EndReason::TwoPasses);
    // White's E1 makes D1 and the rest of D-E neutral too: Black 6 stones + 5, White 6 stones.
    assert_eq!(out.to_string(), "W+2.5");
    assert_eq!(g.check(Color::Black, Move::Pass), Err(Illegal::GameOver));
    // A further move resumes a game ended by two passes, so `check_play` (GTP's is_legal) judges
    // moves as on the board; an occupied point stays illegal.
    let e1 = g.board().geometry().parse_vertex("E1").unwrap();
    let empty = *g.board().empties().first().unwrap();
    assert_eq!(g.check_play(Color::Black, Move::Place(empty)), Ok(()));
    assert_eq!(g.check_play(Color::Black, Move::Place(e1)), Err(Illegal::Occupied));
    let before = g.outcome();
    g.play(Color::Black, Move::Place(empty)).unwrap();
    assert!(!g.is_over());
    assert!(g.undo());
    assert_eq!(g.outcome(), before);
}

/// RULES.md 2: "Results: `B+3.5`, `W+0.5`, `0` ..., `B+R` for resignation."
#[test]
fn resignation_result() {
    let mut g = Game::new(go("go"), Board::new(9));
    g.resign(Color::White);
    assert_eq!(g.outcome().unwrap().to_string(), "B+R");
    assert!(g.undo());
    g.resign(Color::Black);
    assert_eq!(g.outcome().unwrap().to_string(), "W+R");
}

/// RULES.md 2: button "take the button, worth 0.5 point to the taker".
#[test]
fn button_is_worth_half_a_point() {
    let rules = Standard { komi: 0.0, ..go("go:button=on") };
    let mut g = Game::new(rules.clone(), Board::new(5));
    play(&mut g, "button pass pass");
    assert_eq!(g.outcome().unwrap().to_string(), "B+0.5");
    // White takes it: Black's lone stone owns the 25 points, minus half a point.
    let mut g = Game::new(rules, Board::new(5));
    play(&mut g, "C3 button pass pass");
    assert_eq!(g.outcome().unwrap().to_string(), "B+24.5");
}

/// RULES.md 2: "Over GTP, `play C pass` (and `genmove`'s `pass`) means "take the button" while the button
/// is untaken; after it is taken, `pass` is a pass." And "once per game".
#[test]
fn pass_means_button_while_untaken() {
    let mut g = Game::new(go("go:button=on"), Board::new(9));
    assert_eq!(g.pass_move(Color::Black), Move::Button);
    assert_eq!(g.pass_move(Color::White), Move::Button);
    g.play(Color::Black, g.pass_move(Color::Black)).unwrap();
    assert_eq!(g.position().extra.button, Some(Color::Black));
    assert_eq!(g.pass_move(Color::White), Move::Pass);
    assert_eq!(try_play(&mut g, "button"), Err(Illegal::ButtonTaken));
    // Without the option there is no button, and pass is a pass.
    let g = Game::new(go("go"), Board::new(9));
    assert_eq!(g.pass_move(Color::Black), Move::Pass);
    assert_eq!(g.check(Color::Black, Move::Button), Err(Illegal::NotInVariant));
}

/// RULES.md 2: "The game ends after two consecutive passes (a button take is not a pass)."
#[test]
fn button_take_is_not_a_pass() {
    let mut g = Game::new(go("go:button=on"), Board::new(9));
    play(&mut g, "button pass");
    assert!(!g.is_over());
    assert_eq!(g.position().passes, 1);
    play(&mut g, "pass");
    assert_eq!(g.outcome().unwrap().reason, EndReason::TwoPasses);
}

/// RULES.md 2: the button "is always legal while the button is untaken (even when a ko forbids every
/// capture), which is what "lifts any restriction on taking a ko" means: ... taking the button is a legal
/// intervening move." White, barred from retaking at once, takes the button; after Black's pass the
/// retake is legal.
#[test]
fn button_lifts_the_ko() {
    let mut g = game(go("go:button=on"), TRIPLE_KO, Color::Black);
    play(&mut g, "C2");
    assert_eq!(try_play(&mut g, "B2"), Err(Illegal::Ko));
    play(&mut g, "button");
    assert_eq!(g.board().ko(), None);
    play(&mut g, "pass");
    assert_eq!(play(&mut g, "B2").captured, 1);
}

/// RULES.md 2: "handicap | 0 or 2..9 stones, fixed or free placement", and RULES.md 1: with handicap
/// stones White moves first. The fixed placement is GTP's table (corners first).
#[test]
fn fixed_handicap_then_white_moves() {
    for (size, n, expect) in [(9, 4, "C3 C7 G3 G7"), (19, 9, "D10 D16 D4 K10 K16 K4 Q10 Q16 Q4")] {
        let mut g = Game::new(go("go"), Board::new(size));
        let stones = fixed_points(g.board().geometry(), n).unwrap();
        g.set_handicap(&stones).unwrap();
        assert_eq!(g.to_move(), Color::White);
        let mut names: Vec<String> = stones.iter().map(|&p| g.board().geometry().vertex(p)).collect();
        names.sort();
        assert_eq!(names.join(" "), expect);
        assert_eq!(g.board().stone_count(Color::Black), n);
        assert!(g.moves().is_empty());
        play(&mut g, "E5");
        assert_eq!(g.board().stone_count(Color::White), 1);
        // Not once a move was played.
        assert!(g.set_handicap(&stones).is_err());
    }
}

/// A position set up before the first move (SGF `AB`/`AW`/`PL`): stones of both colours, then the
/// player the set-up names. Every stone must keep a liberty; nothing can be set up once moves exist.
#[test]
fn set_up_positions_keep_every_stone() {
    let mut g = Game::new(go("go"), Board::new(5));
    let geo = *g.board().geometry();
    let pts = |vs: &[&str]| vs.iter().map(|v| geo.parse_vertex(v).unwrap()).collect::<Vec<_>>();
    let setup = Setup {
        black: pts(&["B2", "C2"]),
        white: pts(&["B3", "C3"]),
        to_move: Color::Black,
        handicap: false,
    };
    g.set_up(&setup).unwrap();
    assert_eq!(g.to_move(), Color::Black);
    assert_eq!((g.board().stone_count(Color::Black), g.board().stone_count(Color::White)), (2, 2));
    assert_eq!(g.setup(), &setup);
    assert!(g.moves().is_empty());
    play(&mut g, "D3");
    assert!(g.set_up(&setup).is_err(), "not once a move was played");
    // A1 black with its liberties A2 and B1 taken by White: it would be captured.
    let mut g = Game::new(go("go"), Board::new(5));
    let bad =
        Setup { black: pts(&["A1"]), white: pts(&["A2", "B1"]), to_move: Color::White, handicap: false };
    assert_eq!(g.set_up(&bad), Err(Illegal::Suicide));
    let twice = Setup { black: pts(&["C3"]), white: pts(&["C3"]), to_move: Color::White, handicap: false };
    assert_eq!(g.set_up(&twice), Err(Illegal::Occupied));
    assert_eq!(g.board().stone_count(Color::Black) + g.board().stone_count(Color::White), 0, "unchanged");
}

/// RULES.md 2, the options table: ko `simple` / `positional` / `situational` (default `simple`), suicide
/// `forbidden` / `allowed` (default `forbidden`), button on / off (default off).
#[test]
fn ko_kinds_are_configured_by_the_rules_string() {
    assert_eq!(go("go").ko, KoRule::Simple);
    assert_eq!(go("go:ko=positional").ko, KoRule::Positional);
    assert_eq!(go("go:ko=situational").ko, KoRule::Situational);
    assert!(!go("go").suicide_allowed && go("go:suicide=allowed").suicide_allowed);
    assert!(!go("go").button && go("go:button=on").button);
}

/// RULES.md 1: "A square board of size N×N, 2 ≤ N ≤ 25 (GTP's limit)." The smallest and largest boards
/// play; sizes outside are refused.
#[test]
fn board_sizes_two_to_twenty_five() {
    use tengen::engine::{Engine, EngineOptions};
    let mut e = Engine::new(EngineOptions { size: 9, ..EngineOptions::default() });
    for bad in [0, 1, 26, 100] {
        assert!(e.set_size(bad).is_err(), "{bad}");
        assert_eq!(e.size(), 9);
    }
    for size in [2, 25] {
        e.set_size(size).unwrap();
        assert_eq!(e.game().board().geometry().points().count(), size * size);
    }
    let mut g = Game::new(go("go"), Board::new(2));
    play(&mut g, "A1 B2 B1");
    assert_eq!(g.position().prisoners.black, 0);
    assert_eq!(play(&mut g, "A2").captured, 2, "White A2 takes A1-B1");
    let mut g = Game::new(go("go"), Board::new(25));
    play(&mut g, "Z25 Y25 A1");
    assert_eq!(play(&mut g, "Z24").captured, 1);
}

/// RULES.md 1: "Points are intersections; neighbours are orthogonal." Diagonal stones neither connect
/// nor take liberties: Black's C3 with four white diagonals keeps its four liberties, and the white
/// diagonals are four separate groups.
#[test]
fn neighbours_are_orthogonal() {
    let g = game(
        go("go"),
        "
        . . . . .
        . O . O .
        . . X . .
        . O . O .
        . . . . .
        ",
        Color::Black,
    );
    let b = g.board();
    assert_eq!(b.liberties(pt(b, "C3")).len(), 4);
    for v in ["B2", "D2", "B4", "D4"] {
        assert_eq!(b.chain_len(pt(b, v)), 1, "{v}");
        assert_eq!(b.liberties(pt(b, v)).len(), 4, "{v}");
    }
}

/// RULES.md 1: "A *group* (chain) is a maximal set of orthogonally connected stones of one colour; its
/// *liberties* are the empty points adjacent to it." The bent three stones share their liberties and are
/// captured together when the last one is filled; White's C2, diagonal to B3, is not part of the group.
#[test]
fn groups_share_liberties_and_are_captured_together() {
    let mut g = game(
        go("go"),
        "
        . . . . .
        . O O X .
        . O X . .
        . X O . .
        . . X . .
        ",
        Color::Black,
    );
    let b = g.board();
    assert_eq!(b.chain_len(pt(b, "B4")), 3, "B4, C4 and B3");
    let libs: Vec<String> = b.liberties(pt(b, "B4")).iter().map(|&p| b.geometry().vertex(p)).collect();
    assert_eq!(libs, ["A3", "A4", "B5", "C5"]);
    play(&mut g, "A3 E1 A4 E2 B5");
    assert_eq!(g.board().chain_len(pt(g.board(), "C4")), 3);
    let placed = play(&mut g, "E3 C5");
    assert_eq!(placed.captured, 3);
    assert_eq!(g.position().prisoners.black, 3);
    assert_eq!(g.board().cell(pt(g.board(), "C2")), Cell::White, "C2 was never part of the group");
}

/// RULES.md 1: "A *board position* is the colour of every point. It does **not** include prisoner counts
/// or who is to move". Under positional superko the sixth capture of the triple ko is refused although the
/// prisoners (3 to 2) and the player to move differ from the start.
#[test]
fn a_board_position_excludes_prisoners_and_the_player_to_move() {
    let mut g = game(go("go:ko=positional"), TRIPLE_KO, Color::Black);
    play(&mut g, "C2 G2 C6 B2 H2");
    assert_eq!((g.position().prisoners.black, g.position().prisoners.white), (3, 2));
    assert_eq!(try_play(&mut g, "B6"), Err(Illegal::Superko));
}

/// RULES.md 2: handicap "0 or 2..9 stones, fixed or free placement". One stone and ten are not handicaps;
/// a free placement puts the stones where the controller says, then White moves.
#[test]
fn handicap_is_two_to_nine_stones_fixed_or_free() {
    let g = Game::new(go("go"), Board::new(19));
    let geo = *g.board().geometry();
    assert!(fixed_points(&geo, 1).is_none());
    assert!(fixed_points(&geo, 10).is_none());
    assert_eq!(fixed_points(&geo, 9).map(|p| p.len()), Some(9));
    let mut g = Game::new(go("go"), Board::new(9));
    let free: Vec<_> = ["A1", "J9", "E5"].iter().map(|v| pt(g.board(), v)).collect();
    g.set_handicap(&free).unwrap();
    assert_eq!(g.to_move(), Color::White);
    assert_eq!(g.board().stone_count(Color::Black), 3);
    assert!(g.moves().is_empty(), "handicap stones are set-up, not moves");
}

/// Undo restores everything: prisoners, stakes, ko state, a finished game. Through a ko
/// capture, a button take, a suicide and two passes, each undo gives back exactly the state before that
/// move (board internals including the ko point, prisoners, button, passes, outcome, history, moves).
#[test]
fn undo_restores_everything() {
    for (rules, moves) in [
        ("go:button=on,suicide=allowed", "C2 button E5 B2 pass pass"),
        ("go:ko=situational,scoring=territory", "C2 pass E5 B2 pass pass"),
        ("go:ko=positional", "C2 pass E5 B2 pass pass"),
    ] {
        let mut g = game(go(rules), TRIPLE_KO, Color::Black);
        let mut states = vec![state(&g)];
        for m in moves.split_whitespace() {
            play(&mut g, m);
            states.push(state(&g));
        }
        assert!(g.is_over(), "{rules}");
        states.pop();
        while let Some(before) = states.pop() {
            assert!(g.undo());
            assert_eq!(state(&g), before, "{rules}");
        }
        assert!(!g.undo());
    }
    // A multi-stone suicide and its prisoners come back with undo.
    let mut g = game(go("go:suicide=allowed"), SUICIDE, Color::Black);
    let before = state(&g);
    play(&mut g, "A1");
    assert_eq!(g.position().prisoners.white, 3);
    assert!(g.undo());
    assert_eq!(state(&g), before);
}

/// RULES.md 2: `situational` (no earlier position with the same player to move). GTP lets one colour move
/// twice: after Black E5 and Black C2 (taking the ko), White's immediate retake at B2 recreates the
/// position after E5, but that position had White to move, and now Black is to move: a new situation,
/// legal. Simple ko ("the position of one move ago") and positional superko refuse it.
#[test]
fn situational_superko_allows_a_retake_into_another_situation() {
    for (ko, legal) in [("simple", false), ("positional", false), ("situational", true)] {
        let mut g = game(go(&format!("go:ko={ko}")), TRIPLE_KO, Color::Black);
        let at = |g: &Game<Standard>, v: &str| Move::Place(pt(g.board(), v));
        g.play(Color::Black, at(&g, "E5")).unwrap();
        let after_e5 = g.board().to_diagram();
        g.play(Color::Black, at(&g, "C2")).unwrap();
        let r = g.play(Color::White, at(&g, "B2"));
        assert_eq!(r.is_ok(), legal, "{ko}: {r:?}");
        if legal {
            assert_eq!(r.unwrap().captured, 1);
            assert_eq!(g.board().to_diagram(), after_e5);
            assert_eq!(g.to_move(), Color::Black);
        }
    }
}
