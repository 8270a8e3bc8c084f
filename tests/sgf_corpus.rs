//! `loadsgf` on real records: every file of a corpus loads, to the position GNU Go's `loadsgf`
//! reaches (the stones of each colour, the side to move, and in go and Stoical the prisoners).
//!
//! The corpus: the hand-written edge cases of tests/data/sgf/corpus (handicap with `HA`/`AB`, set-up
//! positions with `AB`/`AW`/`PL`, variations, passes as `tt` and as empty values, moves after two
//! passes, `RU` spelled Japanese, Chinese, AGA, NZ, Korean and GOE, records that break the ko,
//! superko or suicide rule in force, 7x7 to 19x19), GNU Go's own records and the other files of
//! tests/data/sgf that load, and games tengen's self-play writes in the test (go by area and by
//! territory with handicap, Stones, Stoical; 9x9 to 19x19).
//!
//! Also: a record without `RU` is read under the rules the controller set, never an earlier
//! record's; what the rules forbid is loaded with a note on stderr; what cannot be placed is
//! refused and changes nothing. Without GNU Go the comparison is skipped with a notice, unless
//! `TENGEN_REQUIRE_GNUGO=1` (CI sets it).

mod common;

use std::collections::BTreeSet;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;
use tengen::selfplay::gtp_client::{GtpClient, SpawnOptions};
use tengen::sgf::GameRecord;

const LONG: Duration = Duration::from_secs(120);
const TENGEN: &str = env!("CARGO_BIN_EXE_tengen");

fn data() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/sgf")
}

/// Records written by `tengen selfplay` into a fresh directory under `out`.
fn selfplay(out: &Path, name: &str, flags: &[&str]) -> Vec<PathBuf> {
    let dir = out.join(name);
    let status = Command::new(TENGEN)
        .args(["selfplay", "--playouts", "16", "--quiet", "--out"])
        .arg(&dir)
        .args(flags)
        .stdout(Stdio::null())
        .status()
        .expect("tengen selfplay runs");
    assert!(status.success(), "selfplay {name}");
    let files = common::sgf_files(&dir);
    assert!(!files.is_empty(), "selfplay {name} wrote no record");
    files
}

fn send(c: &mut GtpClient, cmd: &str) -> String {
    c.send(cmd, LONG).unwrap_or_else(|e| panic!("{}: `{cmd}`: {e:?}", c.program()))
}

/// A position as both programs can describe it.
#[derive(PartialEq, Eq, Debug)]
struct Loaded {
    black: BTreeSet<String>,
    white: BTreeSet<String>,
    to_move: String,
    /// Prisoners of Black and White, where they mean the same in both programs (not in Stones,
    /// whose White holds the compensation and whose returns give prisoners back).
    prisoners: Option<(String, String)>,
}

/// GTP vertex of a `gogui-rules_board` cell: row `r` from the top of a `size` board, column `c`.
fn vertex(size: usize, r: usize, c: usize) -> String {
    let letters = "ABCDEFGHJKLMNOPQRSTUVWXYZ".as_bytes();
    format!("{}{}", letters[c] as char, size - r)
}

fn tengen_loads(t: &mut GtpClient, file: &Path) -> Loaded {
    send(t, &format!("loadsgf {}", file.display()));
    // One row a line (`gogui-rules_board_size` is not offered under standard Go).
    let board = send(t, "gogui-rules_board");
    let size = board.lines().count();
    let (mut black, mut white) = (BTreeSet::new(), BTreeSet::new());
    for (r, row) in board.lines().enumerate() {
        for (c, cell) in row.split_whitespace().flat_map(|w| w.chars()).enumerate() {
            match cell {
                'X' => drop(black.insert(vertex(size, r, c))),
                'O' => drop(white.insert(vertex(size, r, c))),
                _ => {}
            }
        }
    }
    let stones = send(t, "tengen-rules").starts_with("stones");
    let prisoners = (!stones).then(|| (send(t, "captures black"), send(t, "captures white")));
    Loaded { black, white, to_move: send(t, "gogui-rules_side_to_move"), prisoners }
}

fn gnugo_loads(g: &mut GtpClient, file: &Path, prisoners: bool) -> Loaded {
    let to_move = send(g, &format!("loadsgf {}", file.display()));
    let stones = |g: &mut GtpClient, c: &str| -> BTreeSet<String> {
        send(g, &format!("list_stones {c}")).split_whitespace().map(String::from).collect()
    };
    let prisoners = prisoners.then(|| (send(g, "captures black"), send(g, "captures white")));
    Loaded { black: stones(g, "black"), white: stones(g, "white"), to_move, prisoners }
}

#[test]
fn every_record_loads_to_the_position_gnu_go_reaches() {
    let out = std::env::temp_dir().join(format!("tengen_sgf_corpus_{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&out);
    let mut corpus = common::sgf_files(&data().join("corpus"));
    for name in [
        "gnugo_9x9_game.sgf",
        "gnugo_19x19_h4_game.sgf",
        "gnugo_9x9_position.sgf",
        "ff3_old_style.sgf",
        "setup_position.sgf",
        "black_setup_stone.sgf",
        "nz_rules.sgf",
    ] {
        corpus.push(data().join(name));
    }
    let hand_written = corpus.len();
    let common = ["--random-opening", "4", "--seed", "3"];
    let runs: [(&str, &[&str]); 5] = [
        ("go_9x9", &["--size", "9", "--games", "2"]),
        ("stones_9x9", &["--size", "9", "--games", "2", "--rules", "stones"]),
        ("stoical_9x9", &["--size", "9", "--games", "2", "--rules", "stoical"]),
        (
            "territory_13x13_h3",
            &[
                "--size",
                "13",
                "--games",
                "2",
                "--rules",
                "go:scoring=territory",
                "--handicap",
                "3",
                "--komi",
                "0.5",
            ],
        ),
        ("go_19x19", &["--size", "19", "--games", "1"]),
    ];
    for (name, flags) in runs {
        corpus.extend(selfplay(&out, name, &[&common[..], flags].concat()));
    }
    assert!(corpus.len() >= hand_written + 9, "{corpus:?}");

    // One tengen for the whole corpus, so that each record is read after others (a record without
    // `RU` must not inherit an earlier one's rules).
    let opts = || SpawnOptions { admin_timeout: LONG, startup_timeout: LONG, ..SpawnOptions::default() };
    let mut t = GtpClient::spawn_argv(&[TENGEN.to_string(), "gtp".into()], opts()).unwrap();
    let loaded: Vec<Loaded> = corpus.iter().map(|f| tengen_loads(&mut t, f)).collect();
    t.quit().unwrap();
    if let Some(path) = common::gnugo() {
        let mut g =
            GtpClient::spawn_argv(&[path.display().to_string(), "--mode".into(), "gtp".into()], opts())
                .expect("GNU Go starts");
        for (file, ours) in corpus.iter().zip(&loaded) {
            let mut theirs = gnugo_loads(&mut g, file, ours.prisoners.is_some());
            // Who moves after a set-up without moves and without `PL` is a convention: GNU Go says
            // Black, tengen White after black stones alone (a handicap without `HA`, as old files
            // write it; gtp-scripts/sgf.gtp). After a move both follow the record.
            let record = GameRecord::parse_bytes(&std::fs::read(file).unwrap()).unwrap();
            if record.moves.is_empty() && record.to_play.is_none() {
                theirs.to_move.clone_from(&ours.to_move);
            }
            assert_eq!(ours, &theirs, "{}: tengen (left) and GNU Go (right) disagree", file.display());
        }
        g.quit().unwrap();
    }
    std::fs::remove_dir_all(&out).unwrap();
}

/// Runs `tengen gtp FLAGS` on `commands`: the answers (`=`/`?` kept) and the stderr lines that
/// `loadsgf` wrote.
fn session(flags: &[&str], commands: &[String]) -> (Vec<String>, Vec<String>) {
    let mut child = Command::new(TENGEN)
        .arg("gtp")
        .args(flags)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut input = commands.join("\n");
    input.push_str("\nquit\n");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<String> = stdout.split("\n\n").filter(|a| !a.is_empty()).map(String::from).collect();
    assert_eq!(answers.len(), commands.len() + 1, "{stdout}");
    let notes = String::from_utf8(out.stderr)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("tengen: loadsgf"))
        .map(String::from)
        .collect();
    (answers, notes)
}

fn corpus(name: &str) -> String {
    data().join("corpus").join(name).display().to_string()
}

#[test]
fn a_record_without_ru_is_read_under_the_controllers_rules() {
    let commands = [
        format!("loadsgf {}", corpus("superko_chinese_9x9.sgf")),
        "tengen-rules".into(),
        format!("loadsgf {}", corpus("superko_no_ru_9x9.sgf")),
        "tengen-rules".into(),
        // The controller's own rules (positional superko) are those a record without RU gets.
        "tengen-rules go:ko=positional".into(),
        format!("loadsgf {}", corpus("superko_no_ru_9x9.sgf")),
        "tengen-rules".into(),
    ];
    let (answers, notes) = session(&["--rules", "go"], &commands);
    assert!(answers.iter().all(|a| a.starts_with('=')), "{answers:?}");
    assert!(answers[1].starts_with("= go:scoring=area,ko=positional"), "RU[Chinese]: {}", answers[1]);
    assert!(
        answers[3].starts_with("= go:scoring=area,ko=simple,"),
        "the command line's rules: {}",
        answers[3]
    );
    assert!(answers[6].starts_with("= go:scoring=area,ko=positional,"), "{}", answers[6]);
    // Move 11 (Black's E4 after two passes) repeats the position after move 7: a note under
    // positional superko (the Chinese record, and the controller's rules at the end), none under
    // simple ko.
    assert_eq!(notes.len(), 2, "{notes:?}");
    for note in &notes {
        assert!(
            note.contains("move 11 (black E4)") && note.contains("repeats an earlier position"),
            "{note}"
        );
    }
    assert!(notes[0].contains("superko_chinese") && notes[1].contains("superko_no_ru"), "{notes:?}");
}

#[test]
fn what_the_rules_forbid_loads_with_a_note_and_what_cannot_be_placed_changes_nothing() {
    let before = [
        "boardsize 9".to_string(),
        "play b C3".into(),
        "play w G7".into(),
        "printsgf".into(),
        "tengen-rules".into(),
    ];
    let refused = |file: &str| {
        let mut commands = before.to_vec();
        commands.extend([
            format!("loadsgf {}", data().join(file).display()),
            "printsgf".into(),
            "tengen-rules".into(),
        ]);
        let (answers, notes) = session(&["--rules", "stoical"], &commands);
        assert!(answers[5].starts_with("? cannot load file: move "), "{file}: {}", answers[5]);
        assert_eq!(answers[6], answers[3], "{file}: a refused record changed the game");
        assert_eq!(answers[7], answers[4], "{file}: a refused record changed the rules");
        assert!(notes.is_empty(), "{notes:?}");
        answers[5].clone()
    };
    assert!(refused("occupied_point.sgf").contains("point is occupied"));
    assert!(refused("move_on_a_wall.sgf").contains("not a point of the board"));

    // An immediate ko recapture, and two suicides (one stone, three stones) under rules that forbid
    // them: loaded as recorded, each with a note.
    let commands = [
        format!("loadsgf {}", corpus("ko_recapture_no_ru_9x9.sgf")),
        format!("loadsgf {}", corpus("suicides_no_ru_7x7.sgf")),
    ];
    let (answers, notes) = session(&["--rules", "go"], &commands);
    assert!(answers.iter().all(|a| a.starts_with('=')), "{answers:?}");
    assert_eq!(notes.len(), 3, "{notes:?}");
    assert!(notes[0].contains("move 9 (black E4)") && notes[0].ends_with("illegal here: ko"), "{}", notes[0]);
    assert!(notes[1].contains("move 8 (white G7)") && notes[1].ends_with("suicide"), "{}", notes[1]);
    assert!(notes[2].contains("move 9 (black A2)") && notes[2].ends_with("suicide"), "{}", notes[2]);
}
