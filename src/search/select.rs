//! Selection: which child a descent follows. UCT's value blended with RAVE (all-moves-as-first) by the
//! minimum-error schedule of Gelly and Silver, priors counted as equivalent experience in both.

use super::config::SearchConfig;
use super::tree::{Amaf, Node, Tree};

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
    // Both pairs hold the prior already (see `Node`).
    let (un, w) = child.experience();
    let (un, w) = (un as f64, w as f64 * 0.5);
    let (an, aw) = amaf.get();
    let (an, aw) = (an as f64, aw as f64 * 0.5);
    let q = if un > 0.0 { w / un } else { 0.5 };
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
///
/// In integers, exactly: every count stays below 2^31 (the search stops at `MAX_VISITS`) and `k` is
/// a few thousand, so each product is below 2^63 and each sum fits 64 bits; comparing two fractions
/// takes two 64x64 -> 128-bit multiplications. Integer arithmetic needs no conversions, which were
/// most of the work per child in floating point, and it is exact where doubles rounded the cross
/// products of large counts.
#[inline]
fn fraction(child: &Node, amaf: &Amaf, k: u64) -> (u64, u64) {
    // Both pairs hold the prior already (see `Node`).
    let (un, w) = child.experience();
    let (an, aw) = amaf.get();
    let (un, w, an, aw) = (un as u64, w as u64, an as u64, aw as u64);
    let ka = an + k;
    let (num, den) = (ka * w + k * aw, ka * un + k * an);
    // No experience at all: `den` is 0 only without visits and AMAF samples, and then `num` is 0
    // too (wins are at most twice the visits). That is 1/1, one half point a visit, added without
    // a branch: as a branch, every child's common path ended in a jump over the rare one.
    let none = (den == 0) as u64;
    (num + none, den + none)
}

/// Is `a / b` greater than `c / d` (positive denominators)?
#[inline(always)]
fn greater(a: u64, b: u64, c: u64, d: u64) -> bool {
    a as u128 * d as u128 > c as u128 * b as u128
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
        let parent_visits = tree.node(node).visits();
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
    let k = rave_equiv(config);
    let (first_kid, first_amaf) = kids.first().zip(amafs.first())?;
    // The first child leads to begin with (comparing it with itself changes nothing).
    let (mut best_num, mut best_den) = fraction(first_kid, first_amaf, k);
    let mut best = 0;
    for (i, (child, amaf)) in kids.iter().zip(amafs).enumerate() {
        let (num, den) = fraction(child, amaf, k);
        if greater(num, den, best_num, best_den) {
            // A new leader is rare after the first few children. As a branch the comparison is
            // predicted and the next child's work starts at once; as a select (what the compiler
            // would make of it) every child waits for the previous child's comparison.
            cold();
            (best_num, best_den, best) = (num, den, i as u32);
        }
    }
    Some(first + best)
}

/// The RAVE equivalence as the integer the fraction takes (at least 1).
#[inline]
fn rave_equiv(config: &SearchConfig) -> u64 {
    // Rounding a positive value by adding one half: `f64::round` is a call into the C library
    // without SSE4.1, once per selection.
    (config.rave_equiv.clamp(1.0, 1e6) + 0.5) as u64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::tree::ROOT;

    fn node(visits: u32, wins: u32, amaf: (u32, u32), prior: (u32, u32)) -> (Node, Amaf) {
        let n = Node::default();
        n.set_prior(prior.0, prior.1);
        n.set_stats(visits, wins);
        // The AMAF pair starts at the prior, as `Tree::set_prior` makes it.
        let a = Amaf::default();
        a.set(amaf.0 + prior.0, amaf.1 + prior.1);
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
            let (num, den) = fraction(&n, &a, rave_equiv(&c));
            // The fraction counts half points: twice the value.
            assert!(
                (num as f64 / den as f64 / 2.0 - value(&n, &a, 1, &c)).abs() < 1e-12,
                "{visits} {wins} {amaf:?} {prior:?}"
            );
        }
    }

    /// Children with random statistics, small and large, under the root of a fresh tree.
    fn random_children(tree: &Tree, rng: &mut rand_xoshiro::Xoshiro256PlusPlus, big: bool) -> u32 {
        use rand::Rng;
        let k = rng.gen_range(1..=90u32);
        let first = tree.alloc(k).unwrap();
        let top = if big { 1 << 29 } else { 5000 };
        for i in 0..k {
            let visits = rng.gen_range(0..top);
            let wins = rng.gen_range(0..=2 * visits);
            tree.set_prior(first + i, rng.gen_range(0..100), rng.gen_range(0..200));
            tree.node(first + i).set_stats(visits, wins);
            let amaf = rng.gen_range(0..top);
            let (pv, pw) = tree.node(first + i).prior();
            tree.amaf(first + i).set(amaf + pv, rng.gen_range(0..=2 * amaf) + pw);
        }
        tree.root().publish_children(first, k);
        first
    }

    #[test]
    fn selection_takes_the_first_child_of_highest_value() {
        use rand::SeedableRng;
        let c = SearchConfig::default();
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(11);
        for round in 0..300 {
            let tree = Tree::new(0);
            let first = random_children(&tree, &mut rng, false);
            let kids: Vec<u32> = tree.children(ROOT).collect();
            let values: Vec<f64> = kids.iter().map(|&i| value(tree.node(i), tree.amaf(i), 1, &c)).collect();
            let best = values.iter().cloned().fold(f64::MIN, f64::max);
            // The first child within rounding of the best value (doubles cannot tell those apart).
            let expected = kids[values.iter().position(|&v| v >= best - 1e-12).unwrap()];
            let unique = values.iter().filter(|&&v| v >= best - 1e-12).count() == 1;
            let chosen = select(&tree, ROOT, &c).unwrap();
            if unique {
                assert_eq!(chosen, expected, "round {round}");
            } else {
                assert!(values[(chosen - first) as usize] >= best - 1e-12, "round {round}");
            }
        }
    }

    #[test]
    fn comparisons_stay_exact_near_the_visit_cap() {
        use rand::SeedableRng;
        let c = SearchConfig::default();
        let k = rave_equiv(&c);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(12);
        for _ in 0..100 {
            let tree = Tree::new(0);
            random_children(&tree, &mut rng, true);
            let chosen = select(&tree, ROOT, &c).unwrap();
            let (bn, bd) = fraction(tree.node(chosen), tree.amaf(chosen), k);
            // No child is greater than the chosen one, and every earlier child is smaller: checked
            // with exact rational arithmetic, independently of `greater`.
            for i in tree.children(ROOT) {
                let (n, d) = fraction(tree.node(i), tree.amaf(i), k);
                let (lhs, rhs) = (n as u128 * bd as u128, bn as u128 * d as u128);
                assert!(lhs <= rhs, "child {i} beats the chosen {chosen}");
                if i < chosen {
                    assert!(lhs < rhs, "an earlier child {i} ties the chosen {chosen}");
                }
            }
        }
        // Two equal fractions in lowest terms and a multiple of them: equal, the first one wins.
        assert!(!greater(6, 4, 3, 2) && !greater(3, 2, 6, 4));
        assert!(greater(u64::MAX, 1, u64::MAX - 1, 1) && !greater(u64::MAX - 1, u64::MAX, 1, 1));
    }
}
