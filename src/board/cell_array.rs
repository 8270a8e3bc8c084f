//! Per-cell arrays indexed without bounds checks: a fixed power-of-two number of slots and a mask.

use super::point::MAX_CELLS;

/// Slots of every per-cell array: the padded array of the largest board, rounded up to a power of two.
const SLOTS: usize = MAX_CELLS.next_power_of_two();

/// The last slot, past every board's cells: it takes writes that must go somewhere and matter
/// nowhere (see `Slots::chain_or_sink` in `board.rs`), and its mask is all ones.
pub const SINK: usize = SLOTS - 1;
const _: () = assert!(SINK >= MAX_CELLS);

/// A per-cell array (the board's, or anything else indexed by `Point::idx`): a fixed power-of-two
/// number of slots, indexed through a mask. The mask proves every index in range to the compiler, so
/// the hot paths (placement, captures, the eye and suicide tests, the AMAF marks) index without
/// bounds checks, and without `unsafe`; a cell index is always below `MAX_CELLS`, so the mask never
/// changes it. Only a board's first `Geometry::cells()` slots are meaningful (and copied). The slots
/// are held inline: the board keeps all of its arrays in one box (`Slots` in `board.rs`).
#[derive(Clone, Debug)]
pub struct CellArray<T>([T; SLOTS]);

impl<T: Copy> CellArray<T> {
    pub fn new(fill: T) -> Self {
        CellArray([fill; SLOTS])
    }

    #[inline]
    pub fn prefix(&self, n: usize) -> &[T] {
        &self.0[..n]
    }

    /// Copies the first `n` cells of `src`.
    #[inline]
    pub fn copy_prefix(&mut self, src: &Self, n: usize) {
        self.0[..n].copy_from_slice(&src.0[..n]);
    }
}

/// The slot of cell `i`: `i` itself, as the mask leaves every cell index below `MAX_CELLS` alone.
/// `SINK`, the one slot past the cells, is a valid index too.
#[inline(always)]
fn slot(i: usize) -> usize {
    debug_assert!(i < MAX_CELLS || i == SINK, "cell {i} out of range");
    i & (SLOTS - 1)
}

impl<T> std::ops::Index<usize> for CellArray<T> {
    type Output = T;
    #[inline(always)]
    fn index(&self, i: usize) -> &T {
        &self.0[slot(i)]
    }
}

impl<T> std::ops::IndexMut<usize> for CellArray<T> {
    #[inline(always)]
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.0[slot(i)]
    }
}
