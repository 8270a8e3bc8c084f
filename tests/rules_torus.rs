//! Diagram tests for RULES.md section 5.1 (Toroidal Go, `torus=on`): "The neighbours of (x, y) on an
//! N x N torus are (x+-1 mod N, y) and (x, y+-1 mod N): every point has exactly four neighbours."
//! Captures, ko, suicide, eyes and area counts across each edge and across the corner; walls with it;
//! the sizes; the rules string. Each test's doc comment says what it checks; where a flat board
//! would judge otherwise, the test says that too, so that a wrap that does not happen fails it.

mod common;

use common::{game, play, pt, try_play};
use tengen::board::{Board, Cell, Color, Torus};
use tengen::engine::{Engine, EngineError, EngineOptions};
use tengen::rules::{AnyGame, Game, Illegal, RulesConfig, Standard, Stoical, Stones, Variant};

fn go(s: &str) -> Standard<Torus> {
    let cfg = RulesConfig::parse(s).unwrap();
    assert!(cfg.torus, "{s} is a torus");
    cfg.standard().on()
}

fn torus(diagram: &str) -> Board<Torus> {
    Board::from_diagram_shaped(diagram)
}

/// White A3's fourth neighbour is E3, across the left edge: with A2, A4 and B3 black it still has a
/// liberty (on a flat board it would have none), and Black E3 captures it.
#[test]
fn capture_across_the_left_and_right_edges() {
    let mut g = game(
        go("go:torus=on,komi=0.5"),
        "
        . . . . .
        X . . . .
        O X . . .
        X . . . .
        . . . . .
        ",
        Color::Black,
    );
    let b = g.board().clone();
    assert_eq!(b.liberties(pt(&b, "A3")), vec![pt(&b, "E3")]);
    assert!(b.in_atari(pt(&b, "A3")));
    let placed = play(&mut g, "E3");
    assert_eq!(placed.captured, 1);
    assert!(g.board().is_empty_point(pt(&b, "A3")));
    assert_eq!(g.position().prisoners.black, 1);
    g.board().check_consistency().unwrap();
}

/// White C5's fourth neighbour is C1, across the top edge: with B5, D5 and C4 black it still has a
/// liberty, and Black C1 captures it from the bottom row.
#[test]
fn capture_across_the_top_and_bottom_edges() {
    let mut g = game(
        go("go:torus=on"),
        "
        . X O X .
        . . X . .
        . . . . .
        . . . . .
        . . . . .
        ",
        Color::Black,
    );
    let b = g.board().clone();
    assert_eq!(b.liberties(pt(&b, "C5")), vec![pt(&b, "C1")]);
    let placed = play(&mut g, "C1");
    assert_eq!(placed.captured, 1);
    assert!(g.board().is_empty_point(pt(&b, "C5")));
    assert_eq!(g.board().cell(pt(&b, "C1")), Cell::Black);
    // The capturing stone has C5 back as a liberty, across the same edge.
    assert_eq!(
        g.board().liberties(pt(&b, "C1")),
        vec![pt(&b, "B1"), pt(&b, "D1"), pt(&b, "C2"), pt(&b, "C5")]
    );
}

/// The four corners are one 2x2 block on a torus: A1, E1, A5, E5 form a single chain, whose
/// liberties are the eight points around the block (here all black but D1), and Black D1 captures
/// all four stones at once.
#[test]
fn the_corners_are_one_block() {
    let mut g = game(
        go("go:torus=on"),
        "
        O X . X O
        X . . . X
        . . . . .
        X . . . X
        O X . . O
        ",
        Color::Black,
    );
    let b = g.board().clone();
    let a1 = pt(&b, "A1");
    assert_eq!(b.chain_len(a1), 4);
    for corner in ["E1", "A5", "E5"] {
        assert_eq!(b.chain_head(pt(&b, corner)), b.chain_head(a1), "{corner}");
    }
    assert_eq!(b.liberties(a1), vec![pt(&b, "D1")]);
    let placed = play(&mut g, "D1");
    assert_eq!(placed.captured, 4);
    assert!(["A1", "E1", "A5", "E5"].iter().all(|v| g.board().is_empty_point(pt(&b, v))));
    g.board().check_consistency().unwrap();
    // White plays back into the corner: A1 alone has E1 and A5 as liberties, no suicide.
    play(&mut g, "A1");
    assert_eq!(g.board().liberties(a1), vec![pt(&b, "E1"), pt(&b, "A5")]);
}

/// A stone in the corner has four neighbours, two across each edge: with A2 and B1 black, White A1
/// still has E1 and A5; Black takes both and captures.
#[test]
fn capture_across_the_corner() {
    let mut g = game(
        go("go:torus=on"),
        "
        . . . . .
        . . . . .
        . . . . .
        X . . . .
        O X . . .
        ",
        Color::Black,
    );
    let b = g.board().clone();
    assert_eq!(b.liberties(pt(&b, "A1")), vec![pt(&b, "E1"), pt(&b, "A5")]);
    play(&mut g, "E1 pass");
    assert!(g.board().in_atari(pt(&b, "A1")));
    let placed = play(&mut g, "A5");
    assert_eq!(placed.captured, 1);
    assert!(g.board().is_empty_point(pt(&b, "A1")));
}

/// Suicide across the edges: White A1 with Black on A2, B1, E1 and A5 is a lone-stone suicide; with
/// only A2 and B1 black (a flat board's corner suicide) it is legal.
#[test]
fn suicide_is_judged_with_the_wrapped_neighbours() {
    let mut g = game(
        go("go:torus=on"),
        "
        X . . . .
        . . . . .
        . . . . .
        X . . . .
        . X . . X
        ",
        Color::White,
    );
    assert_eq!(try_play(&mut g, "A1").unwrap_err(), Illegal::Suicide);
    let mut g = game(
        go("go:torus=on"),
        "
        . . . . .
        . . . . .
        . . . . .
        X . . . .
        . X . . .
        ",
        Color::White,
    );
    assert!(try_play(&mut g, "A1").is_ok());
}

/// A ko across the left edge: Black A3 captures White E3 and is left with E3 as its only liberty;
/// White may not retake at once (RULES.md 1, simple ko), and may after a move elsewhere.
#[test]
fn ko_across_the_edge() {
    let mut g = game(
        go("go:torus=on"),
        "
        . . . . .
        O . . . X
        . O . X O
        O . . . X
        . . . . .
        ",
        Color::Black,
    );
    let b = g.board().clone();
    let placed = play(&mut g, "A3");
    assert_eq!(placed.captured, 1);
    assert!(g.board().is_empty_point(pt(&b, "E3")));
    assert_eq!(g.board().liberties(pt(&b, "A3")), vec![pt(&b, "E3")]);
    assert_eq!(try_play(&mut g, "E3").unwrap_err(), Illegal::Ko);
    play(&mut g, "C1 C5");
    let placed = play(&mut g, "E3");
    assert_eq!(placed.captured, 1, "the retake after a move elsewhere");
}

/// The playouts' eye test at an edge point: A1 with Black on all four wrapped neighbours is an eye;
/// its diagonals (B2, E2, B5, E5) are all board points, so one White stone on them leaves it an eye
/// and two do not (on a flat board the corner would need none: its diagonals are the edge).
#[test]
fn eyes_at_the_edge_have_four_diagonals() {
    let b = torus(
        "
        X . . . .
        . . . . .
        . . . . .
        X . . . .
        . X . . X
        ",
    );
    let a1 = pt(&b, "A1");
    assert!(b.is_eye(Color::Black, a1));
    assert!(!b.is_eye(Color::White, a1));
    let b = torus(
        "
        X . . . O
        . . . . .
        . . . . .
        X . . . .
        . X . . X
        ",
    );
    assert!(b.is_eye(Color::Black, a1), "one enemy diagonal (E5)");
    let b = torus(
        "
        X . . . O
        . . . . .
        . . . . .
        X O . . .
        . X . . X
        ",
    );
    assert!(!b.is_eye(Color::Black, a1), "two enemy diagonals (E5, B2)");
}

/// Area counting floods through the edges: Black holds column A, White column C. B lies between
/// them (neutral), and so do D and E, which touch C on one side and, across the right edge, A on
/// the other (on a flat board D and E would be White's). 5 - 5, komi 7.5: W+7.5.
#[test]
fn area_regions_cross_the_edge() {
    let g = game(
        go("go:torus=on"),
        "
        X . O . .
        X . O . .
        X . O . .
        X . O . .
        X . O . .
        ",
        Color::Black,
    );
    let count = tengen::rules::scoring::count(g.board(), &[]);
    assert_eq!((count.area(Color::Black), count.area(Color::White)), (5, 5));
    assert_eq!(g.score(&[]).unwrap().to_string(), "W+7.5");
    // The flat board's count of the same stones, for contrast.
    let flat = Board::from_diagram(&g.board().to_diagram());
    let flat_count = tengen::rules::scoring::count(&flat, &[]);
    assert_eq!((flat_count.area(Color::Black), flat_count.area(Color::White)), (5, 15));
}

/// The four corner points make one region across the corner: bordered by Black alone, they are
/// Black's, while the rest of the board touches White C3 too and is neutral. Black 8 + 4, White 1.
#[test]
fn area_region_across_the_corner() {
    let g = game(
        go("go:torus=on,komi=0.5"),
        "
        . X . X .
        X . . . X
        . . O . .
        X . . . X
        . X . X .
        ",
        Color::Black,
    );
    let owners = tengen::rules::scoring::owners(g.board(), &[]);
    let b = g.board();
    for corner in ["A1", "E1", "A5", "E5"] {
        assert_eq!(owners[pt(b, corner).idx()], Some(Color::Black), "{corner}");
    }
    assert_eq!(owners[pt(b, "C1").idx()], None);
    assert_eq!(g.score(&[]).unwrap().to_string(), "B+10.5");
}

/// "Walls combine with it": a wall on E3 closes the wrap, so White A3 with A2, A4 and B3 black has no
/// liberty, and the diagram's last black stone captured it.
#[test]
fn walls_block_the_wrap() {
    let mut cfg = RulesConfig::parse("go:torus=on,walls=E3").unwrap();
    cfg.komi = tengen::rules::Komi::Set(0.5);
    let mut g = AnyGame::new(&cfg, 5);
    assert!(g.is_torus());
    let at = |v: &str| g.board().geometry().parse_vertex(v).unwrap();
    let (a3, a2, a4, b3) = (at("A3"), at("A2"), at("A4"), at("B3"));
    let plays = [(Color::Black, a2), (Color::White, a3), (Color::Black, a4)];
    for (c, p) in plays {
        g.play(c, tengen::rules::Move::Place(p)).unwrap();
    }
    g.play(Color::White, tengen::rules::Move::Pass).unwrap();
    let placed = g.play(Color::Black, tengen::rules::Move::Place(b3)).unwrap();
    assert_eq!(placed.captured, 1, "A3's only other neighbour, E3, is a wall");
}

/// Stones and Stoical Go take the option too, and keep their own rules on the torus: a Stoical
/// capture across the edge bars the opponent's capture in reply (RULES.md 4).
#[test]
fn every_variant_takes_the_option() {
    for (s, v) in [
        ("go:torus=on", Variant::Go),
        ("stones:torus=on", Variant::Stones),
        ("stoical:torus=on", Variant::Stoical),
    ] {
        let cfg = RulesConfig::parse(s).unwrap();
        let g = AnyGame::new(&cfg, 11);
        assert!(g.is_torus() && g.variant() == v, "{s}");
        let printed = cfg.to_string();
        assert!(printed.ends_with(",torus=on"), "{printed}");
        assert_eq!(RulesConfig::parse(&printed).unwrap().to_string(), printed);
    }
    let flat = RulesConfig::parse("stoical").unwrap();
    assert!(!AnyGame::new(&flat, 9).is_torus());
    assert!(!flat.to_string().contains("torus"));

    let stoical: Stoical<Torus> = RulesConfig::parse("stoical:torus=on").unwrap().stoical().on();
    // Black E3 captures White A3 across the edge; White's capture of D1 (across the bottom edge,
    // at D5) is refused at once.
    let mut g = game(
        stoical,
        "
        . . . . .
        X . . . .
        O X . . .
        X . . O .
        . . O X O
        ",
        Color::Black,
    );
    assert!(g.board().in_atari(pt(g.board(), "D1")));
    assert_eq!(play(&mut g, "E3").captured, 1);
    assert_eq!(try_play(&mut g, "D5").unwrap_err(), Illegal::CaptureAfterCapture);
    play(&mut g, "B5 C5");
    assert_eq!(play(&mut g, "D5").captured, 1, "a capture a move later is allowed");

    let stones: Stones<Torus> = RulesConfig::parse("stones:torus=on").unwrap().stones().on();
    let g: Game<Stones<Torus>> = Game::new(stones, Board::torus(5));
    assert_eq!(g.position().prisoners.white, 6, "compensation as on a flat board");
}

/// "Sizes 3 to 25 ... `boardsize 2` under `torus=on` is `? unacceptable size`", and a new game with
/// `--rules go:torus=on` starts on 11x11 (`EngineArgs::size`).
#[test]
fn sizes_three_to_twenty_five() {
    let rules = RulesConfig::parse("go:torus=on").unwrap();
    let mut e = Engine::new(EngineOptions { rules: rules.clone(), size: 11, ..EngineOptions::default() });
    assert!(e.game().is_torus());
    assert_eq!(e.set_size(2), Err(EngineError::UnacceptableSize));
    assert_eq!(e.size(), 11, "a refused size changes nothing");
    for size in [3, 25] {
        e.set_size(size).unwrap();
        assert_eq!(e.game().board().size(), size);
    }
    assert!(rules.check_walls_fit(2).is_err() && rules.check_walls_fit(3).is_ok());
    // A 3x3 torus: every point has four distinct neighbours.
    let b = Board::torus(3);
    for p in b.geometry().points() {
        let mut n = b.neighbours(p).to_vec();
        n.sort();
        n.dedup();
        assert_eq!(n.len(), 4);
    }
    use clap::Parser;
    #[derive(Parser)]
    struct Args {
        #[command(flatten)]
        engine: tengen::cli::EngineArgs,
    }
    let args = Args::parse_from(["tengen", "--rules", "go:torus=on"]);
    assert_eq!(args.engine.size(), 11);
    let args = Args::parse_from(["tengen", "--rules", "go"]);
    assert_eq!(args.engine.size(), 19);
    let args = Args::parse_from(["tengen", "--rules", "stones:torus=on", "--size", "2"]);
    assert!(args.engine.check().is_err());
}
