//! The project's own tactical suite (`tests/data/tactics/*.txt`): positions built by hand, each with
//! the moves that answer it and why, in every variant (go, Stones, Stoical) on boards from 7x7 to
//! 19x19: captures, escapes, ladders, life and death, capturing races, seki, the endgame and each
//! variant's own tactics. The format is described in `tests/data/tactics/README.md`.
//!
//! Every position is searched once, on one thread with a fixed seed and a fixed number of playouts
//! (so the run is reproducible), and the test fails when fewer positions are answered than
//! [`FLOOR`]: a regression gate for move choice. Positions the engine fails today belong in the
//! suite too; when a change makes the engine answer more of them, raise the floor in the same commit.
//!
//! `TENGEN_TACTICS=TEXT` runs only the positions whose name contains TEXT (the floor is then not
//! checked). Every run prints a line per position: the answer and whether it was accepted.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use tengen::board::{Color, Point};
use tengen::engine::{Decision, Engine, EngineOptions};
use tengen::rules::{Move, RulesConfig};

/// Positions the engine must answer: the count when the suite or the engine last changed it (25 of
/// 43 on 2026-12-06). Raise it when the engine improves; never lower it without saying why in the
/// commit.
const FLOOR: usize = 25;

/// Every position is searched on one thread with this seed, and `PLAYOUTS` unless it says otherwise.
const SEED: u64 = 1;
const PLAYOUTS: u64 = 3000;

/// One position of the suite.
#[derive(Debug)]
struct Position {
    name: String,
    file: String,
    rules: String,
    to_play: Color,
    /// The answers accepted; empty when `reject` says what is wrong instead.
    accept: Vec<String>,
    /// Answers refused: any other move is accepted (for positions with one wrong move and many good).
    reject: Vec<String>,
    reason: String,
    /// A stone of the diagram placed last (the opponent's last move, which the search answers).
    last: Option<String>,
    /// Moves played after the diagram's stones, in order, as `b C3` / `w pass`.
    then: Vec<(Color, String)>,
    playouts: u64,
    /// Rows top first: `X` black, `O` white, `.` empty.
    rows: Vec<Vec<char>>,
}

fn color(word: &str) -> Color {
    match word.to_ascii_lowercase().as_str() {
        "b" | "black" => Color::Black,
        "w" | "white" => Color::White,
        _ => panic!("not a colour: {word}"),
    }
}

/// Reads every position of one file.
fn parse(path: &Path) -> Vec<Position> {
    let file = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap();
    let mut positions = Vec::new();
    let mut current: Option<Position> = None;
    let mut in_board = false;
    for (n, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let at = || format!("{file}:{}", n + 1);
        if line.starts_with('#') {
            continue;
        }
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            positions.extend(current.take());
            current = Some(Position {
                name: name.to_string(),
                file: file.clone(),
                rules: String::new(),
                to_play: Color::Black,
                accept: Vec::new(),
                reject: Vec::new(),
                reason: String::new(),
                last: None,
                then: Vec::new(),
                playouts: PLAYOUTS,
                rows: Vec::new(),
            });
            in_board = false;
            continue;
        }
        if line.is_empty() {
            in_board = false;
            continue;
        }
        let p = current.as_mut().unwrap_or_else(|| panic!("{}: text before the first [name]", at()));
        if in_board {
            let row: Vec<char> = line.chars().filter(|c| !c.is_whitespace()).collect();
            assert!(row.iter().all(|c| matches!(c, 'X' | 'O' | '.')), "{}: bad row {line}", at());
            p.rows.push(row);
            continue;
        }
        let (key, value) = line.split_once(':').unwrap_or_else(|| panic!("{}: expected key: value", at()));
        let value = value.trim();
        match key.trim() {
            "rules" => p.rules = value.to_string(),
            "play" => p.to_play = color(value),
            "accept" => p.accept = value.split_whitespace().map(|v| v.to_ascii_uppercase()).collect(),
            "reject" => p.reject = value.split_whitespace().map(|v| v.to_ascii_uppercase()).collect(),
            "reason" => p.reason = value.to_string(),
            "last" => p.last = Some(value.to_ascii_uppercase()),
            "then" => {
                let words: Vec<&str> = value.split_whitespace().collect();
                assert!(words.len().is_multiple_of(2), "{}: then: colour move pairs", at());
                p.then = words.chunks(2).map(|w| (color(w[0]), w[1].to_ascii_uppercase())).collect();
            }
            "playouts" => p.playouts = value.parse().unwrap_or_else(|_| panic!("{}: playouts", at())),
            "board" => in_board = true,
            other => panic!("{}: unknown key {other}", at()),
        }
    }
    positions.extend(current);
    for p in &positions {
        let where_ = format!("{}: [{}]", p.file, p.name);
        assert!(!p.rules.is_empty() && !p.reason.is_empty(), "{where_}: incomplete");
        assert!(p.accept.is_empty() != p.reject.is_empty(), "{where_}: accept or reject, one of them");
        let size = p.rows.len();
        assert!((5..=19).contains(&size), "{where_}: {size} rows");
        assert!(p.rows.iter().all(|r| r.len() == size), "{where_}: the board is not square");
    }
    positions
}

fn vertex(e: &Engine, p: Point) -> String {
    e.game().board().geometry().vertex(p)
}

fn parse_move(e: &Engine, text: &str) -> Move {
    if text.eq_ignore_ascii_case("pass") {
        return e.game().pass_move(e.game().to_move());
    }
    let p = e.game().board().geometry().parse_vertex(text).unwrap_or_else(|| panic!("not a point: {text}"));
    Move::Place(p)
}

/// The engine with the position set up: the diagram's stones played one by one (the `last` one
/// last), then the `then` moves. Checks that the board is the diagram's afterwards.
fn set_up(p: &Position) -> Engine {
    let size = p.rows.len();
    let options = EngineOptions {
        rules: RulesConfig::parse(&p.rules)
            .unwrap_or_else(|e| panic!("[{}]: rules {}: {e}", p.name, p.rules)),
        size,
        seed: SEED,
        threads: Some(1),
        playouts: Some(p.playouts),
        max_tree_mb: 128,
        // The suite asks for moves: a lost position still has a best one.
        resign_threshold: None,
        ..EngineOptions::default()
    };
    let mut e = Engine::new(options);
    let geo = *e.game().board().geometry();
    let mut stones: Vec<(Color, Point)> = Vec::new();
    for (i, row) in p.rows.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            let color = match c {
                'X' => Color::Black,
                'O' => Color::White,
                _ => continue,
            };
            stones.push((color, geo.point(x, size - 1 - i)));
        }
    }
    if let Some(last) = &p.last {
        let at = geo.parse_vertex(last).unwrap_or_else(|| panic!("[{}]: last {last}", p.name));
        let i = stones
            .iter()
            .position(|&(_, q)| q == at)
            .unwrap_or_else(|| panic!("[{}]: no stone at {last}", p.name));
        let s = stones.remove(i);
        stones.push(s);
    }
    for &(color, at) in &stones {
        e.play(color, Move::Place(at))
            .unwrap_or_else(|err| panic!("[{}]: setting up {color:?} {}: {err}", p.name, vertex(&e, at)));
    }
    for (i, row) in p.rows.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            let at = geo.point(x, size - 1 - i);
            let on_board = match e.game().board().cell(at).color() {
                Some(Color::Black) => 'X',
                Some(Color::White) => 'O',
                None => '.',
            };
            assert_eq!(on_board, c, "[{}]: the set-up captured at {}", p.name, vertex(&e, at));
        }
    }
    for (color, text) in &p.then {
        let mv = parse_move(&e, text);
        e.play(*color, mv).unwrap_or_else(|err| panic!("[{}]: then {color:?} {text}: {err}", p.name));
    }
    e
}

fn suite_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/tactics")
}

fn all_positions() -> Vec<Position> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(suite_dir())
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    let positions: Vec<Position> = files.iter().flat_map(|f| parse(f)).collect();
    let mut names = BTreeSet::new();
    for p in &positions {
        assert!(names.insert(p.name.clone()), "two positions named {}", p.name);
    }
    positions
}

/// The suite itself is sound: every accepted answer is a legal move of the position.
#[test]
fn every_accepted_answer_is_legal() {
    for p in all_positions() {
        let e = set_up(&p);
        for a in p.accept.iter().chain(&p.reject).filter(|a| *a != "RESIGN") {
            let mv = parse_move(&e, a);
            assert!(
                e.game().check(p.to_play, mv).is_ok(),
                "[{}]: the listed {a} is illegal\n{}",
                p.name,
                e.game().board()
            );
        }
    }
}

#[test]
fn tactical_suite_pass_count_does_not_fall() {
    let only = std::env::var("TENGEN_TACTICS").ok();
    let positions: Vec<Position> =
        all_positions().into_iter().filter(|p| only.as_deref().is_none_or(|o| p.name.contains(o))).collect();
    let mut passed = 0;
    let mut failed = Vec::new();
    let mut sizes = BTreeSet::new();
    let mut variants = BTreeSet::new();
    for p in &positions {
        let mut e = set_up(p);
        sizes.insert(p.rows.len());
        variants.insert(p.rules.split(':').next().unwrap().to_string());
        let answer = match e.genmove(p.to_play, false).unwrap_or_else(|err| panic!("[{}]: {err}", p.name)) {
            Decision::Play(m) if m.is_pass_like() => "PASS".to_string(),
            Decision::Play(m) => m.to_gtp(e.game().board().geometry()).to_ascii_uppercase(),
            Decision::Resign => "RESIGN".to_string(),
        };
        let ok = if p.accept.is_empty() { !p.reject.contains(&answer) } else { p.accept.contains(&answer) };
        eprintln!(
            "{} {:<32} {:>2}x{:<2} {:<8} {:<6} {}",
            if ok { "pass" } else { "FAIL" },
            p.name,
            p.rows.len(),
            p.rows.len(),
            p.rules.split(':').next().unwrap(),
            answer,
            if p.accept.is_empty() {
                format!("reject {}", p.reject.join(" "))
            } else {
                format!("accept {}", p.accept.join(" "))
            }
        );
        if ok {
            passed += 1;
        } else {
            failed.push(format!("{} ({answer}; {})", p.name, p.reason));
        }
    }
    eprintln!("tactics: {passed} of {} answered; failed: {failed:#?}", positions.len());
    if only.is_none() {
        assert!(positions.len() >= 30, "{} positions", positions.len());
        assert!(variants.len() == 3 && sizes.contains(&19), "variants {variants:?}, sizes {sizes:?}");
        assert!(passed >= FLOOR, "{passed} of {} answered, below the floor of {FLOOR}", positions.len());
    }
}
