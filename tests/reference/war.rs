//! A deliberately simple reference implementation of RULES.md section 7 (War Go), written from the
//! rules text alone and sharing no code with `src/rules/war`: the board is a grid of small numbers
//! indexed by (column, row), every chain and its liberties are found by flood fill over the whole
//! board after every turn, superko compares whole grids, and every turn builds a new state.
//! `tests/rules_war_reference.rs` plays random games on it and on the engine side by side.
//!
//! Readings shared with the engine (RULES.md leaves them to the implementation): the suicide test
//! looks at every chain of the mover's after the captures; a capture ban and protection are judged on
//! the board as the turn leaves it before any capture; the mercenaries left without an empty neighbour
//! are removed after the suicide test; a delayed bomb's chain is captured whole (its stones are
//! prisoners) and only then do its neighbours go.

use std::collections::HashSet;

/// Piece kinds, numbered here for this file only.
pub const SOLDIER: u8 = 0;
pub const AMBASSADOR: u8 = 1;
pub const BOMB: u8 = 2;
pub const WALL: u8 = 3;
pub const SPY: u8 = 4;
pub const MONK: u8 = 5;
pub const TAO: u8 = 6;
pub const MERCENARY: u8 = 7;
pub const SAMURAI: u8 = 8;
pub const CAVALRY: u8 = 9;

/// The army kinds in RULES.md's order, with their names in move words.
pub const ARMY: [(u8, &str); 9] = [
    (AMBASSADOR, "ambassador"),
    (BOMB, "bomb"),
    (WALL, "wall"),
    (SPY, "spy"),
    (MONK, "monk"),
    (TAO, "tao"),
    (MERCENARY, "mercenary"),
    (SAMURAI, "samurai"),
    (CAVALRY, "cavalry"),
];

/// What stands on a point.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Spot {
    Empty,
    /// A piece with a colour (1 Black, 2 White).
    Stone(u8, u8),
    Neutral(u8),
}

/// A turn, by coordinates.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Turn {
    Soldier(usize, usize),
    Drop(u8, usize, usize, bool),
    Step((usize, usize), (usize, usize)),
    Pass,
}

#[derive(Clone, Debug)]
pub struct War {
    pub size: usize,
    pub grid: Vec<Spot>,
    pub to_move: u8,
    /// Army counts per colour (index 1 and 2), by kind number.
    pub hand: [[u32; 10]; 3],
    pub prisoners: [u32; 3],
    pub passes: u32,
    pub komi: f64,
    /// Every board of the game so far (positional superko).
    pub seen: Vec<Vec<Spot>>,
}

/// A chain: its colour, its stones, whether it has a liberty.
type Chain = (u8, Vec<(usize, usize)>, bool);

const LETTERS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl War {
    /// A new game: `army` counts in ARMY order for both players, pieces standing at the start.
    pub fn new(size: usize, army: [u32; 9], start: &[((usize, usize), Spot)], komi: f64) -> War {
        let mut grid = vec![Spot::Empty; size * size];
        for &((x, y), s) in start {
            grid[y * size + x] = s;
        }
        let mut hand = [[0; 10]; 3];
        for side in hand.iter_mut().skip(1) {
            for (i, &(k, _)) in ARMY.iter().enumerate() {
                side[k as usize] = army[i];
            }
        }
        War { size, seen: vec![grid.clone()], grid, to_move: 1, hand, prisoners: [0; 3], passes: 0, komi }
    }

    pub fn at(&self, x: usize, y: usize) -> Spot {
        self.grid[y * self.size + x]
    }

    fn put(&mut self, x: usize, y: usize, s: Spot) {
        self.grid[y * self.size + x] = s;
    }

    /// The on-board points one step away.
    fn around(&self, x: usize, y: usize) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        if x > 0 {
            v.push((x - 1, y));
        }
        if x + 1 < self.size {
            v.push((x + 1, y));
        }
        if y > 0 {
            v.push((x, y - 1));
        }
        if y + 1 < self.size {
            v.push((x, y + 1));
        }
        v
    }

    fn colour(&self, x: usize, y: usize) -> u8 {
        match self.at(x, y) {
            Spot::Stone(c, _) => c,
            _ => 0,
        }
    }

    /// Every chain on the board with whether it has a liberty.
    fn chains(&self) -> Vec<Chain> {
        let mut done = vec![false; self.size * self.size];
        let mut out = Vec::new();
        for y in 0..self.size {
            for x in 0..self.size {
                let c = self.colour(x, y);
                if c == 0 || done[y * self.size + x] {
                    continue;
                }
                let mut chain = vec![(x, y)];
                done[y * self.size + x] = true;
                let mut free = false;
                let mut i = 0;
                while i < chain.len() {
                    let (cx, cy) = chain[i];
                    i += 1;
                    for (nx, ny) in self.around(cx, cy) {
                        if self.at(nx, ny) == Spot::Empty {
                            free = true;
                        } else if self.colour(nx, ny) == c && !done[ny * self.size + nx] {
                            done[ny * self.size + nx] = true;
                            chain.push((nx, ny));
                        }
                    }
                }
                out.push((c, chain, free));
            }
        }
        out
    }

    /// RULES.md 7: an ambassador, a neighbour of any ambassador, or a neighbour of a samurai or
    /// cavalry of its own colour.
    fn protected(&self, x: usize, y: usize) -> bool {
        let Spot::Stone(c, k) = self.at(x, y) else { return false };
        if k == AMBASSADOR {
            return true;
        }
        self.around(x, y).into_iter().any(|(nx, ny)| match self.at(nx, ny) {
            Spot::Stone(_, AMBASSADOR) => true,
            Spot::Stone(nc, SAMURAI) | Spot::Stone(nc, CAVALRY) => nc == c,
            _ => false,
        })
    }

    /// RULES.md 7: a piece ending next to an ambassador, or within Manhattan distance 2 of a monk
    /// (other than itself), may not capture.
    fn banned(&self, x: usize, y: usize) -> bool {
        for yy in 0..self.size {
            for xx in 0..self.size {
                let d = x.abs_diff(xx) + y.abs_diff(yy);
                match self.at(xx, yy) {
                    Spot::Stone(_, AMBASSADOR) if d == 1 => return true,
                    Spot::Stone(_, MONK) if d == 1 || d == 2 => return true,
                    _ => {}
                }
            }
        }
        false
    }

    fn empties_around(&self, x: usize, y: usize) -> usize {
        self.around(x, y).into_iter().filter(|&(a, b)| self.at(a, b) == Spot::Empty).count()
    }

    fn in_zone(&self, x: usize, y: usize) -> bool {
        (0..self.size).any(|yy| {
            (0..self.size)
                .any(|xx| self.at(xx, yy) == Spot::Neutral(TAO) && x.abs_diff(xx) <= 2 && y.abs_diff(yy) <= 2)
        })
    }

    /// May `color` move the piece on `from` to `to`? (RULES.md 7's movement rules alone.)
    fn may_step(&self, color: u8, from: (usize, usize), to: (usize, usize)) -> bool {
        if self.at(to.0, to.1) != Spot::Empty {
            return false;
        }
        let dx = to.0 as i32 - from.0 as i32;
        let dy = to.1 as i32 - from.1 as i32;
        let next_to = dx.abs() + dy.abs() == 1;
        // The freedoms of `to` once the piece has left `from`.
        let mut lifted = self.clone();
        lifted.put(from.0, from.1, Spot::Empty);
        let freedoms = lifted.empties_around(to.0, to.1);
        match self.at(from.0, from.1) {
            Spot::Neutral(MERCENARY) => next_to,
            Spot::Stone(c, SAMURAI) => c == color && next_to && freedoms >= 3,
            Spot::Stone(c, CAVALRY) => {
                let via = match (dx.abs(), dy.abs()) {
                    (2, 1) => ((from.0 as i32 + dx.signum()) as usize, from.1),
                    (1, 2) => (from.0, (from.1 as i32 + dy.signum()) as usize),
                    _ => return false,
                };
                c == color && self.at(via.0, via.1) == Spot::Empty && freedoms >= 3
            }
            Spot::Stone(c, SOLDIER) => c == color && next_to && self.in_zone(from.0, from.1),
            _ => false,
        }
    }

    /// The state after `color` plays `turn`, or `None` when RULES.md 7 forbids it.
    pub fn after(&self, color: u8, turn: Turn) -> Option<War> {
        let mut w = self.clone();
        let opp = 3 - color;
        if turn == Turn::Pass {
            w.passes += 1;
            w.to_move = opp;
            return Some(w);
        }
        let (tx, ty) = match turn {
            Turn::Soldier(x, y) | Turn::Drop(_, x, y, _) => (x, y),
            Turn::Step(_, to) => to,
            Turn::Pass => unreachable!(),
        };
        if tx >= self.size || ty >= self.size || self.at(tx, ty) != Spot::Empty {
            return None;
        }
        let mut mercenary = false;
        match turn {
            Turn::Soldier(..) => w.put(tx, ty, Spot::Stone(color, SOLDIER)),
            Turn::Drop(kind, _, _, now) => {
                if w.hand[color as usize][kind as usize] == 0 {
                    return None;
                }
                w.hand[color as usize][kind as usize] -= 1;
                if kind == BOMB && now {
                    for (nx, ny) in w.around(tx, ty) {
                        if w.at(nx, ny) != Spot::Neutral(WALL) {
                            w.put(nx, ny, Spot::Empty);
                        }
                    }
                    return w.finish(color);
                }
                if kind == SPY {
                    for (nx, ny) in w.around(tx, ty) {
                        if let Spot::Stone(c, SOLDIER) = w.at(nx, ny) {
                            w.put(nx, ny, Spot::Stone(3 - c, SOLDIER));
                        }
                    }
                    w.put(tx, ty, Spot::Stone(color, SOLDIER));
                } else if kind == WALL || kind == TAO || kind == MERCENARY {
                    w.put(tx, ty, Spot::Neutral(kind));
                } else {
                    w.put(tx, ty, Spot::Stone(color, kind));
                }
            }
            Turn::Step(from, _) => {
                if from.0 >= self.size || from.1 >= self.size || !self.may_step(color, from, (tx, ty)) {
                    return None;
                }
                mercenary = self.at(from.0, from.1) == Spot::Neutral(MERCENARY);
                let piece = w.at(from.0, from.1);
                w.put(from.0, from.1, Spot::Empty);
                w.put(tx, ty, piece);
            }
            Turn::Pass => unreachable!(),
        }
        let taken: Vec<(u8, Vec<(usize, usize)>)> = w
            .chains()
            .into_iter()
            .filter(|(c, _, free)| !free && (mercenary || *c == opp))
            .map(|(c, chain, _)| (c, chain))
            .collect();
        if !taken.is_empty() {
            if taken.iter().any(|(_, chain)| chain.iter().any(|&(x, y)| w.protected(x, y))) {
                return None;
            }
            if w.banned(tx, ty) {
                return None;
            }
            let mut bombs = Vec::new();
            for (c, chain) in &taken {
                for &(x, y) in chain {
                    if w.at(x, y) == Spot::Stone(*c, BOMB) {
                        bombs.push((x, y));
                    }
                    w.put(x, y, Spot::Empty);
                }
                w.prisoners[3 - *c as usize] += chain.len() as u32;
            }
            for (bx, by) in bombs {
                for (nx, ny) in w.around(bx, by) {
                    if w.at(nx, ny) != Spot::Neutral(WALL) {
                        w.put(nx, ny, Spot::Empty);
                    }
                }
            }
        }
        if !mercenary && w.chains().iter().any(|(c, _, free)| *c == color && !free) {
            return None;
        }
        w.finish(color)
    }

    /// The end of every turn but a pass: mercenaries without an empty neighbour go, superko.
    fn finish(mut self, color: u8) -> Option<War> {
        let boxed: Vec<(usize, usize)> = (0..self.size * self.size)
            .map(|i| (i % self.size, i / self.size))
            .filter(|&(x, y)| self.at(x, y) == Spot::Neutral(MERCENARY) && self.empties_around(x, y) == 0)
            .collect();
        for (x, y) in boxed {
            self.put(x, y, Spot::Empty);
        }
        if self.seen.contains(&self.grid) {
            return None;
        }
        self.seen.push(self.grid.clone());
        self.passes = 0;
        self.to_move = 3 - color;
        Some(self)
    }

    /// Every turn `color` may take, as move words, pass included.
    pub fn legal_words(&self, color: u8) -> HashSet<String> {
        let mut out = HashSet::new();
        for (turn, word) in self.candidates(color) {
            if self.after(color, turn).is_some() {
                out.insert(word);
            }
        }
        out.insert("pass".into());
        out
    }

    /// Every turn worth trying, with its word (legal or not).
    pub fn candidates(&self, color: u8) -> Vec<(Turn, String)> {
        let mut v = Vec::new();
        let n = self.size;
        for y in 0..n {
            for x in 0..n {
                let here = self.vertex(x, y);
                if self.at(x, y) == Spot::Empty {
                    v.push((Turn::Soldier(x, y), here.clone()));
                    for &(k, name) in &ARMY {
                        if self.hand[color as usize][k as usize] > 0 {
                            v.push((Turn::Drop(k, x, y, false), format!("{name}@{here}")));
                            if k == BOMB {
                                v.push((Turn::Drop(k, x, y, true), format!("bomb!@{here}")));
                            }
                        }
                    }
                }
                for ty in 0..n {
                    for tx in 0..n {
                        if x.abs_diff(tx) + y.abs_diff(ty) <= 3
                            && (tx, ty) != (x, y)
                            && self.at(x, y) != Spot::Empty
                        {
                            v.push((Turn::Step((x, y), (tx, ty)), format!("{here}-{}", self.vertex(tx, ty))));
                        }
                    }
                }
            }
        }
        v
    }

    pub fn vertex(&self, x: usize, y: usize) -> String {
        format!("{}{}", LETTERS[x] as char, y + 1)
    }

    /// Area: stones plus empty regions touching one colour only; neutral pieces count for nobody.
    pub fn area(&self) -> [u32; 3] {
        let mut score = [0; 3];
        let mut done = vec![false; self.size * self.size];
        for y in 0..self.size {
            for x in 0..self.size {
                match self.at(x, y) {
                    Spot::Stone(c, _) => score[c as usize] += 1,
                    Spot::Empty if !done[y * self.size + x] => {
                        let mut region = vec![(x, y)];
                        done[y * self.size + x] = true;
                        let mut touch = [false; 3];
                        let mut i = 0;
                        while i < region.len() {
                            let (rx, ry) = region[i];
                            i += 1;
                            for (nx, ny) in self.around(rx, ry) {
                                match self.at(nx, ny) {
                                    Spot::Empty if !done[ny * self.size + nx] => {
                                        done[ny * self.size + nx] = true;
                                        region.push((nx, ny));
                                    }
                                    Spot::Stone(c, _) => touch[c as usize] = true,
                                    _ => {}
                                }
                            }
                        }
                        if touch[1] != touch[2] {
                            score[if touch[1] { 1 } else { 2 }] += region.len() as u32;
                        }
                    }
                    _ => {}
                }
            }
        }
        score
    }

    /// The result string after two passes: `B+3.5`, `W+0.5`, `0`.
    pub fn result(&self) -> String {
        let a = self.area();
        let margin = a[1] as f64 - a[2] as f64 - self.komi;
        if margin == 0.0 {
            "0".into()
        } else if margin > 0.0 {
            format!("B+{margin}")
        } else {
            format!("W+{}", -margin)
        }
    }

    /// The board as rows, top first, in the engine's letters (`X`/`O` soldiers, `A B M S C` Black's
    /// pieces and lower case White's, `#` wall, `T` tao, `R` mercenary).
    pub fn rows(&self) -> Vec<String> {
        (0..self.size)
            .rev()
            .map(|y| {
                (0..self.size)
                    .map(|x| match self.at(x, y) {
                        Spot::Empty => '.',
                        Spot::Neutral(WALL) => '#',
                        Spot::Neutral(TAO) => 'T',
                        Spot::Neutral(_) => 'R',
                        Spot::Stone(c, k) => {
                            let l = match k {
                                SOLDIER => return if c == 1 { 'X' } else { 'O' },
                                AMBASSADOR => 'A',
                                BOMB => 'B',
                                MONK => 'M',
                                SAMURAI => 'S',
                                _ => 'C',
                            };
                            if c == 1 {
                                l
                            } else {
                                l.to_ascii_lowercase()
                            }
                        }
                    })
                    .collect()
            })
            .collect()
    }
}
