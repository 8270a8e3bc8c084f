//! One playout from the empty board, light and heavy, per variant on 9x9 and 19x19. Each iteration
//! is one playout, so criterion's `Throughput::Elements(1)` reads as playouts per second.
//!
//! Run: `cargo bench --bench playouts` (add `-- --warm-up-time 1 --measurement-time 3` for a quick look)

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::SeedableRng;
use tengen::board::Board;
use tengen::playout::{Playout, Policy, Rng, Simulate};
use tengen::rules::{Position, Standard, Stoical, Stones};

fn bench_variant<R: Simulate>(c: &mut Criterion, name: &str, rules: R) {
    let mut group = c.benchmark_group(format!("playout/{name}"));
    group.throughput(Throughput::Elements(1));
    for size in [9, 19] {
        let start = Position::new(&rules, Board::shaped(size, &[]));
        let mut playout = Playout::new(&start);
        let mut rng = Rng::seed_from_u64(7);
        for policy in [Policy::Light, Policy::Heavy] {
            group.bench_function(BenchmarkId::new(policy.name(), format!("{size}x{size}")), |b| {
                b.iter(|| playout.run(&rules, &start, policy, &mut rng))
            });
        }
    }
    group.finish();
}

fn playouts(c: &mut Criterion) {
    bench_variant(c, "go", Standard::default());
    bench_variant(c, "stones", Stones::default());
    bench_variant(c, "stoical", Stoical::default());
}

criterion_group!(benches, playouts);
criterion_main!(benches);
