//! Counting a finished position: who owns each point once the dead stones are taken off.

use crate::board::{Board, ByColor, Cell, Color, Point, Topology};

/// The count of a position with some stones declared dead.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Count {
    /// Living stones on the board.
    pub stones: ByColor<u32>,
    /// Empty points (dead stones' points included) surrounded by one colour only.
    pub territory: ByColor<u32>,
    /// Dead stones of each colour (they are the opponent's prisoners under territory scoring).
    pub dead: ByColor<u32>,
}

impl Count {
    /// Area score: living stones plus territory.
    pub fn area(&self, c: Color) -> u32 {
        self.stones[c] + self.territory[c]
    }
}

/// The owner of every cell (indexed by point), after removing `dead`: a colour for its living stones
/// and for empty regions that touch only that colour; `None` for neutral points, walls and border.
pub fn owners<T: Topology>(board: &Board<T>, dead: &[Point]) -> Vec<Option<Color>> {
    let geo = board.geometry();
    let mut cells: Vec<Cell> = (0..geo.cells()).map(|i| board.cell(Point(i as u16))).collect();
    for &d in dead {
        if board.cell(d).color().is_some() {
            cells[d.idx()] = Cell::Empty;
        }
    }
    let mut owner: Vec<Option<Color>> = cells.iter().map(|c| c.color()).collect();
    let mut seen = vec![false; cells.len()];
    let mut region = Vec::new();
    for p in geo.points() {
        if cells[p.idx()] != Cell::Empty || seen[p.idx()] {
            continue;
        }
        // Flood the empty region; walls border it without owning it.
        region.clear();
        let (mut black, mut white) = (false, false);
        let mut stack = vec![p];
        seen[p.idx()] = true;
        while let Some(q) = stack.pop() {
            region.push(q);
            for n in board.neighbours(q) {
                match cells[n.idx()] {
                    Cell::Empty if !seen[n.idx()] => {
                        seen[n.idx()] = true;
                        stack.push(n);
                    }
                    Cell::Black => black = true,
                    Cell::White => white = true,
                    _ => {}
                }
            }
        }
        let who = match (black, white) {
            (true, false) => Some(Color::Black),
            (false, true) => Some(Color::White),
            _ => None,
        };
        for &q in &region {
            owner[q.idx()] = who;
        }
    }
    owner
}

/// Counts stones, territory and dead stones.
pub fn count<T: Topology>(board: &Board<T>, dead: &[Point]) -> Count {
    let owner = owners(board, dead);
    let mut c = Count::default();
    for p in board.geometry().points() {
        let stone = board.cell(p).color();
        let is_dead = stone.is_some() && dead.contains(&p);
        if let Some(s) = stone {
            if is_dead {
                c.dead[s] += 1;
            }
        }
        match (owner[p.idx()], stone) {
            (Some(o), Some(s)) if !is_dead && o == s => c.stones[o] += 1,
            (Some(o), _) => c.territory[o] += 1,
            _ => {}
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn walls_own_nothing_and_dead_stones_become_territory() {
        let b = Board::from_diagram(
            "
            . X O . .
            X X O . .
            # X O O O
            . X O X .
            . X O . .
            ",
        );
        let d = b.geometry().parse_vertex("D2").unwrap();
        let plain = count(&b, &[]);
        assert_eq!(plain.stones, ByColor::new(7, 7));
        // A5, A2 and A1 are Black's (the wall at A3 borders without owning); D4, E4, D5, E5 are White's;
        // D1, E1, E2 touch both colours while D2 lives.
        assert_eq!(plain.territory, ByColor::new(3, 4));
        let with_dead = count(&b, &[d]);
        assert_eq!(with_dead.stones, ByColor::new(6, 7));
        assert_eq!(with_dead.territory, ByColor::new(3, 8));
        assert_eq!(with_dead.dead, ByColor::new(1, 0));
    }
}
