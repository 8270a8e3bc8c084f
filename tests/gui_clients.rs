//! tengen as the graphical clients attach it, replayed command by command from their source:
//!
//! - GoGui 1.6 (`GoGui.attachProgram`): it asks a program that lists `gogui-rules_board_size` for
//!   its size right after attaching it and adopts the answer, before it sends `boardsize`; a program
//!   whose `gogui-rules_game_id` is not `Go` becomes the referee of the game (a second copy, started
//!   with the same command line), and the referee's size is the game's. The controller below sends
//!   exactly what GoGui sends, in order, and applies GoGui's rules to the answers: the size the user
//!   chose must stand under standard Go, the command line's size under a variant, and with
//!   `-computer-both` the first `genmove` must come.
//! - Lizzie 0.7.4 (`Leelaz.startEngine`, `Leelaz.parseLine`): `name`, then `version`, whose answer it
//!   reads as a Leela Zero version and refuses (with a dialog) below 0.15, unless the name starts
//!   with `KataGo`.
//! - GoGui's live graphics: the `gogui-gfx: CLEAR` that ends them reaches stderr before the answer
//!   to `genmove`, whatever the answer.
//!
//! Every engine here writes stdout and stderr into one pipe, as Lizzie reads it (and as `2>&1` in a
//! shell): the order of the lines read is the order in which the engine wrote them, so "the clear
//! before the answer" is a statement about the engine's writes, not about thread timing. Stderr
//! lines never start with `=` or `?` (the golden transcripts check it), so responses are the lines
//! from one starting with `=` or `?` to the empty line that ends it.
//!
//! No sleeps and no timing thresholds: every wait is for a line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::Duration;

/// Guards against a hang only (the machine is shared): no test relies on it for its result.
const HANG_GUARD: Duration = Duration::from_secs(120);

/// One tengen whose stdout and stderr arrive, merged, on one pipe.
struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// Every line read, stderr's included, in order.
    seen: Vec<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let (reader, writer) = std::io::pipe().expect("a pipe");
        let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
            .arg("gtp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(writer.try_clone().expect("a second end"))
            .stderr(writer)
            .spawn()
            .expect("starting tengen");
        let stdin = child.stdin.take().unwrap();
        let (tx, lines) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(reader).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Engine { child, stdin, lines, seen: Vec::new() }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").and_then(|()| self.stdin.flush()).expect("writing to tengen");
    }

    fn line(&mut self) -> String {
        let line = match self.lines.recv_timeout(HANG_GUARD) {
            Ok(l) => l,
            Err(RecvTimeoutError::Timeout) => panic!("no output from tengen (hang?) after {:?}", self.seen),
            Err(RecvTimeoutError::Disconnected) => panic!("tengen closed its output after {:?}", self.seen),
        };
        self.seen.push(line.clone());
        line
    }

    /// The next response: the lines from one starting with `=` or `?` up to (not including) the
    /// empty line that ends it. Stderr lines before it are skipped (they stay in `seen`).
    fn response(&mut self) -> Vec<String> {
        let mut first = self.line();
        while !first.starts_with(['=', '?']) {
            first = self.line();
        }
        let mut lines = vec![first];
        loop {
            let l = self.line();
            if l.is_empty() {
                return lines;
            }
            lines.push(l);
        }
    }

    /// Sends a command; its response, whole.
    fn ask(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.response()
    }

    /// Sends a command and returns its payload (after `=` and the id), panicking on `?`.
    fn ok(&mut self, command: &str) -> String {
        let r = self.ask(command).join("\n");
        assert!(r.starts_with('='), "{command} answered {r}");
        r[1..].trim_start_matches(|c: char| c.is_ascii_digit()).trim().to_string()
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

// ---------------------------------------------------------------------------------------------
// GoGui 1.6: attaching a program.

/// `BoardParameters.get` on a `gogui-rules_board_size` answer: the first word is the width
/// (`Integer.parseInt`, whose failure GoGui does not catch: the attach would fail), the second, if
/// it is a number, the height.
fn gogui_board_parameters(answer: &str) -> (usize, usize) {
    let words: Vec<&str> = answer.split_whitespace().collect();
    let width: usize = words.first().and_then(|w| w.parse().ok()).unwrap_or_else(|| {
        panic!("GoGui cannot read the board size {answer:?}: Integer.parseInt throws, the attach fails")
    });
    let height = words.get(1).and_then(|w| w.parse().ok()).unwrap_or(width);
    (width, height)
}

/// GoGui's side of the attach: its board, the computer's colours, and the programs it talks to.
struct GoGui {
    /// The board GoGui shows, width and height.
    board: (usize, usize),
    computer_black: bool,
    computer_white: bool,
    player: Engine,
    /// The player's `list_commands` (GoGui's `isSupported` reads only this list).
    supported: Vec<String>,
    /// The rules program GoGui attached when the player was not a Go program, with its
    /// `list_commands`.
    referee: Option<(Engine, Vec<String>)>,
}

impl GoGui {
    /// `gogui -size SIZE -computer-both -program "tengen gtp ARGS"`: GoGui starts a new game on its
    /// own board of SIZE (from `-size`, kept in its preferences), then attaches the program.
    fn attach(size: usize, args: &[&str]) -> GoGui {
        let player = Engine::start(args);
        let mut gogui = GoGui {
            board: (size, size),
            computer_black: true,
            computer_white: true,
            player,
            supported: Vec::new(),
            referee: None,
        };
        let p = &mut gogui.player;
        // queryName, queryProtocolVersion, queryVersion, querySupportedCommands.
        assert_eq!(p.ok("name"), "tengen");
        assert_eq!(p.ok("protocol_version"), "2");
        p.ok("version");
        gogui.supported = p.ok("list_commands").lines().map(String::from).collect();
        // queryInterruptSupport.
        if gogui.supports("gogui-interrupt") {
            gogui.player.ok("gogui-interrupt");
        }
        // isGtpCompatibleWithGame (no referee attached yet): the program says it plays Go.
        let compatible = gogui.supports("gogui-rules_game_id")
            && gogui.player.ok("gogui-rules_game_id").eq_ignore_ascii_case("go");
        let is_ruler = ["gogui-rules_game_id", "gogui-rules_legal_moves", "gogui-rules_side_to_move"]
            .iter()
            .all(|c| gogui.supports(c));
        if !compatible && is_ruler {
            gogui.attach_referee(args);
        }
        // queryName and queryProtocolVersion once more, then the size question.
        gogui.player.ok("name");
        gogui.player.ok("protocol_version");
        if gogui.supports("gogui-rules_board_size") {
            let answer = gogui.player.ok("gogui-rules_board_size");
            let parameters = gogui_board_parameters(&answer);
            if parameters != gogui.board {
                // newBoard -> actionNewGame, which also hands the computer one colour only ("to
                // avoid automatic move generation after starting a new game").
                gogui.board = parameters;
                gogui.computer_black = false;
                gogui.computer_white = true;
            }
        }
        if gogui.supports("gogui-analyze_commands") {
            gogui.player.ok("gogui-analyze_commands");
        }
        // initGtp -> GtpSynchronizer.init: the board and the game information.
        let n = gogui.board.0;
        gogui.player.ok(&format!("boardsize {n}"));
        gogui.player.ok("clear_board");
        gogui.player.ok("komi 6.5");
        gogui
    }

    fn supports(&self, command: &str) -> bool {
        self.supported.iter().any(|c| c == command)
    }

    /// initGameRuler: a second copy of the program, started with the same command line, asked for
    /// its commands, its game and its size; GoGui's new game takes that size (its own when the
    /// referee gives none). Then attachProgram for the referee asks its name, protocol and commands.
    fn attach_referee(&mut self, args: &[&str]) {
        let mut r = Engine::start(args);
        let listed: Vec<String> = r.ok("list_commands").lines().map(String::from).collect();
        let lists = |c: &str| listed.iter().any(|l| l == c);
        if lists("gogui-interrupt") {
            r.ok("gogui-interrupt");
        }
        let game = if lists("gogui-rules_game_id") { r.ok("gogui-rules_game_id") } else { String::new() };
        assert!(!game.is_empty(), "a referee names its game");
        if lists("gogui-rules_board_size") {
            // newGame(newParameters): the computer's colours are left alone.
            self.board = gogui_board_parameters(&r.ok("gogui-rules_board_size"));
        }
        r.ok("name");
        r.ok("protocol_version");
        r.ok("list_commands");
        // The new game: GoGui sends a referee `clear_board`, never `boardsize`.
        r.ok("clear_board");
        self.referee = Some((r, listed));
    }

    /// checkComputerMove after the attach: with the computer on both sides, GoGui asks for Black's
    /// move at once. `None` when GoGui would not ask.
    fn first_computer_move(&mut self) -> Option<String> {
        (self.computer_black && self.computer_white).then(|| self.player.ok("genmove b"))
    }

    /// The number of rows of the player's board, as `gogui-rules_board` draws it.
    fn player_rows(&mut self) -> usize {
        self.player.ok("gogui-rules_board").lines().count()
    }
}

/// Is `mv` a vertex of an `n`x`n` board (or a pass)?
fn on_board(mv: &str, n: usize) -> bool {
    if mv == "pass" {
        return true;
    }
    let columns: Vec<char> = "ABCDEFGHJKLMNOPQRSTUVWXYZ".chars().take(n).collect();
    let mut chars = mv.chars();
    let column = chars.next().is_some_and(|c| columns.contains(&c));
    let row: Option<usize> = chars.as_str().parse().ok();
    column && row.is_some_and(|r| (1..=n).contains(&r))
}

#[test]
fn gogui_keeps_the_size_the_user_chose_under_standard_go_and_starts_computer_both_games() {
    let quick = ["--threads", "1", "--seed", "3", "--playouts", "60"];
    for size in [9, 13, 19] {
        // The engine's own start-up size (19, or `--size`) does not matter to GoGui.
        for start in ["19", "13"] {
            let mut args = quick.to_vec();
            args.extend(["--size", start]);
            let mut gogui = GoGui::attach(size, &args);
            assert!(gogui.referee.is_none(), "GoGui referees standard Go itself");
            assert_eq!(gogui.board, (size, size), "GoGui -size {size} with --size {start}");
            assert!(gogui.computer_black && gogui.computer_white, "-computer-both survives the attach");
            let mv = gogui.first_computer_move().expect("GoGui asks for the first move");
            assert!(on_board(&mv, size) && mv != "pass", "first move {mv} on {size}x{size}");
            assert_eq!(gogui.player_rows(), size);
            // The game goes on: White's answer.
            let reply = gogui.player.ok("genmove w");
            assert!(on_board(&reply, size), "{reply}");
            // A size chosen later in GoGui (Game -> Board Size) reaches the engine with `boardsize`.
            gogui.player.ok("boardsize 7");
            gogui.player.ok("clear_board");
            assert_eq!(gogui.player_rows(), 7);
        }
    }
}

#[test]
fn gogui_referees_stones_and_stoical_on_the_command_lines_size() {
    for rules in ["stones", "stoical"] {
        for gogui_size in [9, 19] {
            let args = ["--rules", rules, "--size", "9", "--threads", "1", "--seed", "3", "--playouts", "60"];
            let mut gogui = GoGui::attach(gogui_size, &args);
            let (referee, listed) = gogui.referee.as_mut().expect("GoGui attaches tengen as the referee");
            assert!(
                listed.iter().any(|c| c == "gogui-rules_board_size"),
                "{rules}: the referee gives its size"
            );
            assert_eq!(referee.ok("gogui-rules_board").lines().count(), 9);
            assert_eq!(
                gogui.board,
                (9, 9),
                "{rules}: GoGui plays the referee's size (GoGui -size {gogui_size})"
            );
            assert!(gogui.computer_black && gogui.computer_white, "-computer-both survives the attach");
            let mv = gogui.first_computer_move().expect("GoGui asks for the first move");
            assert!(on_board(&mv, 9), "{rules}: {mv}");
            assert_eq!(gogui.player_rows(), 9);
            // GoGui hands the move to the referee, which accepts it.
            let (referee, _) = gogui.referee.as_mut().unwrap();
            referee.ok(&format!("play b {mv}"));
            assert_eq!(referee.ok("gogui-rules_side_to_move"), "white");
        }
    }
}

#[test]
fn the_board_size_question_is_offered_exactly_where_gogui_needs_a_referee() {
    let mut e = Engine::start(&["--size", "9"]);
    let listed = |e: &mut Engine| e.ok("list_commands").lines().any(|l| l == "gogui-rules_board_size");
    assert!(!listed(&mut e));
    assert_eq!(e.ok("known_command gogui-rules_board_size"), "false");
    assert_eq!(e.ask("gogui-rules_board_size"), ["? unknown command"]);
    // The rest of the rules protocol stays: GoGui reads the game id to know it is Go.
    assert_eq!(e.ok("gogui-rules_game_id"), "Go");
    e.ok("tengen-rules stones");
    assert!(listed(&mut e));
    assert_eq!(e.ok("known_command gogui-rules_board_size"), "true");
    assert_eq!(e.ok("gogui-rules_board_size"), "9");
    e.ok("tengen-rules go");
    assert!(!listed(&mut e));
}

// ---------------------------------------------------------------------------------------------
// Lizzie 0.7.4: starting the engine.

/// Lizzie's split of a response line into words (`line.trim().split(" ")`).
fn lizzie_words(line: &str) -> Vec<&str> {
    line.trim().split(' ').collect()
}

/// `Integer.parseInt`: an optional sign and decimal digits, nothing else.
fn java_parse_int(s: &str) -> Option<i32> {
    let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

#[test]
fn lizzie_starts_tengen_without_its_leela_zero_version_dialog() {
    let mut e = Engine::start(&["--threads", "1", "--seed", "1"]);
    // Leelaz.startEngine: every command numbered from 1.
    e.send("1 name");
    e.send("2 version");
    e.send("3 boardsize 19");
    e.send("4 komi 7.5");
    let name = e.response();
    let version = e.response();
    assert_eq!(e.response(), ["=3 "]);
    assert_eq!(e.response(), ["=4 "]);

    // parseLine: the id must be a number (Integer.parseInt(params[0].substring(1))).
    for r in [&name, &version] {
        assert_eq!(r.len(), 1, "{r:?}");
        let words = lizzie_words(&r[0]);
        assert!(java_parse_int(&words[0][1..]).is_some(), "{r:?}");
        assert!(words.len() > 1, "Lizzie returns early on an empty answer and never checks: {r:?}");
    }
    // isCheckingName: only a name starting with KataGo takes the KataGo path; tengen says what it is.
    let name = lizzie_words(&name[0])[1];
    assert_eq!(name, "tengen");
    assert!(!name.starts_with("KataGo"));
    // isCheckingVersion: the second dotted part must be a number (else Lizzie's reader throws) of
    // at least 15 (else "Lizzie requires version 0.15 or later of Leela Zero").
    let version = lizzie_words(&version[0])[1];
    let parts: Vec<&str> = version.split('.').collect();
    assert!(parts.len() >= 2, "Lizzie reads ver[1] of {version:?}");
    let minor = java_parse_int(parts[1]).unwrap_or_else(|| panic!("Lizzie cannot read {version:?}"));
    assert!(minor >= 15, "Lizzie would refuse version {version}");
    assert_eq!(version, env!("CARGO_PKG_VERSION"), "the version is the crate's");

    // initializeAfterVersionCheck -> togglePonder: Leela Zero's analysis, stopped by `name`.
    e.send("5 lz-analyze 10");
    assert_eq!(e.line(), "=5");
    let info = e.line();
    e.send("6 name");
    let mut rest = e.response();
    assert_eq!(rest.pop().as_deref(), Some("=6 tengen"), "{rest:?}");
    // Leelaz.parseInfo / MoveData.fromInfo: `info` blocks of key-value pairs up to `pv`, the
    // numbers integers.
    assert!(info.starts_with("info move "), "{info}");
    for block in info["info ".len()..].split(" info ") {
        let words = lizzie_words(block);
        let pv = words.iter().position(|w| *w == "pv").unwrap_or_else(|| panic!("no pv in {block}"));
        assert!(pv % 2 == 0 && pv + 1 < words.len(), "{block}");
        for pair in words[..pv].chunks(2) {
            if ["visits", "winrate", "lcb", "prior", "order"].contains(&pair[0]) {
                assert!(java_parse_int(pair[1]).is_some(), "{block}");
            }
        }
    }
    // Lizzie merges stderr into what it parses: nothing there may look like a response or an
    // analysis line.
    for line in &e.seen {
        if !line.starts_with(['=', '?']) && !line.starts_with("info ") && !line.is_empty() {
            assert!(!line.starts_with("play") && !line.contains(" -> "), "{line}");
        }
    }
}

// ---------------------------------------------------------------------------------------------
// GoGui's live graphics: cleared before the answer.

/// Sends `genmove COLOR` with the live graphics on, waits for the first drawing (proof that there
/// is something to clear), interrupts, and returns the merged lines from the command to its answer.
fn genmove_drawn(e: &mut Engine, color: &str) -> (Vec<String>, String) {
    let from = e.seen.len();
    e.send(&format!("genmove {color}"));
    while e.line() != "gogui-gfx:" {}
    e.send("# interrupt");
    let answer = e.response();
    assert_eq!(answer.len(), 1, "{answer:?}");
    let answer = answer[0].strip_prefix("= ").unwrap_or_else(|| panic!("{answer:?}")).to_string();
    (e.seen[from..].to_vec(), answer)
}

/// Checks one genmove's merged output: drawings, then one clear after the last of them, then the
/// answer; and no empty drawing.
fn assert_cleared_before_answer(lines: &[String]) {
    let answer = lines.iter().position(|l| l.starts_with("= ")).expect("the answer");
    let last_drawing = lines.iter().rposition(|l| l == "gogui-gfx:").expect("a drawing");
    let clear = lines.iter().position(|l| l == "gogui-gfx: CLEAR").expect("a clear");
    assert!(last_drawing < clear && clear < answer, "drawing, clear, answer: {lines:?}");
    assert_eq!(lines.iter().rfind(|l| l.starts_with("gogui-gfx:")).unwrap(), "gogui-gfx: CLEAR");
    assert!(lines[answer + 1..].iter().all(|l| !l.starts_with("gogui-gfx")), "after the answer: {lines:?}");
    for (i, l) in lines.iter().enumerate() {
        if l == "gogui-gfx:" {
            assert!(!lines[i + 1].is_empty(), "an empty drawing: {lines:?}");
        }
    }
}

#[test]
fn live_graphics_are_cleared_before_a_move_a_pass_and_a_resignation() {
    // Searches of an hour, interrupted once something is drawn.
    let mut e = Engine::start(&["--threads", "1", "--seed", "5", "--time", "3600", "--resign", "0.2"]);
    e.ok("boardsize 7");
    assert!(!e.ok("gogui-analyze_commands").is_empty(), "GoGui's menu turns the live graphics on");

    // A move.
    let (lines, answer) = genmove_drawn(&mut e, "b");
    assert!(on_board(&answer, 7) && answer != "pass", "{answer}");
    assert_cleared_before_answer(&lines);

    // A pass: Black leads by far and White has passed, so Black's pass ends the game won.
    e.ok("clear_board");
    e.ok("komi -100");
    e.ok("play b D4");
    e.ok("play w pass");
    let (lines, answer) = genmove_drawn(&mut e, "b");
    assert_eq!(answer, "pass");
    assert_cleared_before_answer(&lines);

    // A resignation: far behind, late enough in the game to resign.
    e.ok("clear_board");
    e.ok("komi 100");
    for mv in ["b B2", "w F6", "b B6", "w F2", "b D2", "w D6", "b B4", "w F4", "b C3", "w E5", "b C5", "w E3"]
    {
        e.ok(&format!("play {mv}"));
    }
    let (lines, answer) = genmove_drawn(&mut e, "b");
    assert_eq!(answer, "resign");
    assert_cleared_before_answer(&lines);
}
