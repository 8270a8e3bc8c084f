//! Per-cell arrays indexed without bounds checks: a fixed power-of-two number of slots and a mask.

use super::point::MAX_CELLS;

/// Slots of every per-cell array: the padded array of the largest board, rounded up to a power of two.
pub const SLOTS: usize = MAX_CELLS.next_power_of_two();

/// The last slot, past every board's cells: it takes writes that must go somewhere and matter
/// nowhere (see `Slots::chain_or_sink` in `board.rs`), and its mask is all ones.
pub const SINK: usize = SLOTS - 1;
const _: () = assert!(SINK >= MAX_CELLS);

/// A per-cell array (the board's, or anything else indexed by `Point::idx`): a fixed power-of-two
/// number of slots, indexed through a mask. The mask proves every index in range to the compiler, so
/// indexing needs no bounds check, and a point from anywhere (a GTP argument, another board's)
/// cannot reach outside the array; a cell index is always below `MAX_CELLS`, so the mask never
/// changes it. The placement core, whose indices are in range by construction, skips the mask
/// (`get_unchecked`). Only a board's first `Geometry::cells()` slots are meaningful (and copied).
/// The slots are held inline: the board keeps all of its arrays in one box (`Slots` in
/// `board.rs`).
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

impl<T> CellArray<T> {
    /// Slot `i` without the mask, for code whose indices are in range by construction (the
    /// placement core, `Slots` in `board.rs`): the mask is one instruction, but a placement
    /// indexes about thirty times.
    ///
    /// # Safety
    /// `i < SLOTS`: a cell index of any board (below `MAX_CELLS`) or `SINK`.
    #[inline(always)]
    pub unsafe fn get_unchecked(&self, i: usize) -> &T {
        debug_assert!(i < SLOTS, "cell {i} out of range");
        // SAFETY: the caller keeps `i` below `SLOTS`, the array's length.
        unsafe { self.0.get_unchecked(i) }
    }

    /// `get_unchecked`, mutable.
    ///
    /// # Safety
    /// `i < SLOTS`, as for `get_unchecked`.
    #[inline(always)]
    pub unsafe fn get_unchecked_mut(&mut self, i: usize) -> &mut T {
        debug_assert!(i < SLOTS, "cell {i} out of range");
        // SAFETY: the caller keeps `i` below `SLOTS`, the array's length.
        unsafe { self.0.get_unchecked_mut(i) }
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
