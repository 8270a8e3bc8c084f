//! The files of a run, all in one directory:
//! - `game-0000.sgf`, ...: one SGF per game (written to a temporary name, then renamed);
//! - `results.jsonl`: one JSON object per finished game, appended after its SGF is in place. It is the
//!   run's commit log: a game counts once its line is complete, so `--resume` replays exactly the games
//!   without one;
//! - `run.json`: the settings, so that `--resume` refuses to mix two different runs;
//! - `summary.txt`: the statistics, rewritten after every game.

use super::game::Ending;
use super::stats::{GameResult, Record, Tally};
use crate::board::{ByColor, Color};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::path::Path;

pub const RESULTS: &str = "results.jsonl";
pub const SETTINGS: &str = "run.json";
pub const SUMMARY: &str = "summary.txt";

/// Which of the two players of a run: A (tengen, or the `--black` settings) or B.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Serialize, Deserialize)]
pub enum Side {
    A,
    B,
}

impl Side {
    pub fn other(self) -> Side {
        match self {
            Side::A => Side::B,
            Side::B => Side::A,
        }
    }
}

/// One line of `results.jsonl`.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct ResultLine {
    /// Game index, from 0.
    pub game: u64,
    /// Who had Black.
    pub black: Side,
    /// `B+3.5`, `W+R`, `B+F`, `W+T`, `0`, as in the SGF's `RE`.
    pub result: String,
    /// The winning player; `null` for a draw.
    pub winner: Option<Side>,
    pub reason: Ending,
    /// What a forfeiting player did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
    /// Moves played, the random opening included.
    pub moves: usize,
    pub opening_moves: usize,
    /// Seconds spent thinking (in `genmove`) by the player with each colour.
    pub time_black: f64,
    pub time_white: f64,
    /// Number of `genmove` calls of each colour.
    pub genmoves_black: u32,
    pub genmoves_white: u32,
    /// The players' own `final_score` of a scored game, when they gave one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_black: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub score_white: Option<String>,
    /// Does a player's own score disagree with the referee's result?
    #[serde(default)]
    pub score_disagrees: bool,
    /// Phantom Go: each colour's illegal attempts, repeated proposals and passes forced by the
    /// attempt limit (RULES.md 5.2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phantom: Option<super::phantom::Conduct>,
    /// The SGF file, relative to the run directory.
    pub sgf: String,
}

impl ResultLine {
    /// The colour `side` had in this game.
    pub fn colour_of(&self, side: Side) -> Color {
        if self.black == side {
            Color::Black
        } else {
            Color::White
        }
    }

    /// Seconds and genmoves of `side`.
    fn time_of(&self, side: Side) -> (f64, u32) {
        match self.colour_of(side) {
            Color::Black => (self.time_black, self.genmoves_black),
            Color::White => (self.time_white, self.genmoves_white),
        }
    }

    /// The game from A's point of view.
    pub fn result_for_a(&self) -> GameResult {
        match self.winner {
            Some(Side::A) => GameResult::AWins,
            Some(Side::B) => GameResult::BWins,
            None => GameResult::Draw,
        }
    }
}

/// The SGF file name of game `index`.
pub fn sgf_name(index: u64) -> String {
    format!("game-{index:04}.sgf")
}

/// Writes `text` to `dir/name` through a temporary file and a rename, so a file is whole or absent.
pub fn write_atomically(dir: &Path, name: &str, text: &str) -> io::Result<()> {
    let tmp = dir.join(format!(".{name}.tmp"));
    fs::write(&tmp, text)?;
    fs::rename(&tmp, dir.join(name))
}

/// Why `results.jsonl` could not be read back.
#[derive(Debug)]
pub enum ReadError {
    Io(io::Error),
    /// A complete line in the middle of the file is not a result.
    BadLine {
        line: usize,
        message: String,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Io(e) => write!(f, "{e}"),
            ReadError::BadLine { line, message } => write!(f, "line {line}: {message}"),
        }
    }
}

/// What `results.jsonl` holds.
#[derive(Debug, Default)]
pub struct Results {
    /// One line per game index (a repeated index keeps its first line).
    pub lines: Vec<ResultLine>,
    /// Bytes of the file that hold complete lines; anything after is a line cut short by an
    /// interruption, to be dropped before appending.
    pub good_len: u64,
    /// Whether the file ended in a broken last line.
    pub torn_tail: bool,
}

/// Reads `results.jsonl` (an absent file is an empty run). The last line may be cut short by an
/// interruption and is then ignored; a bad line anywhere else is an error.
pub fn read_results(path: &Path) -> Result<Results, ReadError> {
    let text = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Results::default()),
        Err(e) => return Err(ReadError::Io(e)),
    };
    let mut results = Results::default();
    let mut seen = std::collections::HashSet::new();
    let mut offset = 0usize;
    let mut number = 0;
    while offset < text.len() {
        number += 1;
        let end = text[offset..].iter().position(|&b| b == b'\n').map(|i| offset + i);
        let raw = &text[offset..end.unwrap_or(text.len())];
        let parsed = std::str::from_utf8(raw)
            .map_err(|e| e.to_string())
            .and_then(|s| serde_json::from_str::<ResultLine>(s).map_err(|e| e.to_string()));
        match (parsed, end) {
            (Ok(line), Some(end)) => {
                if seen.insert(line.game) {
                    results.lines.push(line);
                }
                offset = end + 1;
                results.good_len = offset as u64;
            }
            // Blank lines are harmless.
            (Err(_), Some(end)) if raw.iter().all(u8::is_ascii_whitespace) => {
                offset = end + 1;
                results.good_len = offset as u64;
            }
            // The last line without its newline: an append that was interrupted.
            (_, None) => {
                results.torn_tail = true;
                break;
            }
            (Err(message), Some(_)) => return Err(ReadError::BadLine { line: number, message }),
        }
    }
    Ok(results)
}

/// Appends result lines to `results.jsonl`, one complete line per write.
pub struct ResultsWriter {
    file: File,
}

impl ResultsWriter {
    /// Opens the file for appending after cutting it to `good_len` (dropping a torn last line).
    pub fn open(path: &Path, good_len: u64) -> io::Result<ResultsWriter> {
        let file = OpenOptions::new().create(true).append(true).open(path)?;
        if file.metadata()?.len() > good_len {
            file.set_len(good_len)?;
        }
        Ok(ResultsWriter { file })
    }

    pub fn append(&mut self, line: &ResultLine) -> io::Result<()> {
        let mut text = serde_json::to_string(line).map_err(io::Error::other)?;
        text.push('\n');
        self.file.write_all(text.as_bytes())?;
        self.file.sync_data()
    }
}

/// The settings of a run, as `run.json` keeps them. `--resume` requires the same settings, except the
/// number of games (a run may be extended), how many run in parallel and the players' names (an
/// opponent may have been upgraded); `tengen summary` merges only runs with the same settings, except
/// the number of games and the shard.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
pub struct RunSettings {
    /// `selfplay` or `match`.
    pub mode: String,
    /// The complete rules string.
    pub rules: String,
    pub size: usize,
    pub a: String,
    pub b: String,
    pub random_opening: usize,
    /// Absent from runs written before handicap games existed: they were even.
    #[serde(default)]
    pub handicap: usize,
    /// The match clock in `--clock` notation; absent (null) from runs without one, and from runs
    /// written before the option existed.
    #[serde(default)]
    pub clock: Option<String>,
    pub seed: u64,
    pub max_moves: usize,
    /// The run's `--games` (of the whole run, for a shard); absent from runs written before shards
    /// existed.
    #[serde(default)]
    pub games: Option<u64>,
    /// `K/N` for shard K of N (`--shard`); null for a run that is not sharded.
    #[serde(default)]
    pub shard: Option<String>,
    /// The names the summary gives players A and B (an external program's with its own name and
    /// version); absent from runs written before shards existed.
    #[serde(default)]
    pub a_name: Option<String>,
    #[serde(default)]
    pub b_name: Option<String>,
}

impl RunSettings {
    /// The settings `--resume` may change.
    pub const RESUMABLE: &[&str] = &["games", "a_name", "b_name"];
    /// The settings in which the runs `tengen summary` merges may differ.
    pub const MERGEABLE: &[&str] = &["games", "shard"];

    /// The first setting other than `except` that differs from `other`, as a pair of its name and
    /// the two values (JSON).
    pub fn difference_except(
        &self,
        other: &RunSettings,
        except: &[&str],
    ) -> Option<(String, String, String)> {
        let a = serde_json::to_value(self).ok()?;
        let b = serde_json::to_value(other).ok()?;
        let (a, b) = (a.as_object()?, b.as_object()?);
        let null = serde_json::Value::Null;
        a.iter()
            .chain(b.iter())
            .filter(|(k, _)| !except.contains(&k.as_str()))
            .find(|(k, _)| a.get(*k).unwrap_or(&null) != b.get(*k).unwrap_or(&null))
            .map(|(k, _)| {
                let show =
                    |m: &serde_json::Map<String, serde_json::Value>| m.get(k).unwrap_or(&null).to_string();
                (k.clone(), show(a), show(b))
            })
    }

    /// The first setting `--resume` may not change that differs from `other` (the settings now), as
    /// `name: old in the directory, new now`.
    pub fn difference(&self, other: &RunSettings) -> Option<String> {
        self.difference_except(other, Self::RESUMABLE)
            .map(|(k, old, new)| format!("{k}: {old} in the directory, {new} now"))
    }
}

/// Statistics over the results of a run.
#[derive(Clone, Debug)]
pub struct Summary {
    pub a_name: String,
    pub b_name: String,
    pub tally: Tally,
    /// Wins by colour, whoever played it.
    pub colour_wins: ByColor<u32>,
    pub draws: u32,
    pub games: usize,
    pub total_moves: usize,
    pub min_moves: usize,
    pub max_moves: usize,
    /// Seconds and genmoves per player.
    pub time: [(f64, u32); 2],
    pub endings: BTreeMap<&'static str, u32>,
    pub disagreements: Vec<u64>,
    /// Phantom Go, per player (A, B): illegal attempts, repeated proposals, limit passes, over
    /// the games that report them (`None` when none does).
    pub phantom: Option<[(u32, u32, u32); 2]>,
}

impl Summary {
    pub fn new(lines: &[ResultLine], a_name: &str, b_name: &str) -> Summary {
        let mut s = Summary {
            a_name: a_name.to_string(),
            b_name: b_name.to_string(),
            tally: Tally::new(),
            colour_wins: ByColor::new(0, 0),
            draws: 0,
            games: lines.len(),
            total_moves: 0,
            min_moves: lines.iter().map(|l| l.moves).min().unwrap_or(0),
            max_moves: lines.iter().map(|l| l.moves).max().unwrap_or(0),
            time: [(0.0, 0); 2],
            endings: BTreeMap::new(),
            disagreements: Vec::new(),
            phantom: None,
        };
        for l in lines {
            s.tally.add_result(l.colour_of(Side::A), l.result_for_a());
            match l.winner {
                Some(w) => s.colour_wins[l.colour_of(w)] += 1,
                None => s.draws += 1,
            }
            s.total_moves += l.moves;
            for (i, side) in [Side::A, Side::B].into_iter().enumerate() {
                let (t, n) = l.time_of(side);
                s.time[i].0 += t;
                s.time[i].1 += n;
            }
            *s.endings.entry(l.reason.name()).or_default() += 1;
            if l.score_disagrees {
                s.disagreements.push(l.game);
            }
            if let Some(conduct) = &l.phantom {
                let totals = s.phantom.get_or_insert([(0, 0, 0); 2]);
                for (i, side) in [Side::A, Side::B].into_iter().enumerate() {
                    let (illegal, repeats, limit) = conduct.of(l.colour_of(side));
                    totals[i].0 += illegal;
                    totals[i].1 += repeats;
                    totals[i].2 += limit;
                }
            }
        }
        s.disagreements.sort_unstable();
        s
    }

    /// A's record over all games.
    pub fn record(&self) -> Record {
        self.tally.total()
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "A: {}", self.a_name)?;
        writeln!(f, "B: {}", self.b_name)?;
        writeln!(f, "Games: {}", self.games)?;
        writeln!(f, "Result: {}", self.tally.summary("A", "B"))?;
        writeln!(f, "By colour: {}", self.tally.colour_summary("A"))?;
        writeln!(
            f,
            "Colours: Black won {}, White won {}, draws {}",
            self.colour_wins.black, self.colour_wins.white, self.draws
        )?;
        if self.games > 0 {
            writeln!(
                f,
                "Game length: {:.1} moves on average (min {}, max {})",
                self.total_moves as f64 / self.games as f64,
                self.min_moves,
                self.max_moves
            )?;
        }
        // One unit for both, the larger's: seconds from a tenth of one on, else milliseconds, so
        // that fast settings do not all print as 0.
        let average = |(t, n): (f64, u32)| (n > 0).then(|| t / f64::from(n));
        let larger = self.time.iter().filter_map(|&t| average(t)).fold(0.0, f64::max);
        let per_move = |time: (f64, u32)| match average(time) {
            None => "-".to_string(),
            Some(s) if larger < 0.1 => format!("{:.3} ms", s * 1000.0),
            Some(s) if s >= 0.1 => format!("{s:.2} s"),
            Some(s) => format!("{s:.3} s"),
        };
        writeln!(f, "Time per move: A {}, B {}", per_move(self.time[0]), per_move(self.time[1]))?;
        let endings: Vec<String> = self.endings.iter().map(|(k, v)| format!("{k} {v}")).collect();
        writeln!(f, "Endings: {}", if endings.is_empty() { "-".to_string() } else { endings.join(", ") })?;
        if let (Some([a, b]), true) = (self.phantom, self.games > 0) {
            let games = self.games as f64;
            writeln!(
                f,
                "Phantom Go illegal attempts per game: A {:.2}, B {:.2}",
                f64::from(a.0) / games,
                f64::from(b.0) / games
            )?;
            writeln!(
                f,
                "Phantom Go program errors: repeated proposals A {}, B {}; turns passed at the {}-attempt limit A {}, B {}",
                a.1,
                b.1,
                super::phantom::MAX_ATTEMPTS,
                a.2,
                b.2
            )?;
        }
        if !self.disagreements.is_empty() {
            let games: Vec<String> = self.disagreements.iter().map(|g| sgf_name(*g)).collect();
            writeln!(
                f,
                "Score disagreements (a player's final_score differs from the referee's): {} ({})",
                games.len(),
                games.join(", ")
            )?;
        }
        Ok(())
    }
}

/// Today's date as `YYYY-MM-DD` (UTC), for SGF `DT`.
pub fn today() -> String {
    let secs =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map(|d| d.as_secs()).unwrap_or(0);
    let (y, m, d) = civil_from_days((secs / 86_400) as i64);
    format!("{y:04}-{m:02}-{d:02}")
}

/// Howard Hinnant's `civil_from_days`: days since 1970-01-01 to a proleptic Gregorian date.
fn civil_from_days(z: i64) -> (i64, u32, u32) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    (if m <= 2 { y + 1 } else { y }, m, d)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(game: u64, black: Side, winner: Option<Side>) -> ResultLine {
        ResultLine {
            game,
            black,
            result: match winner.map(|w| if w == black { "B" } else { "W" }) {
                Some(c) => format!("{c}+R"),
                None => "0".into(),
            },
            winner,
            reason: if winner.is_some() { Ending::Resignation } else { Ending::Repetition },
            detail: None,
            moves: 10 + game as usize % 3,
            opening_moves: 0,
            time_black: 1.0,
            time_white: 2.0,
            genmoves_black: 5,
            genmoves_white: 5,
            score_black: None,
            score_white: None,
            score_disagrees: false,
            phantom: None,
            sgf: sgf_name(game),
        }
    }

    #[test]
    fn sixty_of_a_hundred_is_70_elo() {
        let lines: Vec<ResultLine> = (0..100)
            .map(|i| {
                let black = if i % 2 == 0 { Side::A } else { Side::B };
                line(i, black, Some(if i < 60 { Side::A } else { Side::B }))
            })
            .collect();
        let s = Summary::new(&lines, "tengen A", "tengen B");
        assert_eq!(s.record(), Record::new(60, 40, 0));
        let text = s.to_string();
        assert!(
            text.contains("Result: A 60 - 40 B (draws 0): 60.0% [50.2%, 69.1%], Elo +70.4 [+1.4, +139.5]"),
            "{text}"
        );
        // Games 0..60 are A's wins: 30 with Black (even games), 30 with White.
        assert_eq!(s.tally.by_a_colour.black, Record::new(30, 20, 0));
        assert_eq!(s.tally.by_a_colour.white, Record::new(30, 20, 0));
        assert_eq!(s.colour_wins.black + s.colour_wins.white, 100);
        // A had Black in even games: 1 s per 5 moves as Black, 2 s per 5 as White.
        assert!(text.contains("Time per move: A 0.30 s, B 0.30 s"), "{text}");
        assert!(text.contains("Endings: resignation 100"), "{text}");
    }

    #[test]
    fn draws_count_half_and_lengths() {
        let lines = vec![line(0, Side::A, None), line(1, Side::B, Some(Side::A)), line(2, Side::A, None)];
        let s = Summary::new(&lines, "a", "b");
        assert_eq!(s.record(), Record::new(1, 0, 2));
        assert_eq!(s.record().score(), Some(2.0 / 3.0));
        assert_eq!(s.draws, 2);
        assert_eq!(s.colour_wins.white, 1);
        assert_eq!((s.min_moves, s.max_moves, s.total_moves), (10, 12, 33));
        assert!(s.to_string().contains("Game length: 11.0 moves on average (min 10, max 12)"));
    }

    #[test]
    fn summary_lists_score_disagreements_and_endings() {
        let mut lines =
            vec![line(0, Side::A, Some(Side::A)), line(1, Side::B, Some(Side::B)), line(2, Side::A, None)];
        lines[1].reason = Ending::TwoPasses;
        lines[1].score_white = Some("W+2.5".into());
        lines[1].score_disagrees = true;
        lines[0].reason = Ending::Forfeit;
        let text = Summary::new(&lines, "a", "b").to_string();
        assert!(
            text.contains(
                "Score disagreements (a player's final_score differs from the referee's): 1 (game-0001.sgf)"
            ),
            "{text}"
        );
        assert!(text.contains("Endings: forfeit 1, repetition 1, two passes 1"), "{text}");
        assert!(text.contains("Colours: Black won 2, White won 0, draws 1"), "{text}");
        // Game 0: A Black, 0.0123 s over 10 moves; game 1: A White, no moves. B never moved.
        lines[0].time_black = 0.0123;
        lines[0].genmoves_black = 10;
        (lines[0].time_white, lines[0].genmoves_white) = (0.0, 0);
        (lines[1].time_black, lines[1].genmoves_black) = (0.0, 0);
        (lines[1].time_white, lines[1].genmoves_white) = (0.0, 0);
        let text = Summary::new(&lines[..2], "a", "b").to_string();
        assert!(text.contains("Time per move: A 1.230 ms, B -"), "{text}");
        // Both in one unit, the larger's.
        (lines[1].time_black, lines[1].genmoves_black) = (1.4, 10);
        let text = Summary::new(&lines[..2], "a", "b").to_string();
        assert!(text.contains("Time per move: A 0.001 s, B 0.14 s"), "{text}");
        // A round trip through JSON keeps every field.
        let json = serde_json::to_string(&lines[1]).unwrap();
        assert_eq!(serde_json::from_str::<ResultLine>(&json).unwrap(), lines[1]);
    }

    #[test]
    fn results_file_survives_a_torn_last_line() {
        let dir = std::env::temp_dir().join(format!("tengen-output-test-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join(RESULTS);
        let _ = fs::remove_file(&path);
        let mut w = ResultsWriter::open(&path, 0).unwrap();
        w.append(&line(0, Side::A, Some(Side::A))).unwrap();
        w.append(&line(1, Side::B, None)).unwrap();
        drop(w);
        let good = fs::metadata(&path).unwrap().len();
        let mut f = OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"game\":2,\"bla").unwrap();
        drop(f);
        let r = read_results(&path).unwrap();
        assert_eq!(r.lines.len(), 2);
        assert_eq!(r.lines[1], line(1, Side::B, None));
        assert!(r.torn_tail);
        assert_eq!(r.good_len, good);
        let mut w = ResultsWriter::open(&path, r.good_len).unwrap();
        w.append(&line(2, Side::A, Some(Side::B))).unwrap();
        let r = read_results(&path).unwrap();
        assert_eq!(r.lines.iter().map(|l| l.game).collect::<Vec<_>>(), [0, 1, 2]);
        assert!(!r.torn_tail);
        // A broken line in the middle is an error, not silently dropped.
        fs::write(&path, "garbage\n{}\n").unwrap();
        assert!(matches!(read_results(&path), Err(ReadError::BadLine { line: 1, .. })));
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_723), (2024, 1, 1));
        assert_eq!(civil_from_days(19_782), (2024, 2, 29));
        assert_eq!(today().len(), 10);
    }
}
