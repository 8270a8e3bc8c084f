//! The tree's memory: every per-node array in one zeroed allocation.
//!
//! All-zero bytes are a valid value of every array (atomic integers only: empty leaves, no
//! statistics), and a large zeroed allocation comes from the operating system as untouched zero
//! pages, paid for only as the tree grows into them. One allocation rather than one per array,
//! because glibc counts a block as large only from a threshold that it raises to the size of the
//! last large block freed (up to 32 MiB): once a tree was dropped, the next tree's arrays of that
//! size came from the heap and were cleared page by page before the search could start (5 ms per
//! search with a 64 MiB tree, a quarter of the time of a 200-playout move). One block of 32 MiB or
//! more is always large, and a smaller one is quick to clear.

use super::tree::{Amaf, Counts, Node};
use std::alloc::{alloc_zeroed, dealloc, handle_alloc_error, Layout};
use std::ptr::NonNull;
use std::sync::atomic::AtomicI64;

/// `capacity` nodes' worth of each per-node array, in one block.
pub struct NodeMemory {
    block: NonNull<u8>,
    layout: Layout,
    capacity: usize,
    nodes: NonNull<Node>,
    counts: NonNull<Counts>,
    scores: NonNull<AtomicI64>,
    amaf: NonNull<Amaf>,
}

// SAFETY: the block holds atomic integers only, shared through `&` references like any `[Atomic*]`.
unsafe impl Send for NodeMemory {}
// SAFETY: as above.
unsafe impl Sync for NodeMemory {}

impl NodeMemory {
    /// Zeroed arrays of `capacity` (at least 1) elements each.
    pub fn new(capacity: usize) -> NodeMemory {
        assert!(capacity > 0, "an empty node memory");
        let array = |l: Result<Layout, _>| l.expect("node memory larger than the address space");
        // `extend` pads each array to its alignment; the largest alignment here is 8, which the
        // system allocator's zeroed path (calloc) serves without clearing the pages itself.
        let layout = array(Layout::array::<AtomicI64>(capacity));
        let (layout, counts_at) = layout.extend(array(Layout::array::<Counts>(capacity))).unwrap();
        let (layout, amaf_at) = layout.extend(array(Layout::array::<Amaf>(capacity))).unwrap();
        let (layout, nodes_at) = layout.extend(array(Layout::array::<Node>(capacity))).unwrap();
        let layout = layout.pad_to_align();
        // SAFETY: the layout has a non-zero size (capacity > 0 and every element type is sized).
        let block = unsafe { alloc_zeroed(layout) };
        let Some(block) = NonNull::new(block) else { handle_alloc_error(layout) };
        // SAFETY: every offset comes from `Layout::extend` over this block's own layout, so each
        // pointer is inside the block and aligned for its type.
        let at = |offset: usize| unsafe { block.add(offset) };
        NodeMemory {
            block,
            layout,
            capacity,
            nodes: at(nodes_at).cast(),
            counts: at(counts_at).cast(),
            scores: block.cast(),
            amaf: at(amaf_at).cast(),
        }
    }

    #[inline]
    pub fn capacity(&self) -> usize {
        self.capacity
    }

    #[inline]
    pub fn nodes(&self) -> &[Node] {
        self.array(self.nodes)
    }

    #[inline]
    pub fn counts(&self) -> &[Counts] {
        self.array(self.counts)
    }

    #[inline]
    pub fn scores(&self) -> &[AtomicI64] {
        self.array(self.scores)
    }

    #[inline]
    pub fn amaf(&self) -> &[Amaf] {
        self.array(self.amaf)
    }

    /// One of the arrays, given its start (one of this block's pointer fields, nothing else).
    #[inline(always)]
    fn array<T>(&self, start: NonNull<T>) -> &[T] {
        // SAFETY: `start` is one of the pointers `new` set: `capacity` zero-initialized (valid)
        // elements at an aligned offset of the block, alive as long as `self`; shared access only
        // (atomics).
        unsafe { std::slice::from_raw_parts(start.as_ptr(), self.capacity) }
    }
}

impl Drop for NodeMemory {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this very layout, freed once.
        unsafe { dealloc(self.block.as_ptr(), self.layout) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    #[test]
    fn the_arrays_are_zeroed_aligned_and_apart() {
        let m = NodeMemory::new(1000);
        assert_eq!(m.capacity(), 1000);
        assert!(m.nodes().iter().all(|n| n.prior() == (0, 0) && n.mv.load(Relaxed) == 0));
        assert!(m.counts().iter().all(|c| c.experience() == (0, 0)));
        assert!(m.scores().iter().all(|s| s.load(Relaxed) == 0));
        assert!(m.amaf().iter().all(|a| a.get() == (0, 0)));
        assert!(m.scores().as_ptr().is_aligned() && m.amaf().as_ptr().is_aligned());
        assert!(m.nodes().as_ptr().is_aligned() && m.counts().as_ptr().is_aligned());
        // Writing the last element of each array changes no other array.
        m.nodes()[999].first_child.store(u32::MAX, Relaxed);
        m.nodes()[999].mv.store(u32::MAX, Relaxed);
        m.counts()[999].0.store(u64::MAX, Relaxed);
        m.scores()[999].store(-1, Relaxed);
        m.amaf()[999].set(u32::MAX, u32::MAX);
        assert_eq!(m.scores()[998].load(Relaxed), 0);
        assert_eq!(m.amaf()[998].get(), (0, 0));
        assert_eq!((m.nodes()[998].first_child.load(Relaxed), m.counts()[998].experience()), (0, (0, 0)));
        assert_eq!((m.counts()[0].experience(), m.amaf()[0].get()), ((0, 0), (0, 0)));
    }
}
