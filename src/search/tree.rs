//! The search tree: an arena of nodes addressed by `u32`, the children of a node contiguous, every
//! statistic an atomic integer so that threads share the tree without locks.

use crate::board::Point;
use crate::rules::Move;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU32, AtomicU64, Ordering::*};
use std::time::Instant;

/// The root is always the first node of the arena.
pub const ROOT: u32 = 0;

/// Expansion states, claimed by compare-and-swap: leaf -> expanding -> expanded.
pub const LEAF: u32 = 0;
pub const EXPANDING: u32 = 1;
pub const EXPANDED: u32 = 2;

/// Node flag (top byte of the move word): this placement repeats an earlier position, which ends a
/// Stoical game in a draw at once.
pub const FLAG_DRAW: u32 = 1 << 24;

/// A move packed into a `u32`: the kind in bits 16..24, the point in the low half. The top byte is
/// left for node flags.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct MoveCode(pub u32);

impl MoveCode {
    pub fn new(mv: Move) -> MoveCode {
        MoveCode(match mv {
            Move::Place(p) => p.0 as u32,
            Move::Pass => 1 << 16,
            Move::Button => 2 << 16,
            Move::Return => 3 << 16,
            Move::Stake(p) => (4 << 16) | p.0 as u32,
        })
    }

    pub fn decode(self) -> Move {
        let p = Point(self.0 as u16);
        match (self.0 >> 16) & 0xff {
            0 => Move::Place(p),
            1 => Move::Pass,
            2 => Move::Button,
            3 => Move::Return,
            _ => Move::Stake(p),
        }
    }

    /// The point of a placement, for AMAF.
    #[inline]
    pub fn placement(self) -> Option<Point> {
        ((self.0 >> 16) & 0xff == 0).then_some(Point(self.0 as u16))
    }
}

/// One node: the move that leads to it and its statistics. Values are counted in half points (win 2,
/// draw 1, loss 0) for the player who made the move, so `fetch_add` keeps them exact.
///
/// All-zero is a valid node (a leaf with no statistics): the arena is allocated zeroed.
#[derive(Default, Debug)]
pub struct Node {
    /// Visits, including the ones still in flight: visits are added on the way down and the result
    /// only on the way up, so an unfinished visit counts as a loss for a moment (virtual loss).
    pub visits: AtomicU32,
    pub wins: AtomicU32,
    /// All-moves-as-first statistics (RAVE): visits in the low half, half-point wins in the high
    /// half, so one load reads a consistent pair and one store writes it (see `add_amaf`).
    pub amaf: AtomicU64,
    /// Prior knowledge as equivalent experience: visits and half-point wins (fixed at expansion).
    pub prior_visits: AtomicU32,
    pub prior_wins: AtomicU32,
    pub first_child: AtomicU32,
    pub num_children: AtomicU32,
    pub state: AtomicU32,
    /// The move (`MoveCode`) in the low 24 bits, flags (`FLAG_DRAW`) in the top byte.
    pub mv: AtomicU32,
    /// Sum over the visits of Black's final margin, in half points (for score estimates).
    pub score: AtomicI64,
}

impl Node {
    #[inline]
    pub fn mv(&self) -> MoveCode {
        MoveCode(self.mv.load(Relaxed) & 0x00ff_ffff)
    }

    #[inline]
    pub fn flags(&self) -> u32 {
        self.mv.load(Relaxed) & 0xff00_0000
    }

    /// AMAF visits and half-point wins.
    #[inline]
    pub fn amaf(&self) -> (u32, u32) {
        let a = self.amaf.load(Relaxed);
        (a as u32, (a >> 32) as u32)
    }

    /// Adds one AMAF visit worth `half` half points.
    ///
    /// A plain load and store, not a locked `fetch_add`: a backup updates the AMAF pair of roughly
    /// half the children of every node on its path (hundreds per playout), and locked additions there
    /// cost more than the rest of the backup while the threads fight over the same cache lines. Two
    /// threads updating one pair at the same instant can lose one of the two updates; AMAF is an
    /// estimate from many thousands of playouts and one lost sample changes nothing a move choice
    /// depends on (visits and wins, which choose the move, stay exact).
    #[inline]
    pub fn add_amaf(&self, half: u32) {
        let a = self.amaf.load(Relaxed);
        self.amaf.store(a + (1 | (half as u64) << 32), Relaxed);
    }

    /// Win rate for the player who made this node's move, priors excluded (0.5 with no visits).
    pub fn winrate(&self) -> f64 {
        let n = self.visits.load(Relaxed);
        if n == 0 {
            return 0.5;
        }
        (self.wins.load(Relaxed) as f64 / (2.0 * n as f64)).min(1.0)
    }

    /// Black's mean final margin over the visits (0 with none).
    pub fn mean_black_margin(&self) -> f64 {
        let n = self.visits.load(Relaxed);
        if n == 0 {
            return 0.0;
        }
        self.score.load(Relaxed) as f64 / (2.0 * n as f64)
    }
}

/// The arena. Nodes are handed out by a bump counter; a full arena refuses further expansions (the
/// search then keeps running playouts from its leaves).
pub struct Tree {
    nodes: Box<[Node]>,
    len: AtomicU32,
    full: AtomicBool,
}

impl std::fmt::Debug for Tree {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Tree({} of {} nodes)", self.len(), self.capacity())
    }
}

/// Fewest nodes an arena holds: the root and a full set of children on the largest board.
pub const MIN_NODES: usize = 4096;

impl Tree {
    /// An arena of `capacity` nodes (at least `MIN_NODES`) holding only the root.
    pub fn new(capacity: usize) -> Tree {
        let capacity = capacity.clamp(MIN_NODES, u32::MAX as usize / 2);
        // Zeroed memory is a valid array of empty nodes (every field is an atomic integer), and the
        // operating system hands out untouched zero pages lazily: only the part used costs memory.
        let nodes = Box::<[Node]>::new_zeroed_slice(capacity);
        // SAFETY: `Node` consists of atomic integers only, for which all-zero bytes are a valid value.
        let nodes = unsafe { nodes.assume_init() };
        Tree { nodes, len: AtomicU32::new(1), full: AtomicBool::new(false) }
    }

    /// An arena that takes at most `mb` MiB.
    pub fn with_megabytes(mb: usize) -> Tree {
        Tree::new(Tree::nodes_for_mb(mb))
    }

    /// How many nodes fit in `mb` megabytes.
    pub fn nodes_for_mb(mb: usize) -> usize {
        mb.saturating_mul(1 << 20) / std::mem::size_of::<Node>()
    }

    #[inline]
    pub fn node(&self, i: u32) -> &Node {
        &self.nodes[i as usize]
    }

    pub fn root(&self) -> &Node {
        self.node(ROOT)
    }

    pub fn len(&self) -> usize {
        (self.len.load(Relaxed) as usize).min(self.nodes.len())
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn capacity(&self) -> usize {
        self.nodes.len()
    }

    pub fn is_full(&self) -> bool {
        self.full.load(Relaxed)
    }

    /// Claims `n` consecutive fresh nodes; `None` (and the arena marked full) when they do not fit.
    pub fn alloc(&self, n: u32) -> Option<u32> {
        let cap = self.nodes.len() as u32;
        if self.full.load(Relaxed) || self.len.load(Relaxed) + n > cap {
            self.full.store(true, Relaxed);
            return None;
        }
        let start = self.len.fetch_add(n, Relaxed);
        if start + n > cap {
            self.full.store(true, Relaxed);
            return None;
        }
        Some(start)
    }

    /// The children of an expanded node (empty for a leaf).
    #[inline]
    pub fn children(&self, i: u32) -> std::ops::Range<u32> {
        let node = self.node(i);
        if node.state.load(Acquire) != EXPANDED {
            return 0..0;
        }
        let first = node.first_child.load(Relaxed);
        first..first + node.num_children.load(Relaxed)
    }

    /// The first child of `i` and the children as a slice (empty for a leaf): one bounds check for a
    /// loop over all of them.
    #[inline]
    pub fn child_slice(&self, i: u32) -> (u32, &[Node]) {
        let r = self.children(i);
        (r.start, &self.nodes[r.start as usize..r.end as usize])
    }

    /// The child of `i` reached by `mv`, if `i` is expanded and has it.
    pub fn find_child(&self, i: u32, mv: Move) -> Option<u32> {
        let code = MoveCode::new(mv);
        self.children(i).find(|&c| self.node(c).mv() == code)
    }

    /// The most visited child of `i` (ties: the earlier child), if any child has a visit.
    pub fn best_child(&self, i: u32) -> Option<u32> {
        let mut best: Option<(u32, u32)> = None;
        for c in self.children(i) {
            let v = self.node(c).visits.load(Relaxed);
            if v > 0 && best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, c));
            }
        }
        best.map(|(_, c)| c)
    }

    /// Copies the subtree under `old_root` of `old` into a fresh arena of the same capacity, with the
    /// copied node as the new root (tree reuse after a move). Breadth first, so children stay
    /// contiguous and the nodes near the root, which matter most, come first; what does not fit, or
    /// is not reached by `deadline`, is left as leaves.
    pub fn reroot(old: &Tree, old_root: u32, deadline: Option<Instant>) -> Tree {
        let tree = Tree::new(old.capacity());
        copy_stats(old.node(old_root), tree.node(ROOT));
        let mut queue = std::collections::VecDeque::new();
        queue.push_back((old_root, ROOT));
        let mut copied = 0u32;
        while let Some((from, to)) = queue.pop_front() {
            copied += 1;
            // Reading the clock every node would cost more than the copy.
            if copied.is_multiple_of(1024) && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let kids = old.children(from);
            if kids.is_empty() {
                continue;
            }
            let Some(first) = tree.alloc(kids.len() as u32) else { break };
            for (k, c) in kids.enumerate() {
                let dst = first + k as u32;
                copy_stats(old.node(c), tree.node(dst));
                queue.push_back((c, dst));
            }
            let node = tree.node(to);
            node.first_child.store(first, Relaxed);
            node.num_children.store(old.node(from).num_children.load(Relaxed), Relaxed);
            node.state.store(EXPANDED, Release);
        }
        tree.full.store(false, Relaxed);
        tree
    }
}

fn copy_stats(from: &Node, to: &Node) {
    for (a, b) in [
        (&from.visits, &to.visits),
        (&from.wins, &to.wins),
        (&from.prior_visits, &to.prior_visits),
        (&from.prior_wins, &to.prior_wins),
        (&from.mv, &to.mv),
    ] {
        b.store(a.load(Relaxed), Relaxed);
    }
    to.amaf.store(from.amaf.load(Relaxed), Relaxed);
    to.score.store(from.score.load(Relaxed), Relaxed);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_pack_and_unpack() {
        for mv in [Move::Place(Point(37)), Move::Pass, Move::Button, Move::Return, Move::Stake(Point(500))] {
            assert_eq!(MoveCode::new(mv).decode(), mv);
        }
        assert_eq!(MoveCode::new(Move::Place(Point(12))).placement(), Some(Point(12)));
        assert_eq!(MoveCode::new(Move::Stake(Point(12))).placement(), None);
        // Flags in the top byte do not change the move a node reports.
        let n = Node::default();
        n.mv.store(MoveCode::new(Move::Place(Point(40))).0 | FLAG_DRAW, Relaxed);
        assert_eq!(n.mv().decode(), Move::Place(Point(40)));
        assert_eq!(n.flags(), FLAG_DRAW);
    }

    #[test]
    fn a_full_arena_refuses_without_panicking() {
        let t = Tree::new(0);
        assert_eq!(t.capacity(), MIN_NODES);
        assert_eq!(t.alloc(100), Some(1));
        assert_eq!(t.alloc(MIN_NODES as u32), None);
        assert!(t.is_full());
        assert_eq!(t.alloc(1), None);
    }

    #[test]
    fn reroot_keeps_the_subtree_and_its_statistics() {
        let t = Tree::new(0);
        // Root with two children; the second has one child of its own.
        let first = t.alloc(2).unwrap();
        for (k, p) in [(0, 10u16), (1, 11)] {
            let c = t.node(first + k);
            c.mv.store(MoveCode::new(Move::Place(Point(p))).0, Relaxed);
            c.visits.store(5 + k, Relaxed);
        }
        t.root().first_child.store(first, Relaxed);
        t.root().num_children.store(2, Relaxed);
        t.root().state.store(EXPANDED, Release);
        let g = t.alloc(1).unwrap();
        t.node(g).mv.store(MoveCode::new(Move::Pass).0, Relaxed);
        t.node(g).wins.store(3, Relaxed);
        let second = first + 1;
        t.node(second).first_child.store(g, Relaxed);
        t.node(second).num_children.store(1, Relaxed);
        t.node(second).state.store(EXPANDED, Release);

        assert_eq!(t.best_child(ROOT), Some(second));
        let r = Tree::reroot(&t, second, None);
        assert_eq!(r.root().visits.load(Relaxed), 6);
        assert_eq!(r.len(), 2);
        let c = r.find_child(ROOT, Move::Pass).unwrap();
        assert_eq!(r.node(c).wins.load(Relaxed), 3);
        assert!(r.children(c).is_empty());
    }
}
