//! GoGui's match tool, gogui-twogtp, replayed command for command (GoGui 1.6: `TwoGtp`, `Program`,
//! `GtpClientBase`, `GtpSynchronizer`): each program is started and asked `protocol_version`, `name`,
//! `version`, `list_commands` and `gogui-interrupt`; every game starts with `boardsize`,
//! `clear_board` and `komi` to all of them (black, white, referee); then the side to move gets
//! `genmove b` / `genmove w`, and the move it answers is sent as `play B E5` / `play W PASS` to the
//! others, until two passes in a row or a `resign`. An opening (`-openings`) is sent as `play` to
//! every program. The game is then scored: `cputime` and `final_score` to each program, unless a
//! player resigned. gogui-twogtp knows no Stones nor Stoical rules: it ends a game only on two
//! passes or a resignation, and any `?` answer (but to `final_score`, which it tolerates) is written
//! as an error in its results file. So a game that the rules ended (a Stones decisive move, a
//! Stoical repetition) must be closed by the engines' own answers: `resign` for the side that lost,
//! `pass` after a draw. These tests check that every command of such a match is accepted.

use std::time::Duration;
use tengen::selfplay::gtp_client::{GtpClient, SpawnOptions};

/// Guards against hangs only; the machine is shared.
const LONG: Duration = Duration::from_secs(120);

/// One program as gogui-twogtp drives it, with the commands it was sent and the answers.
struct Program {
    label: &'static str,
    gtp: GtpClient,
    log: Vec<String>,
}

impl Program {
    /// Starts `tengen gtp ARGS` and asks what gogui-twogtp's `Program` constructor asks.
    fn start(label: &'static str, args: &[&str]) -> Program {
        let mut argv = vec![env!("CARGO_BIN_EXE_tengen").to_string(), "gtp".into()];
        argv.extend(args.iter().map(|s| s.to_string()));
        // `spawn_argv` sends `protocol_version` first, as `queryProtocolVersion` does.
        let gtp = GtpClient::spawn_argv(
            &argv,
            SpawnOptions { admin_timeout: LONG, startup_timeout: LONG, ..SpawnOptions::default() },
        )
        .expect("tengen starts");
        let mut p = Program { label, gtp, log: Vec::new() };
        p.send("name");
        p.send("version");
        let commands = p.send("list_commands");
        // `queryInterruptSupport`: the first of the interrupt commands the program lists.
        assert!(commands.lines().any(|l| l == "gogui-interrupt"), "gogui-interrupt listed");
        p.send("gogui-interrupt");
        assert!(commands.lines().any(|l| l == "cputime"), "cputime listed (gogui-twogtp reads it)");
        p
    }

    /// Sends a command that must be accepted, as gogui-twogtp requires of everything but
    /// `final_score`.
    fn send(&mut self, cmd: &str) -> String {
        let answer = self.gtp.send(cmd, LONG);
        self.log.push(format!("{cmd} -> {answer:?}"));
        answer.unwrap_or_else(|e| panic!("{}: `{cmd}` refused: {e:?}\n{}", self.label, self.log.join("\n")))
    }
}

/// A move as gogui-twogtp sends it: `B E5`, `W PASS`.
fn gogui_move(color: char, vertex: &str) -> String {
    let v =
        if vertex.eq_ignore_ascii_case("pass") { "PASS".to_string() } else { vertex.to_ascii_uppercase() };
    format!("{} {v}", color.to_ascii_uppercase())
}

/// How a match game ended.
#[derive(Debug)]
struct Finished {
    /// Every move in order (`B E5`, `W PASS`), the opening's included.
    moves: Vec<String>,
    /// The colour that resigned, if the game ended that way.
    resigned: Option<char>,
    /// `final_score` of black, white and referee when nobody resigned.
    scores: Vec<String>,
}

/// The three programs of a gogui-twogtp match (`-black`, `-white`, `-referee`).
struct TwoGtp {
    black: Program,
    white: Program,
    referee: Program,
}

impl TwoGtp {
    fn new(black: &[&str], white: &[&str], referee: &[&str]) -> TwoGtp {
        TwoGtp {
            black: Program::start("black", black),
            white: Program::start("white", white),
            referee: Program::start("referee", referee),
        }
    }

    fn all(&mut self) -> [&mut Program; 3] {
        [&mut self.black, &mut self.white, &mut self.referee]
    }

    /// One game of gogui-twogtp's `autoPlay` on `size` with `komi`, after the `opening` moves
    /// (alternating from Black, as its openings must); at most `max_moves` moves (`-maxmoves`).
    fn play_game(&mut self, size: usize, komi: &str, opening: &[&str], max_moves: usize) -> Finished {
        // `newGame`: cputime read and cleared, then `GtpSynchronizer.init` for each program.
        for p in [&mut self.black, &mut self.white] {
            p.send("cputime");
        }
        for p in self.all() {
            p.send(&format!("boardsize {size}"));
            p.send("clear_board");
            p.send(&format!("komi {komi}"));
        }
        let mut moves: Vec<String> = Vec::new();
        let mut resigned = None;
        let to_move = |moves: &Vec<String>| if moves.len().is_multiple_of(2) { 'b' } else { 'w' };
        let both_passed = |moves: &Vec<String>| {
            moves.len() >= 2 && moves[moves.len() - 2..].iter().all(|m| m.ends_with("PASS"))
        };
        while !both_passed(&moves) && resigned.is_none() {
            let color = to_move(&moves);
            if let Some(vertex) = opening.get(moves.len()) {
                // An opening move: `synchronize` sends it to every program.
                let m = gogui_move(color, vertex);
                for p in self.all() {
                    p.send(&format!("play {m}"));
                }
                moves.push(m);
                continue;
            }
            assert!(moves.len() <= max_moves, "no end after {} moves: {moves:?}", moves.len());
            let (mover, others) = match color {
                'b' => (&mut self.black, [&mut self.white, &mut self.referee]),
                _ => (&mut self.white, [&mut self.black, &mut self.referee]),
            };
            let answer = mover.send(&format!("genmove {color}"));
            if answer.eq_ignore_ascii_case("resign") {
                resigned = Some(color);
                break;
            }
            let m = gogui_move(color, &answer);
            // `updateAfterGenmove` for the mover, `synchronize` (a `play`) for the others.
            for p in others {
                p.send(&format!("play {m}"));
            }
            moves.push(m);
        }
        // `handleEndOfGame`.
        let mut scores = Vec::new();
        if resigned.is_none() {
            for p in self.all() {
                scores.push(p.send("final_score"));
            }
        }
        for p in [&mut self.black, &mut self.white] {
            p.send("cputime");
        }
        Finished { moves, resigned, scores }
    }

    fn quit(self) {
        for p in [self.black, self.white, self.referee] {
            p.gtp.quit().expect("quit answered");
        }
    }
}

/// A player's command line: `--resign off`, so that it resigns only when the rules have ended the
/// game against it.
fn player(rules: &'static str, seed: &'static str) -> [&'static str; 10] {
    ["--rules", rules, "--seed", seed, "--threads", "1", "--playouts", "100", "--resign", "off"]
}

/// The referee's command line. It judges dead stones with a search of its own, so a fixed seed
/// keeps the scores compared below the same on every run.
fn referee(rules: &'static str) -> [&'static str; 4] {
    ["--rules", rules, "--seed", "0"]
}

/// Stones, engine against engine on 7x7: the game ends by the rules (a decisive move, or a player
/// left without a legal move); the loser is asked `genmove` next and resigns, which ends the match
/// game with the rules' winner. Then a second game in the same processes, as `-games 2` plays it.
#[test]
fn a_stones_game_that_the_rules_end_closes_with_the_losers_resignation() {
    let rules = "stones";
    let mut twogtp = TwoGtp::new(&player(rules, "1"), &player(rules, "2"), &referee(rules));
    for game in 0..2 {
        let end = twogtp.play_game(7, "6.5", &[], 200);
        let loser = end.resigned.unwrap_or_else(|| panic!("game {game}: no resignation: {end:?}"));
        // The referee, which saw every move, agrees that the rules had ended the game, for the
        // other side (no command of gogui-twogtp's: a check of this test).
        let result = twogtp.referee.send("gogui-rules_final_result");
        let winner = if loser == 'b' { "W+" } else { "B+" };
        assert!(result.starts_with(winner), "game {game}: {loser} resigned, the referee says {result:?}");
        assert_eq!(twogtp.referee.send("gogui-rules_legal_moves"), "", "game {game}: the game was over");
    }
    twogtp.quit();
}

/// Stoical, engine against engine on 9x9: an ordinary game to two passes, scored by all three.
/// Then a game whose opening (gogui-twogtp's `-openings`) ends in a repetition, a draw in Stoical:
/// both players answer `pass` and the game closes as a draw.
#[test]
fn stoical_games_end_on_two_passes_and_a_repetition_draw_closes_with_two_passes() {
    let rules = "stoical";
    let mut twogtp = TwoGtp::new(&player(rules, "21"), &player(rules, "22"), &referee(rules));
    let end = twogtp.play_game(9, "7.5", &[], 400);
    assert_eq!(end.resigned, None, "{end:?}");
    assert!(end.scores.iter().all(|s| s == &end.scores[2]), "the three scores agree: {:?}", end.scores);

    // 2x2: White's A2 captures Black's A1; Black's last move at A1 captures White's three stones
    // and recreates the position after Black's first move: a draw (RULES.md section 4).
    let opening = ["A1", "B1", "pass", "A2", "pass", "B2", "A1"];
    let end = twogtp.play_game(2, "0", &opening, 20);
    assert_eq!(end.resigned, None, "{end:?}");
    assert_eq!(end.moves[opening.len()..], ["W PASS", "B PASS"], "both players pass after the draw");
    assert_eq!(end.scores, ["0", "0", "0"], "a draw for all three");
    // The closing passes are moves of the record, after which the result stands.
    let sgf = twogtp.referee.send("printsgf");
    assert!(sgf.contains("RE[0]") && sgf.ends_with(";B[ab];W[];B[])"), "{sgf}");
    twogtp.quit();
}
