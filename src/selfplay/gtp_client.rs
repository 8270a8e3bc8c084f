//! A client that drives an external GTP program (GNU Go, another tengen) over pipes.
//!
//! The program's stdout is read on a thread that forwards lines through a channel, so every
//! command can have a time limit (`recv_timeout`) even when the program hangs mid-line.

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// Lines buffered between the reader thread and the client. Bounded so that a program spewing
/// output nobody reads (say `yes`) blocks on its pipe instead of filling our memory.
const LINE_BUFFER: usize = 4096;

/// Why a command line could not be split into arguments.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SplitError {
    /// A `'` or `"` quote is never closed.
    UnclosedQuote(char),
    /// The line ends in a backslash that escapes nothing.
    TrailingBackslash,
}

impl fmt::Display for SplitError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SplitError::UnclosedQuote(q) => write!(f, "unclosed {q} quote"),
            SplitError::TrailingBackslash => f.write_str("trailing backslash"),
        }
    }
}

impl std::error::Error for SplitError {}

/// What went wrong talking to a GTP program.
#[derive(Debug)]
pub enum GtpClientError {
    /// The command line has a quoting error.
    CommandLine(SplitError),
    /// The command line is empty.
    EmptyCommand,
    /// The program could not be started (missing binary, no permission, ...).
    Spawn { program: String, source: io::Error },
    /// The command cannot be sent as one GTP line (it is empty or contains a line break).
    BadCommand(String),
    /// The program answered `?` with this message.
    Failure(String),
    /// No complete answer arrived in time. The program may still answer later; the client then
    /// discards that late answer so the next command gets its own.
    Timeout { command: String, timeout: Duration },
    /// The program closed its output (exited or crashed) before answering.
    Crashed { command: String },
    /// Reading or writing a pipe failed for another reason.
    Io(io::Error),
}

impl fmt::Display for GtpClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GtpClientError::CommandLine(e) => write!(f, "bad command line: {e}"),
            GtpClientError::EmptyCommand => f.write_str("empty command line"),
            GtpClientError::Spawn { program, source } => {
                write!(f, "cannot start `{program}`: {source}")?;
                // Debian and Ubuntu put games (GNU Go) in /usr/games, often not on PATH.
                let games = std::path::Path::new("/usr/games").join(program);
                if source.kind() == io::ErrorKind::NotFound && !program.contains('/') && games.is_file() {
                    write!(f, " (there is a {}: give the full path)", games.display())?;
                }
                Ok(())
            }
            GtpClientError::BadCommand(c) => write!(f, "not a single GTP command line: {c:?}"),
            GtpClientError::Failure(msg) => write!(f, "GTP failure: {msg}"),
            GtpClientError::Timeout { command, timeout } => {
                write!(f, "no answer to `{command}` within {timeout:?}")
            }
            GtpClientError::Crashed { command } => {
                write!(f, "the program exited or closed its output before answering `{command}`")
            }
            GtpClientError::Io(e) => write!(f, "GTP pipe error: {e}"),
        }
    }
}

impl std::error::Error for GtpClientError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            GtpClientError::CommandLine(e) => Some(e),
            GtpClientError::Spawn { source, .. } => Some(source),
            GtpClientError::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// Where the program's stderr goes. Never our stdout: that may be a GTP channel of its own.
#[derive(Debug, Default)]
pub enum StderrSink {
    /// Thrown away.
    #[default]
    Discard,
    /// Appended to a file the caller opened (a per-game or per-engine log).
    File(File),
}

/// How to start a GTP program.
#[derive(Debug)]
pub struct SpawnOptions {
    pub stderr: StderrSink,
    /// Send `protocol_version` right after starting and require an answer (either `=` or `?`),
    /// so that a program that is not a GTP engine fails at spawn rather than mid-match.
    pub handshake: bool,
    /// Time limit for the short administrative commands (`name`, `version`, `quit`).
    pub admin_timeout: Duration,
    /// Time limit for the handshake's answer: the program's start-up. Engines that load a large
    /// network before they read their input take longer to start than to answer anything after.
    pub startup_timeout: Duration,
}

impl Default for SpawnOptions {
    fn default() -> Self {
        // Ten seconds leaves room for a debug build or a loaded shared machine to start up.
        let ten = Duration::from_secs(10);
        SpawnOptions {
            stderr: StderrSink::Discard,
            handshake: true,
            admin_timeout: ten,
            startup_timeout: ten,
        }
    }
}

/// One line from the reader thread: the text without its line ending, or the read error.
type Line = io::Result<String>;

/// A running GTP program. Dropping it kills and reaps the process.
pub struct GtpClient {
    program: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Line>,
    admin_timeout: Duration,
    /// A response whose first line has arrived but not yet its closing empty line. Kept across
    /// calls because a timeout can strike in the middle of a response.
    partial: Option<Response>,
    /// Commands that timed out and whose answers, when they come, belong to nobody.
    late_answers: usize,
}

/// A parsed GTP response.
#[derive(Clone, PartialEq, Eq, Debug)]
struct Response {
    success: bool,
    payload: String,
}

impl GtpClient {
    /// Starts `command` (split with shell-like quoting, no shell involved) with default options:
    /// stderr discarded, a `protocol_version` handshake within ten seconds.
    pub fn spawn(command: &str) -> Result<GtpClient, GtpClientError> {
        GtpClient::spawn_with(command, SpawnOptions::default())
    }

    /// Starts `command` (split by [`split_command_line`]) with the given options.
    pub fn spawn_with(command: &str, options: SpawnOptions) -> Result<GtpClient, GtpClientError> {
        let argv = split_command_line(command).map_err(GtpClientError::CommandLine)?;
        GtpClient::spawn_argv(&argv, options)
    }

    /// Starts the program `argv[0]` with arguments `argv[1..]`, for callers that already hold
    /// the arguments (a path with spaces needs no quoting then).
    pub fn spawn_argv(argv: &[String], options: SpawnOptions) -> Result<GtpClient, GtpClientError> {
        let (program, args) = argv.split_first().ok_or(GtpClientError::EmptyCommand)?;
        let stderr = match options.stderr {
            StderrSink::Discard => Stdio::null(),
            StderrSink::File(file) => Stdio::from(file),
        };
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(stderr)
            .spawn()
            .map_err(|source| GtpClientError::Spawn { program: program.clone(), source })?;
        // Both pipes were requested just above, so they are present.
        let stdin = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = mpsc::sync_channel(LINE_BUFFER);
        // The thread is never joined: it ends by itself at end of file, or when the client (the
        // receiver) is gone. Joining could hang if the program left a grandchild holding the pipe.
        let spawned = thread::Builder::new().name(format!("gtp-client {program}")).spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) => return,
                    Ok(_) => {
                        // Lossy: a program's odd bytes must not kill the match; `\r` goes away so
                        // CRLF programs parse like everyone else.
                        let line: String = String::from_utf8_lossy(&buf)
                            .chars()
                            .filter(|&c| c != '\r' && c != '\n')
                            .collect();
                        if tx.send(Ok(line)).is_err() {
                            return;
                        }
                    }
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => {
                        let _ = tx.send(Err(e));
                        return;
                    }
                }
            }
        });
        if let Err(e) = spawned {
            let _ = child.kill();
            let _ = child.wait();
            return Err(GtpClientError::Io(e));
        }
        let mut client = GtpClient {
            program: program.clone(),
            child,
            stdin,
            lines,
            admin_timeout: options.admin_timeout,
            partial: None,
            late_answers: 0,
        };
        if options.handshake {
            // Any answer, even `?`, proves the program speaks GTP. On error `client` is dropped,
            // which kills the process.
            match client.send("protocol_version", options.startup_timeout) {
                Ok(_) | Err(GtpClientError::Failure(_)) => {}
                Err(e) => return Err(e),
            }
        }
        Ok(client)
    }

    /// The program as started (`argv[0]`).
    pub fn program(&self) -> &str {
        &self.program
    }

    /// Sends one command line and waits up to `timeout` for its response.
    ///
    /// Returns the payload of a `=` answer (lines joined by `\n`, the `=`, any id and the leading
    /// space removed, trailing whitespace trimmed). A `?` answer is `Failure(message)`. Lines
    /// before the `=`/`?` line (banners, debug output) are ignored.
    pub fn send(&mut self, command: &str, timeout: Duration) -> Result<String, GtpClientError> {
        let command = command.trim();
        if command.is_empty() || command.contains(['\n', '\r']) {
            return Err(GtpClientError::BadCommand(command.to_string()));
        }
        // Note that the time limit does not cover this write: it could only block if the
        // program stopped reading while tens of kilobytes of commands were queued.
        let written =
            self.stdin.write_all(format!("{command}\n").as_bytes()).and_then(|()| self.stdin.flush());
        match written {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::BrokenPipe => {
                return Err(GtpClientError::Crashed { command: command.to_string() })
            }
            Err(e) => return Err(GtpClientError::Io(e)),
        }
        // One deadline for the whole response, so a stream of stray lines cannot extend it.
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let line = match self.lines.recv_timeout(left) {
                Ok(Ok(line)) => line,
                Ok(Err(e)) => return Err(GtpClientError::Io(e)),
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(GtpClientError::Crashed { command: command.to_string() })
                }
            };
            if let Some(response) = feed_line(&mut self.partial, &line) {
                if self.late_answers > 0 {
                    self.late_answers -= 1;
                } else if response.success {
                    return Ok(response.payload);
                } else {
                    return Err(GtpClientError::Failure(response.payload));
                }
            }
            // Without this check a program flooding us with lines would keep `recv_timeout(0)`
            // succeeding forever.
            if left.is_zero() {
                break;
            }
        }
        self.late_answers += 1;
        Err(GtpClientError::Timeout { command: command.to_string(), timeout })
    }

    /// The program's `name`.
    pub fn name(&mut self) -> Result<String, GtpClientError> {
        self.send("name", self.admin_timeout)
    }

    /// The program's `version`.
    pub fn version(&mut self) -> Result<String, GtpClientError> {
        self.send("version", self.admin_timeout)
    }

    /// Sends `quit`, then waits for the program to close its output (the administrative time
    /// limit at most) and reaps it, killing it if it is still running. The error, if any, is the
    /// answer to `quit`; the process is gone either way.
    pub fn quit(mut self) -> Result<(), GtpClientError> {
        let answer = self.send("quit", self.admin_timeout).map(drop);
        if answer.is_ok() {
            // End of file on stdout is how a well-behaved program says it has exited; waiting on
            // the channel instead of polling the process needs no sleep.
            let deadline = Instant::now() + self.admin_timeout;
            loop {
                let left = deadline.saturating_duration_since(Instant::now());
                if self.lines.recv_timeout(left).is_err() || left.is_zero() {
                    break;
                }
            }
        }
        // Drop kills (if still needed) and reaps.
        answer
    }
}

impl Drop for GtpClient {
    fn drop(&mut self) {
        // Killing an already exited child is harmless; waiting reaps it so no zombie is left.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

impl fmt::Debug for GtpClient {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GtpClient").field("program", &self.program).field("pid", &self.child.id()).finish()
    }
}

/// Feeds one output line (without line ending) to the response parser; returns the response
/// once its closing empty line arrives.
fn feed_line(partial: &mut Option<Response>, line: &str) -> Option<Response> {
    match partial {
        None => {
            let success = match line.chars().next() {
                Some('=') => true,
                Some('?') => false,
                // Not inside a response and not the start of one: a stray line.
                _ => return None,
            };
            // `=12 D4`: skip the marker, then the optional numeric id, then the separating space.
            let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit()).trim_start();
            *partial = Some(Response { success, payload: rest.to_string() });
            None
        }
        Some(response) => {
            if line.is_empty() {
                let mut done = partial.take().expect("inside a response");
                done.payload.truncate(done.payload.trim_end().len());
                Some(done)
            } else {
                response.payload.push('\n');
                response.payload.push_str(line);
                None
            }
        }
    }
}

/// Splits a command line into arguments the way a POSIX shell would, without running one:
/// blanks separate words; `'...'` is literal; inside `"..."` a backslash escapes only `"` and `\`;
/// elsewhere a backslash takes the next character literally. Quoted pieces join adjacent text
/// (`a"b c"` is one word `ab c`), and `''` is an empty argument. No variables, globs or pipes.
pub fn split_command_line(line: &str) -> Result<Vec<String>, SplitError> {
    let mut words = Vec::new();
    let mut word = String::new();
    // A word can be empty but present (`''`), so presence is tracked apart from the text.
    let mut in_word = false;
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(SplitError::UnclosedQuote('\'')),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c @ ('"' | '\\')) => word.push(c),
                            Some(c) => {
                                word.push('\\');
                                word.push(c);
                            }
                            None => return Err(SplitError::UnclosedQuote('"')),
                        },
                        Some(c) => word.push(c),
                        None => return Err(SplitError::UnclosedQuote('"')),
                    }
                }
            }
            '\\' => {
                in_word = true;
                word.push(chars.next().ok_or(SplitError::TrailingBackslash)?);
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

/// Where GNU Go is installed: the first executable `gnugo` on `PATH`, else `/usr/games/gnugo`
/// (Debian puts it there, and `/usr/games` is often missing from `PATH`).
pub fn find_gnugo() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).map(|dir| dir.join("gnugo")).collect::<Vec<_>>())
        .unwrap_or_default();
    on_path.into_iter().chain([PathBuf::from("/usr/games/gnugo")]).find(|p| is_executable(p))
}

#[cfg(unix)]
fn is_executable(path: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

#[cfg(not(unix))]
fn is_executable(path: &std::path::Path) -> bool {
    path.is_file()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Vec<String> {
        split_command_line(s).unwrap()
    }

    #[test]
    fn splits_on_blanks() {
        assert_eq!(split("gnugo --mode gtp"), ["gnugo", "--mode", "gtp"]);
        assert_eq!(split("  a \t b  "), ["a", "b"]);
        assert!(split("").is_empty());
        assert!(split("   ").is_empty());
    }

    #[test]
    fn quotes_group_and_join() {
        assert_eq!(split("'/opt/my engine/bin' -x"), ["/opt/my engine/bin", "-x"]);
        assert_eq!(
            split(r#"tengen --rules "stones:threshold=7, compensation=6""#),
            ["tengen", "--rules", "stones:threshold=7, compensation=6"]
        );
        assert_eq!(split(r#"a"b c"d'e f'g"#), ["ab cde fg"]);
        assert_eq!(split("'' x \"\""), ["", "x", ""]);
        // Single quotes are literal, double quotes hold the other kind.
        assert_eq!(split(r#"'a\b "c"' "it's""#), [r#"a\b "c""#, "it's"]);
    }

    #[test]
    fn backslashes_escape() {
        assert_eq!(split(r"my\ engine a\\b \'q"), ["my engine", r"a\b", "'q"]);
        // Inside double quotes only `"` and `\` are escapable; other backslashes stay.
        assert_eq!(split(r#""say \"hi\" \\ \n""#), [r#"say "hi" \ \n"#]);
    }

    #[test]
    fn quoting_errors() {
        assert_eq!(split_command_line("a 'b"), Err(SplitError::UnclosedQuote('\'')));
        assert_eq!(split_command_line("a \"b\\\""), Err(SplitError::UnclosedQuote('"')));
        assert_eq!(split_command_line("a\\"), Err(SplitError::TrailingBackslash));
    }

    fn parse(lines: &[&str]) -> Vec<Response> {
        let mut partial = None;
        lines.iter().filter_map(|l| feed_line(&mut partial, l)).collect()
    }

    fn ok(payload: &str) -> Response {
        Response { success: true, payload: payload.to_string() }
    }

    #[test]
    fn parses_responses() {
        assert_eq!(parse(&["= 2", ""]), [ok("2")]);
        assert_eq!(parse(&["=", ""]), [ok("")]);
        assert_eq!(parse(&["= ", ""]), [ok("")]);
        assert_eq!(parse(&["=12 D4", ""]), [ok("D4")]);
        assert_eq!(
            parse(&["?3 illegal move", ""]),
            [Response { success: false, payload: "illegal move".into() }]
        );
        assert_eq!(parse(&["= C3 D4", "E5 F6", ""]), [ok("C3 D4\nE5 F6")]);
        // showboard style: an empty first line, then indented rows whose indentation survives.
        assert_eq!(parse(&["= ", "   A B", " 2 . .", ""]), [ok("\n   A B\n 2 . .")]);
    }

    #[test]
    fn ignores_stray_lines_before_a_response() {
        assert_eq!(
            parse(&["GNU Go banner", "", "  ", "= x", "", "junk", "?1 no", ""]),
            [ok("x"), Response { success: false, payload: "no".into() }]
        );
    }
}
