//! Streaming commands through the real binary, read line by line as a client reads them: analysis
//! that stops on any new input line and leaves that line to be answered, the Leela and KataGo
//! formats, `genmove_analyze` that does not stop on input, `# interrupt` during a long `genmove`, a
//! `genmove` that the end of input does not cut short, and GoGui's live graphics on stderr. No sleeps and no timing thresholds: every wait is for a line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

/// Guards against a hang only (the machine is shared): no test relies on it for its result.
const HANG_GUARD: Duration = Duration::from_secs(120);

struct Engine {
    child: Child,
    /// `None` once closed (end of input).
    stdin: Option<ChildStdin>,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
}

fn lines_of(r: impl std::io::Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(r).lines() {
            let Ok(line) = line else { return };
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    rx
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .arg("gtp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("starting tengen");
        let stdin = child.stdin.take().unwrap();
        let stdout = lines_of(child.stdout.take().unwrap());
        let stderr = lines_of(child.stderr.take().unwrap());
        Engine { child, stdin: Some(stdin), stdout, stderr }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("input still open");
        writeln!(stdin, "{line}").and_then(|()| stdin.flush()).expect("writing to tengen");
    }

    fn line(&mut self) -> String {
        match self.stdout.recv_timeout(HANG_GUARD) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => panic!("no output from tengen (hang?)"),
            Err(RecvTimeoutError::Disconnected) => panic!("tengen closed its output"),
        }
    }

    /// The lines of one response, up to (not including) the empty line that ends it.
    fn response(&mut self) -> Vec<String> {
        let mut lines = Vec::new();
        loop {
            let l = self.line();
            if l.is_empty() {
                return lines;
            }
            lines.push(l);
        }
    }

    /// Sends a command and returns its payload (after `= `), panicking on `?`.
    fn ok(&mut self, command: &str) -> String {
        self.send(command);
        let r = self.response().join("\n");
        assert!(r.starts_with('='), "{command} answered {r}");
        r[1..].trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string()
    }

    /// Waits for a stderr line that satisfies `f`; the lines before it are returned with it.
    fn stderr_until(&mut self, f: impl Fn(&str) -> bool) -> Vec<String> {
        let mut seen = Vec::new();
        loop {
            match self.stderr.recv_timeout(HANG_GUARD) {
                Ok(l) => {
                    let done = f(&l);
                    seen.push(l);
                    if done {
                        return seen;
                    }
                }
                Err(e) => panic!("stderr: {e:?} after {seen:?}"),
            }
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn engine_9x9(extra: &[&str]) -> Engine {
    let mut args = vec!["--threads", "1", "--seed", "7", "--playouts", "400"];
    args.extend_from_slice(extra);
    let mut e = Engine::start(&args);
    e.ok("boardsize 9");
    for m in ["play b E5", "play w C3", "play b G5"] {
        e.ok(m);
    }
    e
}

/// One candidate of an `info` line: its key/value pairs up to `pv`, then the pv.
type Candidate = (Vec<(String, String)>, Vec<String>);

/// The candidates of an `info` line.
fn candidates(line: &str) -> Vec<Candidate> {
    assert!(line.starts_with("info move "), "{line}");
    let line = line.split(" ownership ").next().unwrap();
    line.split("info ")
        .skip(1)
        .map(|chunk| {
            let words: Vec<&str> = chunk.split_whitespace().collect();
            let pv_at = words.iter().position(|w| *w == "pv").expect("a pv");
            assert_eq!(pv_at % 2, 0, "keys and values pair up: {chunk}");
            let pairs = words[..pv_at].chunks(2).map(|kv| (kv[0].to_string(), kv[1].to_string())).collect();
            (pairs, words[pv_at + 1..].iter().map(|s| s.to_string()).collect())
        })
        .collect()
}

fn field<'a>(pairs: &'a [(String, String)], key: &str) -> &'a str {
    pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str()).unwrap_or_else(|| panic!("no {key}"))
}

#[test]
fn analysis_stops_on_the_next_command_which_is_answered() {
    let mut e = engine_9x9(&[]);
    e.send("12 lz-analyze b interval 5");
    assert_eq!(e.line(), "=12");
    let mut infos = Vec::new();
    for _ in 0..3 {
        infos.push(e.line());
    }
    e.send("13 name");
    // Updates may still come until the engine notices; then the empty line, then name's answer.
    loop {
        let l = e.line();
        if l.is_empty() {
            break;
        }
        infos.push(l);
    }
    assert_eq!(e.response(), vec!["=13 tengen"]);
    for line in &infos {
        for (i, (pairs, pv)) in candidates(line).iter().enumerate() {
            for key in ["winrate", "prior", "lcb", "visits", "order"] {
                let v = field(pairs, key);
                assert!(v.bytes().all(|b| b.is_ascii_digit()), "{key} {v} is an integer: {line}");
            }
            assert!(field(pairs, "winrate").parse::<u32>().unwrap() <= 10_000);
            assert_eq!(field(pairs, "order"), i.to_string());
            assert_eq!(pv[0], field(pairs, "move"));
            for taken in ["E5", "C3", "G5"] {
                assert_ne!(field(pairs, "move"), taken, "an occupied point: {line}");
            }
        }
    }
    // The engine is in order afterwards.
    assert_eq!(e.ok("protocol_version"), "2");
}

#[test]
fn kata_analyze_speaks_floats_with_score_lead_and_ownership_on_request() {
    let mut e = engine_9x9(&[]);
    e.send("kata-analyze w 5 ownership true");
    assert_eq!(e.line(), "=");
    let line = e.line();
    e.send("protocol_version");
    while !e.line().is_empty() {}
    assert_eq!(e.response(), vec!["= 2"]);
    for (pairs, _) in candidates(&line) {
        for key in ["winrate", "prior", "lcb", "scoreLead", "utility"] {
            let v = field(&pairs, key);
            assert!(v.contains('.') && v.parse::<f64>().is_ok(), "{key} {v} is a float with a point");
        }
        let w: f64 = field(&pairs, "winrate").parse().unwrap();
        assert!((0.0..=1.0).contains(&w));
    }
    let own: Vec<f64> = line
        .split(" ownership ")
        .nth(1)
        .expect("ownership when asked")
        .split_whitespace()
        .map(|v| {
            assert!(v.contains('.'), "{v}");
            v.parse().unwrap()
        })
        .collect();
    assert_eq!(own.len(), 81, "one value per point, H x W");
    assert!(own.iter().all(|v| (-1.0..=1.0).contains(v)));
    // White's view (the side analysed): Black's stone on E5 (row 5 from the top, column 5) is Black's.
    assert!(own[4 * 9 + 4] < 0.0, "E5 belongs to the opponent of the side analysed: {}", own[40]);

    // Without `ownership true` there is none; an empty line also ends the analysis.
    e.send("kata-analyze b 5");
    assert_eq!(e.line(), "=");
    let line = e.line();
    assert!(!line.contains("ownership"), "{line}");
    e.send("");
    while !e.line().is_empty() {}
    assert_eq!(e.ok("name"), "tengen");
}

#[test]
fn minmoves_and_maxmoves_bound_the_candidates() {
    let mut e = engine_9x9(&[]);
    e.send("lz-analyze b 5 minmoves 30 maxmoves 40");
    assert_eq!(e.line(), "=");
    let first = e.line();
    e.send("name");
    while !e.line().is_empty() {}
    assert_eq!(e.response(), vec!["= tengen"]);
    let n = candidates(&first).len();
    assert!((30..=40).contains(&n), "{n} candidates");
    e.send("analyze b 5 maxmoves 2");
    assert_eq!(e.line(), "=");
    let line = e.line();
    e.send("name");
    while !e.line().is_empty() {}
    e.response();
    assert!(candidates(&line).len() <= 2, "{line}");
}

#[test]
fn genmove_analyze_is_not_stopped_by_input_and_plays_its_move() {
    let mut e = engine_9x9(&[]);
    // The next command is pipelined right behind it, as Sabaki does.
    e.send("5 genmove_analyze w 5");
    e.send("6 gogui-rules_side_to_move");
    let r = e.response();
    assert_eq!(r[0], "=5");
    let last = r.last().unwrap();
    let mv = last.strip_prefix("play ").unwrap_or_else(|| panic!("ends with play: {r:?}"));
    for line in &r[1..r.len() - 1] {
        candidates(line);
    }
    assert_eq!(e.response(), vec!["=6 black"], "the move was played");
    e.ok("undo");
    assert_eq!(e.ok(&format!("is_legal w {mv}")), "1");

    // kata- form, then an error answered as an error.
    e.send("kata-genmove_analyze b 5");
    let r = e.response();
    assert!(r.last().unwrap().starts_with("play "), "{r:?}");
    e.send("genmove_analyze");
    assert_eq!(e.response(), vec!["? syntax error"]);
}

/// `lz-genmove_analyze` (Leela Zero's name, which Lizzie and Sabaki send): Leela-format lines while
/// the search runs, each naming empty points (or pass) with their visits and a line starting with
/// the move, then `play` with a legal move among the last line's candidates, which is played; the
/// next command, sent at once, waits for it. (White's four stones C5-F5 are in atari at B5; with
/// 5000 playouts the search runs for many 10 ms intervals.)
#[test]
fn lz_genmove_analyze_streams_then_plays_a_searched_move() {
    let mut e = Engine::start(&["--threads", "1", "--seed", "7", "--playouts", "5000"]);
    e.ok("boardsize 9");
    let black = ["C6", "D6", "E6", "F6", "A5", "G5", "C4", "D4", "E4", "F4"];
    let white = ["C5", "D5", "E5", "F5"];
    for m in black {
        e.ok(&format!("play b {m}"));
    }
    for m in white {
        e.ok(&format!("play w {m}"));
    }
    e.send("3 lz-genmove_analyze b 1");
    e.send("4 gogui-rules_side_to_move");
    let r = e.response();
    assert_eq!(r[0], "=3", "{r:?}");
    let mv = r.last().unwrap().strip_prefix("play ").unwrap_or_else(|| panic!("ends with play: {r:?}"));
    let infos = &r[1..r.len() - 1];
    assert!(!infos.is_empty(), "no analysis lines in {r:?}");
    let mut last = Vec::new();
    for line in infos {
        last.clear();
        for (pairs, pv) in candidates(line) {
            let m = field(&pairs, "move").to_string();
            assert_eq!(pv.first(), Some(&m), "{line}");
            assert!(field(&pairs, "visits").parse::<u64>().is_ok(), "{line}");
            assert!(!black.contains(&m.as_str()) && !white.contains(&m.as_str()), "{m} is occupied: {line}");
            last.push(m);
        }
    }
    assert!(last.iter().any(|m| m == mv), "{mv} is not among the last line's moves {last:?}");
    assert_eq!(e.response(), vec!["=4 white"], "the move was played before the next command");
    e.ok("undo");
    assert_eq!(e.ok(&format!("is_legal b {mv}")), "1");
}

#[test]
fn interrupt_ends_a_long_genmove_with_a_legal_move() {
    // Without the interrupt this genmove would think for an hour.
    let mut e = Engine::start(&["--threads", "1", "--time", "3600", "--resign", "off"]);
    e.ok("boardsize 9");
    e.ok("play b E5");
    // GoGui asks for the menu when it attaches, which turns the live graphics on.
    assert!(!e.ok("gogui-analyze_commands").is_empty());
    e.send("genmove w");
    // The first drawing proves the search is running.
    e.stderr_until(|l| l.starts_with("gogui-gfx:"));
    e.send("# interrupt");
    let r = e.response();
    assert_eq!(r.len(), 1, "{r:?}");
    let mv = r[0].strip_prefix("= ").unwrap().to_string();
    assert_ne!(mv, "resign");
    let drawn = e.stderr_until(|l| l == "gogui-gfx: CLEAR");
    assert!(drawn.iter().any(|l| l.starts_with("LABEL ") || l.starts_with("VAR ")), "{drawn:?}");
    assert_eq!(e.ok("gogui-rules_side_to_move"), "black", "the move was played");
    e.ok("undo");
    assert_eq!(e.ok(&format!("is_legal w {mv}")), "1", "{mv} was legal");
}

#[test]
fn interrupt_sent_right_behind_genmove_is_not_lost() {
    let mut e = Engine::start(&["--threads", "1", "--time", "3600", "--resign", "off"]);
    e.ok("boardsize 9");
    // Both lines at once: the interrupt may be read before the command loop takes the genmove.
    e.send("genmove b\n# interrupt");
    let r = e.response();
    assert!(r[0].starts_with("= "), "{r:?}");
    assert_eq!(e.ok("name"), "tengen");
}

#[test]
fn analysis_ends_at_end_of_input() {
    let mut e = engine_9x9(&[]);
    e.send("analyze b 5");
    assert_eq!(e.line(), "=");
    e.line();
    // Closing stdin: the analysis ends, its response is completed, and the engine exits.
    e.stdin = None;
    let rest: Vec<String> = e.stdout.iter().collect();
    assert_eq!(rest.last().map(String::as_str), Some(""), "the response is ended: {rest:?}");
    assert!(e.child.wait().unwrap().success());
}

#[test]
fn analysis_in_every_variant() {
    for rules in ["go", "stones", "stoical", "stones:walls=D4"] {
        let mut e = engine_9x9(&["--rules", rules]);
        e.send("analyze b 5");
        assert_eq!(e.line(), "=");
        let line = e.line();
        e.send("protocol_version");
        while !e.line().is_empty() {}
        assert_eq!(e.response(), vec!["= 2"]);
        assert!(!candidates(&line).is_empty(), "{rules}: {line}");
        if rules.contains("walls") {
            assert!(!line.contains("info move D4 "), "{rules}: no wall is a candidate");
        }
    }
}

/// The number just before `word` in `line` (`"| 300 playouts in"` -> 300 for `playouts`).
fn number_before(line: &str, word: &str) -> Option<u64> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.windows(2).find(|w| w[1] == word).and_then(|w| w[0].parse().ok())
}

#[test]
fn ponder_thinks_on_the_opponents_time_and_keeps_the_tree() {
    let mut e =
        Engine::start(&["--threads", "1", "--seed", "3", "--playouts", "300", "--ponder", "--resign", "off"]);
    e.ok("boardsize 9");
    // Live graphics on: pondering draws what it expects, which tells the test it is under way.
    e.ok("gogui-analyze_commands");
    e.ok("genmove b");
    let drawn = e.stderr_until(|l| l.starts_with("VAR w "));
    // White's expected reply, from the pondering search's principal variation.
    let reply = drawn.last().unwrap().split_whitespace().nth(2).unwrap().to_string();
    e.ok(&format!("play w {reply}"));
    let pondered = e.stderr_until(|l| l.starts_with("tengen: pondered "));
    let n = number_before(pondered.last().unwrap(), "playouts").expect("a playout count");
    assert!(n > 0, "{pondered:?}");
    // The next search starts from the pondered subtree: its root already has visits.
    e.ok("genmove b");
    let stats = e.stderr_until(|l| l.contains("root visits"));
    let line = stats.last().unwrap();
    let fresh = number_before(line, "playouts").expect("playouts in the statistics");
    let root: u64 =
        line.split("root visits ").nth(1).and_then(|r| r.split_whitespace().next()).unwrap().parse().unwrap();
    assert!(root > fresh, "the tree of {reply} was kept: {line}");
}

#[test]
fn interrupt_ends_genmove_analyze_with_its_move() {
    let mut e = Engine::start(&["--threads", "1", "--time", "3600", "--resign", "off"]);
    e.ok("boardsize 9");
    e.send("genmove_analyze b 5");
    assert_eq!(e.line(), "=");
    // New input does not stop it...
    e.send("protocol_version");
    let first = e.line();
    assert!(first.starts_with("info move "), "{first}");
    let second = e.line();
    assert!(second.starts_with("info move "), "still analysing after the new line: {second}");
    // ... `# interrupt` does, and the move is answered and played.
    e.send("# interrupt");
    let rest = e.response();
    let mv =
        rest.last().and_then(|l| l.strip_prefix("play ")).unwrap_or_else(|| panic!("{rest:?}")).to_string();
    assert!(rest[..rest.len() - 1].iter().all(|l| l.starts_with("info move ")), "{rest:?}");
    assert_eq!(e.response(), vec!["= 2"], "the pipelined command is answered after the move");
    assert_eq!(e.ok("gogui-rules_side_to_move"), "white");
    e.ok("undo");
    assert_eq!(e.ok(&format!("is_legal b {mv}")), "1");
}

#[test]
fn end_of_input_lets_the_queued_genmove_search_in_full() {
    // End of input behaves as `quit`, which comes after the commands sent before it: a piped
    // `genmove` searches exactly as it would with the input still open (one thread, a seed and a
    // playout limit make the two searches the same).
    let searched = |close_input: bool| {
        let mut e =
            Engine::start(&["--threads", "1", "--playouts", "20000", "--seed", "3", "--resign", "off"]);
        e.ok("boardsize 9");
        e.send("genmove b");
        if close_input {
            e.stdin = None;
        }
        let answer = e.response();
        if !close_input {
            e.ok("quit");
            e.stdin = None;
        }
        assert!(e.child.wait().unwrap().success());
        // The move's log line: "B C5 | 2384 playouts in 0.06 s ...".
        let log: Vec<String> = e.stderr.iter().collect();
        let line = log.iter().find(|l| l.contains(" playouts in ")).cloned().unwrap_or_default();
        let playouts =
            line.split(" playouts in ").next().and_then(|h| h.rsplit(' ').next()).map(str::to_string);
        (answer, playouts)
    };
    let open = searched(false);
    assert!(open.1.is_some(), "no playout count in the log");
    assert_eq!(searched(true), open);
}

#[test]
fn every_argument_form_streams() {
    let mut e = engine_9x9(&[]);
    for command in [
        "analyze",
        "analyze 5",
        "analyze w",
        "analyze B 5",
        "lz-analyze 5",
        "lz-analyze white interval 5 minmoves 3",
        "kata-analyze interval 5 maxmoves 4 ownership false",
        "kata-analyze b 5 ownershipStdev true pvVisits true",
    ] {
        e.send(command);
        assert_eq!(e.line(), "=", "{command}");
        let line = e.line();
        e.send("protocol_version");
        while !e.line().is_empty() {}
        assert_eq!(e.response(), vec!["= 2"], "{command}");
        assert!(!candidates(&line).is_empty(), "{command}: {line}");
        assert!(!line.contains("ownership"), "{command}: {line}");
    }
    for bad in ["analyze banana", "lz-analyze b interval", "kata-analyze b 5 ownership maybe", "analyze 5 5"]
    {
        e.send(bad);
        assert_eq!(e.response(), vec!["? syntax error"], "{bad}");
    }
}
