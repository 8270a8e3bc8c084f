//! Malformed input through the real binary: empty lines, comments, ids,
//! unknown commands, wrong case, CRLF and tabs, control characters, bad vertices and colours, bad board
//! sizes and komi, illegal moves (occupied, suicide, ko), undo with nothing to undo, a 100 kB line, NUL
//! and non-UTF-8 bytes. Each is answered with `?` and GTP.md's error text (or, for what GTP.md says to
//! clean away, as the cleaned command), the state stays as it was (checked with `showboard` and
//! `tengen-moves`), and the engine keeps running.
//!
//! Every run also checks the framing as a whole: exactly one response per command line and none for blank
//! and comment lines, each response `=` or `?`, the id if the command had one, a space, a payload without
//! empty lines, then one empty line; stdout holds nothing else and is valid UTF-8; no stderr line looks
//! like GTP output; the process exits cleanly at the end of its input.

use std::io::Write;
use std::process::{Command, Stdio};

/// One input line: raw bytes, and whether the engine must answer it.
struct Line {
    bytes: Vec<u8>,
    answered: bool,
}

/// A command line (answered).
fn cmd(bytes: impl AsRef<[u8]>) -> Line {
    Line { bytes: bytes.as_ref().to_vec(), answered: true }
}

/// A line that gets no answer (blank, comment, or anything after `quit`).
fn silent(bytes: impl AsRef<[u8]>) -> Line {
    Line { bytes: bytes.as_ref().to_vec(), answered: false }
}

/// Runs the binary on `lines` (each followed by `\n`, unless it already ends in one) and returns one
/// response per answered line, after checking the framing rules above.
fn run(lines: &[Line]) -> Vec<String> {
    let mut input = Vec::new();
    for l in lines {
        input.extend_from_slice(&l.bytes);
        input.push(b'\n');
    }
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(["gtp", "--seed", "1", "--threads", "1", "--playouts", "20", "--size", "9"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting tengen");
    let mut stdin = child.stdin.take().unwrap();
    // Written from a thread: the engine may stop reading (quit) before the input ends.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("waiting for tengen");
    writer.join().unwrap();
    assert!(out.status.success(), "tengen exited with {}", out.status);
    let stderr = String::from_utf8_lossy(&out.stderr);
    for l in stderr.lines() {
        assert!(
            !["=", "?", "info", "play"].iter().any(|p| l.starts_with(p)),
            "stderr line looks like GTP: {l:?}"
        );
    }
    let stdout = String::from_utf8(out.stdout).expect("stdout is valid UTF-8");
    let responses: Vec<String> = stdout.split_inclusive("\n\n").map(str::to_string).collect();
    let expected = lines.iter().filter(|l| l.answered).count();
    assert_eq!(responses.len(), expected, "one response per command; stdout:\n{stdout}");
    for r in &responses {
        assert!(r.ends_with("\n\n"), "unterminated response {r:?}");
        let head = r.split(' ').next().unwrap();
        assert!(
            (head.starts_with('=') || head.starts_with('?')) && head[1..].bytes().all(|b| b.is_ascii_digit()),
            "bad response head in {r:?}"
        );
        assert!(!r[..r.len() - 2].contains("\n\n"), "empty line inside {r:?}");
    }
    responses
}

#[test]
fn blank_lines_comments_and_ids() {
    let r = run(&[
        silent(""),
        silent("   "),
        silent("\t\t"),
        silent("# a comment"),
        silent("    # an indented comment with play b D4"),
        silent("\r"),
        cmd("1 name"),
        cmd("name # a trailing comment"),
        cmd("42 protocol_version"),
        cmd("0 version"),
        cmd("7"),
        cmd("99 foo"),
        cmd("3 play x D4"),
        silent("# interrupt"),
        cmd("12 tengen-moves"),
    ]);
    assert_eq!(r[0], "=1 tengen\n\n");
    assert_eq!(r[1], "= tengen\n\n");
    assert_eq!(r[2], "=42 2\n\n");
    assert_eq!(r[3], format!("=0 {}\n\n", env!("CARGO_PKG_VERSION")));
    assert_eq!(r[4], "?7 unknown command\n\n");
    assert_eq!(r[5], "?99 unknown command\n\n");
    assert_eq!(r[6], "?3 syntax error\n\n");
    assert_eq!(r[7], "=12 \n\n", "nothing was played");
}

#[test]
fn unknown_commands_and_wrong_case() {
    let r = run(&[
        cmd("foo"),
        cmd("Name"),
        cmd("PROTOCOL_VERSION"),
        cmd("5 Play b D4"),
        cmd("genmove_black"),
        cmd("known_command Name"),
        cmd("known_command name"),
        // Colours and vertices are read in any case; command names are not.
        cmd("play B d4"),
        cmd("play WHITE e5"),
        cmd("play bLaCk F6"),
        cmd("tengen-moves"),
    ]);
    for (i, id) in [(0, ""), (1, ""), (2, ""), (3, "5"), (4, "")] {
        assert_eq!(r[i], format!("?{id} unknown command\n\n"), "line {i}");
    }
    assert_eq!(r[5], "= false\n\n");
    assert_eq!(r[6], "= true\n\n");
    assert_eq!(&r[7..10], ["= \n\n", "= \n\n", "= \n\n"]);
    assert_eq!(r[10], "= B D4\nW E5\nB F6\n\n");
}

#[test]
fn crlf_tabs_and_control_characters() {
    let r = run(&[
        cmd("name\r"),
        silent("\r"),
        cmd("\tplay\tb\tC3\t\r"),
        cmd("2\tplay w\x01 D\x074"),
        cmd("na\x00me"),
        cmd("\x1bname"),
        cmd("play b\x7f E5\r"),
        cmd("pl\x08ay w F6"),
        cmd("\x0c3 captures\x0b black"),
        cmd("tengen-moves\r"),
    ]);
    assert_eq!(r[0], "= tengen\n\n");
    assert_eq!(r[1], "= \n\n");
    assert_eq!(r[2], "=2 \n\n");
    assert_eq!(r[3], "= tengen\n\n");
    assert_eq!(r[4], "= tengen\n\n");
    assert_eq!(r[5], "= \n\n");
    assert_eq!(r[6], "= \n\n");
    assert_eq!(r[7], "=3 0\n\n");
    assert_eq!(r[8], "= B C3\nW D4\nB E5\nW F6\n\n");
}

/// The position every state-check test starts from, and its check commands.
fn setup() -> Vec<Line> {
    vec![cmd("boardsize 9"), cmd("komi 5.5"), cmd("play b D4"), cmd("play w F6"), cmd("showboard")]
}

fn checks() -> Vec<Line> {
    vec![cmd("showboard"), cmd("tengen-moves"), cmd("captures b"), cmd("captures w"), cmd("tengen-rules")]
}

/// Runs setup, `bad` (every line answered with exactly its expected error) and the checks; asserts the
/// state after equals the state before.
fn refused_without_change(bad: &[(&[u8], &str)]) {
    let mut lines = setup();
    lines.extend(bad.iter().map(|(b, _)| cmd(b)));
    lines.extend(checks());
    let r = run(&lines);
    let (before, rest) = r.split_at(5);
    let (answers, after) = rest.split_at(bad.len());
    for ((input, expect), got) in bad.iter().zip(answers) {
        assert_eq!(got, &format!("{expect}\n\n"), "answer to {:?}", String::from_utf8_lossy(input));
    }
    assert_eq!(after[0], before[4], "showboard changed");
    assert_eq!(after[1], "= B D4\nW F6\n\n");
    assert_eq!((after[2].as_str(), after[3].as_str()), ("= 0\n\n", "= 0\n\n"));
    assert!(after[4].contains("komi=5.5"), "{}", after[4]);
}

#[test]
fn bad_vertices() {
    refused_without_change(&[
        (b"play b Z99", "? syntax error"),
        (b"play b I5", "? syntax error"),
        (b"play w i5", "? syntax error"),
        (b"play b A0", "? syntax error"),
        (b"play b A01", "? syntax error"),
        (b"play b D44", "? syntax error"),
        (b"play b 4D", "? syntax error"),
        (b"play b -", "? syntax error"),
        (b"play b D-4", "? syntax error"),
        (b"play b passs", "? syntax error"),
        // Well-formed vertices off this 9x9 board.
        (b"play b K9", "? illegal move"),
        (b"play b A10", "? illegal move"),
        (b"play w T19", "? illegal move"),
        (b"play w Z25", "? illegal move"),
        (b"8 play b J10", "?8 illegal move"),
        (b"is_legal b Z99", "? syntax error"),
        (b"is_legal b K9", "= 0"),
    ]);
}

#[test]
fn bad_colours() {
    refused_without_change(&[
        (b"play x D5", "? syntax error"),
        (b"play red D5", "? syntax error"),
        (b"play bl D5", "? syntax error"),
        (b"play blackk D5", "? syntax error"),
        (b"play D5 b", "? syntax error"),
        (b"play D5", "? syntax error"),
        (b"play black", "? syntax error"),
        (b"play", "? syntax error"),
        (b"6 captures blue", "?6 syntax error"),
        (b"genmove x", "? syntax error"),
        (b"reg_genmove", "? syntax error"),
    ]);
}

#[test]
fn bad_board_sizes_and_komi() {
    refused_without_change(&[
        (b"boardsize 0", "? unacceptable size"),
        (b"boardsize 1", "? unacceptable size"),
        (b"boardsize 26", "? unacceptable size"),
        (b"4 boardsize 26", "?4 unacceptable size"),
        (b"boardsize -3", "? unacceptable size"),
        (b"boardsize abc", "? syntax error"),
        (b"boardsize", "? syntax error"),
        (b"boardsize 9.5", "? syntax error"),
        (b"komi abc", "? syntax error"),
        (b"komi", "? syntax error"),
        (b"komi nan", "? syntax error"),
        (b"komi 1e400", "? syntax error"),
        // Not offered under standard Go (GoGui would adopt the answer as its size); showboard's
        // diagram below shows the size unchanged.
        (b"gogui-rules_board_size", "? unknown command"),
    ]);
}

#[test]
fn illegal_moves_occupied_suicide_ko() {
    // A ko in the top left: Black C8 takes B8, and White may not retake at once. White A9 would be a
    // lone-stone suicide (A8 and B9 are Black's, both with liberties).
    let mut lines = vec![cmd("boardsize 9")];
    for m in ["b B7", "w C7", "b A8", "w B8", "b B9", "w C9", "b J1", "w D8", "b C8"] {
        lines.push(cmd(format!("play {m}")));
    }
    lines.extend([cmd("showboard"), cmd("captures black")]);
    let bad: &[(&str, &str)] = &[
        ("play b C8", "? illegal move"),
        ("play w C8", "? illegal move"),
        ("play w B8", "? illegal move"),
        ("1 play w J1", "?1 illegal move"),
        ("play w A9", "? illegal move"),
        ("2 play w A9", "?2 illegal move"),
        ("is_legal w A9", "= 0"),
        ("is_legal w B8", "= 0"),
    ];
    lines.extend(bad.iter().map(|(b, _)| cmd(b)));
    lines.extend([cmd("showboard"), cmd("tengen-moves"), cmd("captures black")]);
    // After an exchange elsewhere the retake is legal.
    lines.extend([cmd("play w J2"), cmd("play b J3"), cmd("play w B8"), cmd("captures white")]);
    let r = run(&lines);
    let n = 10;
    assert_eq!(r[n + 1], "= 1\n\n", "C8 took B8");
    for (i, (input, expect)) in bad.iter().enumerate() {
        assert_eq!(r[n + 2 + i], format!("{expect}\n\n"), "answer to {input}");
    }
    let k = n + 2 + bad.len();
    assert_eq!(r[k], r[n], "the refused moves changed nothing");
    assert_eq!(r[k + 1], "= B B7\nW C7\nB A8\nW B8\nB B9\nW C9\nB J1\nW D8\nB C8\n\n");
    assert_eq!(r[k + 2], "= 1\n\n");
    assert_eq!(&r[k + 3..], ["= \n\n", "= \n\n", "= \n\n", "= 1\n\n"]);
}

#[test]
fn undo_with_no_history() {
    let r = run(&[
        cmd("undo"),
        cmd("1 undo"),
        cmd("play b D4"),
        cmd("undo"),
        cmd("2 undo"),
        cmd("play b D4"),
        cmd("clear_board"),
        cmd("undo"),
        cmd("tengen-moves"),
    ]);
    assert_eq!(r[0], "? cannot undo\n\n");
    assert_eq!(r[1], "?1 cannot undo\n\n");
    assert_eq!(r[3], "= \n\n");
    assert_eq!(r[4], "?2 cannot undo\n\n");
    assert_eq!(r[7], "? cannot undo\n\n");
    assert_eq!(r[8], "= \n\n");
}

#[test]
fn a_100_kb_line_gets_one_answer() {
    let hundred_kb = 100 * 1024;
    let mut long_play = b"play b ".to_vec();
    long_play.extend(std::iter::repeat_n(b'D', hundred_kb));
    let garbage: Vec<u8> = (0..hundred_kb).map(|i| b"abcxyz0123 "[i % 11]).collect();
    let mut long_id = vec![b'1'; hundred_kb];
    long_id.extend_from_slice(b" name");
    let mut long_comment = b"# ".to_vec();
    long_comment.extend(std::iter::repeat_n(b'#', hundred_kb));
    // Longer than the engine keeps (1 MiB): the rest is dropped, the line still gets one answer.
    let mut two_mb = b"name ".to_vec();
    two_mb.extend(std::iter::repeat_n(b'x', 2 << 20));
    let r = run(&[
        cmd(&long_play),
        cmd("name"),
        cmd(&garbage),
        cmd(&long_id),
        silent(&long_comment),
        silent(vec![b' '; hundred_kb]),
        cmd(&two_mb),
        cmd("2 tengen-moves"),
    ]);
    assert_eq!(r[0], "? syntax error\n\n");
    assert_eq!(r[1], "= tengen\n\n");
    assert_eq!(r[2], "? unknown command\n\n");
    assert_eq!(r[3], format!("={} tengen\n\n", "1".repeat(hundred_kb)));
    assert_eq!(r[4], "= tengen\n\n");
    assert_eq!(r[5], "=2 \n\n");
}

#[test]
fn nul_and_non_utf8_bytes() {
    let r = run(&[
        silent(b"\x00"),
        silent(b"\x00\x00 \x00"),
        cmd(b"na\x00me"),
        cmd(b"\xff\xfe\xfd"),
        cmd(b"12 \xff"),
        cmd(b"name\xff"),
        cmd(b"play b \xc3\x28"),
        cmd(b"play b D\xe2\x82"),
        cmd(b"play \xff D4"),
        cmd(b"boardsize \xff"),
        cmd(b"komi 6\xff"),
        cmd(b"play b D4\x00"),
        cmd(b"tengen-moves"),
    ]);
    assert_eq!(r[0], "= tengen\n\n");
    assert_eq!(r[1], "? unknown command\n\n");
    assert_eq!(r[2], "?12 unknown command\n\n");
    assert_eq!(r[3], "? unknown command\n\n");
    for (i, line) in r.iter().enumerate().take(9).skip(4) {
        assert_eq!(line, "? syntax error\n\n", "line {i}");
    }
    assert_eq!(r[9], "= \n\n");
    assert_eq!(r[10], "= B D4\n\n");
}

#[test]
fn quit_answers_and_ends_the_session() {
    let r = run(&[cmd("1 name"), cmd("2 quit"), silent("3 name"), silent("play b D4")]);
    assert_eq!(r, ["=1 tengen\n\n", "=2 \n\n"]);
}

/// `genmove`, `reg_genmove` and `cputime` depend on the move chooser and the machine, so they are
/// checked by their properties: a legal vertex (or pass/resign), played by genmove and not by
/// reg_genmove; a time with three decimals.
#[test]
fn genmove_and_cputime_by_their_properties() {
    let r = run(&[
        cmd("boardsize 9"),
        cmd("play b E5"),
        cmd("1 genmove w"),
        cmd("tengen-moves"),
        cmd("2 reg_genmove b"),
        cmd("tengen-moves"),
        cmd("cputime"),
    ]);
    let vertex = |s: &str| -> String {
        let v = s.strip_prefix(|c| c == '=').unwrap().trim_start_matches(char::is_numeric).trim().to_string();
        assert!(
            v == "pass"
                || v == "resign"
                || (v.len() >= 2
                    && "ABCDEFGHJ".contains(&v[..1])
                    && v[1..].parse::<u32>().is_ok_and(|n| (1..=9).contains(&n))),
            "{s:?}"
        );
        v
    };
    let played = vertex(&r[2]);
    assert!(r[2].starts_with("=1 "));
    if played != "resign" {
        assert_eq!(r[3], format!("= B E5\nW {played}\n\n"));
    }
    assert!(played != "E5", "E5 is occupied");
    vertex(&r[4]);
    assert!(r[4].starts_with("=2 "));
    assert_eq!(r[5], r[3], "reg_genmove plays nothing");
    let t = r[6].trim_start_matches("= ").trim_end();
    assert!(
        t.parse::<f64>().is_ok_and(|x| x >= 0.0) && t.split('.').nth(1).is_some_and(|d| d.len() == 3),
        "{t}"
    );
}
