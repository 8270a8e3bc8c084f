//! Diagram tests for RULES.md section 7 (War Go). Each test's doc comment quotes the line of
//! RULES.md (or of the seed) it checks; the seed's own examples come first. Diagrams are rows top
//! first: `X`/`O` soldiers, `A B M S C` Black's ambassador, bomb, monk, samurai, cavalry and the
//! lower case letters White's, `#` wall, `T` tao, `R` mercenary, `.` empty.

use tengen::board::Color::{self, Black, White};
use tengen::rules::war::{Army, Cell, Kind, WarConfig, WarGame, WarIllegal, WarMove, WarPosition, WarPreset};

fn game(diagram: &str, to_move: Color) -> WarGame {
    let pos = WarPosition::from_diagram(diagram, Army::FULL, to_move).expect("a square diagram");
    WarGame::from_position(WarConfig::default(), pos)
}

fn word(g: &WarGame, w: &str) -> WarMove {
    WarMove::parse(w, &g.position().geo).unwrap_or_else(|e| panic!("{w}: {e:?}"))
}

fn play(g: &mut WarGame, color: Color, w: &str) -> Result<tengen::rules::war::Effect, WarIllegal> {
    let mv = word(g, w);
    g.play(color, mv)
}

fn board(g: &WarGame) -> String {
    g.position().rows().join("\n")
}

fn diagram(s: &str) -> String {
    s.lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Plays `w` expecting it refused with `why`, and checks nothing changed.
fn refused(g: &mut WarGame, color: Color, w: &str, why: WarIllegal) {
    let before = g.position().clone();
    assert_eq!(play(g, color, w).err(), Some(why), "{w} for {color}");
    assert!(*g.position() == before, "{w} changed the position");
}

// ---- The seed's own examples ----

/// Seed: "both players cannot play at [1], since that would mean a capture in the surroundings of
/// an ambassador"; RULES.md: "a turn whose placed, dropped or moved piece ends on a neighbour of an
/// ambassador ... may not capture: if it would remove any chain it is illegal". B1 is [1]: Black
/// there would take White's C1, White there would take Black's A1; both sit next to the ambassador.
#[test]
fn seed_ambassador_neither_player_may_capture_next_to_it() {
    let d = "
        . . . . .
        . . . . .
        . . . . .
        O a X . .
        X . O X .
    ";
    let mut g = game(d, Black);
    refused(&mut g, Black, "B1", WarIllegal::CaptureBan);
    refused(&mut g, White, "B1", WarIllegal::CaptureBan);
    refused(&mut g, White, "samurai@B1", WarIllegal::CaptureBan);
    // Moves that capture nothing stay legal next to it.
    assert!(play(&mut g, Black, "E5").is_ok());
}

/// Seed: "A wall is an uncapturable neutral piece ... cells [1] are in Atari. The white piece cannot
/// escape from the black siege." RULES.md 7: walls are "nobody's liberty": White's B2, walled in on
/// A2 and B1, has C2 as its last liberty; extending there is still atari and Black takes both.
#[test]
fn seed_wall_puts_a_stone_in_atari() {
    let d = "
        . . . . .
        . . . . .
        . X . . .
        # O . X .
        . # X . .
    ";
    let mut g = game(d, White);
    play(&mut g, White, "C2").unwrap();
    // The two white stones: liberties only C3 (B3 and D2 are Black, A2 and B1 walls, C1 Black).
    let e = play(&mut g, Black, "C3").unwrap();
    assert_eq!(e.captured, 2);
    assert_eq!(g.position().prisoners[Black], 2);
    assert_eq!(g.position().cell(word(&g, "A2").target().unwrap()), Cell::Neutral(Kind::Wall));
    assert_eq!(
        board(&g),
        diagram(
            "
        . . . . .
        . . . . .
        . X X . .
        # . . X .
        . # X . .
    "
        )
    );
}

/// Seed: "Black cannot drop at [1] since [1] is within the Monk's influence area. However, White
/// can drop at [2] to capture the black soldier." RULES.md 7: "within Manhattan distance 2 of a
/// monk of either colour, may not capture". [1] is C2, two points from the monk on C4; [2] is G2,
/// far from it.
#[test]
fn seed_monk_bans_the_near_capture_not_the_far_one() {
    let d = "
        . . . . . . .
        . . . . . . .
        . . . . . . .
        . . m . . . .
        . . . . . . .
        . . . . . . .
        . X O X . O X
    ";
    let mut g = game(d, Black);
    refused(&mut g, Black, "C2", WarIllegal::CaptureBan);
    refused(&mut g, Black, "wall@C2", WarIllegal::CaptureBan);
    // A placement there that captures nothing is fine: the ban is on capturing.
    assert!(g.check(Black, word(&g, "C3")).is_ok());
    play(&mut g, Black, "A7").unwrap();
    let e = play(&mut g, White, "samurai@G2").unwrap();
    assert_eq!(e.captured, 1);
    assert_eq!(g.position().cell(word(&g, "G1").target().unwrap()), Cell::Empty);
}

/// Seed: "A spy ... changes the color of the adjacent soldiers (black turns white, white turns
/// black). After that, its own color changes to the player's color, and then all eventual captures
/// are done." White's spy on C3 turns its four black neighbours white; then Black's D4, now
/// surrounded by white, is captured. RULES.md 7: "Chains are recomputed after the flips."
#[test]
fn seed_spy_flips_its_neighbours_then_captures() {
    let d = "
        . . . O .
        . . X X O
        . X . X .
        . . X . .
        . . . . .
    ";
    let mut g = game(d, White);
    let e = play(&mut g, White, "spy@C3").unwrap();
    assert_eq!(e.captured, 1);
    assert_eq!(g.position().prisoners[White], 1);
    assert_eq!(g.position().army[White].count(Kind::Spy), 3);
    assert_eq!(
        board(&g),
        diagram(
            "
        . . . O .
        . . O . O
        . O O O .
        . . O . .
        . . . . .
    "
        )
    );
}

/// Seed: "the white samurai can move North ... but not East"; RULES.md 7: "to an empty neighbour
/// that has at least three empty neighbours once the samurai has left its point". North (C3) has
/// C4, D3 and the point the samurai leaves (B3 is White's soldier); East (D2) only C2 and D3.
#[test]
fn seed_samurai_moves_north_not_east() {
    let d = "
        . . . . .
        . . . . .
        . O . . .
        . . s . X
        . . . X .
    ";
    let mut g = game(d, White);
    refused(&mut g, White, "C2-D2", WarIllegal::CannotMove);
    refused(&mut g, Black, "C2-C3", WarIllegal::CannotMove);
    play(&mut g, White, "C2-C3").unwrap();
    assert_eq!(g.position().cell(word(&g, "C3").target().unwrap()), Cell::Stone(White, Kind::Samurai));
    // A corner never has three freedoms: from B1 the samurai may go to B2 only.
    let edge = "
        . . .
        . . .
        . S .
    ";
    let g = game(edge, Black);
    let from = word(&g, "B1").target().unwrap();
    let targets: Vec<String> =
        g.position().steps_from(Black, from).map(|p| g.position().geo.vertex(p)).collect();
    assert_eq!(targets, ["B2"]);
}

/// Seed: "the black cavalry cannot move north, since the black soldier blocks his way. Also, it
/// cannot move to cell [1], because the cell only has 2 freedoms." RULES.md 7: "blocked when that
/// first point is occupied; it lands on an empty point with at least three empty neighbours". The
/// cavalry on C2: north blocked by C3, [1] is the corner E1 (and A1); A3 and E3 have three.
#[test]
fn seed_cavalry_blocked_by_its_soldier_and_refused_two_freedoms() {
    let d = "
        . . . . .
        . . . . .
        . . X . .
        . . C . .
        . . . . .
    ";
    let mut g = game(d, Black);
    let from = word(&g, "C2").target().unwrap();
    let mut targets: Vec<String> =
        g.position().steps_from(Black, from).map(|p| g.position().geo.vertex(p)).collect();
    targets.sort();
    assert_eq!(targets, ["A3", "E3"]);
    refused(&mut g, Black, "C2-B4", WarIllegal::CannotMove);
    refused(&mut g, Black, "C2-D4", WarIllegal::CannotMove);
    refused(&mut g, Black, "C2-E1", WarIllegal::CannotMove);
    refused(&mut g, Black, "C2-D3", WarIllegal::CannotMove);
    play(&mut g, Black, "C2-E3").unwrap();
    assert_eq!(g.position().cell(word(&g, "E3").target().unwrap()), Cell::Stone(Black, Kind::Cavalry));
}

/// Seed: "if it moves south, it captures the black piece; if it moves north, it captures the white
/// piece. A player can capture its own pieces using a mercenary." RULES.md 7: "either player may
/// move any mercenary ... the mover's own stones removed that way are the opponent's prisoners".
#[test]
fn seed_mercenary_captures_either_colour() {
    let d = "
        . X O X .
        . . . . .
        . . R . .
        . . . . .
        . O X O .
    ";
    // Black moves it north: White's C5 is taken, a Black prisoner.
    let mut g = game(d, Black);
    assert_eq!(play(&mut g, Black, "C3-C4").unwrap().captured, 1);
    assert_eq!(g.position().prisoners, tengen::board::ByColor::new(1, 0));
    // Black moves it south: Black's own C1 is taken, White's prisoner; not suicide.
    let mut g = game(d, Black);
    assert_eq!(play(&mut g, Black, "C3-C2").unwrap().captured, 1);
    assert_eq!(g.position().prisoners, tengen::board::ByColor::new(0, 1));
    assert_eq!(g.position().cell(word(&g, "C1").target().unwrap()), Cell::Empty);
    // White may move it as well.
    let mut g = game(d, White);
    assert_eq!(play(&mut g, White, "C3-C2").unwrap().captured, 1);
    assert_eq!(g.position().prisoners, tengen::board::ByColor::new(0, 1));
}

// ---- Protection ----

/// RULES.md 7: "A stone is protected if it is a neighbour of an ambassador (of either colour) ...
/// A chain with a protected stone cannot be captured: a turn that would leave such a chain without
/// liberties is illegal."
#[test]
fn a_chain_touching_an_ambassador_cannot_be_captured() {
    let d = "
        . . . . .
        . . . . .
        . . . . .
        X O X . .
        A O X . .
    ";
    let mut g = game(d, Black);
    refused(&mut g, Black, "B3", WarIllegal::Protected);
    // The same shape with a plain soldier on A1 is captured.
    let mut g = game(&d.replace('A', "X"), Black);
    assert_eq!(play(&mut g, Black, "B3").unwrap().captured, 2);
}

/// RULES.md 7: "or is a neighbour of a friendly samurai or cavalry (the samurai or cavalry itself
/// is not protected by its own power)".
#[test]
fn samurai_and_cavalry_protect_their_friends_not_themselves() {
    for piece in ['s', 'c'] {
        let d = "
            . . . . .
            . . . . .
            . . . . .
            X O X . .
            X P X . .
        "
        .replace('P', &piece.to_string());
        let mut g = game(&d, Black);
        refused(&mut g, Black, "B3", WarIllegal::Protected);
        // Alone, the samurai or cavalry is captured.
        let alone = "
            . . . . .
            . . . . .
            . . . . .
            X . . . .
            P X . . .
        "
        .replace('P', &piece.to_string());
        let mut g = game(&alone, Black);
        assert_eq!(play(&mut g, Black, "B2").map(|e| e.captured), Ok(0));
        let mut g = game(&alone.replace("X . . . .", ". . . . ."), Black);
        play(&mut g, Black, "A2").unwrap();
        assert_eq!(g.position().cell(word(&g, "A1").target().unwrap()), Cell::Empty, "{piece}");
    }
    // An enemy samurai protects nothing: White's soldier next to Black's samurai is taken.
    let d = "
        . . . . .
        . . . . .
        . X . . .
        X O S . .
        . . . . .
    ";
    let mut g = game(d, Black);
    assert_eq!(play(&mut g, Black, "B1").map(|e| e.captured), Ok(1));
}

// ---- Bombs ----

/// RULES.md 7: "Immediate: the bomb and every piece on its neighbours except walls are removed at
/// once (a destruction, not a capture: no prisoners, no protection applies)".
#[test]
fn an_immediate_bomb_destroys_its_neighbours_but_walls() {
    let d = "
        . . . . .
        . . a . .
        . T . X .
        . . # . .
        . . . . .
    ";
    let mut g = game(d, Black);
    let e = play(&mut g, Black, "bomb!@C3").unwrap();
    assert_eq!(e.destroyed, 3);
    assert_eq!(g.position().prisoners, tengen::board::ByColor::new(0, 0));
    assert_eq!(g.position().army[Black].count(Kind::Bomb), 1);
    assert_eq!(
        board(&g),
        diagram(
            "
        . . . . .
        . . . . .
        . . . . .
        . . # . .
        . . . . .
    "
        )
    );
}

/// RULES.md 7: "Delayed: the bomb stays as a stone of its owner; when a chain holding it is
/// captured, every piece on the bomb's neighbours except walls is destroyed as well, after the
/// capture. Destroyed stones are not prisoners." White's capturing stones next to it blow up.
#[test]
fn a_delayed_bomb_explodes_when_captured() {
    let d = "
        . . . . .
        . . . . .
        . . . . .
        # . . . .
        X B O . .
    ";
    let mut g = game(d, White);
    let e = play(&mut g, White, "B2").unwrap();
    assert_eq!((e.captured, e.destroyed), (2, 2));
    assert_eq!(g.position().prisoners[White], 2);
    assert_eq!(
        board(&g),
        diagram(
            "
        . . . . .
        . . . . .
        . . . . .
        # . . . .
        . . . . .
    "
        )
    );
    // Dropped in delayed mode, it is an ordinary stone of its owner until then.
    let mut g = game(d, Black);
    play(&mut g, Black, "bomb@E5").unwrap();
    assert_eq!(g.position().cell(word(&g, "E5").target().unwrap()), Cell::Stone(Black, Kind::Bomb));
}

// ---- Walls, spies ----

/// RULES.md 7: "A wall drop captures the opponent chains it leaves without liberties and is illegal
/// if it leaves a chain of the dropper without liberties."
#[test]
fn a_dropped_wall_captures_and_may_not_be_suicide() {
    let d = "
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        O X . . .
    ";
    let mut g = game(d, Black);
    assert_eq!(play(&mut g, Black, "wall@A2").map(|e| e.captured), Ok(1));
    assert_eq!(g.position().prisoners[Black], 1);
    let mut g = game(d, White);
    refused(&mut g, White, "wall@A2", WarIllegal::Suicide);
    assert_eq!(g.position().army[White].count(Kind::Wall), 6);
}

/// RULES.md 7: "every soldier among its neighbours (of either colour; special pieces are
/// unaffected) changes colour": the spy turns White's own soldier black and leaves Black's samurai.
#[test]
fn a_spy_turns_soldiers_of_either_colour_and_spares_pieces() {
    let d = "
        . . . . .
        . . O . .
        . S . X .
        . . . . .
        . . . . .
    ";
    let mut g = game(d, White);
    play(&mut g, White, "spy@C3").unwrap();
    assert_eq!(
        board(&g),
        diagram(
            "
        . . . . .
        . . X . .
        . S O O .
        . . . . .
        . . . . .
    "
        )
    );
}

// ---- Tao, mercenaries, moves ----

/// RULES.md 7: "its zone is the 5x5 square centred on it. As a turn, a player may move one of their
/// own soldiers that stands in a zone one point to an empty neighbour (in or out of the zone)."
/// Seed: "if it moves north it will exit the Tao's influence and therefore cannot move anymore".
#[test]
fn a_tao_lets_soldiers_in_its_zone_step() {
    let d = "
        . . . . . . .
        . . . . . . .
        . . . . . X .
        X . . T . . .
        . . . . . . .
        . . . . . . .
        . . . . . . .
    ";
    let mut g = game(d, Black);
    // F5 is two points from the tao on D4 both ways: in the zone.
    refused(&mut g, White, "F5-F6", WarIllegal::CannotMove);
    refused(&mut g, Black, "A4-A5", WarIllegal::CannotMove);
    refused(&mut g, Black, "F5-F7", WarIllegal::CannotMove);
    play(&mut g, Black, "F5-G5").unwrap();
    play(&mut g, White, "pass").unwrap();
    // G5 is outside the zone: it cannot move any more.
    refused(&mut g, Black, "G5-F5", WarIllegal::CannotMove);
    refused(&mut g, Black, "G5-G6", WarIllegal::CannotMove);
    assert_eq!(g.position().army[Black], Army::FULL);
}

/// RULES.md 7: "A moved stone is lifted before its move is judged: its chain splits or shrinks as
/// the board says, and captures and suicide are judged as for a placement on the destination."
#[test]
fn a_moved_stone_is_lifted_before_it_is_judged() {
    // B2 (in the tao's zone) steps to A2 and takes White's A1, as a placement there would.
    let d = "
        . . . . .
        . . . . .
        . . T . .
        . X . . .
        O X . . .
    ";
    let mut g = game(d, Black);
    assert_eq!(play(&mut g, Black, "B2-A2").map(|e| e.captured), Ok(1));
    // B2 steps to A2 between White's A3 and A1: the point it leaves is its liberty, so no suicide.
    let d = "
        . . . . .
        . . . . .
        O . T . .
        . X . . .
        O . . . .
    ";
    let mut g = game(d, Black);
    assert_eq!(play(&mut g, Black, "B2-A2").map(|e| e.captured), Ok(0));
    assert_eq!(g.position().cell(word(&g, "B2").target().unwrap()), Cell::Empty);
    // With B2 a wall instead of empty after the step, the same stone would be suicide: a soldier
    // placed there while a wall stands on B2 is refused.
    let mut g = game(&d.replace(". X . . .", ". # . . ."), Black);
    refused(&mut g, Black, "A2", WarIllegal::Suicide);
}

/// RULES.md 7: "A mercenary with no empty neighbour after any turn is removed (captured, worth no
/// prisoner)."
#[test]
fn a_mercenary_without_an_empty_neighbour_is_removed() {
    let d = "
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        R X . . .
    ";
    let mut g = game(d, White);
    let e = play(&mut g, White, "A2").unwrap();
    assert_eq!((e.captured, e.mercenaries_removed), (0, 1));
    assert_eq!(g.position().cell(word(&g, "A1").target().unwrap()), Cell::Empty);
    assert_eq!(g.position().prisoners, tengen::board::ByColor::new(0, 0));
}

/// RULES.md 7: "positional superko over the pieces on the board (kind, colour)": a mercenary moved
/// there and back would repeat the board.
#[test]
fn superko_forbids_a_mercenary_shuffle() {
    let d = "
        . . . . .
        . . . . .
        . . R . .
        . . . . .
        . . . . .
    ";
    let mut g = game(d, Black);
    play(&mut g, Black, "C3-C4").unwrap();
    refused(&mut g, White, "C4-C3", WarIllegal::Superko);
    play(&mut g, White, "C4-D4").unwrap();
    // A soldier on the same point as a samurai is another position.
    let mut g = game(d, Black);
    play(&mut g, Black, "A1").unwrap();
    assert!(g.undo());
    play(&mut g, Black, "samurai@A1").unwrap();
}

/// RULES.md 7: "a turn whose placed, dropped or moved piece ends ... within Manhattan distance 2 of
/// a monk": three points away is free; the mercenary's move is a turn like any other.
#[test]
fn the_monk_ban_reaches_two_points() {
    // Black's A3 would take White's A2; M marks the monk, moved from one to four points away.
    let with_monk = |row5: &str, row4: &str, row3: &str| {
        let d = format!(". . . . .\n{row5}\n{row4}\n{row3}\n. X . . .\nO X . . .\nX . . . .");
        // Seven rows on a 5-wide board is not square: pad to 7x7.
        let d: String = d.lines().map(|l| format!("{l} . .\n")).collect();
        game(&d, Black)
    };
    let mut g = with_monk(". . . . .", ". . . . .", "M . . . .");
    refused(&mut g, Black, "A3", WarIllegal::CaptureBan);
    let mut g = with_monk(". . . . .", "M . . . .", ". . . . .");
    refused(&mut g, Black, "A3", WarIllegal::CaptureBan);
    let mut g = with_monk(". . . . .", ". . . . .", ". m . . .");
    refused(&mut g, Black, "A3", WarIllegal::CaptureBan);
    let mut g = with_monk("M . . . .", ". . . . .", ". . . . .");
    assert_eq!(play(&mut g, Black, "A3").map(|e| e.captured), Ok(1));
    let mut g = with_monk(". . . . .", ". . . . .", ". . . m .");
    assert_eq!(play(&mut g, Black, "A3").map(|e| e.captured), Ok(1));
    // A mercenary's move is a turn like any other: moved next to the monk, it may not capture.
    let d = "
        . . . . .
        . . . . .
        . M . . .
        X R . . .
        O . . . .
    ";
    let mut g = game(d, Black);
    refused(&mut g, Black, "B2-B1", WarIllegal::CaptureBan);
    let mut g = game(&d.replace('M', "."), Black);
    assert_eq!(play(&mut g, Black, "B2-B1").map(|e| e.captured), Ok(1));
}

// ---- The game: armies, count, presets ----

/// RULES.md 7: "Each player starts with an army in hand: 1 ambassador, 2 bombs, 6 walls, 4 spies,
/// 2 monks, 1 tao, 2 mercenaries, 4 samurai, 2 cavalry (`war:army=...` may set other counts;
/// `army=none` is plain Go)."
#[test]
fn armies_in_hand_run_out() {
    let mut g = WarGame::new(WarConfig::default(), 9, &[]);
    assert_eq!(g.position().army[Black], Army::FULL);
    play(&mut g, Black, "ambassador@E5").unwrap();
    refused(&mut g, Black, "ambassador@C3", WarIllegal::NotInHand);
    play(&mut g, White, "ambassador@C3").unwrap();
    let cfg = WarConfig { army: Army::NONE, ..WarConfig::default() };
    let mut g = WarGame::new(cfg, 9, &[]);
    refused(&mut g, Black, "wall@E5", WarIllegal::NotInHand);
    assert_eq!(g.legal_moves(Black).len(), 82);
    let cfg = WarConfig { army: Army::parse("tao1").unwrap(), ..WarConfig::default() };
    let mut g = WarGame::new(cfg, 9, &[]);
    play(&mut g, Black, "tao@E5").unwrap();
    refused(&mut g, Black, "tao@C3", WarIllegal::NotInHand);
}

/// RULES.md 7: "Standard Go with area scoring, komi 7.5": neutral pieces "count for nobody" and are
/// nobody's: a region bounded by Black and walls is Black's.
#[test]
fn area_count_ignores_neutral_pieces() {
    let d = "
        . # O . .
        # X O . .
        X X O . .
        . X O . .
        R X O . .
    ";
    let g = game(d, Black);
    let area = g.position().area(&[]);
    // Black: 5 stones and A2 (A5, bounded by walls only, is nobody's); White: 5 stones + 10.
    assert_eq!((area[Black], area[White]), (6, 15));
    assert_eq!(g.score(&[]).to_string(), "W+16.5");
    // Dead stones are taken off first: White's column as dead gives Black everything but walls and R.
    let geo = g.position().geo;
    let dead: Vec<_> = ["C1", "C2", "C3", "C4", "C5"].iter().map(|v| geo.parse_vertex(v).unwrap()).collect();
    assert_eq!(g.position().area(&dead)[Black], 5 + 1 + 15);
}

/// RULES.md 7: `war:preset=mercenary` ("nine mercenaries on the nine 19x19 handicap points"),
/// `war:preset=tao-center` ("four taos at (7,7), (12,7), (7,12), (12,12) ... so that their zones
/// make the central 10x10"), both with no armies.
#[test]
fn presets_set_up_their_pieces() {
    let g = WarGame::new(WarConfig { preset: Some(WarPreset::Mercenary), ..WarConfig::default() }, 19, &[]);
    let pos = g.position();
    let mercs: Vec<String> = pos
        .geo
        .points()
        .filter(|&p| pos.cell(p) == Cell::Neutral(Kind::Mercenary))
        .map(|p| pos.geo.vertex(p))
        .collect();
    assert_eq!(mercs, ["D4", "K4", "Q4", "D10", "K10", "Q10", "D16", "K16", "Q16"]);
    assert!(pos.army[Black].is_empty() && pos.army[White].is_empty());
    let g = WarGame::new(WarConfig { preset: Some(WarPreset::TaoCenter), ..WarConfig::default() }, 19, &[]);
    let pos = g.position();
    let zone: Vec<(usize, usize)> =
        pos.geo.points().filter(|&p| pos.in_tao_zone(p)).map(|p| pos.geo.xy(p)).collect();
    assert_eq!(zone.len(), 100);
    assert!(zone.iter().all(|&(x, y)| (4..14).contains(&x) && (4..14).contains(&y)));
    assert!(pos.army[Black].is_empty());
}

/// RULES.md 7: "passes, two passes end it".
#[test]
fn two_passes_end_the_game_with_the_count() {
    let mut g = WarGame::new(WarConfig::default(), 5, &[]);
    play(&mut g, Black, "C3").unwrap();
    play(&mut g, White, "pass").unwrap();
    play(&mut g, Black, "pass").unwrap();
    assert_eq!(g.outcome().map(|o| o.to_string()), Some("B+17.5".into()));
    assert!(g.undo());
    assert!(g.outcome().is_none());
}

/// RULES.md 7: "A mercenary with no empty neighbour after any turn is removed": every such
/// mercenary is judged on the board the turn leaves, so two that box each other in both go.
#[test]
fn mercenaries_boxed_together_go_together() {
    let d = "
        . . . . .
        . . . . .
        X . . . .
        . X . . .
        R X . . .
    ";
    let mut g = game(d, Black);
    let e = play(&mut g, Black, "mercenary@A2").unwrap();
    assert_eq!(e.mercenaries_removed, 2);
    assert_eq!(g.position().cell(word(&g, "A1").target().unwrap()), Cell::Empty);
    assert_eq!(g.position().cell(word(&g, "A2").target().unwrap()), Cell::Empty);
}

/// The search's liberty count (`WarPosition::chain_liberties`): a chain's stones and its distinct
/// empty neighbours (a neutral piece is nobody's liberty), stopping at the cap.
#[test]
fn chain_liberties_count_stones_and_distinct_liberties() {
    let g = game(
        ". . . . .
         . X X . .
         . X # O .
         . . . . .
         . . . . .",
        Black,
    );
    let mut pos = g.position().clone();
    let geo = pos.geo;
    let at = |v: &str| geo.parse_vertex(v).unwrap();
    let (stones, libs, _) = pos.chain_liberties(at("B4"), 10);
    assert_eq!((stones, libs), (3, 6));
    assert_eq!(pos.chain_liberties(at("D3"), 10).1, 3);
    assert_eq!(pos.chain_liberties(at("B4"), 2).1, 2);
    assert_eq!(pos.chain_liberties(at("A1"), 10), (0, 0, tengen::board::Point::NONE));
    let lone = game(
        ". . . . .
         . . . . .
         . X O . .
         . . X . .
         . . . . .",
        Black,
    );
    let mut pos = lone.position().clone();
    let (_, libs, liberty) = pos.chain_liberties(at("C3"), 10);
    assert_eq!((libs, liberty), (2, liberty));
    assert!([at("C4"), at("D3")].contains(&liberty));
}
