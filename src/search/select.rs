//! Selection: which child a descent follows. UCT's value blended with RAVE (all-moves-as-first) by the
//! minimum-error schedule of Gelly and Silver, priors counted as equivalent experience in both.

use super::config::SearchConfig;
use super::tree::{packed_words, split_pair, Amaf, Counts, Tree};
#[cfg(target_arch = "x86_64")]
use super::vector_loads::words_avx;
use super::vector_loads::words_sse2;
use std::sync::atomic::AtomicU64;

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
pub fn value(child: &Counts, amaf: &Amaf, parent_visits: u32, config: &SearchConfig) -> f64 {
    // Both pairs hold the prior already (see `Counts`).
    let (un, w) = child.experience();
    let (un, w) = (un as f64, w as f64 * 0.5);
    let (an, aw) = amaf.get();
    let (an, aw) = (an as f64, aw as f64 * 0.5);
    let mut v = rave_blend(un, w, an, aw, config.rave_equiv);
    if config.explore > 0.0 {
        v += config.explore * ((parent_visits.max(1) as f64).ln() / (un + 1.0)).sqrt();
    }
    v
}

/// The win rate `w / un` blended with the AMAF rate `aw / an` by the minimum-error schedule
/// (`beta = an / (an + un + un * an / k)`), counts with their priors; 1/2 without any.
#[inline]
pub fn rave_blend(un: f64, w: f64, an: f64, aw: f64, k: f64) -> f64 {
    let q = if un > 0.0 { w / un } else { 0.5 };
    if an > 0.0 {
        let beta = an / (an + un + un * an / k);
        (1.0 - beta) * q + beta * (aw / an)
    } else {
        q
    }
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
/// at most 10^6 (`rave_equiv`), so each product is below 2^62 and each sum fits 64 bits; comparing
/// two fractions takes two 64x64 -> 128-bit multiplications. Exact where doubles rounded the cross
/// products of large counts; `select` asks it only of the children whose approximate keys (`key`)
/// are near the top.
#[inline]
fn fraction(child: &Counts, amaf: &Amaf, k: u64) -> (u64, u64) {
    // Both pairs hold the prior already (see `Counts`).
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

/// The child of `node` with the highest selection value (the first of equals, so one thread is
/// deterministic); `None` for a node without children. `keys` is the caller's scratch space: it
/// grows when shorter than the children rounded up to whole chunks of `WIDEST` (a worker's starts
/// with a slot per cell, so it never does).
#[inline]
pub fn select(tree: &Tree, node: u32, config: &SearchConfig, keys: &mut Vec<f32>) -> Option<u32> {
    let (first, kids) = tree.child_counts(node);
    let amafs = tree.amaf_slice(first, kids.len());
    if config.explore > 0.0 {
        let parent_visits = tree.visits(node);
        let mut best: Option<(f64, u32)> = None;
        for (i, (child, amaf)) in kids.iter().zip(amafs).enumerate() {
            let v = value(child, amaf, parent_visits, config);
            if best.is_none_or(|(bv, _)| v > bv) {
                best = Some((v, i as u32));
            }
        }
        return best.map(|(_, i)| first + i);
    }
    // Without the exploration term every value is a fraction (`fraction`), and the exact
    // comparison of two takes two 128-bit products. Selection runs over every child at every step
    // of every descent, so it compares exactly only the children whose single-precision keys come
    // within rounding of the top key (one or two, mostly): the keys of four children take a
    // handful of vector instructions, where the exact fractions took about 30 instructions a child.
    let k = rave_equiv(config);
    let n = kids.len();
    // Whole chunks of keys for the second pass, at either width, the padding below every floor.
    let padded = n.next_multiple_of(WIDEST);
    if keys.len() < padded {
        keys.resize(padded, 0.0);
    }
    let keys = &mut keys[..padded];
    keys[n..].fill(-1.0);
    best_child_widest(kids, amafs, keys, n, k).map(|i| first + i as u32)
}

/// The index of the child `select` takes, from `keys` (at least `n` slots, whole chunks of
/// `WIDEST`, the padding below every key): the keys filled `L` at a time (`fill_keys`), then the
/// exact scan of those near the top, `L` keys to a comparison.
#[inline(always)]
fn best_child<const L: usize>(
    kids: &[Counts],
    amafs: &[Amaf],
    keys: &mut [f32],
    n: usize,
    k: u64,
    load: impl Fn(&[AtomicU64; L]) -> [u64; L],
) -> Option<usize> {
    let top = fill_keys::<L>(kids, amafs, &mut keys[..n], k as f32, load);
    // Every child of the highest exact value has a key at or above the floor (see `KEY_SLACK`),
    // so the first of them is the choice of an exact scan of all children.
    let floor = top * (1.0 - KEY_SLACK);
    let mut best: Option<(u64, u64, usize)> = None;
    for (c, chunk) in keys.chunks_exact(L).enumerate() {
        // Most chunks hold no key near the top: one vector comparison for `L`.
        if !chunk.iter().fold(false, |near, &key| near | (key >= floor)) {
            continue;
        }
        for (i, &key) in (c * L..).zip(chunk) {
            if key >= floor {
                let (num, den) = fraction(&kids[i], &amafs[i], k);
                if best.is_none_or(|(bn, bd, _)| greater(num, den, bn, bd)) {
                    best = Some((num, den, i));
                }
            }
        }
    }
    best.map(|(_, _, i)| i)
}

/// How far below the top key, as a fraction of it, a key may lie while its child's exact value ties
/// or beats the top child's. A key takes 12 roundings of single precision (`2^-24` each; 11 on any
/// one path through `key`), all of its terms positive, so no cancellation: it is within 8e-7 of its
/// fraction, relative. Two keys' errors then part them by at most 1.6e-6 of the top; the slack is
/// more than twice that, and the floor's own two roundings fit in the margin.
const KEY_SLACK: f32 = 4e-6;

/// Children per chunk of keys: one SSE2 vector of `f32`, the baseline x86-64 target's width.
const LANES: usize = 4;

/// Children per chunk where the processor has AVX2: one 256-bit vector of `f32`.
const WIDEST: usize = 8;

/// `best_child` with eight children to a chunk where the processor has AVX2, both the keys (about
/// 1.3% fewer instructions a light 9x9 iteration than four, 4% faster one-thread searches) and the
/// scan for those near the top; else with the baseline's four. Every key is the same
/// single-precision computation either way, so the choice is too. The standard library keeps the
/// processor's answer after the first query.
#[inline(always)]
fn best_child_widest(kids: &[Counts], amafs: &[Amaf], keys: &mut [f32], n: usize, k: u64) -> Option<usize> {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        // SAFETY: the processor has AVX2 (just asked).
        return unsafe { best_child_avx2(kids, amafs, keys, n, k) };
    }
    best_child::<LANES>(kids, amafs, keys, n, k, words_sse2)
}

/// `best_child` eight lanes wide, compiled for AVX2.
///
/// # Safety
/// The processor has AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn best_child_avx2(
    kids: &[Counts],
    amafs: &[Amaf],
    keys: &mut [f32],
    n: usize,
    k: u64,
) -> Option<usize> {
    // SAFETY: AVX2 includes AVX.
    best_child::<WIDEST>(kids, amafs, keys, n, k, |words| unsafe { words_avx(words) })
}

/// `fill_keys` eight lanes wide, compiled for AVX2: the keys `best_child_avx2` computes, for the
/// tests.
///
/// # Safety
/// The processor has AVX2.
#[cfg(all(test, target_arch = "x86_64"))]
#[target_feature(enable = "avx2")]
unsafe fn fill_keys_avx2(kids: &[Counts], amafs: &[Amaf], keys: &mut [f32], kf: f32) -> f32 {
    // SAFETY: AVX2 includes AVX.
    fill_keys::<WIDEST>(kids, amafs, keys, kf, |words| unsafe { words_avx(words) })
}

/// Writes the key of each child (`key`) and returns the greatest. The children go `L` at a time,
/// lane by lane, which the compiler turns into vector instructions, their packed words read by
/// `load` (several to a vector load, `vector_loads`); the last few one at a time.
#[inline(always)]
fn fill_keys<const L: usize>(
    kids: &[Counts],
    amafs: &[Amaf],
    keys: &mut [f32],
    kf: f32,
    load: impl Fn(&[AtomicU64; L]) -> [u64; L],
) -> f32 {
    let mut tops = [0.0f32; L];
    let (kid_chunks, _) = packed_words(kids).as_chunks::<L>();
    let (amaf_chunks, _) = packed_words(amafs).as_chunks::<L>();
    let mut key_chunks = keys.chunks_exact_mut(L);
    for ((kc, ac), keyc) in kid_chunks.iter().zip(amaf_chunks).zip(&mut key_chunks) {
        let (counts, amaf) = (load(kc), load(ac));
        let (mut un, mut w, mut an, mut aw) = ([0; L], [0; L], [0; L], [0; L]);
        for l in 0..L {
            ((un[l], w[l]), (an[l], aw[l])) = (split_pair(counts[l]), split_pair(amaf[l]));
        }
        for l in 0..L {
            let v = key((un[l], w[l], an[l], aw[l]), kf);
            keyc[l] = v;
            tops[l] = if v > tops[l] { v } else { tops[l] };
        }
    }
    let mut top = tops.iter().fold(0.0f32, |t, &v| if v > t { v } else { t });
    let done = kid_chunks.len() * L;
    let rest = kids[done..].iter().zip(&amafs[done..]);
    for ((kid, amaf), slot) in rest.zip(key_chunks.into_remainder()) {
        let ((un, w), (an, aw)) = (kid.experience(), amaf.get());
        let v = key((un, w, an, aw), kf);
        *slot = v;
        top = if v > top { v } else { top };
    }
    top
}

/// `fraction` as one single-precision quotient: a child's selection key. The counts (visits, wins,
/// AMAF visits and wins, priors included) stay below 2^31 (`MAX_VISITS`; wins are at most twice
/// the visits), so the signed conversions, which SSE2 has and the unsigned ones it lacks, read
/// them right.
#[inline(always)]
fn key((un, w, an, aw): (u32, u32, u32, u32), kf: f32) -> f32 {
    debug_assert!((un | w | an | aw) < 1 << 31, "a count past 2^31: {un} {w} {an} {aw}");
    let (un, w, an, aw) = (un as i32 as f32, w as i32 as f32, an as i32 as f32, aw as i32 as f32);
    let ka = an + kf;
    let (num, den) = (ka * w + kf * aw, ka * un + kf * an);
    // No experience at all is 1/1, as in `fraction`.
    let none = if den == 0.0 { 1.0 } else { 0.0 };
    (num + none) / (den + none)
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

    fn node(visits: u32, wins: u32, amaf: (u32, u32), prior: (u32, u32)) -> (Counts, Amaf) {
        // The counts hold the prior (see `Counts`).
        let (seen, won) = (visits + prior.0, wins + prior.1);
        let n = Counts(std::sync::atomic::AtomicU64::new(seen as u64 | (won as u64) << 32));
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
        let first = tree.alloc_children(k).unwrap();
        let top = if big { 1 << 29 } else { 5000 };
        for i in 0..k {
            let visits = rng.gen_range(0..top);
            let wins = rng.gen_range(0..=2 * visits);
            tree.set_prior(first + i, rng.gen_range(0..100), rng.gen_range(0..200));
            tree.set_stats(first + i, visits, wins);
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
            let values: Vec<f64> = kids.iter().map(|&i| value(tree.counts(i), tree.amaf(i), 1, &c)).collect();
            let best = values.iter().cloned().fold(f64::MIN, f64::max);
            // The first child within rounding of the best value (doubles cannot tell those apart).
            let expected = kids[values.iter().position(|&v| v >= best - 1e-12).unwrap()];
            let unique = values.iter().filter(|&&v| v >= best - 1e-12).count() == 1;
            let chosen = select(&tree, ROOT, &c, &mut Vec::new()).unwrap();
            if unique {
                assert_eq!(chosen, expected, "round {round}");
            } else {
                assert!(values[(chosen - first) as usize] >= best - 1e-12, "round {round}");
            }
        }
    }

    /// Children with the given (visits, wins, AMAF visits, AMAF wins) under the root of `tree`,
    /// after `before` children of a low value (a quarter); the index of the first given child.
    fn children_after_fillers(tree: &Tree, before: u32, kids: &[(u32, u32, u32, u32)]) -> u32 {
        let first = tree.alloc_children(before + kids.len() as u32).unwrap();
        let fillers = std::iter::repeat_n((4, 2, 0, 0), before as usize);
        for (i, (visits, wins, av, aw)) in fillers.chain(kids.iter().copied()).enumerate() {
            tree.set_stats(first + i as u32, visits, wins);
            tree.amaf(first + i as u32).set(av, aw);
        }
        tree.root().publish_children(first, before + kids.len() as u32);
        first + before
    }

    /// The first child of the highest exact value, by a scan of every child's fraction.
    fn exact_choice(tree: &Tree, k: u64) -> u32 {
        let mut best: Option<(u64, u64, u32)> = None;
        for i in tree.children(ROOT) {
            let (n, d) = fraction(tree.counts(i), tree.amaf(i), k);
            if best.is_none_or(|(bn, bd, _)| n as u128 * bd as u128 > bn as u128 * d as u128) {
                best = Some((n, d, i));
            }
        }
        best.unwrap().2
    }

    /// A way of filling the keys (`fill_keys` and its wrappers).
    type Fill = fn(&[Counts], &[Amaf], &mut [f32], f32) -> f32;

    #[test]
    fn every_width_and_way_of_reading_gives_the_same_keys() {
        use rand::SeedableRng;
        use std::sync::atomic::Ordering::Relaxed;
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(14);
        let kf = rave_equiv(&SearchConfig::default()) as f32;
        // The wrappers, and `fill_keys` at both widths with each word read by an atomic load.
        // Only x86-64 adds the AVX2 fill below.
        #[cfg_attr(not(target_arch = "x86_64"), allow(unused_mut))]
        let mut fills: Vec<Fill> = vec![
            |k, a, keys, kf| fill_keys::<4>(k, a, keys, kf, words_sse2),
            |k, a, keys, kf| fill_keys::<4>(k, a, keys, kf, |w| w.each_ref().map(|w| w.load(Relaxed))),
            |k, a, keys, kf| fill_keys::<8>(k, a, keys, kf, |w| w.each_ref().map(|w| w.load(Relaxed))),
        ];
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2 (just asked).
            fills.push(|k, a, keys, kf| unsafe { fill_keys_avx2(k, a, keys, kf) });
        }
        for round in 0..200 {
            let tree = Tree::new(0);
            random_children(&tree, &mut rng, round % 2 == 0);
            let (first, kids) = tree.child_counts(ROOT);
            let amafs = tree.amaf_slice(first, kids.len());
            // The reference: one key at a time, through the atomic loads.
            let one = |(c, a): (&Counts, &Amaf)| {
                let ((un, w), (an, aw)) = (c.experience(), a.get());
                key((un, w, an, aw), kf)
            };
            let keys: Vec<f32> = kids.iter().zip(amafs).map(one).collect();
            let top = keys.iter().fold(0.0f32, |t, &v| t.max(v));
            for (i, f) in fills.iter().enumerate() {
                let mut k = vec![0.0; kids.len()];
                let t = f(kids, amafs, &mut k, kf);
                assert_eq!(
                    k.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    keys.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                    "round {round}, fill {i}"
                );
                assert_eq!(t.to_bits(), top.to_bits(), "round {round}, fill {i}");
            }
        }
    }

    #[test]
    fn keys_that_round_alike_leave_the_choice_to_the_exact_values() {
        let c = SearchConfig::default();
        // Each case: the children's (visits, wins, AMAF visits, AMAF wins) and the one to choose.
        // In single precision 2^29 - 1, 2^29 - 3 and 2^29 all read 2^29, so the keys of the
        // first three cases tie; in the next two the rounding puts the lesser value's key first
        // (keys 1.0 and 1 - 2^-24 for exact values 1 - 6.1e-8 and 1 - 2.8e-8).
        let big = 1u32 << 29;
        let (less, more) = ((big + 28, big - 5, 0, 0), (big - 66, big - 81, 0, 0));
        type Counts = (u32, u32, u32, u32);
        let cases: [(&[Counts], u32); 6] = [
            (&[(big, big, 0, 0), (big - 1, big, 0, 0)], 1),
            (&[(big - 1, big, 0, 0), (big, big, 0, 0)], 0),
            (&[(big, big - 3, 0, 0), (big - 3, big - 3, 0, 0)], 1),
            (&[less, more], 1),
            (&[more, less], 0),
            // Exactly equal values: the first stands.
            (&[(3, 4, 0, 0), (big - big % 3, (big - big % 3) / 3 * 4, 0, 0), (6, 8, 0, 0)], 0),
        ];
        // Behind fillers, so that the cases fall in the vector chunks, across a chunk's edge and in
        // the remainder.
        for (kids, expected) in cases {
            for before in [0, 3, 7, 8] {
                let tree = Tree::new(0);
                let first = children_after_fillers(&tree, before, kids);
                let chosen = select(&tree, ROOT, &c, &mut Vec::new());
                assert_eq!(chosen, Some(first + expected), "{kids:?} after {before}");
            }
        }
    }

    #[test]
    fn near_ties_with_amaf_and_priors_are_chosen_exactly() {
        use rand::{Rng, SeedableRng};
        let c = SearchConfig::default();
        let k = rave_equiv(&c);
        let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(13);
        // Pairs of children a few counts apart at large counts, with AMAF samples and priors,
        // among fillers: the pair's keys often tie or invert their exact order.
        let mut hard = 0;
        for round in 0..2000 {
            let un = rng.gen_range(1 << 26..1 << 29);
            let an = rng.gen_range(0..1 << 29);
            let base = (un, rng.gen_range(un / 5 * 8..=2 * un), an, rng.gen_range(an / 5 * 8..=2 * an));
            let near = |x: u32, rng: &mut rand_xoshiro::Xoshiro256PlusPlus| x - rng.gen_range(0..=x.min(40));
            let other = (
                near(base.0, &mut rng),
                near(base.1, &mut rng),
                near(base.2, &mut rng),
                near(base.3, &mut rng),
            );
            let tree = Tree::new(0);
            let before = rng.gen_range(0..10);
            let first = children_after_fillers(&tree, before, &[base, other]);
            for i in [first, first + 1] {
                // The prior joins the node's counts and its AMAF pair. `set_prior` takes a node
                // without either, so the real ones are taken out and put back around it.
                let (pv, pw) = (rng.gen_range(0..100), rng.gen_range(0..200));
                let (visits, wins, (av, aw)) = (tree.visits(i), tree.wins(i), tree.amaf(i).get());
                tree.set_stats(i, 0, 0);
                tree.set_prior(i, pv, pw);
                tree.set_stats(i, visits, wins);
                tree.amaf(i).set(av + pv, aw + pw);
            }
            let chosen = select(&tree, ROOT, &c, &mut Vec::new()).unwrap();
            assert_eq!(chosen, exact_choice(&tree, k), "round {round}");
            // The baseline's four lanes, which `select` takes only without AVX2, choose the same.
            let (f, kids) = tree.child_counts(ROOT);
            let amafs = tree.amaf_slice(f, kids.len());
            let mut keys = vec![-1.0; kids.len().next_multiple_of(WIDEST)];
            let narrow = best_child::<LANES>(kids, amafs, &mut keys, kids.len(), k, words_sse2);
            assert_eq!(narrow.map(|i| f + i as u32), Some(chosen), "round {round}, four lanes");
            // Did the keys alone fail to tell the pair apart, or tell it wrong?
            let keys = [first, first + 1].map(|i| {
                let ((un, w), (an, aw)) = (tree.counts(i).experience(), tree.amaf(i).get());
                key((un, w, an, aw), k as f32)
            });
            let by_key = if keys[1] > keys[0] { first + 1 } else { first };
            hard += (keys[0] == keys[1] || by_key != chosen) as u32;
        }
        assert!(hard > 100, "only {hard} pairs the keys could not tell apart");
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
            let chosen = select(&tree, ROOT, &c, &mut Vec::new()).unwrap();
            let (bn, bd) = fraction(tree.counts(chosen), tree.amaf(chosen), k);
            // No child is greater than the chosen one, and every earlier child is smaller: checked
            // with exact rational arithmetic, independently of `greater`.
            for i in tree.children(ROOT) {
                let (n, d) = fraction(tree.counts(i), tree.amaf(i), k);
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
