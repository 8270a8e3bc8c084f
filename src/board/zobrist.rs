//! Zobrist keys, computed at compile time so that no table is built or shared at run time.

use super::point::MAX_CELLS;

/// splitmix64: a tiny, well-mixed generator, good enough for hash keys.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn build() -> [[u64; MAX_CELLS]; 2] {
    let mut table = [[0u64; MAX_CELLS]; 2];
    let mut state = 0x7465_6E67_656E_u64; // "tengen"
    let mut c = 0;
    while c < 2 {
        let mut i = 0;
        while i < MAX_CELLS {
            let (s, v) = splitmix(state);
            state = s;
            table[c][i] = v;
            i += 1;
        }
        c += 1;
    }
    table
}

/// `KEYS[color.index()][point]`: the key XORed into the hash when that stone is placed or removed.
pub static KEYS: [[u64; MAX_CELLS]; 2] = build();
