//! `tengen train`: fits the move model (`search::move_model`) on game records by
//! minorization-maximization (Coulom 2007).
//!
//! Every move of every record is a competition won by the move played among all the legal moves
//! of that position (and the pass). A move's strength is the product of its features' gammas; MM
//! raises each gamma in turn to the value that maximizes the likelihood of the winners with the
//! others fixed, one feature group at a time, which converges in a few dozen rounds. Each gamma
//! also gets one virtual win and one virtual loss against a gamma of 1, so a feature seen rarely
//! stays near 1 instead of running off. A tenth of the games (every tenth file) is held out to
//! report how often the model's first choice is the move played.

use crate::board::{Board, Color, Point};
use crate::playout::{LadderReader, Pat3};
use crate::search::move_model::{MoveFeatures, MoveModel, GROUPS};
use crate::search::priors::PriorContext;
use crate::search::PriorWeights;
use crate::sgf::GameRecord;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What `train` needs.
#[derive(Clone, Debug)]
pub struct TrainOptions {
    /// SGF files, or directories searched for `.sgf` files.
    pub records: Vec<PathBuf>,
    /// A neighbourhood seen fewer times than this among the candidates shares the `other` gamma.
    pub min_pattern: usize,
    /// MM rounds (each updates every group once).
    pub rounds: usize,
}

/// One candidate move: its pattern's index into the pattern gammas (or [`PASS`]) and its group
/// values.
#[derive(Copy, Clone)]
struct Candidate {
    pattern: u32,
    values: [u8; 8],
}

const PASS: u32 = u32::MAX;

/// The competitions: candidates of all positions end to end.
#[derive(Default)]
struct Samples {
    candidates: Vec<Candidate>,
    /// For each position, the end of its candidates and the index (within them) of the move played.
    positions: Vec<(usize, usize)>,
}

impl Samples {
    fn ranges(&self) -> impl Iterator<Item = (std::ops::Range<usize>, usize)> + '_ {
        let mut start = 0;
        self.positions.iter().map(move |&(end, won)| {
            let r = start..end;
            start = end;
            (r, won)
        })
    }
}

/// The result of a fit, with what it was fitted on.
pub struct Trained {
    pub model: MoveModel,
    pub games: usize,
    pub positions: usize,
    pub held_out_positions: usize,
    /// Of the held-out moves, the share the model ranked first.
    pub held_out_top1: f64,
    pub held_out_log_likelihood: f64,
}

/// The `.sgf` files under `paths`, sorted (so the held-out tenth is the same every run).
pub fn record_files(paths: &[PathBuf]) -> std::io::Result<Vec<PathBuf>> {
    fn walk(p: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
        if p.is_dir() {
            for e in std::fs::read_dir(p)? {
                walk(&e?.path(), out)?;
            }
        } else if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("sgf")) {
            out.push(p.to_path_buf());
        }
        Ok(())
    }
    let mut out = Vec::new();
    for p in paths {
        walk(p, &mut out)?;
    }
    out.sort();
    Ok(out)
}

/// Features of every position of `record` (to `out`); raw pattern keys, counted in `seen`.
fn collect(record: &GameRecord, out: &mut Samples, seen: &mut HashMap<u32, u32>) {
    let n = record.size;
    if !(5..=25).contains(&n) {
        return;
    }
    let mut board = Board::new(n);
    let geo = *board.geometry();
    for (&(x, y), c) in record
        .black_stones
        .iter()
        .map(|s| (s, Color::Black))
        .chain(record.white_stones.iter().map(|s| (s, Color::White)))
    {
        let p = geo.point(x, y);
        if board.is_empty_point(p) {
            board.play(c, p);
        }
    }
    let patterns = Pat3::new();
    let weights = PriorWeights::default();
    let mut ladder = LadderReader::new();
    let (mut last, mut own_last) = (Point::NONE, Point::NONE);
    for m in &record.moves {
        if m.war.is_some() {
            return;
        }
        let color = m.color;
        let played = m.at.map(|(x, y)| geo.point(x, y));
        if let Some(p) = played {
            if !board.is_empty_point(p) || board.is_suicide(color, p) || board.is_ko_retake(color, p) {
                return; // A record this board cannot follow: keep what came before.
            }
        }
        let mut ctx = PriorContext {
            board: &board,
            color,
            last,
            own_last,
            patterns: &patterns,
            weights: &weights,
            ladder: &mut ladder,
        };
        let start = out.candidates.len();
        let mut won = None;
        for p in geo.points() {
            if !board.is_empty_point(p) || board.is_suicide(color, p) || board.is_ko_retake(color, p) {
                continue;
            }
            let f: MoveFeatures = ctx.features(p);
            *seen.entry(f.pattern).or_default() += 1;
            if Some(p) == played {
                won = Some(out.candidates.len() - start);
            }
            out.candidates.push(Candidate { pattern: f.pattern, values: f.values });
        }
        if played.is_none() {
            won = Some(out.candidates.len() - start);
        }
        out.candidates.push(Candidate { pattern: PASS, values: [0; 8] });
        out.positions.push((out.candidates.len(), won.expect("the move played is a candidate")));
        if let Some(p) = played {
            board.play(color, p);
        }
        (own_last, last) = (last, played.unwrap_or(Point::NONE));
    }
}

/// The gammas being fitted: patterns by index, then the groups, then the pass.
struct Gammas {
    patterns: Vec<f64>,
    groups: Vec<Vec<f64>>,
    pass: f64,
}

impl Gammas {
    fn strength(&self, c: &Candidate) -> f64 {
        if c.pattern == PASS {
            return self.pass;
        }
        let mut s = self.patterns[c.pattern as usize];
        for (g, &v) in self.groups.iter().zip(&c.values) {
            s *= g[v as usize];
        }
        s
    }
}

/// Which gamma of a group a candidate has: `None` when the group does not apply (the pass has
/// only its own).
fn feature(c: &Candidate, group: usize) -> Option<usize> {
    match (c.pattern == PASS, group) {
        (true, g) if g == GROUPS.len() + 1 => Some(0),
        (true, _) => None,
        (false, 0) => Some(c.pattern as usize),
        (false, g) if g <= GROUPS.len() => Some(c.values[g - 1] as usize),
        (false, _) => None,
    }
}

/// One MM update of `group` (0 the patterns, then the groups of `GROUPS`, then the pass).
fn update(samples: &Samples, gammas: &mut Gammas, group: usize) {
    let len = match group {
        0 => gammas.patterns.len(),
        g if g <= GROUPS.len() => gammas.groups[g - 1].len(),
        _ => 1,
    };
    let mut wins = vec![0.0f64; len];
    let mut denom = vec![0.0f64; len];
    let mut strengths = Vec::new();
    for (range, won) in samples.ranges() {
        let cands = &samples.candidates[range];
        strengths.clear();
        strengths.extend(cands.iter().map(|c| gammas.strength(c)));
        let total: f64 = strengths.iter().sum();
        for (i, c) in cands.iter().enumerate() {
            if let Some(f) = feature(c, group) {
                let own = match group {
                    0 => gammas.patterns[f],
                    g if g <= GROUPS.len() => gammas.groups[g - 1][f],
                    _ => gammas.pass,
                };
                denom[f] += strengths[i] / own / total;
                if i == won {
                    wins[f] += 1.0;
                }
            }
        }
    }
    let fit = |old: f64, w: f64, d: f64| (w + 1.0) / (d + 2.0 / (old + 1.0));
    match group {
        0 => gammas.patterns.iter_mut().enumerate().for_each(|(f, g)| *g = fit(*g, wins[f], denom[f])),
        g if g <= GROUPS.len() => {
            gammas.groups[g - 1].iter_mut().enumerate().for_each(|(f, v)| *v = fit(*v, wins[f], denom[f]))
        }
        _ => gammas.pass = fit(gammas.pass, wins[0], denom[0]),
    }
}

/// Held-out accuracy: the share of positions whose move played has the highest strength, and the
/// mean log-likelihood of the moves played.
fn evaluate(samples: &Samples, gammas: &Gammas) -> (f64, f64) {
    let (mut top, mut ll, mut n) = (0usize, 0.0f64, 0usize);
    for (range, won) in samples.ranges() {
        let s: Vec<f64> = samples.candidates[range].iter().map(|c| gammas.strength(c)).collect();
        let total: f64 = s.iter().sum();
        if s.iter().all(|&x| x <= s[won]) {
            top += 1;
        }
        ll += (s[won] / total).ln();
        n += 1;
    }
    if n == 0 {
        return (0.0, 0.0);
    }
    (top as f64 / n as f64, ll / n as f64)
}

/// Fits the model on the records in `options.records` (every tenth file held out).
pub fn train(options: &TrainOptions, progress: &mut dyn FnMut(&str)) -> Result<Trained, String> {
    let files = record_files(&options.records).map_err(|e| format!("reading the records: {e}"))?;
    if files.is_empty() {
        return Err("no .sgf files found".into());
    }
    let (mut fit, mut held) = (Samples::default(), Samples::default());
    let mut seen = HashMap::new();
    let mut games = 0;
    for (i, path) in files.iter().enumerate() {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let Ok(record) = GameRecord::parse_bytes(&bytes) else {
            progress(&format!("skipped {} (not a game record tengen reads)", path.display()));
            continue;
        };
        games += 1;
        collect(&record, if i % 10 == 9 { &mut held } else { &mut fit }, &mut seen);
    }
    progress(&format!(
        "{games} games, {} positions to fit, {} held out, {} neighbourhoods",
        fit.positions.len(),
        held.positions.len(),
        seen.len()
    ));
    // Neighbourhoods seen often enough get a gamma of their own; index 0 is `other`.
    let mut keys: Vec<u32> =
        seen.iter().filter(|&(_, &n)| n as usize >= options.min_pattern).map(|(&k, _)| k).collect();
    keys.sort_unstable();
    let index: HashMap<u32, u32> = keys.iter().enumerate().map(|(i, &k)| (k, i as u32 + 1)).collect();
    for s in [&mut fit, &mut held] {
        for c in &mut s.candidates {
            if c.pattern != PASS {
                c.pattern = *index.get(&c.pattern).unwrap_or(&0);
            }
        }
    }
    let mut gammas = Gammas {
        patterns: vec![1.0; keys.len() + 1],
        groups: GROUPS.iter().map(|&(_, _, n)| vec![1.0; n]).collect(),
        pass: 1.0,
    };
    for round in 0..options.rounds {
        for group in 0..GROUPS.len() + 2 {
            update(&fit, &mut gammas, group);
        }
        if round % 5 == 4 || round + 1 == options.rounds {
            let (top1, ll) = evaluate(&held, &gammas);
            progress(&format!(
                "round {}: held out first choice {:.1}%, log-likelihood {ll:.3}",
                round + 1,
                100.0 * top1
            ));
        }
    }
    let (top1, ll) = evaluate(&held, &gammas);
    let model = MoveModel {
        groups: gammas.groups.iter().map(|g| g.iter().map(|&x| x as f32).collect()).collect(),
        patterns: keys.iter().enumerate().map(|(i, &k)| (k, gammas.patterns[i + 1] as f32)).collect(),
        other_pattern: gammas.patterns[0] as f32,
        pass: gammas.pass as f32,
    };
    Ok(Trained {
        model,
        games,
        positions: fit.positions.len(),
        held_out_positions: held.positions.len(),
        held_out_top1: top1,
        held_out_log_likelihood: ll,
    })
}
