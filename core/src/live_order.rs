//! An append-only sequence with O(log n) removal and O(log n) "k-th live item" lookup: the order
//! programs joined an island (or the database), which is the order the files list them in and the
//! order uniform picks index into. Removed items leave a tombstone; a Fenwick tree counts the
//! live ones, so nothing is shifted or sorted on the hot path.

const TOMBSTONE: u32 = u32::MAX;

#[derive(Clone, Debug, Default)]
pub(crate) struct LiveOrder {
    items: Vec<u32>,
    /// Fenwick tree (1-based, stored 0-based) over 1 for live positions, 0 for tombstones.
    tree: Vec<u32>,
    live: usize,
}

impl LiveOrder {
    pub(crate) fn len(&self) -> usize {
        self.live
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.live == 0
    }

    /// Positions handed out so far, tombstones included.
    pub(crate) fn positions(&self) -> usize {
        self.items.len()
    }

    /// Appends `item`; returns its position (stable until the order is rebuilt).
    pub(crate) fn push(&mut self, item: u32) -> u32 {
        debug_assert_ne!(item, TOMBSTONE);
        let pos = self.items.len();
        self.items.push(item);
        // Node i (1-based) covers (i - lowbit(i), i]: its count is this item plus the nodes
        // that tile (i - lowbit(i), i - 1].
        let i = pos + 1;
        let low = i & i.wrapping_neg();
        let mut count = 1;
        let mut j = i - 1;
        while j > i - low {
            count += self.tree[j - 1];
            j -= j & j.wrapping_neg();
        }
        self.tree.push(count);
        self.live += 1;
        pos as u32
    }

    /// Removes the item at `pos`; returns it.
    pub(crate) fn remove(&mut self, pos: u32) -> u32 {
        let pos = pos as usize;
        let item = std::mem::replace(&mut self.items[pos], TOMBSTONE);
        debug_assert_ne!(item, TOMBSTONE, "position removed twice");
        let mut i = pos + 1;
        while i <= self.tree.len() {
            self.tree[i - 1] -= 1;
            i += i & i.wrapping_neg();
        }
        self.live -= 1;
        item
    }

    /// Number of live items before `pos`.
    pub(crate) fn rank(&self, pos: u32) -> usize {
        let mut i = pos as usize;
        let mut sum = 0;
        while i > 0 {
            sum += self.tree[i - 1] as usize;
            i -= i & i.wrapping_neg();
        }
        sum
    }

    /// The live item of rank `k` (0-based) and its position.
    pub(crate) fn select(&self, k: usize) -> (u32, u32) {
        debug_assert!(k < self.live);
        let mut pos = 0;
        let mut remaining = k as u32;
        let mut step = self.tree.len().next_power_of_two();
        while step > 0 {
            let next = pos + step;
            if next <= self.tree.len() && self.tree[next - 1] <= remaining {
                pos = next;
                remaining -= self.tree[next - 1];
            }
            step >>= 1;
        }
        (pos as u32, self.items[pos])
    }

    /// Live items in order.
    pub(crate) fn iter(&self) -> impl Iterator<Item = u32> + '_ {
        self.items.iter().copied().filter(|&item| item != TOMBSTONE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #[test]
        fn behaves_like_a_vec(ops in proptest::collection::vec((any::<bool>(), any::<u16>()), 1..300)) {
            let mut order = LiveOrder::default();
            let mut model: Vec<(u32, u32)> = Vec::new(); // (pos, item)
            for (i, (push, r)) in ops.into_iter().enumerate() {
                if push || model.is_empty() {
                    let pos = order.push(i as u32);
                    model.push((pos, i as u32));
                } else {
                    let idx = r as usize % model.len();
                    let (pos, item) = model.remove(idx);
                    prop_assert_eq!(order.remove(pos), item);
                }
                prop_assert_eq!(order.len(), model.len());
                for (k, &(pos, item)) in model.iter().enumerate() {
                    prop_assert_eq!(order.select(k), (pos, item));
                    prop_assert_eq!(order.rank(pos), k);
                }
                prop_assert_eq!(order.iter().collect::<Vec<_>>(), model.iter().map(|m| m.1).collect::<Vec<_>>());
            }
        }
    }
}
