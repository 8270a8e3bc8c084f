//! Several of the children's packed count words read by one vector load, while other threads may
//! be adding to them: what selection's keys are computed from (`select::fill_keys`).
//!
//! An atomic load reads one 8-byte word, and the compiler never merges atomic accesses: the keys
//! of eight children took sixteen loads, each word then moved into its vector lane on its own.
//! Plain loads the compiler merges into vector loads, but a plain read racing with another
//! thread's write is a data race, undefined behaviour. The loads here are vector loads in inline
//! assembly, which the compiler takes as an opaque read of the memory it is given. For the
//! processor, each aligned 8-byte word of them reads as it would by itself: as a relaxed atomic
//! load of that word, with no order among the words, which is all selection needs. The manuals
//! promise that an aligned 8-byte read is one access (and, where AVX is, an aligned 16-byte one);
//! they say nothing of how a wider or unaligned vector load divides. Selection does not depend on
//! it: a word read in two halves would pair one moment's visits with a later moment's wins, a key
//! off by a visit or two, and the exact comparison of the top children reads their counts again
//! with atomic loads.
//!
//! The same loads serve a one-thread search, whose worker is the tree's only writer and so could
//! read with plain loads: one thread ran as fast as with plain loads (1.022 by builds in turns, in
//! 0.15% more instructions), two threads 6% faster than with atomic loads (efe9454, 2026-11-28).

#[cfg(target_arch = "x86_64")]
use std::arch::{asm, x86_64::__m128i, x86_64::__m256i};
use std::sync::atomic::AtomicU64;
#[cfg(not(target_arch = "x86_64"))]
use std::sync::atomic::Ordering::Relaxed;

/// The `L` words, two to a 16-byte load (SSE2, which every x86-64 processor has); one atomic
/// load each on other processors. `L` is even.
#[inline(always)]
pub(super) fn words_sse2<const L: usize>(words: &[AtomicU64; L]) -> [u64; L] {
    #[cfg(target_arch = "x86_64")]
    return by_loads_of(words, |pair: &[AtomicU64; 2]| {
        let v: __m128i;
        // SAFETY: reads the pair's 16 bytes; the block only reads memory (`readonly`) and touches
        // neither the stack nor the flags.
        unsafe {
            asm!(
                "movdqu {v}, [{p}]",
                p = in(reg) pair.as_ptr(),
                v = out(xmm_reg) v,
                options(nostack, preserves_flags, readonly),
            );
            // 16 bytes either way, and every bit pattern is a pair of `u64`.
            std::mem::transmute::<__m128i, [u64; 2]>(v)
        }
    });
    #[cfg(not(target_arch = "x86_64"))]
    std::array::from_fn(|l| words[l].load(Relaxed))
}

/// `words_sse2`, four to a 32-byte load. `L` is a multiple of four.
///
/// In AVX's encoding, which code compiled for AVX must keep to: the SSE2 encoding of the same load
/// in the AVX2 key fill ran two-thread light 9x9 searches at 0.71 times the speed (the processor's
/// penalty for switching between the encodings' register states).
///
/// # Safety
/// The processor has AVX.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx")]
#[inline]
pub(super) unsafe fn words_avx<const L: usize>(words: &[AtomicU64; L]) -> [u64; L] {
    by_loads_of(words, |four: &[AtomicU64; 4]| {
        let v: __m256i;
        // SAFETY: reads the four words' 32 bytes; the block only reads memory and touches neither
        // the stack nor the flags; the caller vouches for AVX.
        unsafe {
            asm!(
                "vmovdqu {v}, [{p}]",
                p = in(reg) four.as_ptr(),
                v = out(ymm_reg) v,
                options(nostack, preserves_flags, readonly),
            );
            // 32 bytes either way, and every bit pattern is four `u64`.
            std::mem::transmute::<__m256i, [u64; 4]>(v)
        }
    })
}

/// The `L` words, `W` at a time by `load`. `L` is a multiple of `W`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn by_loads_of<const L: usize, const W: usize>(
    words: &[AtomicU64; L],
    load: impl Fn(&[AtomicU64; W]) -> [u64; W],
) -> [u64; L] {
    const { assert!(L.is_multiple_of(W), "whole loads") };
    let mut out = [0u64; L];
    let (chunks, _) = words.as_chunks::<W>();
    for (lanes, chunk) in out.chunks_exact_mut(W).zip(chunks) {
        lanes.copy_from_slice(&load(chunk));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::Ordering::Relaxed;

    fn words<const L: usize>(base: u64) -> [AtomicU64; L] {
        std::array::from_fn(|l| AtomicU64::new(base.wrapping_mul(l as u64 + 1) ^ (l as u64) << 60))
    }

    #[test]
    fn the_vector_loads_read_each_word_in_its_lane() {
        let w = words::<8>(0x9E37_79B9_7F4A_7C15);
        let expected: [u64; 8] = std::array::from_fn(|l| w[l].load(Relaxed));
        assert_eq!(words_sse2(&w), expected);
        let w2 = words::<2>(12_345);
        assert_eq!(words_sse2(&w2), [w2[0].load(Relaxed), w2[1].load(Relaxed)]);
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx") {
            // SAFETY: the processor has AVX (just asked).
            assert_eq!(unsafe { words_avx(&w) }, expected);
            let w4 = words::<4>(777);
            let expected4: [u64; 4] = std::array::from_fn(|l| w4[l].load(Relaxed));
            // SAFETY: as above.
            assert_eq!(unsafe { words_avx(&w4) }, expected4);
        }
    }
}
