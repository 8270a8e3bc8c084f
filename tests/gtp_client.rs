//! The GTP client against real processes: GNU Go 3.8, small scripted fake engines (`sh`), and
//! programs that are not GTP engines at all.

mod common;
use common::gnugo;
use std::path::PathBuf;
use std::time::Duration;

use tengen::selfplay::gtp_client::{GtpClient, GtpClientError, SpawnOptions, StderrSink};

/// Generous: the machine is shared, and these limits guard against hangs, not slowness.
const LONG: Duration = Duration::from_secs(60);
/// The limit used where the timeout itself is the behaviour under test.
const SHORT: Duration = Duration::from_millis(200);

fn spawn_gnugo(path: PathBuf) -> GtpClient {
    let argv = [path.to_string_lossy().into_owned(), "--mode".into(), "gtp".into()];
    GtpClient::spawn_argv(
        &argv,
        SpawnOptions { admin_timeout: LONG, startup_timeout: LONG, ..SpawnOptions::default() },
    )
    .expect("GNU Go starts and answers protocol_version")
}

fn no_handshake() -> SpawnOptions {
    SpawnOptions { handshake: false, admin_timeout: LONG, startup_timeout: LONG, ..SpawnOptions::default() }
}

/// A fake engine: `sh -c SCRIPT`, started through the client's own command-line splitter.
fn fake(script: &str) -> GtpClient {
    let quoted = script.replace('\'', r"'\''");
    GtpClient::spawn_with(&format!("sh -c '{quoted}'"), no_handshake()).expect("sh starts")
}

/// A 9x9 vertex in GTP syntax: a column A..J without I, a row 1..9.
fn is_9x9_vertex(v: &str) -> bool {
    let mut chars = v.chars();
    let col = chars.next().map(|c| c.to_ascii_uppercase());
    let row: Option<u32> = chars.as_str().parse().ok();
    matches!(col, Some('A'..='J')) && col != Some('I') && matches!(row, Some(1..=9))
}

#[test]
fn plays_against_gnugo() {
    let Some(path) = gnugo() else { return };
    let mut g = spawn_gnugo(path);
    assert_eq!(g.name().unwrap(), "GNU Go");
    assert!(!g.version().unwrap().is_empty());
    assert_eq!(g.send("boardsize 9", LONG).unwrap(), "");
    assert_eq!(g.send("clear_board", LONG).unwrap(), "");
    assert_eq!(g.send("play b e5", LONG).unwrap(), "");
    let reply = g.send("genmove w", LONG).unwrap();
    assert!(is_9x9_vertex(&reply) && !reply.eq_ignore_ascii_case("E5"), "genmove answered {reply:?}");
    // An id on the command is answered with the same id; the client strips it.
    assert_eq!(g.send("7 protocol_version", LONG).unwrap(), "2");
    match g.send("play b e5", LONG) {
        Err(GtpClientError::Failure(msg)) => assert_eq!(msg, "illegal move"),
        other => panic!("expected an illegal move failure, got {other:?}"),
    }
    // Multi-line answers keep their lines.
    let board = g.send("showboard", LONG).unwrap();
    assert!(board.lines().count() >= 11, "{board}");
    g.quit().unwrap();
}

#[test]
fn gnugo_with_default_spawn() {
    let Some(path) = gnugo() else { return };
    let command = format!("'{}' --mode gtp --level 1", path.display());
    let mut g = GtpClient::spawn(&command).unwrap();
    assert_eq!(g.send("boardsize 9", LONG).unwrap(), "");
    assert_eq!(
        g.send("boardsize 0", LONG).map_err(|e| e.to_string()),
        Err("GTP failure: unacceptable size".into())
    );
    // Dropping without quit kills and reaps it.
}

#[test]
fn a_missing_program_is_a_spawn_error() {
    match GtpClient::spawn("/nonexistent/tengen-no-such-engine --mode gtp") {
        Err(GtpClientError::Spawn { program, source }) => {
            assert_eq!(program, "/nonexistent/tengen-no-such-engine");
            assert_eq!(source.kind(), std::io::ErrorKind::NotFound);
        }
        other => panic!("expected a spawn error, got {other:?}"),
    }
    assert!(matches!(GtpClient::spawn("   "), Err(GtpClientError::EmptyCommand)));
    assert!(matches!(GtpClient::spawn("gnugo 'unclosed"), Err(GtpClientError::CommandLine(_))));
}

#[test]
fn a_hanging_program_times_out() {
    // `sleep` never reads nor answers.
    let mut sleeper = GtpClient::spawn_with("sleep 30", no_handshake()).unwrap();
    assert!(matches!(sleeper.send("name", SHORT), Err(GtpClientError::Timeout { .. })));
    // `cat` echoes the command (a stray line to the client) but never answers it.
    let mut cat = GtpClient::spawn_with("cat", no_handshake()).unwrap();
    match cat.send("name", SHORT) {
        Err(GtpClientError::Timeout { command, timeout }) => {
            assert_eq!((command.as_str(), timeout), ("name", SHORT))
        }
        other => panic!("expected a timeout, got {other:?}"),
    }
    // Dropping both must kill them: `sleep 30` would otherwise outlive the test.
}

#[test]
fn a_non_gtp_program_fails_the_handshake() {
    let hang = SpawnOptions { admin_timeout: SHORT, startup_timeout: SHORT, ..SpawnOptions::default() };
    assert!(matches!(GtpClient::spawn_with("cat", hang), Err(GtpClientError::Timeout { .. })));
    // `echo` prints a line that is not an answer, then exits.
    assert!(matches!(GtpClient::spawn("echo hello"), Err(GtpClientError::Crashed { .. })));
}

#[test]
fn start_up_has_a_time_limit_of_its_own() {
    // Reads nothing for two seconds (an engine loading its network), then answers.
    let slow = "sh -c 'sleep 2; read line; echo \"= 2\"; echo; cat >/dev/null'";
    // The handshake waits for the start-up limit, not the shorter one of later commands...
    let patient = SpawnOptions { admin_timeout: SHORT, startup_timeout: LONG, ..SpawnOptions::default() };
    let mut g = GtpClient::spawn_with(slow, patient).expect("a slow start within the start-up limit");
    assert!(
        matches!(g.send("name", SHORT), Err(GtpClientError::Timeout { .. })),
        "later commands keep theirs"
    );
    // ... and a start-up past that limit fails as before.
    let hasty = SpawnOptions { admin_timeout: LONG, startup_timeout: SHORT, ..SpawnOptions::default() };
    assert!(matches!(GtpClient::spawn_with(slow, hasty), Err(GtpClientError::Timeout { .. })));
}

#[test]
fn a_program_that_dies_is_crashed() {
    let mut g = fake("read line; echo '= ok'; echo; read line; exit 3");
    assert_eq!(g.send("first", LONG).unwrap(), "ok");
    assert!(matches!(g.send("second", LONG), Err(GtpClientError::Crashed { .. })));
    // Later commands fail the same way rather than hanging: either the write or the read
    // notices the dead process.
    assert!(matches!(g.send("third", LONG), Err(GtpClientError::Crashed { .. })));
}

#[test]
fn framing_of_a_scripted_engine() {
    // Carriage returns, a banner, an id, a multi-line payload and a failure.
    let mut g = fake(
        r#"read l; printf 'banner\r\n\r\n=1 two\r\nlines\r\n\r\n'
           read l; printf '?  not today\n\n'
           read l; printf '= last\n\n'
           cat >/dev/null"#,
    );
    assert_eq!(g.send("1 list", LONG).unwrap(), "two\nlines");
    match g.send("please", LONG) {
        Err(GtpClientError::Failure(msg)) => assert_eq!(msg, "not today"),
        other => panic!("expected a failure, got {other:?}"),
    }
    assert_eq!(g.send("more", LONG).unwrap(), "last");
}

#[test]
fn a_late_answer_is_not_taken_for_the_next_one() {
    // The engine answers the first command only after it has read the second one, so the first
    // command times out for sure and its answer arrives while the client waits for the second.
    let mut g = fake(r#"read a; read b; printf '= late\n\n= second\n\n'; cat >/dev/null"#);
    assert!(matches!(g.send("slow", SHORT), Err(GtpClientError::Timeout { .. })));
    assert_eq!(g.send("fast", LONG).unwrap(), "second");
}

#[test]
fn stderr_goes_to_the_log_file() {
    let path = std::env::temp_dir().join(format!("tengen-gtp-client-stderr-{}.log", std::process::id()));
    let file = std::fs::File::create(&path).unwrap();
    let options = SpawnOptions { stderr: StderrSink::File(file), ..no_handshake() };
    let mut g = GtpClient::spawn_with(
        r#"sh -c 'read l; echo "= fine"; echo "log line" >&2; echo; read l; echo =; echo'"#,
        options,
    )
    .unwrap();
    assert_eq!(g.send("go", LONG).unwrap(), "fine");
    g.quit().unwrap();
    // quit reaped the process, so everything it wrote is in the file.
    let log = std::fs::read_to_string(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    assert_eq!(log, "log line\n");
}

#[test]
fn commands_must_be_one_line() {
    let mut g = fake("cat >/dev/null");
    assert!(matches!(g.send("play b a1\nplay w a2", LONG), Err(GtpClientError::BadCommand(_))));
    assert!(matches!(g.send("  ", LONG), Err(GtpClientError::BadCommand(_))));
}
