//! `tengen selfplay` and `tengen match` through the binary: games in every variant, matches against
//! GNU Go, another tengen process and misbehaving programs, resuming interrupted runs, bad input, and
//! every SGF read back by tengen's own reader (and by Sabaki's parser, when Node is installed).

mod common;
use common::gnugo;
use std::collections::BTreeSet;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use tengen::engine::{Engine, EngineOptions};
use tengen::rules::RulesConfig;
use tengen::selfplay::game::{same_result, Ending};
use tengen::selfplay::output::{read_results, ResultLine, Side, RESULTS};
use tengen::sgf::GameRecord;

const TENGEN: &str = env!("CARGO_BIN_EXE_tengen");

/// A fresh directory for one test (removed first, in case an earlier run left it).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-selfplay-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

/// The arguments of `line` (split at blanks), then `rest` (for values with blanks or paths).
fn argv(line: &str, rest: &[&str]) -> Vec<String> {
    line.split_whitespace().chain(rest.iter().copied()).map(String::from).collect()
}

fn tengen(args: &[String]) -> Output {
    Command::new(TENGEN).args(args).output().expect("the tengen binary runs")
}

/// Runs tengen and insists on success, showing its stderr otherwise.
fn tengen_ok(args: &[String]) -> String {
    let out = tengen(args);
    assert!(out.status.success(), "tengen {args:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8 summary")
}

fn results(dir: &Path) -> Vec<ResultLine> {
    let r = read_results(&dir.join(RESULTS)).expect("results.jsonl reads back");
    assert!(!r.torn_tail, "a finished run leaves no torn line");
    r.lines
}

/// The games of a finished run: exactly games 0..n, each once, and every SGF replays legally under
/// its recorded rules with tengen's own reader, with the result, size and move count of its line.
fn check_run(dir: &Path, games: u64, rules: &str, size: usize) -> Vec<ResultLine> {
    let lines = results(dir);
    let indices: Vec<u64> = lines.iter().map(|l| l.game).collect();
    let unique: BTreeSet<u64> = indices.iter().copied().collect();
    assert_eq!(indices.len(), unique.len(), "a game counted twice: {indices:?}");
    assert_eq!(unique, (0..games).collect(), "games missing");
    let rules = RulesConfig::parse(rules).unwrap().to_string();
    for l in &lines {
        let text = std::fs::read_to_string(dir.join(&l.sgf)).expect("the game's SGF exists");
        let record = GameRecord::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", l.sgf));
        assert_eq!(record.size, size, "{}", l.sgf);
        assert_eq!(record.rules.as_deref(), Some(rules.as_str()), "{}", l.sgf);
        assert_eq!(record.result.as_deref(), Some(l.result.as_str()), "{}", l.sgf);
        assert!(record.komi.is_some() && record.date.is_some(), "{}: KM and DT", l.sgf);
        assert!(record.black_name.is_some() && record.white_name.is_some(), "{}: PB and PW", l.sgf);
        assert_eq!(record.moves.len(), l.moves, "{}", l.sgf);
        // A fresh engine with other rules and size: everything comes from the file.
        let mut e = Engine::new(EngineOptions::default());
        e.load_record(&record, None).unwrap_or_else(|err| panic!("{} does not replay: {err}\n{text}", l.sgf));
        assert_eq!(e.game().moves().len(), l.moves, "{}", l.sgf);
        assert_eq!(e.rules().to_string(), rules);
        match l.reason {
            // Ended by the rules: the replayed game ends the same way.
            Ending::Decisive | Ending::NoLegalMove | Ending::Repetition => {
                let o = e.game().outcome().unwrap_or_else(|| panic!("{}: replay not over", l.sgf));
                assert!(same_result(&o.to_string(), &l.result), "{}: {o} vs {}", l.sgf, l.result);
            }
            Ending::TwoPasses => assert!(e.game().is_over(), "{}", l.sgf),
            _ => {}
        }
    }
    lines
}

/// `node check_sgf.js DIR` with Sabaki's parser, or `false` (after a notice) when Node or the
/// package is missing. CI installs both and sets `TENGEN_REQUIRE_NODE=1`, so there it cannot skip.
fn sabaki_check(dir: &Path) -> Option<Output> {
    let node_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/node");
    let installed = node_dir.join("node_modules/@sabaki/sgf").is_dir();
    let node = Command::new("node").arg("--version").output().is_ok_and(|o| o.status.success());
    if !(installed && node) {
        if std::env::var("TENGEN_REQUIRE_NODE").as_deref() == Ok("1") {
            panic!("node or @sabaki/sgf missing (cd tests/node && npm ci) but TENGEN_REQUIRE_NODE=1");
        }
        eprintln!("notice: node or tests/node/node_modules missing; skipping the Sabaki SGF check");
        return None;
    }
    Some(Command::new("node").arg(node_dir.join("check_sgf.js")).arg(dir).output().expect("node runs"))
}

fn assert_sabaki_reads(dir: &Path) {
    if let Some(out) = sabaki_check(dir) {
        assert!(
            out.status.success(),
            "Sabaki's parser disagrees on {}:\n{}{}",
            dir.display(),
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn fake_gtp(mode: &str, limit: u32, log: &Path) -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fake_gtp.sh");
    format!("sh {} {mode} {limit} {}", script.display(), log.display())
}

#[test]
fn selfplay_in_every_variant() {
    let variants = [
        ("go", 5),
        ("go:scoring=territory,button=on", 5),
        ("stones", 5),
        ("stoical", 5),
        // RULES.md 5.1: a torus.
        ("go:torus=on", 5),
        ("stoical:torus=on,snapback=on", 5),
    ];
    for (rules, size) in variants {
        let dir = scratch(&format!("variant-{}", rules.replace([':', ',', '='], "_")));
        let d = dir.to_str().unwrap();
        let summary = tengen_ok(&argv(
            "selfplay --games 4 --size 5 --playouts 16 --parallel 2 --random-opening 3 --seed 11 --quiet",
            &["--rules", rules, "--black", "--policy light", "--out", d],
        ));
        let lines = check_run(&dir, 4, rules, size);
        // Colours alternate; the two games of a pair share their random opening.
        for l in &lines {
            assert_eq!(l.black, if l.game % 2 == 0 { Side::A } else { Side::B });
            assert_eq!(l.opening_moves, 3);
            assert!(!matches!(l.reason, Ending::Forfeit | Ending::Timeout), "{rules}: {:?}", l.detail);
        }
        let moves = |g: u64| {
            GameRecord::parse(&std::fs::read_to_string(dir.join(format!("game-{g:04}.sgf"))).unwrap())
                .unwrap()
                .moves
        };
        assert_eq!(moves(0)[..3], moves(1)[..3], "{rules}: a pair's opening");
        // The summary is printed and written.
        assert!(summary.contains("Games: 4") && summary.contains("Elo"), "{summary}");
        assert!(summary.contains("policy=light"), "A plays with its --black flags: {summary}");
        assert_eq!(std::fs::read_to_string(dir.join("summary.txt")).unwrap(), summary);
        assert_sabaki_reads(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

#[test]
fn sabaki_check_catches_a_wrong_result() {
    let dir = scratch("sabaki-wrong");
    tengen_ok(&argv("selfplay --games 2 --size 5 --playouts 16 --quiet --out", &[dir.to_str().unwrap()]));
    let path = dir.join("game-0001.sgf");
    let text = std::fs::read_to_string(&path).unwrap();
    let result = results(&dir)[1].result.clone();
    let flipped =
        if result.starts_with('B') { result.replacen('B', "W", 1) } else { result.replacen('W', "B", 1) };
    std::fs::write(&path, text.replace(&format!("RE[{result}]"), &format!("RE[{flipped}]"))).unwrap();
    if let Some(out) = sabaki_check(&dir) {
        assert!(!out.status.success(), "the checker must notice RE[{flipped}]");
        assert!(String::from_utf8_lossy(&out.stderr).contains("game-0001.sgf: RE"));
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn short_match_against_gnugo() {
    let Some(gnugo) = gnugo() else { return };
    let dir = scratch("gnugo");
    let opponent = format!("{} --mode gtp --level 0 --chinese-rules --never-resign", gnugo.display());
    let summary = tengen_ok(&argv(
        "match --games 2 --size 5 --playouts 16 --random-opening 2 --quiet",
        &["--opponent", &opponent, "--tengen", "--resign off", "--out", dir.to_str().unwrap()],
    ));
    let lines = check_run(&dir, 2, "go", 5);
    // Neither side resigns, so every game ends in a count that GNU Go checks.
    assert!(lines.iter().all(|l| l.reason == Ending::TwoPasses), "{lines:?}");
    for l in &lines {
        // GNU Go plays legal moves and never forfeits.
        assert!(!matches!(l.reason, Ending::Forfeit | Ending::Timeout), "{:?}", l.detail);
        // The opponent's own count is asked for and compared with the referee's. The check here
        // asks GNU Go itself, afresh: it loads the game's record and counts it.
        if l.reason == Ending::TwoPasses {
            let theirs = if l.black == Side::B { &l.score_black } else { &l.score_white };
            let theirs = theirs.as_deref().expect("GNU Go answers final_score");
            let sgf = dir.join(&l.sgf);
            let counted = common::gnugo_answers(
                &gnugo,
                &["--chinese-rules"],
                &[format!("loadsgf {}", sgf.display()), "final_score".into()],
            );
            let gnugo_says = &counted[1];
            assert_eq!(common::result_value(theirs), common::result_value(gnugo_says), "{l:?}");
            let disagrees = common::result_value(gnugo_says) != common::result_value(&l.result);
            assert_eq!(l.score_disagrees, disagrees, "GNU Go counts {gnugo_says}: {l:?}");
        }
    }
    assert!(summary.contains("GNU Go"), "{summary}");
    assert_sabaki_reads(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn match_against_another_tengen_in_stones_and_stoical() {
    for rules in ["stones", "stoical:snapback=on"] {
        let dir = scratch(&format!("tengen-{}", rules.replace([':', '='], "_")));
        let opponent = format!("{TENGEN} gtp --seed 3 --playouts 16 --threads 1");
        tengen_ok(&argv(
            "match --games 2 --size 5 --playouts 16 --quiet",
            &["--opponent", &opponent, "--rules", rules, "--out", dir.to_str().unwrap()],
        ));
        // The other process learns the variant through `tengen-rules` and plays only legal moves: its
        // `pass` in Stones is the return or stake the rules make of it.
        for l in check_run(&dir, 2, rules, 5) {
            assert!(!matches!(l.reason, Ending::Forfeit | Ending::Timeout), "{rules}: {:?}", l.detail);
        }
        assert_sabaki_reads(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// The records of a finished run, game by game.
fn records(dir: &Path, games: u64) -> Vec<GameRecord> {
    (0..games)
        .map(|g| {
            GameRecord::parse(&std::fs::read_to_string(dir.join(format!("game-{g:04}.sgf"))).unwrap())
                .unwrap()
        })
        .collect()
}

#[test]
fn handicap_games_in_selfplay_and_against_gnugo() {
    // 9x9's two-stone fixed handicap: C3 and G7, as the record's (column, row from the bottom).
    let stones: BTreeSet<(usize, usize)> = [(2, 2), (6, 6)].into();
    let dir = scratch("handicap-selfplay");
    tengen_ok(&argv(
        "selfplay --games 2 --size 9 --komi 0.5 --handicap 2 --playouts 16 --quiet --out",
        &[dir.to_str().unwrap()],
    ));
    let lines = check_run(&dir, 2, "go:komi=0.5", 9);
    let mut runs = vec![(dir, lines)];
    if let Some(gnugo) = gnugo() {
        // GNU Go places the same fixed stones (the runner checks its answer) and plays White first.
        let dir = scratch("handicap-gnugo");
        let opponent = format!("{} --mode gtp --level 0 --chinese-rules --never-resign", gnugo.display());
        tengen_ok(&argv(
            "match --games 2 --size 9 --komi 0.5 --handicap 2 --playouts 16 --quiet",
            &["--opponent", &opponent, "--out", dir.to_str().unwrap()],
        ));
        let lines = check_run(&dir, 2, "go:komi=0.5", 9);
        runs.push((dir, lines));
    }
    for (dir, lines) in runs {
        for l in &lines {
            assert!(!matches!(l.reason, Ending::Forfeit | Ending::Timeout), "{:?}", l.detail);
        }
        // Each player receives the handicap once: colours alternate as in even games.
        assert_ne!(lines[0].black, lines[1].black);
        for r in records(&dir, 2) {
            assert_eq!(r.handicap, 2);
            assert_eq!(r.black_stones.iter().copied().collect::<BTreeSet<_>>(), stones);
            assert_eq!(r.komi, Some(0.5));
            assert_eq!(r.moves[0].color, tengen::board::Color::White, "White moves first");
        }
        let run = std::fs::read_to_string(dir.join("run.json")).unwrap();
        assert!(run.contains("\"handicap\": 2"), "{run}");
        assert_sabaki_reads(&dir);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}

/// What a match against `fake_gtp.sh MODE LIMIT` left behind.
struct FakeRun {
    summary: String,
    lines: Vec<ResultLine>,
    /// How many times the fake was started.
    starts: usize,
    /// The clock commands it was sent (modes `no_clock` and `clock`).
    clock: String,
    /// The SGF of game 0.
    first_sgf: String,
}

/// Runs `tengen match FLAGS` (5x5, `games` games) against the fake in `mode`, checks the run's
/// files, and cleans up after it.
fn fake_match(mode: &str, limit: u32, games: u64, flags: &str) -> FakeRun {
    let dir = scratch(&format!("fake-{mode}"));
    let log = dir.with_extension("log");
    let ts = log.with_extension("log.ts");
    let _ = std::fs::remove_file(&log);
    let _ = std::fs::remove_file(&ts);
    let summary = tengen_ok(&argv(
        &format!("match --games {games} --size 5 --quiet {flags}"),
        &["--opponent", &fake_gtp(mode, limit, &log), "--out", dir.to_str().unwrap()],
    ));
    let lines = check_run(&dir, games, "go", 5);
    let starts = std::fs::read_to_string(&log).unwrap().lines().count();
    let clock = std::fs::read_to_string(&ts).unwrap_or_default();
    let first_sgf = std::fs::read_to_string(dir.join(&lines[0].sgf)).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_file(&log).unwrap();
    let _ = std::fs::remove_file(&ts);
    FakeRun { summary, lines, starts, clock, first_sgf }
}

#[test]
fn misbehaving_opponents_forfeit_and_a_crashed_one_is_restarted() {
    for (mode, limit, detail) in
        [("crash", 3, "crashed"), ("illegal", 2, "illegal move A1"), ("refuse", 2, "refused")]
    {
        let run = fake_match(mode, limit, 3, "--playouts 16");
        for l in &run.lines {
            // tengen is A; the fake loses every game by forfeit, saying what it did.
            assert_eq!(l.winner, Some(Side::A), "{mode}: {l:?}");
            assert_eq!(l.reason, Ending::Forfeit, "{mode}");
            assert!(l.result.ends_with("+F"), "{mode}: {}", l.result);
            assert!(l.detail.as_deref().unwrap_or("").contains(detail), "{mode}: {:?}", l.detail);
        }
        assert!(run.summary.contains("forfeit 3"), "{}", run.summary);
        if mode == "crash" {
            // One start for the check before the run, whose process plays the first game; each
            // crash is followed by a restart for the next game.
            assert_eq!(run.starts, 3, "{mode}");
        } else {
            // A program that merely loses keeps running: the check's start plays every game.
            assert_eq!(run.starts, 1, "{mode}");
        }
    }
}

#[test]
fn opponents_that_fail_outside_the_game_do_not_lose_it() {
    // A crash while being set up for a game: a fresh process plays that game.
    let run = fake_match("crash_clear", 3, 2, "--playouts 16");
    for l in &run.lines {
        assert_ne!(l.reason, Ending::Forfeit, "{l:?}");
    }
    // The check's start, which crashed at the first game's `clear_board`, and its replacement.
    assert_eq!(run.starts, 2);

    // Gone after its own pass and before hearing the pass that ended the game: the count stands.
    let run = fake_match("quit_on_pass", 3, 2, "--playouts 16");
    for l in &run.lines {
        assert_eq!(l.reason, Ending::TwoPasses, "{l:?}");
    }

    // No clock commands: it plays without a clock. It was offered whole seconds (GTP's syntax),
    // rounded up from tengen's fraction.
    let run = fake_match("no_clock", 3, 2, "--time 0.05");
    for l in &run.lines {
        assert_ne!(l.reason, Ending::Forfeit, "{l:?}");
    }
    let sent = &run.clock;
    assert!(sent.lines().count() >= 2 && sent.lines().all(|l| l == "time_settings 0 1 1"), "{sent}");
}

#[test]
fn a_match_clock_is_announced_kept_and_enforced() {
    // Byo-yomi for a program without `kgs-time_settings` (as GNU Go): after the refusal, one period
    // of one stone in GTP's terms. Then `time_left` before each of its moves, in main time here.
    let run = fake_match("clock", 4, 2, "--playouts 16 --clock 60+5x3");
    for l in &run.lines {
        assert_ne!(l.reason, Ending::Forfeit, "{l:?}");
        assert_ne!(l.reason, Ending::Timeout, "{l:?}");
    }
    let sent: Vec<&str> = run.clock.lines().collect();
    let settings: Vec<&&str> = sent.iter().filter(|l| !l.starts_with("time_left")).collect();
    // The check before the run, then each game: the KGS command, refused, then GTP's.
    assert_eq!(settings.len(), 2 * 3, "{sent:?}");
    for pair in settings.chunks(2) {
        assert_eq!((*pair[0], *pair[1]), ("kgs-time_settings byoyomi 60 5 3", "time_settings 60 5 1"));
    }
    // One `time_left` for each of the fake's moves, with its own colour; the first of each game
    // finds its main time whole.
    let fake_moves: u32 =
        run.lines.iter().map(|l| if l.black == Side::B { l.genmoves_black } else { l.genmoves_white }).sum();
    let lefts: Vec<&&str> = sent.iter().filter(|l| l.starts_with("time_left")).collect();
    assert_eq!(lefts.len(), fake_moves as usize, "{sent:?}");
    assert!(
        lefts.iter().any(|l| **l == "time_left W 60 0") && lefts.iter().any(|l| **l == "time_left B 60 0")
    );
    for l in &lefts {
        let words: Vec<&str> = l.split(' ').collect();
        let seconds: u32 = words[2].parse().unwrap();
        assert!(seconds <= 60 && words[3] == "0", "{l}");
    }
    // The record says what the clock was.
    assert!(
        run.first_sgf.contains("TM[60]") && run.first_sgf.contains("OT[3x5 byo-yomi]"),
        "{}",
        run.first_sgf
    );
    // And each player's time left after each of its moves.
    let record = GameRecord::parse(&run.first_sgf).unwrap();
    assert!(record.moves.iter().all(|m| m.time_left.is_some_and(|t| t.seconds <= 60.0)), "{}", run.first_sgf);

    // A program that takes two seconds over a move it has one second for loses on time, answer or
    // not; it was not hung, so it is not restarted (its one start is the check's).
    let run = fake_match("slow", 99, 1, "--playouts 16 --clock 1");
    let l = &run.lines[0];
    assert_eq!((l.reason, l.winner, l.result.as_str()), (Ending::Timeout, Some(Side::A), "B+T"));
    assert!(l.detail.as_deref().unwrap_or("").contains("ran out of time"), "{:?}", l.detail);
    assert_eq!(run.starts, 1);
    assert!(run.summary.contains("timeout 1"), "{}", run.summary);
}

/// The result lines without the timings, which differ between two runs of the same games.
fn untimed(lines: &[ResultLine]) -> Vec<ResultLine> {
    let mut lines: Vec<ResultLine> =
        lines.iter().map(|l| ResultLine { time_black: 0.0, time_white: 0.0, ..l.clone() }).collect();
    lines.sort_by_key(|l| l.game);
    lines
}

#[test]
fn resume_extends_a_run_and_replays_a_torn_game() {
    let run = |dir: &Path, games: &str, resume: bool| {
        let line = "selfplay --size 5 --playouts 16 --random-opening 2 --seed 5 --quiet";
        let mut args = argv(line, &["--games", games, "--out", dir.to_str().unwrap()]);
        if resume {
            args.push("--resume".into());
        }
        tengen(&args)
    };
    // The reference: six games in one go.
    let whole = scratch("resume-whole");
    assert!(run(&whole, "6", false).status.success());
    let reference = untimed(&check_run(&whole, 6, "go", 5));

    // Three games, then extended to six: the same six games.
    let dir = scratch("resume-extend");
    assert!(run(&dir, "3", false).status.success());
    check_run(&dir, 3, "go", 5);
    // Without --resume, a directory with results is refused and left alone.
    let refused = run(&dir, "6", false);
    assert!(!refused.status.success());
    assert!(String::from_utf8_lossy(&refused.stderr).contains("--resume"));
    assert_eq!(results(&dir).len(), 3);
    let summary = run(&dir, "6", true);
    assert!(summary.status.success());
    assert!(String::from_utf8_lossy(&summary.stdout).contains("Games: 6"));
    assert_eq!(untimed(&check_run(&dir, 6, "go", 5)), reference);

    // An interruption in the middle of writing the last line: that game is played again, once.
    let path = dir.join(RESULTS);
    let text = std::fs::read_to_string(&path).unwrap();
    let last_start = text.trim_end().rfind('\n').unwrap() + 1;
    std::fs::write(&path, &text[..last_start + 20]).unwrap();
    assert_eq!(read_results(&path).unwrap().lines.len(), 5);
    assert!(run(&dir, "6", true).status.success());
    assert_eq!(untimed(&check_run(&dir, 6, "go", 5)), reference);

    // A resume with other settings is refused.
    let other = tengen(&argv("selfplay --games 6 --size 7 --resume --out", &[dir.to_str().unwrap()]));
    assert!(!other.status.success());
    assert!(String::from_utf8_lossy(&other.stderr).contains("other settings"));
    std::fs::remove_dir_all(&dir).unwrap();
    std::fs::remove_dir_all(&whole).unwrap();
}

#[test]
fn a_killed_run_resumes_without_losing_or_repeating_a_game() {
    // Far more games than progress lines fit in a pipe that nobody reads: the run is certainly not
    // finished when it is killed, whatever the machine's speed (it blocks on its full stderr).
    let games = 1500;
    let dir = scratch("killed");
    let run = argv("selfplay --games 1500 --size 5 --playouts 2 --out", &[dir.to_str().unwrap()]);
    let mut child = Command::new(TENGEN)
        .args(&run)
        .args(["--parallel", "2"])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first progress line: at least one game is complete.
    let mut first = String::new();
    BufReader::new(child.stderr.as_mut().unwrap()).read_line(&mut first).unwrap();
    assert!(first.contains("games"), "{first}");
    child.kill().unwrap();
    child.wait().unwrap();
    let before = read_results(&dir.join(RESULTS)).unwrap().lines.len();
    assert!(before >= 1 && before < games, "{before} games before the kill");
    eprintln!("killed after {before} of {games} games");
    assert!(!tengen(&run).status.success(), "a directory with results needs --resume");
    tengen_ok(&[run, argv("--resume --quiet", &[])].concat());
    check_run(&dir, games as u64, "go", 5);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_fails_before_any_game() {
    let dir = scratch("bad");
    let d = dir.to_str().unwrap();
    let failure = |args: &[&str], says: &str| {
        let out = tengen(&argv("", args));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{args:?} succeeded");
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!dir.join(RESULTS).exists(), "{args:?} played");
    };
    failure(
        &["match", "--opponent", "/nonexistent/engine --gtp", "--games", "2", "--out", d],
        "cannot start",
    );
    assert!(!dir.exists(), "no directory is left behind by a run that never started");
    failure(&["match", "--opponent", "sh -c 'exit 1'", "--games", "2", "--out", d], "--opponent");
    failure(&["selfplay", "--games", "2", "--rules", "chess", "--out", d], "unknown rules");
    failure(&["selfplay", "--games", "2", "--rules", "go:ko=maybe", "--out", d], "unknown rules");
    failure(&["selfplay", "--games", "2", "--size", "5", "--rules", "go:walls=Z9", "--out", d], "off a 5x5");
    failure(&["selfplay", "--games", "2", "--komi", "7.25", "--out", d], "multiple of 0.5");
    failure(&["selfplay", "--games", "2", "--handicap", "1", "--out", d], "does not take");
    failure(&["selfplay", "--games", "2", "--size", "9", "--handicap", "10", "--out", d], "does not take");
    let log = scratch("bad-fake-log");
    let fake = fake_gtp("pass", 99, &log);
    failure(
        &["match", "--opponent", &fake, "--size", "9", "--handicap", "2", "--games", "2", "--out", d],
        "not the points GTP fixes",
    );
    let _ = std::fs::remove_file(&log);
    failure(&["selfplay", "--games", "2", "--black", "--playouts x", "--out", d], "--black");
    failure(&["selfplay", "--games", "2", "--white", "--rules stones", "--out", d], "whole run");
    if let Some(gnugo) = gnugo() {
        // GNU Go does not know Stones, nor walls or the button.
        let opponent = format!("{} --mode gtp", gnugo.display());
        failure(
            &["match", "--opponent", &opponent, "--rules", "stones", "--games", "2", "--out", d],
            "Stones",
        );
        for (rules, says) in [("go:walls=E5", "walls"), ("go:button=on", "button")] {
            failure(&["match", "--opponent", &opponent, "--rules", rules, "--games", "2", "--out", d], says);
        }
    }
    // An output path that cannot be a directory (under a regular file; root can write anywhere else).
    let file = scratch("bad-file");
    std::fs::write(&file, "").unwrap();
    let under = file.join("out");
    failure(&["selfplay", "--games", "2", "--out", under.to_str().unwrap()], "cannot write");
    std::fs::remove_file(&file).unwrap();
}

#[test]
fn an_opponent_that_does_not_answer_loses_on_time_and_is_restarted() {
    use std::time::Duration;
    use tengen::board::ByColor;
    use tengen::selfplay::game::{play_game, GameSpec};
    use tengen::selfplay::player::{EnginePlayer, GameSetup, GtpLimits, GtpPlayer, Player};

    let log = scratch("hang").with_extension("log");
    let _ = std::fs::remove_file(&log);
    // The fake never answers `genmove`; the limit is what this test is about, not a guess at speed.
    let (minute, limit) = (Duration::from_secs(60), Duration::from_millis(300));
    let limits = GtpLimits { genmove: limit, admin: minute, startup: minute };
    let mut fake = GtpPlayer::new(fake_gtp("hang", 1, &log), limits, None);
    let quick = EngineOptions { playouts: Some(16), threads: Some(1), ..EngineOptions::default() };
    let mut tengen = EnginePlayer::new("tengen", quick.clone());
    for index in 0..2 {
        let spec = GameSpec {
            setup: GameSetup {
                rules: RulesConfig::default(),
                size: 5,
                handicap: 0,
                index,
                clock: tengen::engine::TimeSystem::None,
            },
            referee: quick.clone(),
            opening_moves: 0,
            opening_seed: 0,
            max_moves: 100,
        };
        let out = play_game(&spec, ByColor::new(&mut tengen as &mut dyn Player, &mut fake)).unwrap();
        assert_eq!(out.ending, Ending::Timeout);
        assert_eq!(out.result, "B+T");
        assert_eq!(out.moves, 1, "Black's first move, then White's silence");
    }
    // The silent program was dropped after its timeout and a fresh one started for the next game.
    assert_eq!(std::fs::read_to_string(&log).unwrap().lines().count(), 2);
    drop(fake);
    std::fs::remove_file(&log).unwrap();
}

#[test]
fn phantom_selfplay_records_true_moves_and_illegal_attempts() {
    let dir = scratch("phantom-selfplay");
    let d = dir.to_str().unwrap();
    let summary = tengen_ok(&argv(
        "selfplay --games 2 --size 5 --playouts 32 --random-opening 2 --seed 3 --quiet --rules phantom",
        &["--out", d],
    ));
    // Every SGF replays on a normal board under its RU, with the result of its line.
    let lines = check_run(&dir, 2, "phantom", 5);
    let mut attempts = 0;
    for l in &lines {
        assert!(!matches!(l.reason, Ending::Forfeit | Ending::Timeout), "{:?}", l.detail);
        let c = l.phantom.expect("a Phantom Go game reports its conduct");
        // tengen never repeats a refused proposal nor reaches the limit.
        assert_eq!((c.repeats_black, c.repeats_white, c.limit_black, c.limit_white), (0, 0, 0, 0));
        let text = std::fs::read_to_string(dir.join(&l.sgf)).unwrap();
        let record = GameRecord::parse(&text).unwrap();
        let commented: usize = record
            .moves
            .iter()
            .filter_map(|m| m.comment.as_deref())
            .map(|c| {
                c.strip_prefix("illegal attempts: ").expect("only attempts are commented").split(", ").count()
            })
            .sum();
        // Each attempt is in the comment of the move after it (the last move ends every game here).
        assert_eq!(commented as u32, c.illegal_black + c.illegal_white, "{text}");
        attempts += commented;
    }
    assert!(attempts > 0, "the games had illegal attempts to record");
    assert!(summary.contains("Phantom Go illegal attempts per game: A "), "{summary}");
    assert_sabaki_reads(&dir);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn phantom_referee_records_misbehaving_programs() {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/fake_phantom.sh");
    for (mode, ending) in [("repeat", None), ("crash", Some("crashed")), ("refuse", Some("refused"))] {
        let dir = scratch(&format!("phantom-fake-{mode}"));
        let summary = tengen_ok(&argv(
            "match --games 2 --size 5 --playouts 16 --quiet --rules phantom",
            &["--opponent", &format!("sh {} {mode}", script.display()), "--out", dir.to_str().unwrap()],
        ));
        let lines = check_run(&dir, 2, "phantom", 5);
        for l in &lines {
            let c = l.phantom.unwrap();
            let fake = l.colour_of(Side::B);
            let (illegal, repeats, limit) = match fake {
                tengen::board::Color::Black => (c.illegal_black, c.repeats_black, c.limit_black),
                tengen::board::Color::White => (c.illegal_white, c.repeats_white, c.limit_white),
            };
            match ending {
                None => {
                    // Each turn after its first move ends at the limit; every refusal in it but the
                    // first is a repeat (the first too when E5 is its own stone, not tengen's).
                    assert!(limit >= 1 && illegal == 50 * limit, "{l:?}");
                    assert!(repeats <= illegal && repeats >= illegal - limit, "{l:?}");
                    assert!(summary.contains("repeated proposals A 0, B "), "{summary}");
                }
                Some(what) => {
                    assert_eq!((l.reason, l.winner), (Ending::Forfeit, Some(Side::A)), "{mode}: {l:?}");
                    assert!(l.detail.as_deref().unwrap().contains(what), "{mode}: {:?}", l.detail);
                }
            }
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
    // A program without the phantom-* commands cannot play Phantom Go: the run fails before any game.
    let dir = scratch("phantom-plain");
    let out = tengen(&argv(
        "match --games 1 --size 5 --playouts 16 --quiet --rules phantom",
        &["--opponent", &fake_gtp("illegal", 2, &dir.with_extension("log")), "--out", dir.to_str().unwrap()],
    ));
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not play Phantom Go"));
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_file(dir.with_extension("log"));
}
