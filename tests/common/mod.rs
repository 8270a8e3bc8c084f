//! Helpers shared by the rules tests: games from diagrams and move lists in GTP notation.
#![allow(dead_code)] // each test crate uses its own subset

use tengen::board::{Board, Color, Placement, Point, Topology};
use tengen::rules::{Game, Illegal, Move, Rules};

/// The point named `v` (GTP notation) on `b`.
pub fn pt<T: Topology>(b: &Board<T>, v: &str) -> Point {
    b.geometry().parse_vertex(v).unwrap_or_else(|| panic!("{v} is not a point of this board"))
}

/// A game of `rules` from a diagram (rows top first, `X` black, `O` white, `.` empty, `#` wall).
pub fn game<R: Rules>(rules: R, diagram: &str, to_move: Color) -> Game<R> {
    Game::from_board(rules, Board::from_diagram_shaped(diagram), to_move)
}

/// Parses one move: a vertex, `pass`, `button`, `return`, or `stake:VERTEX`.
pub fn mv<T: Topology>(b: &Board<T>, text: &str) -> Move {
    match text {
        "pass" => Move::Pass,
        "button" => Move::Button,
        "return" => Move::Return,
        _ => match text.strip_prefix("stake:") {
            Some(v) => Move::Stake(pt(b, v)),
            None => Move::Place(pt(b, text)),
        },
    }
}

/// Plays a space-separated list of moves, each by the side to move; panics on an illegal one.
pub fn play<R: Rules>(g: &mut Game<R>, moves: &str) -> Placement {
    let mut last = Placement::default();
    for text in moves.split_whitespace() {
        let color = g.to_move();
        let m = mv(g.board(), text);
        last = g.play(color, m).unwrap_or_else(|e| panic!("{color} {text} refused: {e:?}\n{}", g.board()));
    }
    last
}

/// Tries one move by the side to move; on refusal checks that nothing changed and returns the error.
pub fn try_play<R: Rules>(g: &mut Game<R>, text: &str) -> Result<Placement, Illegal> {
    let color = g.to_move();
    let m = mv(g.board(), text);
    let before = state(g);
    let r = g.play(color, m);
    if r.is_err() {
        assert_eq!(state(g), before, "a refused move changed the game");
    }
    r
}

/// The whole state of a game (position with board internals, history, moves), for before/after checks.
pub fn state<R: Rules>(g: &Game<R>) -> String {
    format!("{:?}\n{:?}\n{:?}", g.position(), g.history(), g.moves())
}

/// The diagram of the board, rows top first, trimmed of the indentation the test source uses.
pub fn diagram(text: &str) -> String {
    text.lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|l| !l.is_empty())
        .map(|l| l + "\n")
        .collect()
}
