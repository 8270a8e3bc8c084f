//! `tengen summary DIR...`: one summary of any number of run directories (the shards of a run, or
//! copies of runs gathered from several machines), exactly as one process that played all their games
//! would have written it in its `summary.txt`.
//!
//! Merging is refused, not guessed at: runs whose settings differ (their `run.json`, except the
//! number of games and the shard), a game index found in two directories (a shard run twice, or
//! shards of two different splits), or an unreadable `results.jsonl` are errors that name the
//! directories. Games not played yet are no error (that is a run's progress) but are listed.

use super::output::{read_results, ResultLine, RunSettings, Summary, RESULTS, SETTINGS};
use super::shard::Shard;
use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

/// One run directory as read.
#[derive(Clone, Debug)]
pub struct RunDir {
    pub path: PathBuf,
    pub settings: RunSettings,
    /// Its finished games (a line cut short by a write in progress is not one yet).
    pub lines: Vec<ResultLine>,
}

/// Why directories cannot be merged.
#[derive(Debug)]
pub enum MergeError {
    /// A path that is not a run directory and holds none.
    NoRun(PathBuf),
    /// A `run.json` or `results.jsonl` that cannot be read.
    Read { path: PathBuf, message: String },
    /// Two runs with other settings.
    Mismatch { setting: String, first: (PathBuf, String), other: (PathBuf, String) },
    /// Games found in more than one directory: each with the directories holding it.
    Duplicates(Vec<(u64, Vec<PathBuf>)>),
}

impl fmt::Display for MergeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MergeError::NoRun(path) => {
                write!(f, "{} holds no run (no {SETTINGS} in it or in its subdirectories)", path.display())
            }
            MergeError::Read { path, message } => write!(f, "cannot read {}: {message}", path.display()),
            MergeError::Mismatch { setting, first, other } => write!(
                f,
                "cannot merge runs with other settings: {setting} is {} in {} but {} in {}",
                first.1,
                first.0.display(),
                other.1,
                other.0.display()
            ),
            MergeError::Duplicates(games) => {
                write!(f, "cannot merge: {} game(s) played in more than one directory:", games.len())?;
                for (game, dirs) in games.iter().take(10) {
                    let dirs: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
                    write!(f, "\n  game {game} in {}", dirs.join(" and "))?;
                }
                if games.len() > 10 {
                    write!(f, "\n  and {} more", games.len() - 10)?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for MergeError {}

/// The run directories `paths` name: a path holding a `run.json` is one, and a path without one
/// stands for each of its subdirectories that holds one (a sharded run's `--out`). A directory named
/// twice counts once. A path that names no run yet is an error unless `allow_empty` (a run whose
/// shards have not started).
pub fn find_runs(paths: &[PathBuf], allow_empty: bool) -> Result<Vec<PathBuf>, MergeError> {
    let mut found: Vec<PathBuf> = Vec::new();
    let mut seen = std::collections::HashSet::new();
    for path in paths {
        let mut here = Vec::new();
        if path.join(SETTINGS).is_file() {
            here.push(path.clone());
        } else {
            let entries = match fs::read_dir(path) {
                Ok(entries) => entries,
                Err(e) if allow_empty && e.kind() == std::io::ErrorKind::NotFound => continue,
                Err(e) => return Err(MergeError::Read { path: path.clone(), message: e.to_string() }),
            };
            for entry in entries {
                let entry =
                    entry.map_err(|e| MergeError::Read { path: path.clone(), message: e.to_string() })?;
                if entry.path().join(SETTINGS).is_file() {
                    here.push(entry.path());
                }
            }
            here.sort();
        }
        if here.is_empty() && !allow_empty {
            return Err(MergeError::NoRun(path.clone()));
        }
        for dir in here {
            let key = fs::canonicalize(&dir).unwrap_or_else(|_| dir.clone());
            if seen.insert(key) {
                found.push(dir);
            }
        }
    }
    Ok(found)
}

/// Reads one run directory.
pub fn read_run(dir: &Path) -> Result<RunDir, MergeError> {
    let settings_path = dir.join(SETTINGS);
    let read_err = |path: &Path, message: String| MergeError::Read { path: path.to_path_buf(), message };
    let text = fs::read_to_string(&settings_path).map_err(|e| read_err(&settings_path, e.to_string()))?;
    let settings: RunSettings =
        serde_json::from_str(&text).map_err(|e| read_err(&settings_path, e.to_string()))?;
    let results_path = dir.join(RESULTS);
    let results = read_results(&results_path).map_err(|e| read_err(&results_path, e.to_string()))?;
    Ok(RunDir { path: dir.to_path_buf(), settings, lines: results.lines })
}

/// The merged runs.
#[derive(Clone, Debug)]
pub struct Merged {
    /// The summary of every game found, as one run's `summary.txt` would give it.
    pub summary: Summary,
    /// The directories merged.
    pub dirs: Vec<PathBuf>,
    /// Games of the whole run (the largest `--games` among the runs), when the runs record it.
    pub games: Option<u64>,
    /// Game indices below `games` that no directory holds yet.
    pub missing: Vec<u64>,
    /// Shards of the split the runs share (all shards of N) that have no directory.
    pub missing_shards: Vec<Shard>,
}

impl Merged {
    /// Every game of the run is there.
    pub fn complete(&self) -> bool {
        self.games.is_some() && self.missing.is_empty()
    }

    /// What is missing, one sentence a line (nothing when the run is complete).
    pub fn notices(&self) -> Vec<String> {
        let mut notes = Vec::new();
        match self.games {
            None if self.dirs.is_empty() => notes.push("no run has started yet".to_string()),
            None => notes.push(format!(
                "the runs do not record their number of games (written before tengen had shards): \
                 {} games found, missing ones cannot be told",
                self.summary.games
            )),
            Some(games) if !self.missing.is_empty() => {
                let listed: Vec<String> = self.missing.iter().take(20).map(u64::to_string).collect();
                let more = if self.missing.len() > 20 { ", ..." } else { "" };
                notes.push(format!(
                    "{} of {games} games not played (yet): {}{more}",
                    self.missing.len(),
                    listed.join(", ")
                ));
            }
            Some(_) => {}
        }
        if !self.missing_shards.is_empty() {
            let listed: Vec<String> = self.missing_shards.iter().map(Shard::to_string).collect();
            notes.push(format!("no directory for shard {}", listed.join(", ")));
        }
        notes
    }

    /// One line of progress: games done of the whole run, and A's score so far.
    pub fn progress_line(&self) -> String {
        let total = self.games.map_or("?".to_string(), |g| g.to_string());
        format!(
            "{}/{total} games in {} director{}: {}",
            self.summary.games,
            self.dirs.len(),
            if self.dirs.len() == 1 { "y" } else { "ies" },
            self.summary.tally.summary("A", "B")
        )
    }
}

/// The settings two runs must share to be merged: everything but the number of games and the
/// shard, and the players' names where both runs record them.
fn mismatch(first: &RunSettings, other: &RunSettings) -> Option<(String, String, String)> {
    let (mut first, mut other) = (first.clone(), other.clone());
    if first.a_name.is_none() || other.a_name.is_none() {
        (first.a_name, other.a_name) = (None, None);
    }
    if first.b_name.is_none() || other.b_name.is_none() {
        (first.b_name, other.b_name) = (None, None);
    }
    first.difference_except(&other, RunSettings::MERGEABLE)
}

/// Merges `runs` (checked for matching settings and duplicate games) into one summary.
pub fn merge(runs: &[RunDir]) -> Result<Merged, MergeError> {
    if let Some(first) = runs.first() {
        for run in &runs[1..] {
            if let Some((setting, a, b)) = mismatch(&first.settings, &run.settings) {
                return Err(MergeError::Mismatch {
                    setting,
                    first: (first.path.clone(), a),
                    other: (run.path.clone(), b),
                });
            }
        }
    }
    let mut holders: BTreeMap<u64, Vec<&RunDir>> = BTreeMap::new();
    for run in runs {
        for line in &run.lines {
            holders.entry(line.game).or_default().push(run);
        }
    }
    let duplicates: Vec<(u64, Vec<PathBuf>)> = holders
        .iter()
        .filter(|(_, runs)| runs.len() > 1)
        .map(|(game, runs)| (*game, runs.iter().map(|r| r.path.clone()).collect()))
        .collect();
    if !duplicates.is_empty() {
        return Err(MergeError::Duplicates(duplicates));
    }
    // In game order, as a single run sorts its lines for its final summary: the sums of times then
    // add up in the same order, to the same last digit.
    let mut lines: Vec<ResultLine> = runs.iter().flat_map(|r| r.lines.iter().cloned()).collect();
    lines.sort_by_key(|l| l.game);
    let games = runs.iter().filter_map(|r| r.settings.games).max();
    let missing = games.map_or_else(Vec::new, |g| (0..g).filter(|i| !holders.contains_key(i)).collect());
    let shards: Vec<Option<Shard>> =
        runs.iter().map(|r| r.settings.shard.as_deref().and_then(|s| s.parse().ok())).collect();
    let missing_shards = match shards.first() {
        Some(Some(first)) if shards.iter().all(|s| s.is_some_and(|s| s.count == first.count)) => (0..first
            .count)
            .map(|index| Shard { index, count: first.count })
            .filter(|s| !shards.contains(&Some(*s)))
            .collect(),
        _ => Vec::new(),
    };
    let (a_name, b_name) = match runs.first() {
        Some(r) => (
            r.settings.a_name.clone().unwrap_or_else(|| r.settings.a.clone()),
            r.settings.b_name.clone().unwrap_or_else(|| r.settings.b.clone()),
        ),
        None => (String::new(), String::new()),
    };
    Ok(Merged {
        summary: Summary::new(&lines, &a_name, &b_name),
        dirs: runs.iter().map(|r| r.path.clone()).collect(),
        games,
        missing,
        missing_shards,
    })
}

/// Finds, reads and merges the runs `paths` name (see [`find_runs`]).
pub fn gather(paths: &[PathBuf], allow_empty: bool) -> Result<Merged, MergeError> {
    let dirs = find_runs(paths, allow_empty)?;
    let runs = dirs.iter().map(|d| read_run(d)).collect::<Result<Vec<_>, _>>()?;
    merge(&runs)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::game::Ending;
    use crate::selfplay::output::{sgf_name, Side};

    fn settings(shard: Option<&str>) -> RunSettings {
        RunSettings {
            mode: "selfplay".into(),
            rules: "go".into(),
            size: 9,
            a: "tengen A (playouts=8)".into(),
            b: "tengen B (playouts=8)".into(),
            random_opening: 0,
            handicap: 0,
            clock: None,
            seed: 1,
            max_moves: 324,
            games: Some(6),
            shard: shard.map(String::from),
            a_name: Some("tengen A (playouts=8)".into()),
            b_name: Some("tengen B (playouts=8)".into()),
        }
    }

    fn line(game: u64) -> ResultLine {
        let black = if game.is_multiple_of(2) { Side::A } else { Side::B };
        ResultLine {
            game,
            black,
            result: "B+R".into(),
            winner: Some(black),
            reason: Ending::Resignation,
            detail: None,
            moves: 20 + game as usize,
            opening_moves: 0,
            time_black: 0.1 * game as f64,
            time_white: 0.2,
            phantom: None,
            genmoves_black: 10,
            genmoves_white: 10,
            score_black: None,
            score_white: None,
            score_disagrees: false,
            sgf: sgf_name(game),
        }
    }

    fn shard(k: u64, n: u64, games: &[u64]) -> RunDir {
        RunDir {
            path: PathBuf::from(format!("run/shard-{k}-of-{n}")),
            settings: settings(Some(&format!("{k}/{n}"))),
            lines: games.iter().map(|&g| line(g)).collect(),
        }
    }

    #[test]
    fn shards_merge_into_the_whole_runs_summary() {
        let whole: Vec<ResultLine> = (0..6).map(line).collect();
        let expected = Summary::new(&whole, "tengen A (playouts=8)", "tengen B (playouts=8)").to_string();
        // Lines in any order within and across shards.
        let merged = merge(&[shard(1, 3, &[4, 1]), shard(0, 3, &[0, 3]), shard(2, 3, &[5, 2])]).unwrap();
        assert_eq!(merged.summary.to_string(), expected);
        assert!(merged.complete());
        assert!(merged.notices().is_empty());
        assert_eq!(merged.progress_line().split(':').next(), Some("6/6 games in 3 directories"));
    }

    #[test]
    fn missing_games_and_shards_are_listed() {
        let merged = merge(&[shard(0, 3, &[0, 3]), shard(2, 3, &[2])]).unwrap();
        assert!(!merged.complete());
        assert_eq!(merged.missing, [1, 4, 5]);
        assert_eq!(merged.missing_shards, [Shard { index: 1, count: 3 }]);
        assert_eq!(merged.summary.games, 3);
        let notes = merged.notices().join("\n");
        assert!(notes.contains("3 of 6 games not played (yet): 1, 4, 5"), "{notes}");
        assert!(notes.contains("no directory for shard 1/3"), "{notes}");
    }

    #[test]
    fn duplicates_and_other_settings_are_refused() {
        let e = merge(&[shard(0, 2, &[0, 2, 4]), shard(0, 4, &[0, 4])]).unwrap_err().to_string();
        assert!(e.contains("2 game(s) played in more than one directory"), "{e}");
        assert!(e.contains("game 4 in run/shard-0-of-2 and run/shard-0-of-4"), "{e}");

        let mut other = shard(1, 2, &[1]);
        other.settings.seed = 2;
        let e = merge(&[shard(0, 2, &[0]), other]).unwrap_err().to_string();
        assert_eq!(
            e,
            "cannot merge runs with other settings: seed is 1 in run/shard-0-of-2 but 2 in run/shard-1-of-2"
        );

        // Another opponent version is another opponent; a run that does not record names is compared
        // on the rest.
        let mut other = shard(1, 2, &[1]);
        other.settings.b_name = Some("GNU Go 3.7".into());
        assert!(merge(&[shard(0, 2, &[0]), other.clone()]).unwrap_err().to_string().contains("b_name"));
        other.settings.b_name = None;
        assert!(merge(&[shard(0, 2, &[0]), other]).is_ok());
    }
}
