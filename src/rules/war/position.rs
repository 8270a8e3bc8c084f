//! A War Go position and the physics of one turn (RULES.md section 7). War Go keeps a board of its
//! own, a padded array of `Cell`s with chains found by flood fill, so that the optimized board of
//! the other variants stays as it is.

use super::moves::{WarIllegal, WarMove};
use super::piece::{Army, Cell, Kind};
use crate::board::{ByColor, Color, Geometry, Point};

/// What a legal turn did, beyond putting its piece down.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Effect {
    /// Stones removed by capture (of either colour, after a mercenary move).
    pub captured: u32,
    /// Pieces destroyed by a bomb (immediate or delayed); they are nobody's prisoners.
    pub destroyed: u32,
    /// Mercenaries removed for having no empty neighbour.
    pub mercenaries_removed: u32,
}

/// Board, side to move, armies in hand, prisoners and the position hash.
#[derive(Debug)]
pub struct WarPosition {
    pub geo: Geometry,
    cells: Vec<Cell>,
    pub to_move: Color,
    pub army: ByColor<Army>,
    pub prisoners: ByColor<u32>,
    /// Consecutive passes just played.
    pub passes: u8,
    /// Turns played since the start.
    pub ply: u32,
    /// Zobrist-style hash of the pieces on the board (kind and colour per point): superko's key.
    hash: u64,
    /// Flood-fill scratch: a mark per cell and the current mark.
    mark: Vec<u32>,
    gen: u32,
    stack: Vec<Point>,
    chain: Vec<Point>,
}

impl Clone for WarPosition {
    fn clone(&self) -> Self {
        WarPosition {
            geo: self.geo,
            cells: self.cells.clone(),
            to_move: self.to_move,
            army: self.army,
            prisoners: self.prisoners,
            passes: self.passes,
            ply: self.ply,
            hash: self.hash,
            mark: self.mark.clone(),
            gen: self.gen,
            stack: Vec::with_capacity(self.stack.capacity()),
            chain: Vec::with_capacity(self.chain.capacity()),
        }
    }

    /// Copies without allocating once the buffers have their size (playouts rely on this). The
    /// flood-fill marks are scratch: each position keeps its own, valid with its own counter.
    fn clone_from(&mut self, src: &Self) {
        self.geo = src.geo;
        self.cells.clone_from(&src.cells);
        self.to_move = src.to_move;
        self.army = src.army;
        self.prisoners = src.prisoners;
        self.passes = src.passes;
        self.ply = src.ply;
        self.hash = src.hash;
        if self.mark.len() != src.mark.len() {
            self.mark = vec![0; src.mark.len()];
            self.gen = 0;
        }
    }
}

impl PartialEq for WarPosition {
    /// Same board, side to move, armies, prisoners and passes (the scratch aside).
    fn eq(&self, o: &Self) -> bool {
        self.geo == o.geo
            && self.cells == o.cells
            && self.to_move == o.to_move
            && self.army == o.army
            && self.prisoners == o.prisoners
            && self.passes == o.passes
    }
}

/// The hash of `cell` on `p` (0 for an empty point).
#[inline]
fn zobrist(p: Point, cell: Cell) -> u64 {
    let code = cell.code();
    if code == 0 {
        return 0;
    }
    // splitmix64 of (point, content): no table to build or share.
    let mut z = (p.idx() as u64) << 6 | code;
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl WarPosition {
    /// An empty `size` board with `pieces` standing on it (walls, preset taos or mercenaries) and
    /// `army` in each player's hand; Black to move.
    pub fn new(size: usize, army: Army, pieces: &[(Point, Cell)]) -> WarPosition {
        let geo = Geometry::new(size);
        let mut cells = vec![Cell::Edge; geo.cells()];
        for p in geo.points() {
            cells[p.idx()] = Cell::Empty;
        }
        let mut pos = WarPosition {
            geo,
            mark: vec![0; cells.len()],
            cells,
            to_move: Color::Black,
            army: ByColor::new(army, army),
            prisoners: ByColor::default(),
            passes: 0,
            ply: 0,
            hash: 0,
            gen: 0,
            stack: Vec::with_capacity(64),
            chain: Vec::with_capacity(64),
        };
        for &(p, c) in pieces {
            pos.set(p, c);
        }
        pos
    }

    /// A position from a diagram, rows top first, points separated by blanks or not, letters as
    /// `Cell::letter` prints them (`X`/`O` soldiers, `A B M S C` Black's pieces and their lower
    /// case White's, `#` wall, `T` tao, `R` mercenary). `None` for an unknown letter or a board
    /// that is not square.
    pub fn from_diagram(diagram: &str, army: Army, to_move: Color) -> Option<WarPosition> {
        let rows: Vec<Vec<char>> = diagram
            .lines()
            .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
            .filter(|r| !r.is_empty())
            .collect();
        let size = rows.len();
        if !(crate::board::MIN_SIZE..=crate::board::MAX_SIZE).contains(&size)
            || rows.iter().any(|r| r.len() != size)
        {
            return None;
        }
        let geo = Geometry::new(size);
        let mut pieces = Vec::new();
        for (i, row) in rows.iter().enumerate() {
            for (x, &ch) in row.iter().enumerate() {
                let cell = Cell::from_letter(ch)?;
                if cell != Cell::Empty {
                    pieces.push((geo.point(x, size - 1 - i), cell));
                }
            }
        }
        let mut pos = WarPosition::new(size, army, &pieces);
        pos.to_move = to_move;
        Some(pos)
    }

    #[inline]
    pub fn cell(&self, p: Point) -> Cell {
        self.cells.get(p.idx()).copied().unwrap_or(Cell::Edge)
    }

    pub fn hash(&self) -> u64 {
        self.hash
    }

    pub fn size(&self) -> usize {
        self.geo.size
    }

    #[inline]
    fn set(&mut self, p: Point, c: Cell) {
        let old = self.cells[p.idx()];
        self.hash ^= zobrist(p, old) ^ zobrist(p, c);
        self.cells[p.idx()] = c;
    }

    #[inline]
    pub fn neighbours(&self, p: Point) -> [Point; 4] {
        let s = self.geo.stride as u16;
        [Point(p.0 - 1), Point(p.0 + 1), Point(p.0 - s), Point(p.0 + s)]
    }

    /// The point `dx`, `dy` away from `p`, if it is on the board (coordinates, so that a long
    /// step cannot wrap through the shared border column).
    pub fn offset(&self, p: Point, dx: i32, dy: i32) -> Option<Point> {
        let (x, y) = self.geo.xy(p);
        let (x, y) = (x as i32 + dx, y as i32 + dy);
        let n = self.geo.size as i32;
        ((0..n).contains(&x) && (0..n).contains(&y)).then(|| self.geo.point(x as usize, y as usize))
    }

    /// The points of the board within Manhattan distance 2 of `p`, `p` aside: a monk's range
    /// (`capture_banned`), and the neighbourhood the search reads for an empty area.
    pub fn within_two(&self, p: Point) -> impl Iterator<Item = Point> + '_ {
        const WITHIN_TWO: [(i32, i32); 12] = [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (2, 0),
            (-2, 0),
            (0, 2),
            (0, -2),
            (1, 1),
            (1, -1),
            (-1, 1),
            (-1, -1),
        ];
        WITHIN_TWO.iter().filter_map(move |&(dx, dy)| self.offset(p, dx, dy))
    }

    fn on_board(&self, p: Point) -> bool {
        p.idx() < self.cells.len() && self.geo.on_board(p)
    }

    /// Empty neighbours of `p`, counting `lifted` as empty (a moving piece has left it).
    fn freedoms(&self, p: Point, lifted: Point) -> usize {
        self.neighbours(p).iter().filter(|&&n| n == lifted || self.cell(n).is_empty()).count()
    }

    /// Is the stone on `p` protected: an ambassador, a neighbour of an ambassador of either
    /// colour, or a neighbour of a samurai or cavalry of its own colour?
    pub fn is_protected(&self, p: Point) -> bool {
        let Cell::Stone(c, k) = self.cell(p) else { return false };
        k == Kind::Ambassador
            || self.neighbours(p).iter().any(|&n| match self.cell(n) {
                Cell::Stone(_, Kind::Ambassador) => true,
                Cell::Stone(nc, Kind::Samurai | Kind::Cavalry) => nc == c,
                _ => false,
            })
    }

    /// May a piece ending on `p` capture? Not on a neighbour of an ambassador, nor within
    /// Manhattan distance 2 of a monk of either colour (the piece on `p` itself aside).
    pub fn capture_banned(&self, p: Point) -> bool {
        if self.neighbours(p).iter().any(|&n| matches!(self.cell(n), Cell::Stone(_, Kind::Ambassador))) {
            return true;
        }
        self.within_two(p).any(|q| matches!(self.cell(q), Cell::Stone(_, Kind::Monk)))
    }

    /// Does a tao stand within the 5x5 square centred on `p`?
    pub fn in_tao_zone(&self, p: Point) -> bool {
        (-2..=2).any(|dy| {
            (-2..=2)
                .any(|dx| self.offset(p, dx, dy).is_some_and(|q| self.cell(q) == Cell::Neutral(Kind::Tao)))
        })
    }

    /// Collects the chain through the stone on `p` into `self.chain` (appending) and marks it
    /// with a mark of its own (`next_gen` first); answers whether it has a liberty. With `QUICK`
    /// it stops at the first liberty, leaving the chain partly collected and marked. Marks of
    /// `since` or later from earlier floods belong to chains those floods found a liberty for or
    /// collected whole: meeting one, the chain is one of those with a liberty.
    fn flood<const QUICK: bool>(&mut self, p: Point, since: u32) -> bool {
        let Some(color) = self.cell(p).color() else { return true };
        let gen = self.gen;
        let mut free = false;
        self.stack.clear();
        self.stack.push(p);
        self.mark[p.idx()] = gen;
        while let Some(q) = self.stack.pop() {
            self.chain.push(q);
            for n in self.neighbours(q) {
                match self.cells[n.idx()] {
                    Cell::Empty if QUICK => return true,
                    Cell::Empty => free = true,
                    Cell::Stone(c, _) if c == color && self.mark[n.idx()] != gen => {
                        if QUICK && self.mark[n.idx()] >= since {
                            return true;
                        }
                        self.mark[n.idx()] = gen;
                        self.stack.push(n);
                    }
                    _ => {}
                }
            }
        }
        free
    }

    /// A new mark for a flood. The marks are cleared well before the counter would wrap, so that a
    /// turn's floods always count upwards.
    fn next_gen(&mut self) {
        if self.gen >= u32::MAX - 1024 {
            self.mark.iter_mut().for_each(|m| *m = 0);
            self.gen = 0;
        }
        self.gen += 1;
    }

    /// The stones of the chain through `p` (empty when `p` holds no stone).
    pub fn chain_at(&mut self, p: Point) -> Vec<Point> {
        self.next_gen();
        self.chain.clear();
        if self.cell(p).color().is_some() {
            self.flood::<false>(p, self.gen);
        }
        self.chain.clone()
    }

    /// Does the chain through `p` have a liberty?
    pub fn has_liberty(&mut self, p: Point) -> bool {
        self.next_gen();
        self.chain.clear();
        self.flood::<true>(p, self.gen)
    }

    /// The stones and the liberties (distinct empty neighbours) of the chain through the stone on
    /// `p`, and the last liberty found (`Point::NONE` without any), the flood stopping once it has
    /// found `cap` liberties (then the stones are those met so far); no stones when `p` holds no
    /// stone. Allocates nothing: the search's priors and the playouts ask it of many chains.
    pub fn chain_liberties(&mut self, p: Point, cap: u32) -> (u32, u32, Point) {
        let Some(color) = self.cell(p).color() else { return (0, 0, Point::NONE) };
        self.next_gen();
        let gen = self.gen;
        let (mut stones, mut libs, mut liberty) = (0, 0, Point::NONE);
        self.stack.clear();
        self.stack.push(p);
        self.mark[p.idx()] = gen;
        while let Some(q) = self.stack.pop() {
            stones += 1;
            for n in self.neighbours(q) {
                if self.mark[n.idx()] == gen {
                    continue;
                }
                match self.cells[n.idx()] {
                    Cell::Empty => {
                        // Empty points are marked too, so that each liberty counts once.
                        self.mark[n.idx()] = gen;
                        libs += 1;
                        liberty = n;
                        if libs >= cap {
                            return (stones, libs, liberty);
                        }
                    }
                    Cell::Stone(c, _) if c == color => {
                        self.mark[n.idx()] = gen;
                        self.stack.push(n);
                    }
                    _ => {}
                }
            }
        }
        (stones, libs, liberty)
    }

    /// Can `color` move the piece on `from` to `to` (the movement rules alone: whose piece, where
    /// it may step, the freedoms it needs)?
    pub fn can_step(&self, color: Color, from: Point, to: Point) -> bool {
        if !self.on_board(from) || !self.on_board(to) || !self.cell(to).is_empty() {
            return false;
        }
        let adjacent = self.neighbours(from).contains(&to);
        match self.cell(from) {
            Cell::Neutral(Kind::Mercenary) => adjacent,
            Cell::Stone(c, Kind::Samurai) if c == color => adjacent && self.freedoms(to, from) >= 3,
            Cell::Stone(c, Kind::Cavalry) if c == color => {
                let ((fx, fy), (tx, ty)) = (self.geo.xy(from), self.geo.xy(to));
                let (dx, dy) = (tx as i32 - fx as i32, ty as i32 - fy as i32);
                // The xiangqi horse: one orthogonal step along the long leg, then one diagonal.
                let first = match (dx.abs(), dy.abs()) {
                    (2, 1) => (dx.signum(), 0),
                    (1, 2) => (0, dy.signum()),
                    _ => return false,
                };
                let via = self.offset(from, first.0, first.1);
                via.is_some_and(|v| self.cell(v).is_empty()) && self.freedoms(to, from) >= 3
            }
            Cell::Stone(c, Kind::Soldier) if c == color => adjacent && self.in_tao_zone(from),
            _ => false,
        }
    }

    /// The on-board targets of the piece on `from` that `can_step` accepts.
    pub fn steps_from(&self, color: Color, from: Point) -> impl Iterator<Item = Point> + '_ {
        const JUMPS: [(i32, i32); 12] = [
            (1, 0),
            (-1, 0),
            (0, 1),
            (0, -1),
            (2, 1),
            (2, -1),
            (-2, 1),
            (-2, -1),
            (1, 2),
            (-1, 2),
            (1, -2),
            (-1, -2),
        ];
        JUMPS
            .iter()
            .filter_map(move |&(dx, dy)| self.offset(from, dx, dy))
            .filter(move |&to| self.can_step(color, from, to))
    }

    /// Plays `mv` for `color` if the rules of the position allow it (superko is the game's), or
    /// leaves the position unchanged and says why not.
    pub fn play(&mut self, color: Color, mv: WarMove) -> Result<Effect, WarIllegal> {
        let backup = self.clone();
        let r = self.apply(color, mv);
        if r.is_err() {
            self.clone_from(&backup);
        }
        r
    }

    /// Plays `mv` for `color`; on an error the position is left half-played (the caller restores
    /// it: `play` does, playouts work on a scratch copy).
    pub fn apply(&mut self, color: Color, mv: WarMove) -> Result<Effect, WarIllegal> {
        let mut effect = Effect::default();
        let dest = match mv {
            WarMove::Pass => {
                self.passes = self.passes.saturating_add(1);
                self.to_move = color.opponent();
                self.ply += 1;
                return Ok(effect);
            }
            other => other.target().expect("a move that is not a pass has a target"),
        };
        if !self.on_board(dest) {
            return Err(WarIllegal::OffBoard);
        }
        if !self.cell(dest).is_empty() {
            return Err(WarIllegal::Occupied);
        }
        let mut mercenary_move = false;
        let mut spy = false;
        let piece = match mv {
            WarMove::Soldier(_) => Cell::Stone(color, Kind::Soldier),
            WarMove::Drop { kind, now, .. } => {
                let Some(i) = kind.army_index() else { return Err(WarIllegal::NotInHand) };
                if self.army[color].0[i] == 0 {
                    return Err(WarIllegal::NotInHand);
                }
                self.army[color].0[i] -= 1;
                if kind == Kind::Bomb && now {
                    // Immediate: the bomb and every piece on its neighbours except walls go at
                    // once; a destruction, not a capture, and nothing else happens this turn.
                    for n in self.neighbours(dest) {
                        if matches!(
                            self.cell(n),
                            Cell::Stone(..) | Cell::Neutral(Kind::Tao | Kind::Mercenary)
                        ) {
                            self.set(n, Cell::Empty);
                            effect.destroyed += 1;
                        }
                    }
                    self.finish(color);
                    return Ok(effect);
                }
                match kind {
                    Kind::Wall | Kind::Tao | Kind::Mercenary => Cell::Neutral(kind),
                    Kind::Spy => {
                        spy = true;
                        Cell::Stone(color, Kind::Soldier)
                    }
                    k => Cell::Stone(color, k),
                }
            }
            WarMove::Step { from, to } => {
                if !self.can_step(color, from, to) {
                    return Err(WarIllegal::CannotMove);
                }
                let piece = self.cell(from);
                mercenary_move = piece == Cell::Neutral(Kind::Mercenary);
                // A moved piece is lifted before its move is judged.
                self.set(from, Cell::Empty);
                piece
            }
            WarMove::Pass => unreachable!(),
        };

        // The spy turns every neighbouring soldier (either colour), then becomes a soldier of the
        // dropper; chains are whatever the board now says.
        let mut seeds = [Point::NONE; 21];
        let mut n_seeds = 0;
        let mut push = |s: &mut [Point; 21], p: Point| {
            s[n_seeds] = p;
            n_seeds += 1;
        };
        push(&mut seeds, dest);
        for n in self.neighbours(dest) {
            push(&mut seeds, n);
            if spy {
                if let Cell::Stone(c, Kind::Soldier) = self.cell(n) {
                    self.set(n, Cell::Stone(c.opponent(), Kind::Soldier));
                    for m in self.neighbours(n) {
                        push(&mut seeds, m);
                    }
                }
            }
        }
        self.set(dest, piece);

        // Chains left without liberties: only those through or next to the changed points can be.
        self.next_gen();
        let since = self.gen;
        self.chain.clear();
        let mut dead: [(u16, u16, Color); 21] = [(0, 0, Color::Black); 21];
        let mut n_dead = 0;
        for &s in &seeds[..n_seeds] {
            let Some(c) = self.cell(s).color() else { continue };
            if self.mark[s.idx()] >= since {
                continue;
            }
            self.next_gen();
            let start = self.chain.len();
            if self.flood::<true>(s, since) {
                self.chain.truncate(start);
            } else {
                dead[n_dead] = (start as u16, self.chain.len() as u16, c);
                n_dead += 1;
            }
        }
        let dead = &dead[..n_dead];
        // The first stone of each of the mover's own chains left without liberties (a mercenary
        // move captures those too), for the suicide test once the captures are done.
        let mut own = [Point::NONE; 21];
        let mut n_own = 0;
        for &(a, _, c) in dead {
            if c == color && !mercenary_move {
                own[n_own] = self.chain[a as usize];
                n_own += 1;
            }
        }
        let captures = |d: &(u16, u16, Color)| mercenary_move || d.2 != color;
        if dead.iter().any(captures) {
            // A protected chain cannot be captured: the turn is illegal instead.
            for &(a, b, _) in dead.iter().filter(|d| captures(d)) {
                if self.chain[a as usize..b as usize].iter().any(|&q| self.is_protected(q)) {
                    return Err(WarIllegal::Protected);
                }
            }
            if self.capture_banned(dest) {
                return Err(WarIllegal::CaptureBan);
            }
            let mut bombs = std::mem::take(&mut self.stack);
            bombs.clear();
            for &(a, b, c) in dead.iter().filter(|d| captures(d)) {
                for i in a as usize..b as usize {
                    let q = self.chain[i];
                    if self.cell(q) == Cell::Stone(c, Kind::Bomb) {
                        bombs.push(q);
                    }
                    self.set(q, Cell::Empty);
                }
                // The mover's own stones taken by a mercenary are the opponent's prisoners.
                self.prisoners[c.opponent()] += b as u32 - a as u32;
                effect.captured += b as u32 - a as u32;
            }
            // A captured delayed bomb destroys every piece on its neighbours but walls.
            for &bomb in &bombs {
                for n in self.neighbours(bomb) {
                    if matches!(self.cell(n), Cell::Stone(..) | Cell::Neutral(Kind::Tao | Kind::Mercenary)) {
                        self.set(n, Cell::Empty);
                        effect.destroyed += 1;
                    }
                }
            }
            self.stack = bombs;
        }
        // Suicide: a chain of the mover's that this turn touched still has no liberty.
        for &q in &own[..n_own] {
            if self.cell(q).color() == Some(color) && !self.has_liberty(q) {
                return Err(WarIllegal::Suicide);
            }
        }

        // A mercenary with no empty neighbour is removed (no prisoner). Only filling a point can
        // take one's last empty neighbour, so only the destination and its neighbours are looked at.
        // All are judged on the board the turn left, then removed together.
        let mut boxed = [Point::NONE; 5];
        let mut n_boxed = 0;
        for q in std::iter::once(dest).chain(self.neighbours(dest)) {
            if self.cell(q) == Cell::Neutral(Kind::Mercenary) && self.freedoms(q, Point::NONE) == 0 {
                boxed[n_boxed] = q;
                n_boxed += 1;
            }
        }
        for &q in &boxed[..n_boxed] {
            self.set(q, Cell::Empty);
            effect.mercenaries_removed += 1;
        }
        self.finish(color);
        Ok(effect)
    }

    fn finish(&mut self, color: Color) {
        self.passes = 0;
        self.to_move = color.opponent();
        self.ply += 1;
    }

    /// Every turn `color` may take here by the position's rules (superko aside), pass last.
    pub fn legal_moves(&self, color: Color) -> Vec<WarMove> {
        let mut out = Vec::new();
        let mut scratch = self.clone();
        let mut try_move = |mv: WarMove, out: &mut Vec<WarMove>| {
            scratch.clone_from(self);
            if scratch.apply(color, mv).is_ok() {
                out.push(mv);
            }
        };
        for p in self.geo.points() {
            if self.cell(p).is_empty() {
                try_move(WarMove::Soldier(p), &mut out);
            }
        }
        for kind in Kind::ARMY {
            if self.army[color].count(kind) == 0 {
                continue;
            }
            for p in self.geo.points() {
                if self.cell(p).is_empty() {
                    try_move(WarMove::Drop { kind, at: p, now: false }, &mut out);
                    if kind == Kind::Bomb {
                        try_move(WarMove::Drop { kind, at: p, now: true }, &mut out);
                    }
                }
            }
        }
        for from in self.geo.points() {
            for to in self.steps_from(color, from) {
                try_move(WarMove::Step { from, to }, &mut out);
            }
        }
        out.push(WarMove::Pass);
        out
    }

    /// Area count with `dead` stones taken off: each player's stones plus the empty regions that
    /// touch only that player's stones (neutral pieces and the edge bound a region and count for
    /// nobody).
    pub fn area(&self, dead: &[Point]) -> ByColor<u32> {
        let mut cells = self.cells.clone();
        for &p in dead {
            if matches!(cells.get(p.idx()), Some(Cell::Stone(..))) {
                cells[p.idx()] = Cell::Empty;
            }
        }
        self.count_area(&cells, &mut Vec::new(), &mut Vec::new())
    }

    /// `area(&[])` with the caller's buffers: the playouts' count, which so allocates nothing once
    /// the buffers have grown.
    pub fn area_in(&self, seen: &mut Vec<bool>, stack: &mut Vec<Point>) -> ByColor<u32> {
        self.count_area(&self.cells, seen, stack)
    }

    /// The area count of the board `cells` (this position's geometry).
    fn count_area(&self, cells: &[Cell], seen: &mut Vec<bool>, stack: &mut Vec<Point>) -> ByColor<u32> {
        let mut score = ByColor::<u32>::default();
        seen.clear();
        seen.resize(cells.len(), false);
        stack.clear();
        for p in self.geo.points() {
            match cells[p.idx()] {
                Cell::Stone(c, _) => score[c] += 1,
                Cell::Empty if !seen[p.idx()] => {
                    let (mut size, mut touch) = (0, [false; 2]);
                    seen[p.idx()] = true;
                    stack.push(p);
                    while let Some(q) = stack.pop() {
                        size += 1;
                        for n in self.neighbours(q) {
                            match cells[n.idx()] {
                                Cell::Empty if !seen[n.idx()] => {
                                    seen[n.idx()] = true;
                                    stack.push(n);
                                }
                                Cell::Stone(c, _) => touch[c.index()] = true,
                                _ => {}
                            }
                        }
                    }
                    match touch {
                        [true, false] => score[Color::Black] += size,
                        [false, true] => score[Color::White] += size,
                        _ => {}
                    }
                }
                _ => {}
            }
        }
        score
    }

    /// Who owns each point by the area count (indexed by `Point::idx`): a stone's owner, or the
    /// only colour an empty region touches; `None` for neutral pieces, the edge and shared regions.
    pub fn owners(&self) -> Vec<Option<Color>> {
        let mut owner: Vec<Option<Color>> = vec![None; self.cells.len()];
        let mut seen = vec![false; self.cells.len()];
        let mut region = Vec::new();
        for p in self.geo.points() {
            match self.cells[p.idx()] {
                Cell::Stone(c, _) => owner[p.idx()] = Some(c),
                Cell::Empty if !seen[p.idx()] => {
                    let mut touch = [false; 2];
                    region.clear();
                    region.push(p);
                    seen[p.idx()] = true;
                    let mut i = 0;
                    while i < region.len() {
                        let q = region[i];
                        i += 1;
                        for n in self.neighbours(q) {
                            match self.cells[n.idx()] {
                                Cell::Empty if !seen[n.idx()] => {
                                    seen[n.idx()] = true;
                                    region.push(n);
                                }
                                Cell::Stone(c, _) => touch[c.index()] = true,
                                _ => {}
                            }
                        }
                    }
                    let o = match touch {
                        [true, false] => Some(Color::Black),
                        [false, true] => Some(Color::White),
                        _ => None,
                    };
                    for &q in &region {
                        owner[q.idx()] = o;
                    }
                }
                _ => {}
            }
        }
        owner
    }

    /// The board as rows of letters, top row first (`Cell::letter`).
    pub fn rows(&self) -> Vec<String> {
        (0..self.geo.size)
            .rev()
            .map(|y| (0..self.geo.size).map(|x| self.cell(self.geo.point(x, y)).letter()).collect())
            .collect()
    }
}
