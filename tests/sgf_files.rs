//! Reading SGF files made by a real producer (GNU Go 3.8, see tests/data/sgf/generate.sh) and a
//! hand-written old FF[3] file, and checking that GNU Go reads what we write.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use tengen::board::Color;
use tengen::sgf::{parse_collection, GameRecord, RecordMove, SgfError};

fn data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sgf").join(name)
}

fn load(name: &str) -> GameRecord {
    let bytes = std::fs::read(data(name)).unwrap();
    GameRecord::parse_bytes(&bytes).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// A GTP vertex such as `Q16` as `(x, y)`, y from the bottom; GTP skips the letter I.
fn gtp_vertex(v: &str) -> (usize, usize) {
    let letter = v.as_bytes()[0].to_ascii_uppercase();
    let x = usize::from(letter - b'A') - usize::from(letter > b'I');
    (x, v[1..].parse::<usize>().unwrap() - 1)
}

/// GNU Go's own list of the moves it played, e.g. `12 black (X) move D4` or `... move PASS`.
fn gnugo_moves(name: &str) -> Vec<(Color, Option<(usize, usize)>)> {
    std::fs::read_to_string(data(name))
        .unwrap()
        .lines()
        .map(|line| {
            let words: Vec<&str> = line.split_whitespace().collect();
            let color = Color::parse(words[1]).unwrap();
            let vertex = words[4];
            (color, (vertex != "PASS").then(|| gtp_vertex(vertex)))
        })
        .collect()
}

fn moves_of(record: &GameRecord) -> Vec<(Color, Option<(usize, usize)>)> {
    record.moves.iter().map(|m| (m.color, m.at)).collect()
}

fn sorted(mut points: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    points.sort_unstable();
    points
}

#[test]
fn gnugo_9x9_game() {
    let r = load("gnugo_9x9_game.sgf");
    assert_eq!(r.size, 9);
    assert_eq!(r.komi, Some(7.5));
    assert_eq!(r.handicap, 0);
    assert_eq!(r.rules.as_deref(), Some("Japanese"));
    assert_eq!(r.to_play, Some(Color::Black));
    assert_eq!(r.result.as_deref(), Some("W+4.5"));
    assert!(r.black_stones.is_empty() && r.white_stones.is_empty());
    assert_eq!(moves_of(&r), gnugo_moves("gnugo_9x9_game.moves"));
    // GNU Go ends with two passes and puts its verdict in the last node's comment.
    let last = r.moves.last().unwrap();
    assert_eq!(last.at, None);
    assert_eq!(last.comment.as_deref(), Some("White wins by 4.5 points\n"));
}

#[test]
fn gnugo_19x19_handicap_game() {
    let r = load("gnugo_19x19_h4_game.sgf");
    assert_eq!(r.size, 19);
    assert_eq!(r.komi, Some(0.5));
    assert_eq!(r.handicap, 4);
    // fixed_handicap 4 = D4 Q16 D16 Q4.
    let hoshi = ["D4", "D16", "Q4", "Q16"].map(gtp_vertex).to_vec();
    assert_eq!(sorted(r.black_stones.clone()), sorted(hoshi));
    assert!(r.white_stones.is_empty());
    let expected = gnugo_moves("gnugo_19x19_h4_game.moves");
    assert_eq!(expected.len(), 185);
    assert_eq!(moves_of(&r), expected);
}

#[test]
fn gnugo_printed_position() {
    // GTP printsgf writes the position as setup stones: two black, one white.
    let r = load("gnugo_9x9_position.sgf");
    assert_eq!((r.size, r.komi), (9, Some(7.5)));
    assert_eq!(sorted(r.black_stones.clone()), sorted(vec![gtp_vertex("E5"), gtp_vertex("G5")]));
    assert_eq!(r.white_stones, [gtp_vertex("C5")]);
    assert_eq!(r.to_play, Some(Color::White));
    assert!(r.moves.is_empty());
}

#[test]
fn old_ff3_file() {
    let r = load("ff3_old_style.sgf");
    assert_eq!((r.size, r.komi, r.handicap), (13, Some(5.5), 2));
    assert_eq!(r.black_name.as_deref(), Some("Old Timer"));
    // Not UTF-8, so read as ISO-8859-1.
    assert_eq!(r.white_name.as_deref(), Some("José María"));
    assert_eq!(r.date.as_deref(), Some("1998-05-17"));
    assert_eq!(r.result.as_deref(), Some("B+3.5"));
    assert_eq!(r.game_name.as_deref(), Some("Club game ] round 3"));
    assert_eq!(
        r.root_comment.as_deref(),
        Some("Two handicap stones. A soft line break, a backslash \\ and a\nhard one.")
    );
    assert_eq!(r.black_stones, [(3, 3), (9, 9)]);
    let m = |color, at, comment: Option<&str>| RecordMove {
        color,
        at,
        comment: comment.map(String::from),
        time_left: None,
        war: None,
    };
    assert_eq!(
        r.moves,
        [
            m(Color::White, Some((3, 9)), None),
            m(Color::Black, Some((9, 3)), Some("Solid.")),
            m(Color::White, Some((6, 6)), None),
            m(Color::Black, None, None),
            m(Color::White, None, None),
        ]
    );
    // The file holds a second game after the first.
    let text = tengen::sgf::decode(&std::fs::read(data("ff3_old_style.sgf")).unwrap());
    assert_eq!(parse_collection(&text).unwrap().len(), 2);
}

#[test]
fn real_files_round_trip() {
    for name in
        ["gnugo_9x9_game.sgf", "gnugo_19x19_h4_game.sgf", "gnugo_9x9_position.sgf", "ff3_old_style.sgf"]
    {
        let r = load(name);
        assert_eq!(GameRecord::parse(&r.to_sgf()).unwrap(), r, "{name}");
    }
}

#[test]
fn errors_are_values() {
    assert_eq!(GameRecord::parse(""), Err(SgfError::NoGame));
    assert!(matches!(GameRecord::parse("(;SZ[9:13])"), Err(SgfError::Property { .. })));
    assert!(matches!(GameRecord::parse("(;SZ[9];B[zz])"), Err(SgfError::Property { .. })));
    let text = std::fs::read_to_string(data("gnugo_9x9_game.sgf")).unwrap();
    let cut = &text[..text.len() / 2];
    let err = GameRecord::parse(cut).unwrap_err();
    assert!(matches!(err, SgfError::Syntax { .. }), "{err:?}");
    assert!(err.to_string().contains("line"), "{err}");
}

/// Sends GTP commands to GNU Go and returns its responses, or `None` when GNU Go is not installed
/// (found on `PATH` or in `/usr/games`; a failure instead under `TENGEN_REQUIRE_GNUGO=1`).
fn gnugo(commands: &[String]) -> Option<Vec<String>> {
    let gnugo = common::gnugo()?;
    let mut child = Command::new(gnugo)
        .args(["--mode", "gtp"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("starting GNU Go");
    let mut input = commands.join("\n");
    input.push_str("\nquit\n");
    std::io::Write::write_all(child.stdin.as_mut().unwrap(), input.as_bytes()).unwrap();
    let output = child.wait_with_output().unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    Some(text.split("\n\n").map(|r| r.trim().to_string()).filter(|r| !r.is_empty()).collect())
}

#[test]
fn gnugo_reads_what_we_write() {
    // No captures, so the final position is the setup plus the moves; passes in the middle and at the
    // end check that GNU Go takes B[] as a pass and keeps the colours in step.
    let mut r = GameRecord::new(9);
    r.komi = Some(6.5);
    r.rules = Some("stones:threshold=7,compensation=6".into());
    r.handicap = 2;
    r.black_stones = vec![gtp_vertex("C3"), gtp_vertex("G7")];
    r.black_name = Some("tengen [test] \\".into());
    let plan = [
        (Color::White, Some("E5"), Some("a ] tricky \\ comment\nover two lines")),
        (Color::Black, Some("C7"), None),
        (Color::White, None, None),
        (Color::Black, Some("G3"), None),
        (Color::White, Some("J1"), None),
        (Color::Black, None, Some("")),
    ];
    for (color, at, comment) in plan {
        r.moves.push(RecordMove {
            color,
            at: at.map(gtp_vertex),
            comment: comment.map(String::from),
            time_left: None,
            war: None,
        });
    }
    let path = std::env::temp_dir().join(format!("tengen_sgf_test_{}.sgf", std::process::id()));
    std::fs::write(&path, r.to_sgf()).unwrap();
    let responses = gnugo(&[
        format!("loadsgf {}", path.display()),
        "list_stones black".into(),
        "list_stones white".into(),
        "get_komi".into(),
        "query_boardsize".into(),
    ]);
    std::fs::remove_file(&path).unwrap();
    let Some(responses) = responses else { return };
    let stones = |response: &str| {
        sorted(response.trim_start_matches('=').split_whitespace().map(gtp_vertex).collect())
    };
    // After the last move (a black pass) White is to play.
    // GNU Go pads some answers ("=  6.5"), so compare what follows the "=".
    let answer = |response: &str| response.trim_start_matches('=').trim().to_string();
    assert_eq!(answer(&responses[0]), "white");
    assert_eq!(stones(&responses[1]), sorted(["C3", "G7", "C7", "G3"].map(gtp_vertex).to_vec()));
    assert_eq!(stones(&responses[2]), sorted(["E5", "J1"].map(gtp_vertex).to_vec()));
    assert_eq!(answer(&responses[3]), "6.5");
    assert_eq!(answer(&responses[4]), "9");
}
