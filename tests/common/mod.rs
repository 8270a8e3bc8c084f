//! Helpers shared by the test crates: games from diagrams and move lists in GTP notation, and where
//! to find GNU Go.
#![allow(dead_code)] // each test crate uses its own subset

use std::path::PathBuf;
use tengen::board::{Board, Color, Placement, Point, Topology};
use tengen::rules::{Game, Illegal, Move, Rules};

/// GNU Go (the first `gnugo` on `PATH`, else Debian's `/usr/games/gnugo`), or `None` after a notice
/// when it is missing. With `TENGEN_REQUIRE_GNUGO=1` (CI sets it) a missing GNU Go fails the test
/// instead of skipping it. Every test that runs GNU Go finds it here.
pub fn gnugo() -> Option<PathBuf> {
    let found = tengen::selfplay::gtp_client::find_gnugo();
    if found.is_none() {
        let required = std::env::var("TENGEN_REQUIRE_GNUGO").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "TENGEN_REQUIRE_GNUGO=1 but GNU Go is missing (PATH, /usr/games/gnugo; apt-get install gnugo)"
        );
        eprintln!("notice: GNU Go not found (PATH, /usr/games/gnugo); skipping (apt-get install gnugo)");
    }
    found
}

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

/// The `.sgf` files in `dir`, sorted by name.
pub fn sgf_files(dir: &std::path::Path) -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sgf"))
        .collect();
    files.sort();
    files
}

/// Runs GNU Go (`gnugo --mode gtp` plus `args`) on `commands` and returns each answer's payload (the
/// text after `=`, trimmed); panics if GNU Go refuses one.
pub fn gnugo_answers(gnugo: &std::path::Path, args: &[&str], commands: &[String]) -> Vec<String> {
    use std::io::Write;
    let mut child = std::process::Command::new(gnugo)
        .args(["--mode", "gtp"])
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("starting GNU Go");
    let mut input = commands.join("\n");
    input.push_str("\nquit\n");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    let answers: Vec<&str> = text.split("\n\n").filter(|r| !r.trim().is_empty()).collect();
    assert_eq!(answers.len(), commands.len() + 1, "GNU Go's answers to {commands:?}:\n{text}");
    commands
        .iter()
        .zip(&answers)
        .map(|(c, a)| {
            let a = a.trim();
            a.strip_prefix('=').unwrap_or_else(|| panic!("GNU Go refused {c}: {a}")).trim().to_string()
        })
        .collect()
}

/// A game result (`B+3.5`, `W+R`, `0`) as (winner, margin) for comparing results from different
/// programs by value: `('0', 0.0)` for a draw, a margin of -1 for a result without a number.
pub fn result_value(result: &str) -> (char, f64) {
    let r = result.trim().to_ascii_uppercase();
    if r == "0" || r == "DRAW" || r == "JIGO" || r == "B+0" || r == "W+0" {
        return ('0', 0.0);
    }
    let (who, margin) = r.split_once('+').unwrap_or_else(|| panic!("not a result: {result}"));
    let who = who.chars().next().unwrap_or_else(|| panic!("not a result: {result}"));
    (who, margin.parse().unwrap_or(-1.0))
}
