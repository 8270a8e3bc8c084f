//! Diagram tests for RULES.md section 3 (Stones, seed 000). Each test's doc comment quotes the line of
//! RULES.md it checks. Diagrams are rows top first: `X` black, `O` white, `.` empty.

mod common;

use common::{game, mv, play, pt, state, try_play};
use tengen::board::{Board, Color};
use tengen::rules::{EndReason, Game, Illegal, Move, Position, RulesConfig, Stones};

fn stones(s: &str) -> Stones {
    RulesConfig::parse(s).unwrap().stones()
}

/// A game of `rules` from `diagram` with `to_move` to play and the given prisoners (Black, White; White's
/// include any compensation).
fn game_with_prisoners(rules: Stones, diagram: &str, to_move: Color, prisoners: (u32, u32)) -> Game<Stones> {
    let mut pos = Position::new(&rules, Board::from_diagram(diagram));
    pos.to_move = to_move;
    pos.prisoners.black = prisoners.0;
    pos.prisoners.white = prisoners.1;
    Game::from_position(rules, pos)
}

fn prisoners(g: &Game<Stones>) -> (u32, u32) {
    (g.position().prisoners.black, g.position().prisoners.white)
}

/// Stakes on the group through `v`.
fn stakes(g: &Game<Stones>, v: &str) -> u32 {
    g.board().chain_stakes(pt(g.board(), v))
}

/// Three kos on a 9x9 board (the same as in `rules_go.rs`). k1 (A1-D3): White's stone at B2 can be taken
/// at C2, then retaken at B2. k2 (F1-J3): Black's stone at H2 can be taken at G2, then retaken at H2.
/// k3 (A5-D7): like k1, taken at C6, retaken at B6.
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

/// White's A2-B2 has A1 as its only liberty: Black A1 captures two stones.
const TWO_FOR_BLACK: &str = "
    . . . . .
    . . . . .
    X X . . .
    O O X . .
    . X . . .
";

/// The same with the colours swapped: White A1 captures two stones.
const TWO_FOR_WHITE: &str = "
    . . . . .
    . . . . .
    O O . . .
    X X O . .
    . O . . .
";

/// Black's A2-B2 has A1 as its last liberty; B1 (White) keeps C1. E5 is a lone-stone suicide point.
const SUICIDE: &str = "
    . . . O .
    . . . . O
    O O . . .
    X X O . .
    . O . . .
";

/// Black's A2 and C2 each have B2 as their only liberty; Black B2 joins them into one group whose last
/// liberty is B1, where White captures it.
const MERGE: &str = "
    . . . . .
    . . . . .
    O O O O .
    X . X O .
    O . O . .
";

/// RULES.md 3: "**threshold** T (default 7 ...; 7 on every board size unless set), **compensation** C
/// (default 6; 0 disables it)", and "Compensation: White starts with C prisoners".
#[test]
fn threshold_and_compensation_defaults() {
    let rules = stones("stones");
    assert_eq!((rules.threshold, rules.compensation), (7, 6));
    for size in [5, 9, 19] {
        let g = Game::new(rules.clone(), Board::new(size));
        assert_eq!(prisoners(&g), (0, 6), "{size}x{size}");
    }
    let g = Game::new(stones("stones:compensation=0"), Board::new(9));
    assert_eq!(prisoners(&g), (0, 0));
    let g = Game::new(stones("stones:threshold=3,compensation=2"), Board::new(9));
    assert_eq!(prisoners(&g), (0, 2));
}

/// RULES.md 3: "Thresholds: Black needs T − C, White T + C (the seed's "7 ± 6": Black needs a lead of 1,
/// White a lead of 13)."
#[test]
fn compensation_shifts_the_thresholds() {
    let rules = stones("stones");
    assert_eq!((rules.threshold_for(Color::Black), rules.threshold_for(Color::White)), (1, 13));
    // Black: 5 + 2 prisoners against White's 6 is a lead of 1: decisive. From 4 it is a lead of 0: not.
    let mut g = game_with_prisoners(rules.clone(), TWO_FOR_BLACK, Color::Black, (5, 6));
    play(&mut g, "A1");
    let out = g.outcome().expect("a decisive move");
    assert_eq!((out.winner, out.reason), (Some(Color::Black), EndReason::Decisive));
    assert_eq!(out.to_string(), "B+1");
    let mut g = game_with_prisoners(rules.clone(), TWO_FOR_BLACK, Color::Black, (4, 6));
    play(&mut g, "A1");
    assert_eq!(g.outcome(), None, "a lead of 0 is below Black's threshold of 1");
    // White: 11 + 2 against 0 is a lead of 13: decisive; from 10 it is 12: not.
    let mut g = game_with_prisoners(rules.clone(), TWO_FOR_WHITE, Color::White, (0, 11));
    play(&mut g, "A1");
    assert_eq!(g.outcome().map(|o| o.to_string()), Some("W+13".into()));
    let mut g = game_with_prisoners(rules, TWO_FOR_WHITE, Color::White, (0, 10));
    play(&mut g, "A1");
    assert_eq!(g.outcome(), None);
    // Without compensation both players need T.
    let rules = stones("stones:compensation=0,threshold=3");
    assert_eq!((rules.threshold_for(Color::Black), rules.threshold_for(Color::White)), (3, 3));
}

/// RULES.md 3: "Turns alternate; **there is no pass**." A pass is not a move of Stones, and with no
/// prisoner lead and no group to stake, the `pass` of GTP stands for nothing legal.
#[test]
fn there_is_no_pass() {
    let mut g = Game::new(stones("stones"), Board::new(9));
    assert_eq!(try_play(&mut g, "pass"), Err(Illegal::NotInVariant));
    assert_eq!(g.pass_move(Color::Black), Move::Pass);
    assert!(g.legal_moves(Color::Black).iter().all(|m| !m.is_pass_like()));
    assert_eq!(g.legal_moves(Color::Black).len(), 81);
}

/// RULES.md 3: "**Suicide is allowed**: a placement that leaves the mover's group without liberties (after
/// opponent captures) removes that group, and the opponent gains its stones as prisoners."
#[test]
fn suicide_is_allowed_and_feeds_the_opponent() {
    let mut g = game(stones("stones:compensation=0"), SUICIDE, Color::Black);
    let placed = play(&mut g, "A1");
    assert_eq!((placed.captured, placed.suicided), (0, 3));
    for v in ["A1", "A2", "B2"] {
        assert!(g.board().is_empty_point(pt(g.board(), v)), "{v}");
    }
    assert_eq!(prisoners(&g), (0, 3));
    // With the default compensation White's 6 come on top.
    let mut g = game(stones("stones"), SUICIDE, Color::Black);
    play(&mut g, "A1");
    assert_eq!(prisoners(&g), (0, 9));
}

/// RULES.md 3: "A single-stone suicide recreates the previous position and is therefore illegal under the
/// next rule."
#[test]
fn single_stone_suicide_is_illegal() {
    let mut g = game(stones("stones"), SUICIDE, Color::Black);
    assert!(try_play(&mut g, "E5").is_err());
    assert!(!g.legal_moves(Color::Black).contains(&mv(g.board(), "E5")));
}

/// RULES.md 3: "**Repetition (positional superko):** a placement is illegal if the resulting board position
/// equals any earlier board position of the game (the start position included). Prisoner counts are not
/// part of it." In the triple ko the sixth capture would bring back the start position (with other
/// prisoner counts): refused. The immediate ko recapture is refused too.
#[test]
fn positional_superko_forbids_any_earlier_position() {
    let mut g = game(stones("stones"), TRIPLE_KO, Color::Black);
    play(&mut g, "C2");
    assert!(try_play(&mut g, "B2").is_err(), "the immediate recapture repeats the start position");
    play(&mut g, "G2 C6 B2 H2");
    assert_eq!(prisoners(&g), (3, 6 + 2));
    assert_eq!(try_play(&mut g, "B6"), Err(Illegal::Superko));
    // Once other stones are on the board, the same capture makes a new position.
    play(&mut g, "E5 E9");
    assert!(try_play(&mut g, "B6").is_ok(), "with E5 and E9 on the board B6 makes a new position");
}

/// RULES.md 3: "**Lead** of a player = own prisoners − opponent's prisoners", and "**Decisive move:** a
/// placement that (1) captures 2 or more stones in that move ... and (2) leaves the mover's lead at or
/// above the mover's threshold. The mover wins at once."
#[test]
fn decisive_move_wins_at_once() {
    let rules = stones("stones:compensation=0,threshold=4");
    // Lead 2 + 2 = 4: decisive.
    let mut g = game_with_prisoners(rules.clone(), TWO_FOR_BLACK, Color::Black, (3, 1));
    play(&mut g, "A1");
    let out = g.outcome().expect("decisive");
    assert_eq!(
        (out.winner, out.reason, out.to_string()),
        (Some(Color::Black), EndReason::Decisive, "B+4".into())
    );
    assert!(g.legal_moves(Color::White).is_empty());
    assert_eq!(try_play(&mut g, "E5"), Err(Illegal::GameOver));
    // Lead 1 + 2 = 3: the capture stands, the game goes on.
    let mut g = game_with_prisoners(rules, TWO_FOR_BLACK, Color::Black, (3, 2));
    play(&mut g, "A1");
    assert_eq!(prisoners(&g), (5, 2));
    assert_eq!(g.outcome(), None);
}

/// RULES.md 3: "A single-stone capture is never decisive."
#[test]
fn single_stone_capture_is_never_decisive() {
    let diagram = "
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        O X . . .
    ";
    let mut g =
        game_with_prisoners(stones("stones:compensation=0,threshold=1"), diagram, Color::Black, (20, 0));
    assert_eq!(play(&mut g, "A2").captured, 1);
    assert_eq!(prisoners(&g), (21, 0));
    assert_eq!(g.outcome(), None);
}

/// RULES.md 3: "Prisoners gained by the opponent's self-capture are counted in the lead but were not
/// "captured by a move" of the gainer." White's suicide gives Black the lead of 2 it needs, without ending
/// the game; Black's single capture then is not decisive, Black's capture of two is.
#[test]
fn prisoners_from_suicide_count_in_the_lead_only() {
    let diagram = "
        . . X O O
        . . . X .
        X X . . .
        O . X . .
        X X . X O
    ";
    let mut g = game(stones("stones:compensation=0,threshold=2"), diagram, Color::White);
    let placed = play(&mut g, "B2");
    assert_eq!(placed.suicided, 2);
    assert_eq!(prisoners(&g), (2, 0));
    assert_eq!(g.outcome(), None, "a suicide is decisive for nobody");
    assert_eq!(play(&mut g, "E2").captured, 1);
    assert_eq!(g.outcome(), None, "lead 3, but a single stone");
    play(&mut g, "A5");
    assert_eq!(play(&mut g, "E4").captured, 2);
    assert_eq!(g.outcome().map(|o| o.to_string()), Some("B+5".into()));
}

/// RULES.md 3: decisive moves count "stakes captured with a group": a lone stone carrying a stake is two
/// prisoners, so taking it can be decisive.
#[test]
fn captured_stakes_count_towards_a_decisive_capture() {
    let diagram = "
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        O X . . .
    ";
    let mut g =
        game_with_prisoners(stones("stones:compensation=0,threshold=2"), diagram, Color::White, (0, 0));
    play(&mut g, "stake:A1");
    assert_eq!(stakes(&g, "A1"), 1);
    let placed = play(&mut g, "A2");
    assert_eq!((placed.captured, placed.captured_stakes), (1, 1));
    assert_eq!(prisoners(&g), (2, 0));
    assert_eq!(g.outcome().map(|o| o.to_string()), Some("B+2".into()));
}

/// RULES.md 3: "**Prisoner return:** if a player has more prisoners than the opponent, they may return one
/// instead of placing: their prisoner count drops by 1. **Decision:** the returned stone goes back to its
/// owner's bowl; the opponent's prisoner count is unchanged."
#[test]
fn prisoner_return_needs_a_lead_and_lowers_only_the_returner() {
    let mut g = Game::new(stones("stones"), Board::new(9));
    // Black (0 against 6) may not return; White may.
    assert_eq!(g.check(Color::Black, Move::Return), Err(Illegal::NoPrisonerLead));
    play(&mut g, "E5");
    let board = g.board().to_diagram();
    play(&mut g, "return");
    assert_eq!(prisoners(&g), (0, 5));
    assert_eq!(g.board().to_diagram(), board, "a return changes no stone");
    assert_eq!(g.to_move(), Color::Black);
    // Equal counts: no return for either.
    let g = game_with_prisoners(stones("stones"), TWO_FOR_BLACK, Color::Black, (2, 2));
    assert_eq!(g.check(Color::Black, Move::Return), Err(Illegal::NoPrisonerLead));
    assert_eq!(g.check(Color::White, Move::Return), Err(Illegal::NoPrisonerLead));
}

/// RULES.md 3: a return and a stake "are never illegal by repetition, they add no position to the history,
/// and the history is kept (they do not re-open earlier positions)", and the repetition rule covers "the
/// start position included". Black A2 has one liberty; White returns, Black stakes A2, White returns: the
/// board never changes and no position is added. Black A1 would then remove A1 and A2 by self-capture and
/// bring back the start position: refused. With a White stone played instead, the same suicide is new.
#[test]
fn returns_and_stakes_keep_the_history() {
    let diagram = "
        . . . . .
        . . . . .
        O . . . .
        . O . . .
        . O . . .
    ";
    let mut g = game(stones("stones"), diagram, Color::Black);
    play(&mut g, "A2");
    let (board, history) = (g.board().to_diagram(), g.history().len());
    play(&mut g, "return stake:A2 return");
    assert_eq!(g.board().to_diagram(), board);
    assert_eq!(g.history().len(), history);
    assert_eq!((prisoners(&g), stakes(&g, "A2")), ((0, 4), 1));
    assert_eq!(try_play(&mut g, "A1"), Err(Illegal::Superko));
    let mut g = game(stones("stones"), diagram, Color::Black);
    play(&mut g, "A2 E5");
    assert_eq!(play(&mut g, "A1").suicided, 2);
}

/// RULES.md 3: "**Group staking:** while a player has at least one group and *every* group of theirs has 2
/// or fewer liberties, they may, instead of placing, stake one of those groups".
#[test]
fn staking_needs_every_group_at_two_liberties_or_fewer() {
    let mut g = game_with_prisoners(stones("stones:compensation=0"), MERGE, Color::Black, (0, 0));
    // Black's groups have one liberty each; White's A3-D2 has many, so White may stake none.
    assert!(g.check(Color::Black, mv(g.board(), "stake:A2")).is_ok());
    assert!(g.check(Color::Black, mv(g.board(), "stake:C2")).is_ok());
    assert_eq!(g.check(Color::White, mv(g.board(), "stake:A3")), Err(Illegal::CannotStake));
    // A stake must name one of the mover's own groups.
    assert_eq!(g.check(Color::Black, mv(g.board(), "stake:A3")), Err(Illegal::CannotStake));
    // Once Black has a group with three liberties, no group of Black's may be staked.
    play(&mut g, "C5 E5");
    assert_eq!(g.check(Color::Black, mv(g.board(), "stake:A2")), Err(Illegal::CannotStake));
    // A player without any group may not stake.
    let g = Game::new(stones("stones"), Board::new(9));
    assert!(g.pass_like_moves(Color::Black).is_empty());
}

/// RULES.md 3: "A group may carry at most as many stakes as it has liberties at the moment of staking
/// ("once for each" liberty)."
#[test]
fn a_group_takes_at_most_one_stake_per_liberty() {
    let diagram = "
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        X . . . .
    ";
    let mut g = game_with_prisoners(stones("stones:compensation=0"), diagram, Color::Black, (0, 0));
    play(&mut g, "stake:A1 E5 stake:A1 E4");
    assert_eq!(stakes(&g, "A1"), 2);
    assert_eq!(try_play(&mut g, "stake:A1"), Err(Illegal::CannotStake));
    // With one liberty left (White at B1), still no third stake.
    play(&mut g, "C3 B1");
    assert_eq!(stakes(&g, "A1"), 2);
    assert_eq!(try_play(&mut g, "stake:A1"), Err(Illegal::CannotStake));
}

/// RULES.md 3: "When groups merge, their stakes add up. When a staked group is captured (by the opponent or
/// by self-capture), its stakes are captured with it and count as prisoners."
#[test]
fn stakes_merge_and_are_captured_with_the_group() {
    let rules = stones("stones:compensation=0,threshold=9");
    let mut g = game_with_prisoners(rules.clone(), MERGE, Color::Black, (0, 0));
    play(&mut g, "stake:A2 E5 stake:C2 E4 B2");
    assert_eq!(stakes(&g, "A2"), 2, "A2's and C2's stakes now belong to A2-B2-C2");
    assert_eq!(g.board().chain_len(pt(g.board(), "C2")), 3);
    let placed = play(&mut g, "B1");
    assert_eq!((placed.captured, placed.captured_stakes), (3, 2));
    assert_eq!(prisoners(&g), (0, 5));
    assert_eq!(g.outcome(), None, "lead 5 is below 9");

    // Self-capture: Black's staked A2-B2 fills its own last liberty; White gains stones and stake.
    let mut g = game_with_prisoners(rules, SUICIDE, Color::Black, (0, 0));
    play(&mut g, "stake:A2 C4");
    let placed = play(&mut g, "A1");
    assert_eq!((placed.captured, placed.suicided, placed.suicided_stakes), (0, 3, 1));
    assert_eq!(prisoners(&g), (0, 4));
}

/// RULES.md 3: "**End:** the game ends with a decisive move (mover wins), or when the player to move has
/// **no legal move** at all (no legal placement, no return, no stake): that player loses." And the result
/// is the winner's lead, "written 0 when it is not positive".
#[test]
fn no_legal_move_loses() {
    // After White's B1, Black's only empty points are lone-stone suicides; Black has no group and no lead.
    let diagram = "
        O .
        . .
    ";
    let mut g = game(stones("stones"), diagram, Color::White);
    play(&mut g, "B1");
    assert!(g.legal_moves(Color::Black).is_empty());
    let out = g.outcome().expect("Black has no legal move");
    assert_eq!((out.winner, out.reason), (Some(Color::White), EndReason::NoLegalMove));
    assert_eq!(out.to_string(), "W+6");
    let mut g = game(stones("stones:compensation=0"), diagram, Color::White);
    play(&mut g, "B1");
    assert_eq!(g.outcome().map(|o| o.to_string()), Some("W+0".into()));
    // A prisoner lead keeps Black alive: returning is a legal move.
    let mut g = game_with_prisoners(stones("stones:compensation=0"), diagram, Color::White, (1, 0));
    play(&mut g, "B1");
    assert_eq!(g.outcome(), None);
    assert_eq!(g.legal_moves(Color::Black), vec![Move::Return]);
    play(&mut g, "return");
    assert_eq!(g.outcome(), None, "White can still connect at A1");
}

/// RULES.md 3: the player to move with no legal move loses, also at the very start: on a 2x2 board walled
/// down to one point, Black's only placement is a lone-stone suicide, Black has no group and no lead.
#[test]
fn no_legal_move_at_the_start_loses() {
    let b = Board::new(2);
    let walls: Vec<_> = ["A1", "A2", "B1"].iter().map(|v| pt(&b, v)).collect();
    let g = Game::new(stones("stones"), Board::with_walls(2, &walls));
    let out = g.outcome().expect("Black has no legal move on the start position");
    assert_eq!(
        (out.winner, out.reason, out.to_string()),
        (Some(Color::White), EndReason::NoLegalMove, "W+6".into())
    );
    assert!(g.legal_moves(Color::Black).is_empty());
}

/// RULES.md 3: "Over GTP: ... `pass` from the controller means a prisoner return when one is legal,
/// otherwise a stake on the eligible group with the most stones (ties: the group holding the point that
/// comes first in A1, B1, ... order), otherwise it is an illegal move."
#[test]
fn gtp_pass_is_a_return_then_the_largest_group_stake() {
    let diagram = "
        X O . . .
        X O . . .
        . . . . .
        . . . . .
        X . . . X
    ";
    let g = game_with_prisoners(stones("stones:compensation=0"), diagram, Color::Black, (1, 0));
    assert_eq!(g.pass_move(Color::Black), Move::Return, "a return comes first");
    let mut g = game_with_prisoners(stones("stones:compensation=0"), diagram, Color::Black, (0, 0));
    // A4-A5 (two stones, one liberty) first, then the tie between A1 and E1 goes to A1.
    g.play(Color::Black, g.pass_move(Color::Black)).unwrap();
    assert_eq!((stakes(&g, "A5"), stakes(&g, "A1"), stakes(&g, "E1")), (1, 0, 0));
    play(&mut g, "C3");
    g.play(Color::Black, g.pass_move(Color::Black)).unwrap();
    assert_eq!((stakes(&g, "A5"), stakes(&g, "A1"), stakes(&g, "E1")), (1, 1, 0));
    play(&mut g, "C2");
    g.play(Color::Black, g.pass_move(Color::Black)).unwrap();
    assert_eq!((stakes(&g, "A5"), stakes(&g, "A1"), stakes(&g, "E1")), (1, 2, 0));
    play(&mut g, "C1");
    g.play(Color::Black, g.pass_move(Color::Black)).unwrap();
    assert_eq!((stakes(&g, "A5"), stakes(&g, "A1"), stakes(&g, "E1")), (1, 2, 1));
    // White (groups with three liberties or more, no lead) has nothing a pass could stand for.
    assert_eq!(g.pass_move(Color::White), Move::Pass);
    assert_eq!(g.check(Color::White, Move::Pass), Err(Illegal::NotInVariant));
}

/// RULES.md 3: "`resign` is allowed." The result reads `B+R` / `W+R`.
#[test]
fn resignation() {
    let mut g = Game::new(stones("stones"), Board::new(9));
    g.resign(Color::Black);
    assert_eq!(g.outcome().unwrap().to_string(), "W+R");
}

/// Undo restores everything: prisoners, stakes, ko state, a finished game. A game through a
/// return, stakes, a ko capture, a merge and a decisive capture, taken back one move at a time: each undo
/// gives back exactly the state before that move (board internals, prisoners, stakes, ko, outcome,
/// history, move list).
#[test]
fn undo_restores_everything() {
    let rules = stones("stones:compensation=0,threshold=3");
    let mut g = game_with_prisoners(rules, MERGE, Color::Black, (1, 0));
    let mut states = vec![state(&g)];
    for m in ["return", "E5", "stake:A2", "E4", "stake:C2", "D5", "B2", "B1"] {
        play(&mut g, m);
        states.push(state(&g));
    }
    assert_eq!(g.outcome().map(|o| o.to_string()), Some("W+5".into()));
    states.pop();
    while let Some(before) = states.pop() {
        assert!(g.undo());
        assert_eq!(state(&g), before);
    }
    assert!(!g.undo(), "nothing before the start");

    // The ko state: after Black's ko capture the retake is refused; undo and replay give the same answers.
    let mut g = game(stones("stones"), TRIPLE_KO, Color::Black);
    let start = state(&g);
    play(&mut g, "C2");
    let after = state(&g);
    assert!(g.check(Color::White, mv(g.board(), "B2")).is_err());
    assert!(g.undo());
    assert_eq!(state(&g), start);
    assert_eq!(g.to_move(), Color::Black);
    play(&mut g, "C2");
    assert_eq!(state(&g), after);
}
