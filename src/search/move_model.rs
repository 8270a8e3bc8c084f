//! A learned move model: how likely a strong player is to play each legal move, as a product of
//! one weight ("gamma") per feature of the move (Coulom, "Computing Elo ratings of move patterns in
//! the game of Go", 2007). The features are the 3x3 neighbourhood with the atari state of the four
//! adjacent chains, and a handful of tactical and positional facts the priors already compute.
//!
//! The weights are fitted by `tengen train` (`crate::train`) on game records and stored as text in
//! `move_model.txt` beside this file, compiled into the binary. The tree turns a move's share of
//! the gammas of all legal moves into equivalent experience (`search::priors`).

use crate::board::{Board, Cell, Color, Point, Topology};
use crate::playout::symmetry;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The feature groups: every move has exactly one value in each (value 0 is "none" where that
/// makes sense). The pattern is a group of its own, keyed by the canonical neighbourhood.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Group {
    /// 0 none, 1 one stone, 2 two or more, 3 a capture that frees an own chain in atari.
    Capture,
    /// Extending an own chain in atari: 0 none, 1 one stone saved, 2 more, 3 into a working ladder.
    Escape,
    /// 0 none, 1 a self-atari of one stone, 2 of more.
    SelfAtari,
    /// An opponent chain with two liberties put in atari: 0 none, 1 yes, 2 and a ladder takes it.
    Atari,
    /// Distance to the opponent's last placement, `dx + dy + max(dx, dy)`: 0 none (pass or start),
    /// 1..=8 for distances 2..=9, 9 for 10 and more.
    LastDistance,
    /// The same from the player's own previous placement.
    OwnLastDistance,
    /// The line from the nearest edge (1..=5, 5 also for farther), and 5 more if the area around
    /// is empty; 0 on a torus.
    Line,
    /// 1 for filling a point surrounded by own stones (an own eye).
    OwnEye,
}

/// The groups in file order, and the number of values each has.
pub const GROUPS: [(Group, &str, usize); 8] = [
    (Group::Capture, "capture", 4),
    (Group::Escape, "escape", 4),
    (Group::SelfAtari, "self_atari", 3),
    (Group::Atari, "atari", 3),
    (Group::LastDistance, "last_distance", 10),
    (Group::OwnLastDistance, "own_last_distance", 10),
    (Group::Line, "line", 11),
    (Group::OwnEye, "own_eye", 2),
];

/// The features of one legal placement.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct MoveFeatures {
    /// The canonical 3x3 key ([`pattern_key`]).
    pub pattern: u32,
    /// One value for each of [`GROUPS`], in order.
    pub values: [u8; 8],
    /// No opponent stone around and at most one empty point: a point inside the player's own
    /// shape, where the model is not consulted (`search::priors`).
    pub enclosed: bool,
}

impl MoveFeatures {
    pub fn set(&mut self, g: Group, v: u8) {
        self.values[g as usize] = v;
    }

    /// A capture of two or more stones, or one that frees an own chain. Professional records
    /// rarely show these (a strong player seldom leaves the chance), so the fitted gammas
    /// undervalue them; the tree gives them a multiple of the position's highest gamma instead
    /// (`PriorWeights::model_capture`).
    pub fn big_capture(&self) -> bool {
        matches!(self.values[Group::Capture as usize], 2 | 3)
    }

    /// An escape from atari that is not into a ladder: undervalued by the records as well, it gets
    /// the position's highest gamma (no more: escapes are often wrong, a stone not worth saving).
    pub fn escape(&self) -> bool {
        matches!(self.values[Group::Escape as usize], 1 | 2)
    }
}

/// The distance bucket of the `LastDistance` group for a move at `(x, y)` after one at `(lx, ly)`.
pub fn distance_bucket((x, y): (usize, usize), (lx, ly): (usize, usize)) -> u8 {
    let (dx, dy) = (x.abs_diff(lx), y.abs_diff(ly));
    let d = dx + dy + dx.max(dy);
    (d.clamp(2, 10) - 1) as u8
}

/// The neighbour order of [`Board::around`]: (dx, dy) of below-left, below, below-right, left,
/// right, above-left, above, above-right.
const AROUND: [(i32, i32); 8] = [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1), (1, 1)];

/// For each of the eight symmetries of the square, where each neighbour goes.
const fn symmetries() -> [[usize; 8]; 8] {
    let mut perms = [[0usize; 8]; 8];
    let mut s = 0;
    while s < 8 {
        let mut i = 0;
        while i < 8 {
            let (x, y) = symmetry(AROUND[i], s);
            let mut j = 0;
            while j < 8 {
                if AROUND[j].0 == x && AROUND[j].1 == y {
                    perms[s][i] = j;
                }
                j += 1;
            }
            i += 1;
        }
        s += 1;
    }
    perms
}

const SYMMETRIES: [[usize; 8]; 8] = symmetries();

/// The 3x3 neighbourhood of the empty point `p` seen by `color`, the same for its eight
/// symmetries: three bits a neighbour (0 empty, 1 own, 2 opponent, 3 edge or wall; 4 and 5 an own
/// and an opponent stone whose chain is in atari, for the four adjacent points only), the smallest
/// key over the symmetries.
pub fn pattern_key<T: Topology>(b: &Board<T>, color: Color, p: Point) -> u32 {
    let own = Cell::stone(color);
    let mut codes = [0u32; 8];
    for (i, q) in b.around(p).into_iter().enumerate() {
        let cell = b.cell(q);
        let adjacent = matches!(i, 1 | 3 | 4 | 6);
        codes[i] = match cell {
            Cell::Empty => 0,
            Cell::Wall => 3,
            c => {
                let base = if c == own { 1 } else { 2 };
                if adjacent && b.in_atari(q) {
                    base + 3
                } else {
                    base
                }
            }
        };
    }
    let mut best = u32::MAX;
    for perm in &SYMMETRIES {
        let mut key = 0u32;
        for i in 0..8 {
            key |= codes[i] << (3 * perm[i]);
        }
        best = best.min(key);
    }
    best
}

/// The fitted weights.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveModel {
    /// For each group of [`GROUPS`], a gamma per value.
    pub groups: Vec<Vec<f32>>,
    /// Gammas of the neighbourhoods seen often enough in training; `other` for the rest.
    pub patterns: HashMap<u32, f32>,
    pub other_pattern: f32,
    /// The pass, a move of its own.
    pub pass: f32,
}

impl Default for MoveModel {
    /// The model that knows nothing: every gamma 1.
    fn default() -> MoveModel {
        MoveModel {
            groups: GROUPS.iter().map(|&(_, _, n)| vec![1.0; n]).collect(),
            patterns: HashMap::new(),
            other_pattern: 1.0,
            pass: 1.0,
        }
    }
}

/// The model compiled in (`move_model.txt`).
pub fn default_model() -> &'static MoveModel {
    static MODEL: OnceLock<MoveModel> = OnceLock::new();
    MODEL.get_or_init(|| MoveModel::parse(include_str!("move_model.txt")).expect("move_model.txt parses"))
}

impl MoveModel {
    /// The strength of a placement with these features.
    pub fn gamma(&self, f: &MoveFeatures) -> f32 {
        let mut g = *self.patterns.get(&f.pattern).unwrap_or(&self.other_pattern);
        for (values, &v) in self.groups.iter().zip(&f.values) {
            g *= values[v as usize];
        }
        g
    }

    /// Reads the text form: `#` comments, then lines `GROUP VALUE GAMMA`, `pattern KEY GAMMA`
    /// (KEY in hexadecimal), `pattern other GAMMA` and `pass - GAMMA`.
    pub fn parse(text: &str) -> Result<MoveModel, String> {
        let mut m = MoveModel::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || format!("line {}: {line}", n + 1);
            let mut words = line.split_whitespace();
            let (Some(group), Some(value), Some(gamma), None) =
                (words.next(), words.next(), words.next(), words.next())
            else {
                return Err(bad());
            };
            let gamma: f32 = gamma.parse().map_err(|_| bad())?;
            if !(gamma.is_finite() && gamma > 0.0) {
                return Err(bad());
            }
            match group {
                "pass" => m.pass = gamma,
                "pattern" if value == "other" => m.other_pattern = gamma,
                "pattern" => {
                    let key = u32::from_str_radix(value, 16).map_err(|_| bad())?;
                    m.patterns.insert(key, gamma);
                }
                _ => {
                    let g = GROUPS.iter().position(|&(_, name, _)| name == group).ok_or_else(bad)?;
                    let v: usize = value.parse().map_err(|_| bad())?;
                    *m.groups[g].get_mut(v).ok_or_else(bad)? = gamma;
                }
            }
        }
        Ok(m)
    }

    /// The text form [`MoveModel::parse`] reads, patterns by key.
    pub fn to_text(&self, header: &str) -> String {
        let mut out = String::new();
        for line in header.lines() {
            out.push_str(&format!("# {line}\n"));
        }
        for (g, &(_, name, _)) in GROUPS.iter().enumerate() {
            for (v, gamma) in self.groups[g].iter().enumerate() {
                out.push_str(&format!("{name} {v} {gamma}\n"));
            }
        }
        out.push_str(&format!("pass - {}\n", self.pass));
        out.push_str(&format!("pattern other {}\n", self.other_pattern));
        let mut keys: Vec<_> = self.patterns.iter().collect();
        keys.sort_by_key(|(k, _)| **k);
        for (k, gamma) in keys {
            out.push_str(&format!("pattern {k:x} {gamma}\n"));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(b: &Board, v: &str) -> Point {
        b.geometry().parse_vertex(v).unwrap()
    }

    #[test]
    fn a_neighbourhood_and_its_mirror_images_share_one_key() {
        // The same hane shape in four corners of the board, rotated and mirrored.
        let b = Board::from_diagram(
            "
            . . . . . . . . .
            . X O . . . O X .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . X O . . . O X .
            . . . . . . . . .
            ",
        );
        let keys: Vec<u32> =
            ["B3", "H3", "B7", "H7"].iter().map(|v| pattern_key(&b, Color::Black, at(&b, v))).collect();
        assert!(keys.iter().all(|&k| k == keys[0]), "{keys:?}");
        // The other colour sees own and opponent swapped: another key.
        assert_ne!(pattern_key(&b, Color::White, at(&b, "B3")), keys[0]);
        // One step aside is another shape.
        assert_ne!(pattern_key(&b, Color::Black, at(&b, "C3")), keys[0]);
    }

    #[test]
    fn atari_marks_the_adjacent_chains() {
        let b = Board::from_diagram(
            "
            . . . . .
            . . . . .
            . O X . .
            . . O . .
            . . . . .
            ",
        );
        // D3 touches the black stone C3, in atari? C3 has liberties C4 and D3: no.
        let before = pattern_key(&b, Color::White, at(&b, "D3"));
        let b2 = Board::from_diagram(
            "
            . . . . .
            . . O . .
            . O X . .
            . . O . .
            . . . . .
            ",
        );
        // Now C3's last liberty is D3.
        let after = pattern_key(&b2, Color::White, at(&b2, "D3"));
        assert_ne!(before, after);
    }

    #[test]
    fn the_text_form_round_trips() {
        let mut m = MoveModel::default();
        m.groups[0][2] = 3.5;
        m.patterns.insert(0x1234, 0.25);
        m.pass = 0.01;
        let back = MoveModel::parse(&m.to_text("a test")).unwrap();
        assert_eq!(back, m);
        assert!(MoveModel::parse("capture 9 1.0").is_err());
        assert!(MoveModel::parse("capture 1 -1").is_err());
        assert!(MoveModel::parse("nonsense 1 1").is_err());
    }

    #[test]
    fn the_compiled_model_parses() {
        let m = default_model();
        assert_eq!(m.groups.len(), GROUPS.len());
    }
}
