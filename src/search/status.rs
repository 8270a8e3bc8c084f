//! The end-of-game judgement: which stones are dead and which live in seki, read from the ownership
//! statistics of a search (how often each point ended as whose area over the playouts).

use super::report::{ownership_index, SearchReport};
use crate::board::{Board, Cell, Point, Topology};

/// Dead stones and stones in seki; every other stone is alive.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct FinalStatus {
    pub dead: Vec<Point>,
    pub seki: Vec<Point>,
}

/// A point whose playouts ended neutral at least this often is a shared liberty (seki) rather than
/// a point that one side or the other fills.
const SEKI_NEUTRAL: f32 = 0.6;

/// Judges every chain of `board` from a report carrying ownership. A chain is dead when, averaged
/// over its stones, the opponent owned its points more often than its own colour did; a living chain
/// is in seki when it touches a point that stayed neutral in most playouts and that point also
/// touches a living enemy chain. Without ownership nothing is dead.
pub fn judge<T: Topology>(board: &Board<T>, report: &SearchReport) -> FinalStatus {
    let (Some(own), Some(neutral)) = (&report.ownership, &report.neutral) else {
        return FinalStatus::default();
    };
    let geo = board.geometry();
    let mut status = FinalStatus::default();
    let mut dead_chain = vec![false; geo.cells()];
    let mut seen = vec![false; geo.cells()];
    for p in geo.points() {
        let Some(color) = board.cell(p).color() else { continue };
        let head = board.chain_head(p);
        if seen[head.idx()] {
            continue;
        }
        seen[head.idx()] = true;
        let sign = if color == crate::board::Color::Black { 1.0 } else { -1.0 };
        let (mut sum, mut n) = (0.0f64, 0usize);
        for s in board.chain_stones(p) {
            sum += sign * own[ownership_index(geo, s)] as f64;
            n += 1;
        }
        dead_chain[head.idx()] = sum / (n as f64) < 0.0;
    }
    for p in geo.points() {
        let Some(color) = board.cell(p).color() else { continue };
        if dead_chain[board.chain_head(p).idx()] {
            status.dead.push(p);
            continue;
        }
        // Seki: a neutral liberty of this chain that a living enemy chain shares.
        let in_seki = board.liberties(p).into_iter().any(|l| {
            neutral[ownership_index(geo, l)] >= SEKI_NEUTRAL
                && board.neighbours(l).into_iter().any(|q| {
                    board.cell(q) == Cell::stone(color.opponent()) && !dead_chain[board.chain_head(q).idx()]
                })
        });
        if in_seki {
            status.seki.push(p);
        }
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn report(own: Vec<f32>, neutral: Vec<f32>) -> SearchReport {
        SearchReport {
            playouts: 1,
            playout_moves: 0,
            root_visits: 1,
            nodes: 1,
            tree_slots: 1,
            elapsed: Duration::ZERO,
            winrate: 0.5,
            score_lead: 0.0,
            candidates: Vec::new(),
            ownership: Some(own),
            neutral: Some(neutral),
        }
    }

    #[test]
    fn ownership_decides_dead_and_seki() {
        // 3x3: a black stone at A3 (top-left) deep in White's area; A1 against White's C1 and B2
        // around the point B1, which stays neutral.
        let b = Board::from_diagram(
            "
            X . O
            . O .
            X . O",
        );
        let own = vec![-0.9, -1.0, -1.0, -1.0, -1.0, -1.0, 0.8, 0.0, -0.8];
        let mut neutral = vec![0.0; 9];
        neutral[7] = 0.9; // B1
        let s = judge(&b, &report(own, neutral));
        let geo = b.geometry();
        assert_eq!(s.dead, vec![geo.parse_vertex("A3").unwrap()]);
        // A1, C1 and B2 share the neutral B1.
        let seki: Vec<Point> = ["A1", "C1", "B2"].iter().map(|v| geo.parse_vertex(v).unwrap()).collect();
        assert_eq!(s.seki, seki);
    }
}
