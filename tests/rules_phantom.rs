//! Phantom Go from a player's side (RULES.md 5.2, GTP.md): the view the referee's messages build,
//! from diagrams, and the engine's proposals from it.
//!
//! Diagrams are Black's view, rows top first: `X` its stones, `o` the white stones it knows of,
//! `.` points it sees empty (some may hold unseen white stones).

use tengen::board::{Board, Color, Geometry, Point};
use tengen::engine::phantom::View;
use tengen::engine::{Decision, Engine, EngineError, EngineOptions};
use tengen::gtp::Session;
use tengen::rules::{Move, RulesConfig};

/// Black's view of `diagram` with `unseen` white stones it cannot place; Black to move.
fn view(diagram: &str, unseen: u32) -> (View, Board) {
    let board = Board::from_diagram(&diagram.replace('o', "O"));
    let geo = *board.geometry();
    let mut v = View::new();
    v.me = Some(Color::Black);
    for p in geo.points() {
        match board.cell(p).color() {
            Some(Color::Black) => v.own.push(p),
            Some(Color::White) => v.known.push(p),
            None => {}
        }
    }
    v.unseen = unseen;
    let empty = Board::new(geo.size);
    (v, empty)
}

fn pt(size: usize, vertex: &str) -> Point {
    Geometry::new(size).parse_vertex(vertex).unwrap()
}

/// Black proposes `vertex` and the referee refuses it.
fn refuse(v: &mut View, empty: &Board, vertex: &str) {
    let p = pt(empty.size(), vertex);
    v.check_move(Color::Black, Move::Place(p)).unwrap();
    v.play_own(Color::Black, Move::Place(p), true);
    v.illegal(p, empty).unwrap();
}

#[test]
fn a_refusal_that_cannot_be_a_suicide_proves_a_stone() {
    // C3 has four points around it that Black sees empty; White has two stones Black cannot see:
    // too few to make C3 a suicide, so a white stone stands there.
    let (mut v, empty) = view(
        "
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        X . . . .",
        2,
    );
    refuse(&mut v, &empty, "C3");
    assert_eq!(v.known, vec![pt(5, "C3")]);
    assert_eq!(v.unseen, 1);
    assert_eq!(v.illegal, vec![pt(5, "C3")]);
    assert_eq!(v.to_move, Color::Black, "a refusal does not pass the turn");
    // The view now shows it.
    assert_eq!(v.board(&empty).cell(pt(5, "C3")).color(), Some(Color::White));
    // Proposing it again is refused by the engine itself (GTP.md: never twice).
    assert!(v.check_move(Color::Black, Move::Place(pt(5, "C3"))).is_err());
}

#[test]
fn a_refusal_that_may_be_a_suicide_is_only_suspected() {
    // B1 touches A1's and C1's chains only through their shared liberties A2, B2, C2, D1: four
    // points, and White has four unseen stones, enough to make B1 a suicide.
    let (mut v, empty) = view(
        "
        . . . . .
        . . . . .
        . . . . .
        . . . . .
        X . X . .",
        4,
    );
    refuse(&mut v, &empty, "B1");
    assert!(v.known.is_empty());
    assert_eq!(v.unseen, 4);
    assert_eq!(v.suspects.iter().map(|s| s.0).collect::<Vec<_>>(), vec![pt(5, "B1")]);
    // Refused in this position all the same.
    assert!(v.check_move(Color::Black, Move::Place(pt(5, "B1"))).is_err());
    // After a legal move of Black's, the point may be tried again; the suspicion fades.
    v.play_own(Color::Black, Move::Place(pt(5, "E5")), false);
    v.opponent_moved(false).unwrap();
    assert!(v.check_move(Color::Black, Move::Place(pt(5, "B1"))).is_ok());
    // Believed for three own moves, E5 the first.
    for corner in ["E1", "A5"] {
        assert_eq!(v.suspects.len(), 1);
        v.play_own(Color::Black, Move::Place(pt(5, corner)), false);
        v.opponent_moved(false).unwrap();
    }
    assert!(v.suspects.is_empty());
}

#[test]
fn captures_are_counted_from_both_sides() {
    // Black's proposal B3 is accepted and takes the known stone C3 and an unseen one (C2).
    let (mut v, empty) = view(
        "
        . . . . .
        . . X . .
        . . o X .
        . . . X .
        . . X . .",
        3,
    );
    let b3 = pt(5, "B3");
    v.play_own(Color::Black, Move::Place(b3), true);
    v.removed(&[pt(5, "C3"), pt(5, "C2")], &empty).unwrap();
    assert!(v.known.is_empty());
    assert_eq!(v.unseen, 2);
    assert_eq!(v.captured.black, 2);
    assert_eq!(v.pending, None, "the removal accepted the proposal");
    // A second removal after the same move is out of order.
    assert!(v.removed(&[pt(5, "A1")], &empty).is_err());
    // White moves and takes Black's C1.
    v.opponent_moved(false).unwrap();
    assert_eq!(v.unseen, 3);
    assert!(v.removed(&[pt(5, "A1")], &empty).is_err(), "Black has no stone on A1");
    v.removed(&[pt(5, "C1")], &empty).unwrap();
    assert!(!v.own.contains(&pt(5, "C1")));
    assert_eq!(v.captured.white, 1);
    assert!(v.own.contains(&b3));
    // C1 was captured: White stands on every point beside it, and Black now knows where.
    let mut known = v.known.clone();
    known.sort_unstable();
    let mut around = vec![pt(5, "B1"), pt(5, "D1"), pt(5, "C2")];
    around.sort_unstable();
    assert_eq!(known, around);
    assert_eq!(v.unseen, 0);
    assert!(v.check_move(Color::Black, Move::Place(pt(5, "C2"))).is_err());
}

#[test]
fn messages_out_of_order_change_nothing() {
    let (v, empty) = view(
        "
        . . . . .
        . . . . .
        . . X . .
        . . . . .
        . . . . .",
        1,
    );
    let before = format!("{v:?}");
    type Attempt = Box<dyn Fn(&mut View) -> Result<(), EngineError>>;
    let attempts: Vec<Attempt> = vec![
        Box::new(|v| v.illegal(pt(5, "D4"), &Board::new(5))),
        Box::new(|v| v.opponent_moved(false)),
        Box::new(|v| v.opponent_illegal()),
        Box::new(|v| v.removed(&[pt(5, "C3")], &Board::new(5))),
        Box::new(|v| v.check_move(Color::White, Move::Place(pt(5, "A1")))),
        Box::new(|v| v.check_move(Color::Black, Move::Place(pt(5, "C3")))),
    ];
    for (i, attempt) in attempts.iter().enumerate() {
        let mut w = v.clone();
        assert!(attempt(&mut w).is_err(), "attempt {i}");
        assert_eq!(format!("{w:?}"), before, "attempt {i}");
    }
    let _ = empty;
}

fn engine(size: usize, seed: u64) -> Engine {
    Engine::new(EngineOptions {
        rules: RulesConfig::parse("phantom").unwrap(),
        size,
        seed,
        threads: Some(1),
        playouts: Some(160),
        ..EngineOptions::default()
    })
}

#[test]
fn the_engine_never_proposes_a_point_it_knows_occupied_or_refused() {
    // Black on 5x5 with a few stones; White has made moves Black cannot see. Every proposal is
    // refused: the engine must go through new points, then pass, never naming one twice.
    let mut e = engine(5, 3);
    for v in ["C3", "B2", "D4"] {
        e.play(Color::Black, Move::Place(pt(5, v))).unwrap();
        e.phantom_opponent_moved(false).unwrap();
    }
    let mut proposed = Vec::new();
    loop {
        let Decision::Play(mv) = e.genmove(Color::Black, true).unwrap() else { panic!("resigned") };
        let Move::Place(p) = mv else { break };
        assert!(!proposed.contains(&p), "{} proposed twice", e.game().board().geometry().vertex(p));
        assert!(!["C3", "B2", "D4"].iter().any(|v| pt(5, v) == p), "an own stone proposed");
        proposed.push(p);
        e.phantom_illegal(p).unwrap();
        assert!(proposed.len() <= 22);
    }
    // It passed only when every point it sees open had been tried; the pass is played.
    assert_eq!(proposed.len(), 22);
    let view = e.phantom_view().unwrap();
    assert_eq!(view.to_move, Color::White);
    assert!(view.illegal.is_empty(), "a legal move of its own makes a new position");
}

#[test]
fn analysis_reports_win_rates_over_the_sampled_boards() {
    use tengen::engine::{Limits, ThinkRequest};
    let mut e = engine(9, 1);
    e.play(Color::Black, Move::Place(pt(9, "E5"))).unwrap();
    e.phantom_opponent_moved(false).unwrap();
    let req = ThinkRequest::new(Limits { playouts: Some(320), time: None, early_stop: false });
    let mut reports = 0;
    let report = e.think(Color::Black, &req, &|| false, &mut |_| reports += 1).unwrap();
    assert!(reports >= 1);
    // One sampled board a playout: every playout is one candidate's visit.
    assert_eq!(report.playouts, 320);
    let visits: u64 = report.candidates.iter().map(|c| u64::from(c.visits)).sum();
    assert_eq!(visits, report.root_visits);
    assert!(report.candidates.iter().all(|c| (0.0..=1.0).contains(&c.winrate)));
    assert!(report.candidates.iter().all(|c| c.mv != Move::Place(pt(9, "E5"))));
    // The opponent's colour is not this engine's to search.
    assert!(e.think(Color::White, &req, &|| false, &mut |_| {}).is_err());
}

#[test]
fn gtp_shows_the_view_and_refuses_the_opponents_moves() {
    let mut s = Session::new(engine(9, 1));
    let mut send = |line: &str| String::from_utf8(s.handle_line(line.as_bytes()).unwrap().into()).unwrap();
    assert_eq!(send("play b E5"), "= \n\n");
    assert_eq!(send("play w D4"), "? illegal move\n\n");
    assert_eq!(send("phantom-opponent-moved"), "= \n\n");
    let board = send("gogui-rules_board");
    assert_eq!(board.matches('X').count(), 1);
    assert_eq!(board.matches('O').count(), 0, "White's stone is unseen");
    let shown = send("showboard");
    assert!(shown.contains("Unseen opponent stones: 1"), "{shown}");
    // Another variant: the messages are refused.
    assert_eq!(send("tengen-rules go"), "= \n\n");
    assert_eq!(send("phantom-opponent-illegal"), "? not a phantom game\n\n");
    assert_eq!(send("play w D4"), "= \n\n");
}
