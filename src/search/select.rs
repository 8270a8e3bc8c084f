//! Selection: which child a descent follows. UCT's value blended with RAVE (all-moves-as-first) by the
//! minimum-error schedule of Gelly and Silver, priors counted as equivalent experience in both.

use super::config::SearchConfig;
use super::tree::{Node, Tree};
use std::sync::atomic::Ordering::Relaxed;

/// The selection value of `child` for the player about to choose it, under a parent with
/// `parent_visits`.
///
/// With `n` real and `p` prior visits the UCT estimate is `(wins + prior wins) / (n + p)`; the AMAF
/// estimate adds the same prior to the AMAF counts. They blend with
/// `beta = a / (a + n' + n' * a / k)` (`a`: AMAF visits, `n' = n + p`, `k`: the RAVE equivalence), so
/// AMAF leads while a move has few visits of its own and fades as they grow. Visits still in flight
/// count as losses (they were added on the way down): this is the virtual loss that spreads threads
/// over different lines.
#[inline]
pub fn value(child: &Node, parent_visits: u32, config: &SearchConfig) -> f64 {
    let n = child.visits.load(Relaxed) as f64;
    let w = child.wins.load(Relaxed) as f64 * 0.5;
    let pn = child.prior_visits.load(Relaxed) as f64;
    let pw = child.prior_wins.load(Relaxed) as f64 * 0.5;
    let an = child.amaf_visits.load(Relaxed) as f64 + pn;
    let aw = child.amaf_wins.load(Relaxed) as f64 * 0.5 + pw;
    let un = n + pn;
    let q = if un > 0.0 { (w + pw) / un } else { 0.5 };
    let mut v = if an > 0.0 {
        let beta = an / (an + un + un * an / config.rave_equiv);
        (1.0 - beta) * q + beta * (aw / an)
    } else {
        q
    };
    if config.explore > 0.0 {
        v += config.explore * ((parent_visits.max(1) as f64).ln() / (un + 1.0)).sqrt();
    }
    v
}

/// The child of `node` with the highest selection value (the first of equals, so one thread is
/// deterministic); `None` for a node without children.
#[inline]
pub fn select(tree: &Tree, node: u32, config: &SearchConfig) -> Option<u32> {
    let parent_visits = tree.node(node).visits.load(Relaxed);
    let mut best: Option<(f64, u32)> = None;
    for c in tree.children(node) {
        let v = value(tree.node(c), parent_visits, config);
        if best.is_none_or(|(bv, _)| v > bv) {
            best = Some((v, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(visits: u32, wins: u32, amaf: (u32, u32), prior: (u32, u32)) -> Node {
        let n = Node::default();
        n.visits.store(visits, Relaxed);
        n.wins.store(wins, Relaxed);
        n.amaf_visits.store(amaf.0, Relaxed);
        n.amaf_wins.store(amaf.1, Relaxed);
        n.prior_visits.store(prior.0, Relaxed);
        n.prior_wins.store(prior.1, Relaxed);
        n
    }

    #[test]
    fn amaf_leads_early_and_fades_with_real_visits() {
        let c = SearchConfig::default();
        // No real visits: the AMAF rate (90%) dominates the prior (50%).
        let fresh = node(0, 0, (100, 180), (10, 10));
        assert!(value(&fresh, 100, &c) > 0.8);
        // Many real visits at 20% outweigh the same AMAF figures.
        let tried = node(100_000, 40_000, (100, 180), (10, 10));
        assert!(value(&tried, 200_000, &c) < 0.3);
        // Virtual loss: a visit in flight (counted, not yet won) lowers the value.
        let a = node(10, 20, (0, 0), (0, 0));
        let b = node(11, 20, (0, 0), (0, 0));
        assert!(value(&b, 20, &c) < value(&a, 20, &c));
    }
}
