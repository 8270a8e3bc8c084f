//! A deliberately simple reference implementation of RULES.md (sections 1 to 4, 5.1 and 6), written from the
//! rules text alone and sharing no code with `src/board` or `src/rules`: the board is a plain grid of
//! bytes, groups and liberties are found by flood fill every time, a stake is remembered on the stone it
//! was set beside (so a group's stakes are the sum over its stones: they merge and leave with it for
//! free), repetition is judged by comparing whole grids, and undo restores a saved copy of everything.
//! It is slow on purpose: every line should be checkable against RULES.md by eye.
//!
//! `tests/rules_reference.rs` cross-checks the engine against it over GTP; `tests/gogui_referee.rs`
//! and `tests/gtp_games.rs` replay whole games on it.
//!
//! Where RULES.md leaves a reading open, the reference takes the one named here (and the engine must
//! agree): a pass or a button take creates a situation too (the position with the other player to move),
//! which situational superko remembers; GTP lets either colour move, and after any move the player to
//! move is the mover's opponent ("the opponent's previous move" is the game's previous move when the
//! opponent made it); a game ended by two passes is resumed by a further move, with the pass count
//! starting again (as GNU Go and KataGo do, for controllers that play on); over GTP, `pass` stands for the
//! button, a return or a stake exactly as RULES.md sections 2 and 3 say.

#![allow(dead_code)] // each test crate that includes it uses its own subset
use std::collections::HashMap;

pub mod war;

pub const EMPTY: u8 = 0;
pub const BLACK: u8 = 1;
pub const WHITE: u8 = 2;
pub const WALL: u8 = 3;

/// The other colour.
pub fn opp(c: u8) -> u8 {
    3 - c
}

/// GTP column letters (no I).
pub const COLUMNS: &[u8] = b"ABCDEFGHJKLMNOPQRSTUVWXYZ";

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Variant {
    Go,
    Stones,
    Stoical,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ko {
    Simple,
    Positional,
    Situational,
}

/// A rules choice (RULES.md's options), with the rules string that selects it.
#[derive(Clone, Debug)]
pub struct Rules {
    pub variant: Variant,
    pub territory: bool,
    pub ko: Ko,
    pub suicide: bool,
    pub button: bool,
    pub threshold: i32,
    pub compensation: i32,
    pub snapback: bool,
    /// Komi set by the rules string itself (`komi=`), if any.
    pub komi: Option<f64>,
    /// Walls as (column, row), both from 0, row 0 at the bottom.
    pub walls: Vec<(usize, usize)>,
    /// RULES.md 5.1: the edges wrap.
    pub torus: bool,
}

impl Rules {
    /// RULES.md's defaults for a variant.
    pub fn new(variant: Variant) -> Rules {
        Rules {
            variant,
            territory: false,
            ko: Ko::Simple,
            suicide: false,
            button: false,
            threshold: 7,
            compensation: 6,
            snapback: false,
            komi: None,
            walls: Vec::new(),
            torus: false,
        }
    }

    /// The rules string in GTP.md's syntax.
    pub fn to_gtp(&self) -> String {
        let mut opts: Vec<String> = Vec::new();
        let name = match self.variant {
            Variant::Go => {
                opts.push(format!("scoring={}", if self.territory { "territory" } else { "area" }));
                opts.push(format!(
                    "ko={}",
                    match self.ko {
                        Ko::Simple => "simple",
                        Ko::Positional => "positional",
                        Ko::Situational => "situational",
                    }
                ));
                opts.push(format!("suicide={}", if self.suicide { "allowed" } else { "forbidden" }));
                opts.push(format!("button={}", if self.button { "on" } else { "off" }));
                "go"
            }
            Variant::Stones => {
                opts.push(format!("threshold={}", self.threshold));
                opts.push(format!("compensation={}", self.compensation));
                "stones"
            }
            Variant::Stoical => {
                opts.push(format!("snapback={}", if self.snapback { "on" } else { "off" }));
                "stoical"
            }
        };
        if let Some(k) = self.komi {
            opts.push(format!("komi={k}"));
        }
        if !self.walls.is_empty() {
            let names: Vec<String> =
                self.walls.iter().map(|&(x, y)| format!("{}{}", COLUMNS[x] as char, y + 1)).collect();
            opts.push(format!("walls={}", names.join("+")));
        }
        if self.torus {
            opts.push("torus=on".to_string());
        }
        format!("{name}:{}", opts.join(","))
    }

    /// The komi when neither the controller nor the string set one (RULES.md 2: 7.5 with area scoring,
    /// 6.5 with territory scoring; RULES.md 4: Stoical Go uses area scoring).
    pub fn default_komi(&self) -> f64 {
        if self.variant == Variant::Go && self.territory {
            6.5
        } else {
            7.5
        }
    }
}

/// A move. `Stake` names a point of the staked group.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Mv {
    Place(usize),
    Pass,
    Button,
    Return,
    Stake(usize),
}

/// How a game ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum End {
    /// Two consecutive passes: the result is the count.
    TwoPasses,
    /// Stones: a decisive move, or (`no_move`) the opponent had no legal move. `lead` is the winner's
    /// lead then.
    Won { winner: u8, lead: i32, no_move: bool },
    /// Stoical Go: a placement repeated an earlier position.
    Draw,
}

/// The previous move, as far as Stoical Go's capture ban needs it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct LastPlacement {
    color: u8,
    captured: usize,
    /// A snapback's first capture: (the point it vacated, the capturing stone).
    snapback_first: Option<(usize, usize)>,
}

#[derive(Clone, Debug)]
struct State {
    grid: Vec<u8>,
    /// Stakes set beside each stone (Stones); a group's stakes are the sum over its stones.
    stakes: Vec<u32>,
    to_move: u8,
    /// Indexed by colour (1 black, 2 white).
    prisoners: [i32; 3],
    passes: u32,
    button: Option<u8>,
    /// The previous move when it was a placement (`None` after a pass, a button, a return, a stake).
    last: Option<LastPlacement>,
    end: Option<End>,
}

/// What a placement does to the grid.
struct Placed {
    grid: Vec<u8>,
    stakes: Vec<u32>,
    captured: usize,
    captured_stakes: u32,
    suicided: usize,
    suicided_stakes: u32,
    /// The captured stone when exactly one was captured.
    single: Option<usize>,
}

/// One game under the reference rules.
pub struct Game {
    pub size: usize,
    pub rules: Rules,
    pub komi: f64,
    state: State,
    /// Every board position that arose (the start included) with the player to move then, in order.
    history: Vec<(Vec<u8>, u8)>,
    positions: HashMap<Vec<u8>, u32>,
    situations: HashMap<(Vec<u8>, u8), u32>,
    /// The state before each move, with the history length then.
    undo: Vec<(State, usize)>,
}

impl Game {
    pub fn new(size: usize, rules: Rules, komi: f64) -> Game {
        let mut grid = vec![EMPTY; size * size];
        for &(x, y) in &rules.walls {
            if x < size && y < size {
                grid[y * size + x] = WALL;
            }
        }
        let mut prisoners = [0; 3];
        if rules.variant == Variant::Stones {
            prisoners[WHITE as usize] = rules.compensation;
        }
        let state = State {
            stakes: vec![0; size * size],
            grid,
            to_move: BLACK,
            prisoners,
            passes: 0,
            button: None,
            last: None,
            end: None,
        };
        let mut g = Game {
            size,
            rules,
            komi,
            state,
            history: Vec::new(),
            positions: HashMap::new(),
            situations: HashMap::new(),
            undo: Vec::new(),
        };
        g.record_position();
        g.lose_without_moves();
        g
    }

    pub fn vertex(&self, p: usize) -> String {
        format!("{}{}", COLUMNS[p % self.size] as char, p / self.size + 1)
    }

    /// The point a GTP vertex (`C4`) names on this board, if any.
    pub fn point(&self, vertex: &str) -> Option<usize> {
        let letter = vertex.as_bytes().first()?.to_ascii_uppercase();
        let x = COLUMNS.iter().position(|&c| c == letter)?;
        let y: usize = vertex.get(1..)?.parse().ok()?;
        (x < self.size && (1..=self.size).contains(&y)).then(|| (y - 1) * self.size + x)
    }

    pub fn to_move(&self) -> u8 {
        self.state.to_move
    }

    pub fn prisoners(&self, c: u8) -> i32 {
        self.state.prisoners[c as usize]
    }

    pub fn cell(&self, p: usize) -> u8 {
        self.state.grid[p]
    }

    pub fn end(&self) -> Option<End> {
        self.state.end
    }

    /// The rows top first: `X` black, `O` white, `.` empty, `?` wall (GoGui's `gogui-rules_board`).
    pub fn board_rows(&self) -> String {
        let mut rows = Vec::new();
        for y in (0..self.size).rev() {
            let row: String = (0..self.size)
                .map(|x| match self.state.grid[y * self.size + x] {
                    BLACK => 'X',
                    WHITE => 'O',
                    WALL => '?',
                    _ => '.',
                })
                .collect();
            rows.push(row);
        }
        rows.join("\n")
    }

    /// The points beside `p`: on a torus (RULES.md 5.1) "(x+-1 mod N, y) and (x, y+-1 mod N)".
    pub fn neighbours(&self, p: usize) -> Vec<usize> {
        let (x, y, n) = (p % self.size, p / self.size, self.size);
        if self.rules.torus {
            return vec![
                y * n + (x + n - 1) % n,
                y * n + (x + 1) % n,
                (y + n - 1) % n * n + x,
                (y + 1) % n * n + x,
            ];
        }
        let mut v = Vec::with_capacity(4);
        if x > 0 {
            v.push(p - 1);
        }
        if x + 1 < n {
            v.push(p + 1);
        }
        if y > 0 {
            v.push(p - n);
        }
        if y + 1 < n {
            v.push(p + n);
        }
        v
    }

    /// The group through the stone at `p` in `grid` and its distinct liberties, by flood fill.
    fn group(&self, grid: &[u8], p: usize) -> (Vec<usize>, Vec<usize>) {
        let colour = grid[p];
        let mut seen = vec![false; grid.len()];
        seen[p] = true;
        let mut stones = vec![p];
        let mut libs = Vec::new();
        let mut i = 0;
        while i < stones.len() {
            for q in self.neighbours(stones[i]) {
                if !seen[q] && grid[q] == colour {
                    seen[q] = true;
                    stones.push(q);
                } else if !seen[q] && grid[q] == EMPTY {
                    seen[q] = true;
                    libs.push(q);
                }
            }
            i += 1;
        }
        (stones, libs)
    }

    /// RULES.md 1: place the stone, remove every opponent group left without liberties, then the mover's
    /// own group if it has none.
    fn place(&self, color: u8, p: usize) -> Placed {
        let mut grid = self.state.grid.clone();
        let mut stakes = self.state.stakes.clone();
        grid[p] = color;
        let (mut captured, mut captured_stakes, mut single) = (0, 0, None);
        for q in self.neighbours(p) {
            if grid[q] == opp(color) {
                let (stones, libs) = self.group(&grid, q);
                if libs.is_empty() {
                    for &s in &stones {
                        grid[s] = EMPTY;
                        captured_stakes += stakes[s];
                        stakes[s] = 0;
                    }
                    captured += stones.len();
                    single = Some(stones[0]);
                }
            }
        }
        if captured != 1 {
            single = None;
        }
        let (mut suicided, mut suicided_stakes) = (0, 0);
        let (stones, libs) = self.group(&grid, p);
        if libs.is_empty() {
            for &s in &stones {
                grid[s] = EMPTY;
                suicided_stakes += stakes[s];
                stakes[s] = 0;
            }
            suicided = stones.len();
        }
        Placed { grid, stakes, captured, captured_stakes, suicided, suicided_stakes, single }
    }

    fn lead(prisoners: &[i32; 3], c: u8) -> i32 {
        prisoners[c as usize] - prisoners[opp(c) as usize]
    }

    /// RULES.md 3: "Black needs T − C, White T + C".
    fn threshold(&self, c: u8) -> i32 {
        if c == BLACK {
            self.rules.threshold - self.rules.compensation
        } else {
            self.rules.threshold + self.rules.compensation
        }
    }

    /// RULES.md 3, group staking: may `color` stake at all (at least one group, every group at two
    /// liberties or fewer)?
    fn may_stake(&self, color: u8) -> bool {
        let grid = &self.state.grid;
        let mut any = false;
        for p in 0..grid.len() {
            if grid[p] == color {
                any = true;
                if self.group(grid, p).1.len() > 2 {
                    return false;
                }
            }
        }
        any
    }

    /// Stakes and liberties of the group through `p`.
    fn group_stakes_and_liberties(&self, p: usize) -> (u32, usize) {
        let (stones, libs) = self.group(&self.state.grid, p);
        (stones.iter().map(|&s| self.state.stakes[s]).sum(), libs.len())
    }

    /// The state after `color` plays `mv` from `base`, or `None` if the move is illegal. The second value
    /// says whether the move adds a board position to the history.
    fn after(&self, base: &State, color: u8, mv: Mv) -> Option<(State, bool)> {
        if base.end.is_some() {
            return None;
        }
        let v = self.rules.variant;
        let mut s = base.clone();
        s.to_move = opp(color);
        match mv {
            Mv::Place(p) => {
                if p >= base.grid.len() || base.grid[p] != EMPTY {
                    return None;
                }
                let joined = self.neighbours(p).iter().any(|&q| base.grid[q] == color);
                let r = self.place(color, p);
                match v {
                    Variant::Go => {
                        // RULES.md 2: suicide forbidden, or allowed for several stones only.
                        if r.suicided > 0 && (!self.rules.suicide || r.suicided == 1) {
                            return None;
                        }
                        match self.rules.ko {
                            // "may not recreate the position of one move ago"
                            Ko::Simple => {
                                if self.undo.last().is_some_and(|(before, _)| before.grid == r.grid) {
                                    return None;
                                }
                            }
                            // "no earlier position"
                            Ko::Positional => {
                                if self.positions.contains_key(&r.grid) {
                                    return None;
                                }
                            }
                            // "no earlier position with the same player to move"
                            Ko::Situational => {
                                if self.situations.contains_key(&(r.grid.clone(), opp(color))) {
                                    return None;
                                }
                            }
                        }
                    }
                    // RULES.md 3: suicide allowed, positional superko (a lone suicide repeats).
                    Variant::Stones => {
                        if self.positions.contains_key(&r.grid) {
                            return None;
                        }
                    }
                    Variant::Stoical => {
                        if r.suicided > 0 {
                            return None;
                        }
                        // RULES.md 4: no capture right after the opponent's capturing placement, except
                        // (option) a snapback's second capture.
                        if let Some(last) = base.last {
                            if r.captured > 0 && last.color == opp(color) && last.captured > 0 {
                                let snapback = self.rules.snapback
                                    && last.snapback_first.is_some_and(|(vacated, capturer)| {
                                        p == vacated
                                            && r.grid[capturer] == EMPTY
                                            && self.group(&r.grid, p).1.len() >= 2
                                    });
                                if !snapback {
                                    return None;
                                }
                            }
                        }
                    }
                }
                s.prisoners[color as usize] += r.captured as i32 + r.captured_stakes as i32;
                s.prisoners[opp(color) as usize] += r.suicided as i32 + r.suicided_stakes as i32;
                s.passes = 0;
                s.last = Some(LastPlacement {
                    color,
                    captured: r.captured,
                    snapback_first: if r.captured == 1 && joined { r.single.map(|v| (v, p)) } else { None },
                });
                if v == Variant::Stones {
                    let taken = r.captured as i32 + r.captured_stakes as i32;
                    let lead = Game::lead(&s.prisoners, color);
                    if taken >= 2 && lead >= self.threshold(color) {
                        s.end = Some(End::Won { winner: color, lead, no_move: false });
                    }
                }
                if v == Variant::Stoical && self.positions.contains_key(&r.grid) {
                    s.end = Some(End::Draw);
                }
                s.grid = r.grid;
                s.stakes = r.stakes;
                Some((s, true))
            }
            Mv::Pass => {
                let allowed = match v {
                    Variant::Go => !(self.rules.button && base.button.is_none()),
                    Variant::Stones => false,
                    Variant::Stoical => true,
                };
                if !allowed {
                    return None;
                }
                s.passes += 1;
                s.last = None;
                if s.passes >= 2 {
                    s.end = Some(End::TwoPasses);
                }
                Some((s, true))
            }
            Mv::Button => {
                if v != Variant::Go || !self.rules.button || base.button.is_some() {
                    return None;
                }
                s.button = Some(color);
                s.passes = 0;
                s.last = None;
                Some((s, true))
            }
            Mv::Return => {
                if v != Variant::Stones || Game::lead(&base.prisoners, color) <= 0 {
                    return None;
                }
                s.prisoners[color as usize] -= 1;
                s.last = None;
                Some((s, false))
            }
            Mv::Stake(p) => {
                if v != Variant::Stones
                    || p >= base.grid.len()
                    || base.grid[p] != color
                    || !self.may_stake(color)
                {
                    return None;
                }
                let (stakes, libs) = self.group_stakes_and_liberties(p);
                if stakes as usize >= libs {
                    return None;
                }
                s.stakes[p] += 1;
                s.last = None;
                Some((s, false))
            }
        }
    }

    /// The state a move is judged from: a game ended by two passes is resumed by a further move.
    fn base(&self) -> State {
        let mut base = self.state.clone();
        if base.end == Some(End::TwoPasses) {
            base.end = None;
            base.passes = 0;
        }
        base
    }

    pub fn is_legal(&self, color: u8, mv: Mv) -> bool {
        self.after(&self.state, color, mv).is_some()
    }

    /// Plays `mv` for `color`; `false` (and nothing changes) if it is illegal.
    pub fn play(&mut self, color: u8, mv: Mv) -> bool {
        let Some((next, adds_position)) = self.after(&self.base(), color, mv) else { return false };
        self.undo.push((self.state.clone(), self.history.len()));
        self.state = next;
        if adds_position {
            self.record_position();
        }
        self.lose_without_moves();
        true
    }

    fn record_position(&mut self) {
        let grid = self.state.grid.clone();
        let to_move = self.state.to_move;
        *self.positions.entry(grid.clone()).or_default() += 1;
        *self.situations.entry((grid.clone(), to_move)).or_default() += 1;
        self.history.push((grid, to_move));
    }

    /// RULES.md 3: the player to move with no legal move at all loses.
    fn lose_without_moves(&mut self) {
        let c = self.state.to_move;
        if self.rules.variant == Variant::Stones && self.state.end.is_none() && !self.has_legal_move(c) {
            let winner = opp(c);
            let lead = Game::lead(&self.state.prisoners, winner);
            self.state.end = Some(End::Won { winner, lead, no_move: true });
        }
    }

    pub fn undo(&mut self) -> bool {
        let Some((state, len)) = self.undo.pop() else { return false };
        for (grid, to_move) in self.history.drain(len..) {
            let n = self.positions.get_mut(&grid).unwrap();
            *n -= 1;
            if *n == 0 {
                self.positions.remove(&grid);
            }
            let key = (grid, to_move);
            let n = self.situations.get_mut(&key).unwrap();
            *n -= 1;
            if *n == 0 {
                self.situations.remove(&key);
            }
        }
        self.state = state;
        true
    }

    /// The pass-like moves (pass, button, return, a stake on any group) legal for `color`.
    fn pass_like(&self, color: u8) -> Vec<Mv> {
        let mut moves: Vec<Mv> =
            [Mv::Pass, Mv::Button, Mv::Return].into_iter().filter(|&m| self.is_legal(color, m)).collect();
        // Staking is judged stone by stone below; most of the time the player may not stake at all.
        if self.rules.variant == Variant::Stones && self.may_stake(color) {
            for p in 0..self.state.grid.len() {
                if self.is_legal(color, Mv::Stake(p)) {
                    moves.push(Mv::Stake(p));
                }
            }
        }
        moves
    }

    fn has_legal_move(&self, color: u8) -> bool {
        (0..self.state.grid.len()).any(|p| self.is_legal(color, Mv::Place(p)))
            || !self.pass_like(color).is_empty()
    }

    /// The legal placements for `color`, and whether some pass-like move is legal (empty once over).
    pub fn legal(&self, color: u8) -> (Vec<usize>, bool) {
        let placements = (0..self.state.grid.len()).filter(|&p| self.is_legal(color, Mv::Place(p))).collect();
        (placements, !self.pass_like(color).is_empty())
    }

    /// The move a GTP `pass` stands for: the button while it is untaken (RULES.md 2); in Stones a return
    /// when legal, else a stake on the eligible group with the most stones, ties to the group holding the
    /// first point in A1, B1, ... order (RULES.md 3); otherwise a pass.
    pub fn pass_move(&self, color: u8) -> Mv {
        match self.rules.variant {
            Variant::Go if self.rules.button && self.state.button.is_none() => Mv::Button,
            Variant::Stones => {
                if self.is_legal(color, Mv::Return) {
                    return Mv::Return;
                }
                // Points in A1, B1, ... order are grid indices in increasing order.
                let mut best: Option<(usize, usize)> = None;
                let mut seen: Vec<usize> = Vec::new();
                for p in 0..self.state.grid.len() {
                    if self.state.grid[p] != color || seen.contains(&p) {
                        continue;
                    }
                    let (stones, _) = self.group(&self.state.grid, p);
                    seen.extend(&stones);
                    if self.is_legal(color, Mv::Stake(p)) && best.is_none_or(|(n, _)| stones.len() > n) {
                        best = Some((stones.len(), p));
                    }
                }
                best.map_or(Mv::Pass, |(_, p)| Mv::Stake(p))
            }
            _ => Mv::Pass,
        }
    }

    /// Area counts (RULES.md 2: stones + empty regions bordered by one colour only; RULES.md 6: walls
    /// count for nobody) and territory counts (the empty part only) of `grid`.
    fn counts(&self, grid: &[u8]) -> ([i32; 3], [i32; 3]) {
        let (mut area, mut territory) = ([0; 3], [0; 3]);
        let mut seen = vec![false; grid.len()];
        for p in 0..grid.len() {
            match grid[p] {
                BLACK | WHITE => area[grid[p] as usize] += 1,
                EMPTY if !seen[p] => {
                    let mut region = vec![p];
                    seen[p] = true;
                    let mut borders = [false; 3];
                    let mut i = 0;
                    while i < region.len() {
                        for q in self.neighbours(region[i]) {
                            match grid[q] {
                                EMPTY if !seen[q] => {
                                    seen[q] = true;
                                    region.push(q);
                                }
                                BLACK | WHITE => borders[grid[q] as usize] = true,
                                _ => {}
                            }
                        }
                        i += 1;
                    }
                    for c in [BLACK, WHITE] {
                        if borders[c as usize] && !borders[opp(c) as usize] {
                            area[c as usize] += region.len() as i32;
                            territory[c as usize] += region.len() as i32;
                        }
                    }
                }
                _ => {}
            }
        }
        (area, territory)
    }

    /// The result string once the game is over (`B+3.5`, `W+0.5`, `0`, Stones `B+N`), else empty.
    /// A game ended by two passes is counted with every stone alive.
    pub fn result(&self) -> String {
        self.result_without(&[])
    }

    /// `result`, with the stones at `dead` (the engine's judgement, RULES.md 2) taken off the board
    /// before a count: their points are then empty, and under territory scoring each is a prisoner of
    /// the other colour.
    pub fn result_without(&self, dead: &[usize]) -> String {
        let mut grid = self.state.grid.clone();
        let mut prisoners = self.state.prisoners;
        for &p in dead {
            if let c @ (BLACK | WHITE) = grid[p] {
                grid[p] = EMPTY;
                prisoners[opp(c) as usize] += 1;
            }
        }
        match self.state.end {
            None => String::new(),
            Some(End::Draw) => "0".into(),
            Some(End::Won { winner, lead, .. }) => {
                format!("{}+{}", if winner == BLACK { 'B' } else { 'W' }, lead.max(0))
            }
            Some(End::TwoPasses) => {
                let (area, territory) = self.counts(&grid);
                let points = |c: u8| -> f64 {
                    if self.rules.variant == Variant::Go && self.rules.territory {
                        (territory[c as usize] + prisoners[c as usize]) as f64
                    } else {
                        area[c as usize] as f64
                    }
                };
                let button = match self.state.button {
                    Some(BLACK) => 0.5,
                    Some(_) => -0.5,
                    None => 0.0,
                };
                let margin = points(BLACK) - points(WHITE) - self.komi + button;
                if margin == 0.0 {
                    "0".into()
                } else {
                    format!("{}+{}", if margin > 0.0 { 'B' } else { 'W' }, margin.abs())
                }
            }
        }
    }
}
