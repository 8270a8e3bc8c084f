//! Selection: which child a descent follows. UCT's value blended with RAVE (all-moves-as-first) by the
//! minimum-error schedule of Gelly and Silver, priors counted as equivalent experience in both.

use super::config::SearchConfig;
use super::tree::{Amaf, Node, Tree};
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
pub fn value(child: &Node, amaf: &Amaf, parent_visits: u32, config: &SearchConfig) -> f64 {
    let n = child.visits.load(Relaxed) as f64;
    let w = child.wins.load(Relaxed) as f64 * 0.5;
    let (pn, pw) = child.prior();
    let (pn, pw) = (pn as f64, pw as f64 * 0.5);
    let (amaf_visits, amaf_wins) = amaf.get();
    let an = amaf_visits as f64 + pn;
    let aw = amaf_wins as f64 * 0.5 + pw;
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

/// The selection value without the exploration term, as a fraction `(numerator, denominator)` with a
/// positive denominator (half points, so the common factor 1/2 cancels).
///
/// Multiplying `beta` and `1 - beta` out over the common denominator turns the blend into one
/// fraction: with `a` and `n'` the AMAF and own visits (prior included), `W` and `AW` the win sums
/// behind `q` and the AMAF rate, and `k` the RAVE equivalence,
/// `((k + a) * W + k * AW) / ((k + a) * n' + k * a)`. It equals `value` for `explore == 0`,
/// including the edge cases: no AMAF gives `W / n'`, no own visits gives the AMAF rate, and neither
/// gives 1/2.
#[inline]
fn fraction(child: &Node, amaf: &Amaf, k: f64) -> (f64, f64) {
    // Every count stays below 2^31 (the search stops at `MAX_VISITS`), so the sums are exact in
    // 32-bit integers and convert as signed ones.
    let (pn, pw) = child.prior();
    let (an, aw) = amaf.get();
    let un = child.visits.load(Relaxed).wrapping_add(pn) as i32 as f64;
    let w = child.wins.load(Relaxed).wrapping_add(pw) as i32 as f64;
    let (an, aw) = (an.wrapping_add(pn) as i32 as f64, aw.wrapping_add(pw) as i32 as f64);
    let ka = an + k;
    let (num, den) = (ka * w + k * aw, ka * un + k * an);
    if den > 0.0 {
        (num, den)
    } else {
        (1.0, 1.0)
    }
}

/// Marks the path that calls it as rarely taken (a call to a `#[cold]` function is what the
/// standard library's `hint::cold_path` amounts to; that one needs Rust 1.95).
#[cold]
#[inline(always)]
fn cold() {}

/// The child of `node` with the highest selection value (the first of equals, so one thread is
/// deterministic); `None` for a node without children.
#[inline]
pub fn select(tree: &Tree, node: u32, config: &SearchConfig) -> Option<u32> {
    let (first, kids) = tree.child_slice(node);
    let amafs = tree.amaf_slice(first, kids.len());
    if config.explore > 0.0 {
        let parent_visits = tree.node(node).visits.load(Relaxed);
        let mut best: Option<(f64, u32)> = None;
        for (i, (child, amaf)) in kids.iter().zip(amafs).enumerate() {
            let v = value(child, amaf, parent_visits, config);
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, i as u32));
            }
        }
        return best.map(|(_, i)| first + i);
    }
    // Without the exploration term every value is a fraction with a positive denominator, and
    // `a / b > c / d` is `a * d > c * b`: the comparison needs no division. Selection runs over every
    // child at every step of every descent, so three divisions per child were most of its time.
    let k = config.rave_equiv;
    // -1/0 loses to any fraction with a positive denominator: the first child always takes the lead.
    let (mut best_num, mut best_den, mut best) = (-1.0, 0.0, 0);
    for (i, (child, amaf)) in kids.iter().zip(amafs).enumerate() {
        let (num, den) = fraction(child, amaf, k);
        if num * best_den > best_num * den {
            // A new leader is rare after the first few children. As a branch the comparison is
            // predicted and the next child's work starts at once; as a select (what the compiler
            // would make of it) every child waits for the previous child's comparison.
            cold();
            (best_num, best_den, best) = (num, den, i as u32);
        }
    }
    (!kids.is_empty()).then_some(first + best)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(visits: u32, wins: u32, amaf: (u32, u32), prior: (u32, u32)) -> (Node, Amaf) {
        let n = Node::default();
        n.visits.store(visits, Relaxed);
        n.wins.store(wins, Relaxed);
        n.set_prior(prior.0, prior.1);
        let a = Amaf::default();
        a.set(amaf.0, amaf.1);
        (n, a)
    }

    #[test]
    fn amaf_leads_early_and_fades_with_real_visits() {
        let c = SearchConfig::default();
        // No real visits: the AMAF rate (90%) dominates the prior (50%).
        let (fresh, fresh_amaf) = node(0, 0, (100, 180), (10, 10));
        assert!(value(&fresh, &fresh_amaf, 100, &c) > 0.8);
        // Many real visits at 20% outweigh the same AMAF figures.
        let (tried, tried_amaf) = node(100_000, 40_000, (100, 180), (10, 10));
        assert!(value(&tried, &tried_amaf, 200_000, &c) < 0.3);
        // Virtual loss: a visit in flight (counted, not yet won) lowers the value.
        let (a, a_amaf) = node(10, 20, (0, 0), (0, 0));
        let (b, b_amaf) = node(11, 20, (0, 0), (0, 0));
        assert!(value(&b, &b_amaf, 20, &c) < value(&a, &a_amaf, 20, &c));
    }

    #[test]
    fn the_fraction_is_the_value_without_exploration() {
        let c = SearchConfig::default();
        for (visits, wins, amaf, prior) in [
            (0, 0, (100, 180), (10, 10)),
            (100_000, 40_000, (100, 180), (10, 10)),
            (10, 20, (0, 0), (0, 0)),
            (0, 0, (0, 0), (0, 0)),
            (0, 0, (7, 3), (0, 0)),
            (3, 4, (50, 61), (25, 31)),
        ] {
            let (n, a) = node(visits, wins, amaf, prior);
            let (num, den) = fraction(&n, &a, c.rave_equiv);
            // The fraction counts half points: twice the value.
            assert!(
                (num / den / 2.0 - value(&n, &a, 1, &c)).abs() < 1e-12,
                "{visits} {wins} {amaf:?} {prior:?}"
            );
        }
    }
}
