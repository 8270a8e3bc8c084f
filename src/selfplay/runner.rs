//! A whole run: checks everything that can be checked before the first game, plays the games (P at
//! once, each worker thread with its own players), and writes every result from one thread.
//!
//! Game `i` is fully determined by the settings and `i`: player A has Black in even games, the engines'
//! seeds are their seed plus `i`, and the random opening of games `2j` and `2j + 1` (the same pairing
//! with colours swapped) comes from the seed plus `j`. So a resumed run plays the same games, and a
//! deterministic opponent meets each opening once with each colour.

use super::game::{play_game, GameOutcome, GameSpec};
use super::output::{
    read_results, sgf_name, today, write_atomically, ResultLine, ResultsWriter, RunSettings, Side, Summary,
    RESULTS, SETTINGS, SUMMARY,
};
use super::player::{describe_options, EnginePlayer, GameSetup, GtpLimits, GtpPlayer, Player, PlayerError};
use super::progress::Progress;
use super::shard::Shard;
use crate::board::{ByColor, Color};
use crate::engine::{EngineOptions, TimeSystem};
use crate::rules::RulesConfig;
use std::collections::{HashSet, VecDeque};
use std::fmt;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Mutex};

/// How to make one of the two players.
#[derive(Clone, Debug)]
pub enum PlayerSpec {
    /// tengen in process.
    Engine { label: String, options: EngineOptions },
    /// An external GTP program.
    Gtp { command: String, limits: GtpLimits, time_settings: Option<String> },
}

impl PlayerSpec {
    pub fn make(&self) -> Box<dyn Player> {
        match self {
            PlayerSpec::Engine { label, options } => {
                Box::new(EnginePlayer::new(label.clone(), options.clone()))
            }
            PlayerSpec::Gtp { command, limits, time_settings } => {
                Box::new(GtpPlayer::new(command.clone(), *limits, time_settings.clone()))
            }
        }
    }

    /// The settings that identify this player in `run.json`.
    pub fn describe(&self) -> String {
        match self {
            PlayerSpec::Engine { label, options } => format!("{label} ({})", describe_options(options)),
            PlayerSpec::Gtp { command, .. } => format!("GTP: {command}"),
        }
    }
}

/// Everything a run needs.
#[derive(Clone, Debug)]
pub struct RunConfig {
    /// `selfplay` or `match` (recorded in `run.json` and the SGF game comments).
    pub mode: String,
    /// The engine settings the referee scores finished games with (dead stones from tengen's search).
    pub referee: EngineOptions,
    pub games: u64,
    pub rules: RulesConfig,
    pub size: usize,
    pub a: PlayerSpec,
    pub b: PlayerSpec,
    pub parallel: usize,
    pub random_opening: usize,
    /// Black's fixed handicap in every game (0: even games).
    pub handicap: usize,
    /// The match clock of every game (`TimeSystem::None`: none).
    pub clock: TimeSystem,
    pub seed: u64,
    pub max_moves: usize,
    /// `--shard K/N`: play only the games whose index is K modulo N (`None`: every game).
    pub shard: Option<Shard>,
    /// The run's directory (a shard's own, inside `--out`).
    pub out: PathBuf,
    pub resume: bool,
    pub quiet: bool,
}

/// Why a run could not start or had to stop.
#[derive(Debug)]
pub enum RunError {
    /// The output directory cannot be created or written.
    OutDir { dir: PathBuf, message: String },
    /// The directory holds results already and `--resume` was not given.
    NotEmpty(PathBuf),
    /// `--resume` into a directory whose run had other settings.
    Mismatch(String),
    /// `results.jsonl` or `run.json` cannot be read.
    BadResults(String),
    /// A player cannot play (does not start, does not know the variant, refuses the size).
    Player(String),
    /// Writing a game's files failed mid-run.
    Write(String),
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::OutDir { dir, message } => write!(f, "cannot write to {}: {message}", dir.display()),
            RunError::NotEmpty(dir) => write!(
                f,
                "{} already holds results of a run: add --resume to continue it, or choose another --out",
                dir.display()
            ),
            RunError::Mismatch(m) => {
                write!(f, "--resume: the directory holds a run with other settings ({m})")
            }
            RunError::BadResults(m) => write!(f, "cannot read the run's results: {m}"),
            RunError::Player(m) => write!(f, "{m}"),
            RunError::Write(m) => write!(f, "cannot write a game's results: {m}"),
        }
    }
}

impl std::error::Error for RunError {}

impl RunConfig {
    fn settings(&self) -> RunSettings {
        RunSettings {
            mode: self.mode.clone(),
            rules: self.rules.to_string(),
            size: self.size,
            a: self.a.describe(),
            b: self.b.describe(),
            random_opening: self.random_opening,
            handicap: self.handicap,
            clock: super::clock::describe_clock(self.clock),
            seed: self.seed,
            max_moves: self.max_moves,
            games: Some(self.games),
            shard: self.shard.map(|s| s.to_string()),
            a_name: None,
            b_name: None,
        }
    }

    /// Does this run (this shard of it) play game `index`?
    pub fn plays(&self, index: u64) -> bool {
        self.shard.is_none_or(|s| s.contains(index))
    }

    /// The colour player A has in game `index`.
    pub fn a_colour(index: u64) -> Color {
        if index.is_multiple_of(2) {
            Color::Black
        } else {
            Color::White
        }
    }

    pub fn spec(&self, index: u64) -> GameSpec {
        GameSpec {
            setup: GameSetup {
                rules: self.rules.clone(),
                size: self.size,
                handicap: self.handicap,
                index,
                clock: self.clock,
            },
            referee: self.referee.clone(),
            opening_moves: self.random_opening,
            opening_seed: self.seed.wrapping_add(index / 2),
            max_moves: self.max_moves,
        }
    }
}

/// What the worker threads send to the writer.
type Finished = (u64, Result<(GameOutcome, ByColor<String>), PlayerError>);

/// Plays one game of the run with the worker's players `a` and `b`.
fn play_indexed(config: &RunConfig, index: u64, a: &mut dyn Player, b: &mut dyn Player) -> Finished {
    let spec = config.spec(index);
    let a_black = RunConfig::a_colour(index) == Color::Black;
    let result = if a_black {
        play_game(&spec, ByColor::new(&mut *a, &mut *b))
    } else {
        play_game(&spec, ByColor::new(&mut *b, &mut *a))
    };
    // Names are taken after the game: an external program's own name is known once it has started.
    let names = if a_black { ByColor::new(a.name(), b.name()) } else { ByColor::new(b.name(), a.name()) };
    (index, result.map(|outcome| (outcome, names)))
}

/// Seconds rounded to the microsecond: finer digits in `results.jsonl` are noise.
fn microseconds(seconds: f64) -> f64 {
    (seconds * 1e6).round() / 1e6
}

/// The line of `results.jsonl` and the SGF record of a finished game.
fn finish(
    config: &RunConfig,
    index: u64,
    mut outcome: GameOutcome,
    names: ByColor<String>,
) -> (ResultLine, String) {
    let a_colour = RunConfig::a_colour(index);
    let side_of = |c: Color| if c == a_colour { Side::A } else { Side::B };
    let disagrees = outcome.score_disagrees();
    let line = ResultLine {
        game: index,
        black: side_of(Color::Black),
        result: outcome.result.clone(),
        winner: outcome.winner.map(side_of),
        reason: outcome.ending,
        detail: outcome.detail.clone(),
        moves: outcome.moves,
        opening_moves: outcome.opening_moves,
        time_black: microseconds(outcome.time.black),
        time_white: microseconds(outcome.time.white),
        genmoves_black: outcome.genmoves.black,
        genmoves_white: outcome.genmoves.white,
        score_black: outcome.player_scores.black.clone(),
        score_white: outcome.player_scores.white.clone(),
        score_disagrees: disagrees,
        phantom: outcome.phantom,
        sgf: sgf_name(index),
    };
    let r = &mut outcome.record;
    // Stones has no komi; `KM[0]` says so to readers that expect the property (tengen ignores it).
    r.komi.get_or_insert(0.0);
    r.black_name = Some(format!("{} [{}]", names.black, if a_colour == Color::Black { "A" } else { "B" }));
    r.white_name = Some(format!("{} [{}]", names.white, if a_colour == Color::White { "A" } else { "B" }));
    r.date = Some(today());
    r.game_name = Some(format!("tengen {} game {index}", config.mode));
    r.extra.extend(super::clock::sgf_properties(config.clock));
    let mut comment = vec![format!("Ended by {}.", outcome.ending)];
    if let Some(d) = &outcome.detail {
        comment.push(format!("Forfeit: {d}."));
    }
    if outcome.opening_moves > 0 {
        comment.push(format!(
            "The first {} moves are a random opening (seed {}).",
            outcome.opening_moves,
            config.spec(index).opening_seed
        ));
    }
    // What it takes to replay this game alone: the seeds it actually ran with.
    comment.push(format!("A tengen player's seed in this game is the seed= in its name plus {index}."));
    for (c, s) in [(Color::Black, &outcome.player_scores.black), (Color::White, &outcome.player_scores.white)]
    {
        if let Some(s) = s {
            comment.push(format!("{c}'s own final_score: {s}."));
        }
    }
    if disagrees {
        comment.push(format!("A player's own score disagrees with the referee's {}.", outcome.result));
    }
    if let Some(conduct) = &outcome.phantom {
        let (b, w) = (conduct.of(Color::Black).0, conduct.of(Color::White).0);
        comment.push(format!(
            "Phantom Go: the true moves; each move's comment lists the illegal attempts before it \
             (Black {b}, White {w} in all)."
        ));
    } else if r.moves.iter().any(|m| m.at.is_none() && m.comment.is_some()) {
        comment
            .push("Prisoner returns, stakes and button takes are written as passes with a comment.".into());
    }
    r.game_comment = Some(comment.join("\n"));
    (line, outcome.record.to_sgf())
}

/// Creates the directory and proves it writable; returns the results read back (empty for a new run).
fn prepare_dir(config: &RunConfig) -> Result<super::output::Results, RunError> {
    let dir = &config.out;
    let out_err = |e: std::io::Error| RunError::OutDir { dir: dir.clone(), message: e.to_string() };
    fs::create_dir_all(dir).map_err(out_err)?;
    if !dir.is_dir() {
        return Err(RunError::OutDir { dir: dir.clone(), message: "not a directory".into() });
    }
    // Proves the directory writable before any game, rather than after the first one.
    write_atomically(dir, ".write-test", "").map_err(out_err)?;
    let _ = fs::remove_file(dir.join(".write-test"));
    let results = read_results(&dir.join(RESULTS)).map_err(|e| RunError::BadResults(e.to_string()))?;
    let settings_path = dir.join(SETTINGS);
    let settings = config.settings();
    if config.resume {
        if let Ok(text) = fs::read_to_string(&settings_path) {
            let old: RunSettings = serde_json::from_str(&text)
                .map_err(|e| RunError::BadResults(format!("{}: {e}", settings_path.display())))?;
            if let Some(diff) = old.difference(&settings) {
                return Err(RunError::Mismatch(diff));
            }
        } else if !results.lines.is_empty() {
            return Err(RunError::BadResults(format!("{} is missing", settings_path.display())));
        }
    } else if !results.lines.is_empty() || results.torn_tail {
        return Err(RunError::NotEmpty(dir.clone()));
    }
    Ok(results)
}

/// Two players, A and B, as one worker plays them.
type Pair = (Box<dyn Player>, Box<dyn Player>);

/// Checks that each external player starts and accepts the game's settings. Returns the two
/// players' names for the summary (an external program's with its own `name` and `version`), and
/// the checked players themselves, for the first worker: a program that takes minutes to start
/// (a large network to load) is started once for the check and the first game, not twice.
fn check_players(config: &RunConfig) -> Result<((String, String), Pair), RunError> {
    let check = |spec: &PlayerSpec| {
        let mut p = spec.make();
        if let PlayerSpec::Gtp { command, .. } = spec {
            p.check(&config.spec(0).setup)
                .map_err(|e| RunError::Player(format!("--opponent {command:?}: {e}")))?;
        }
        Ok(p)
    };
    let (a, b) = (check(&config.a)?, check(&config.b)?);
    Ok(((a.name(), b.name()), (a, b)))
}

/// Runs (or resumes) the games and returns the summary of every game the directory holds.
pub fn run(config: &RunConfig) -> Result<Summary, RunError> {
    let created = !config.out.exists();
    let results = prepare_dir(config)?;
    let ((a_name, b_name), checked) = match check_players(config) {
        Ok(checked) => checked,
        Err(e) => {
            // Leave no empty directory behind for a run that never started.
            if created {
                let _ = fs::remove_dir(&config.out);
            }
            return Err(e);
        }
    };
    let settings =
        RunSettings { a_name: Some(a_name.clone()), b_name: Some(b_name.clone()), ..config.settings() };
    let json = serde_json::to_string_pretty(&settings).expect("settings serialize");
    write_atomically(&config.out, SETTINGS, &(json + "\n"))
        .map_err(|e| RunError::OutDir { dir: config.out.clone(), message: e.to_string() })?;
    let mut lines = results.lines;
    if results.torn_tail && !config.quiet {
        eprintln!("tengen: dropping an incomplete last line of {RESULTS} (an interrupted write)");
    }
    let mut writer = ResultsWriter::open(&config.out.join(RESULTS), results.good_len)
        .map_err(|e| RunError::OutDir { dir: config.out.clone(), message: e.to_string() })?;
    let done: HashSet<u64> = lines.iter().map(|l| l.game).collect();
    let pending: VecDeque<u64> =
        (0..config.games).filter(|&i| config.plays(i) && !done.contains(&i)).collect();
    let total = config.shard.map_or(config.games, |s| s.games_of(config.games));
    let done_before = total - pending.len() as u64;
    let mut progress = Progress::new(total, done_before, config.quiet);
    let queue = Mutex::new(pending);
    let stop = AtomicBool::new(false);
    let mut failure: Option<RunError> = None;
    let workers = config.parallel.max(1).min(queue.lock().expect("queue").len().max(1));

    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Finished>();
        let mut checked = Some(checked);
        for _ in 0..workers {
            let tx = tx.clone();
            let (queue, stop) = (&queue, &stop);
            let players = checked.take();
            scope.spawn(move || {
                let (mut a, mut b) = players.unwrap_or_else(|| (config.a.make(), config.b.make()));
                while !stop.load(Ordering::Relaxed) {
                    let Some(index) = queue.lock().expect("queue").pop_front() else { break };
                    let finished = play_indexed(config, index, a.as_mut(), b.as_mut());
                    let fatal = finished.1.is_err();
                    if tx.send(finished).is_err() || fatal {
                        break;
                    }
                }
            });
        }
        drop(tx);
        // The one writer: SGF first, then the result line that makes the game count.
        for (index, result) in rx {
            if failure.is_some() {
                continue;
            }
            let written = result
                .map_err(|e| RunError::Player(format!("game {index}: a player cannot go on: {e}")))
                .and_then(|(outcome, names)| {
                    let (line, sgf) = finish(config, index, outcome, names);
                    write_atomically(&config.out, &line.sgf, &sgf)
                        .and_then(|()| writer.append(&line))
                        .map_err(|e| RunError::Write(e.to_string()))?;
                    Ok(line)
                });
            match written {
                Ok(line) => {
                    lines.push(line);
                    let summary = Summary::new(&lines, &a_name, &b_name);
                    progress.game_done(&summary.record());
                    let _ = write_atomically(&config.out, SUMMARY, &summary.to_string());
                }
                Err(e) => {
                    stop.store(true, Ordering::Relaxed);
                    failure = Some(e);
                }
            }
        }
    });
    progress.finish();
    lines.sort_by_key(|l| l.game);
    let summary = Summary::new(&lines, &a_name, &b_name);
    write_atomically(&config.out, SUMMARY, &summary.to_string())
        .map_err(|e| RunError::Write(e.to_string()))?;
    match failure {
        Some(e) => Err(e),
        None => Ok(summary),
    }
}
