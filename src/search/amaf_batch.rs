//! AMAF updates of the busiest nodes, gathered per worker and added to the tree in batches.
//!
//! A backup adds an AMAF sample to about half the children of every node on its path. Near the top
//! of the tree every thread passes through the same nodes on nearly every iteration, so with several
//! threads each of those stores hits a cache line the other threads have just read for their own
//! selection, and the line travels between cores on every playout: measured on 9x9, this traffic
//! cost a quarter of the two-thread speed. A node with many visits loses nothing by seeing its
//! children's AMAF counts a few dozen playouts late (they hold thousands of samples), so a worker
//! adds those samples to a buffer of its own and writes each child once per batch.

use super::tree::Tree;

/// Parents whose children's AMAF samples a worker may hold at once; beyond them the samples go
/// straight to the tree.
const SLOTS: usize = 32;

/// A node is batched once it has this many visits: its children's AMAF counts are then large enough
/// that a batch's worth of samples (`FLUSH_EVERY` playouts per worker) is a small part of them.
pub const BATCH_FROM_VISITS: u32 = 1024;

#[derive(Debug)]
pub struct AmafBatch {
    /// The nodes of the slots in use.
    parents: Vec<u32>,
    /// Most children a node can have.
    width: usize,
    /// Per slot, per child: pending AMAF visits (low half) and half-point wins (high half), the
    /// packing of `Amaf`.
    pending: Vec<u64>,
}

impl AmafBatch {
    /// A buffer for nodes of at most `width` children.
    pub fn new(width: usize) -> AmafBatch {
        AmafBatch { parents: Vec::with_capacity(SLOTS), width, pending: vec![0; SLOTS * width] }
    }

    /// The pending samples of `parent`'s children (as many entries as `width`), or `None` when every
    /// slot holds another node.
    #[inline]
    pub fn row(&mut self, parent: u32) -> Option<&mut [u64]> {
        let slot = match self.parents.iter().position(|&p| p == parent) {
            Some(s) => s,
            None if self.parents.len() < SLOTS => {
                self.parents.push(parent);
                self.parents.len() - 1
            }
            None => return None,
        };
        Some(&mut self.pending[slot * self.width..(slot + 1) * self.width])
    }

    /// Adds every pending sample to the tree and empties the buffer.
    pub fn flush(&mut self, tree: &Tree) {
        for (slot, &parent) in self.parents.iter().enumerate() {
            let kids = tree.children(parent);
            let row = &mut self.pending[slot * self.width..][..kids.len()];
            for (amaf, pending) in tree.amaf_slice(kids.start, kids.len()).iter().zip(row) {
                if *pending != 0 {
                    amaf.add_samples(std::mem::take(pending));
                }
            }
        }
        self.parents.clear();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn samples_reach_the_tree_only_at_the_flush() {
        let tree = Tree::new(0);
        let first = tree.alloc_children(3).unwrap();
        tree.root().publish_children(first, 3);
        let mut batch = AmafBatch::new(4);
        let row = batch.row(0).unwrap();
        row[0] += 1 | 2 << 32;
        row[2] += 1;
        batch.row(0).unwrap()[2] += 1 | 2 << 32;
        assert_eq!(tree.amaf(first + 2).get(), (0, 0));
        batch.flush(&tree);
        assert_eq!(tree.amaf(first).get(), (1, 2));
        assert_eq!(tree.amaf(first + 1).get(), (0, 0));
        assert_eq!(tree.amaf(first + 2).get(), (2, 2));
        // Flushed samples are gone from the buffer.
        batch.flush(&tree);
        assert_eq!(tree.amaf(first + 2).get(), (2, 2));
    }

    #[test]
    fn a_full_buffer_refuses_new_parents_but_keeps_its_own() {
        let mut batch = AmafBatch::new(2);
        for p in 0..SLOTS as u32 {
            assert!(batch.row(p).is_some());
        }
        assert!(batch.row(SLOTS as u32).is_none());
        assert!(batch.row(3).is_some());
    }
}
