//! Quick playout throughput check: `cargo run --release --example playout_rate -- [size] [policy] [secs]`.
//! Prints playouts per second and moves per playout for each variant on one thread.

use rand::SeedableRng;
use std::time::{Duration, Instant};
use tengen::board::Board;
use tengen::playout::{Playout, Policy, Rng, Simulate};
use tengen::rules::{Position, Standard, Stoical, Stones};

fn rate<R: Simulate>(name: &str, rules: R, size: usize, policy: Policy, secs: f64) {
    let start = Position::new(&rules, Board::shaped(size, &[]));
    let mut playout = Playout::new(&start);
    let mut rng = Rng::seed_from_u64(1);
    let t = Instant::now();
    let (mut n, mut moves) = (0u64, 0u64);
    while t.elapsed() < Duration::from_secs_f64(secs) {
        for _ in 0..100 {
            moves += playout.run(&rules, &start, policy, &mut rng).moves as u64;
        }
        n += 100;
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{name:8} {size}x{size} {policy:5}: {:8.0} playouts/s, {:6.1} moves/playout",
        n as f64 / s,
        moves as f64 / n as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(9);
    let policy: Policy = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(Policy::Light);
    let secs = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(1.0);
    rate("go", Standard::default(), size, policy, secs);
    rate("stones", Stones::default(), size, policy, secs);
    rate("stoical", Stoical::default(), size, policy, secs);
}
