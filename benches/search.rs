//! Tree iterations (selection, expansion with priors, one playout, backup with RAVE) from the empty
//! board, per variant and policy on 9x9 and 19x19, one thread. Each measured iteration is a search of
//! `ITERATIONS` playouts in a fresh tree, reported with `Throughput::Elements(ITERATIONS)`, so
//! criterion's elements per second read as tree iterations (playouts) per second inside the search.
//!
//! Run: `cargo bench --bench search` (add `-- --warm-up-time 1 --measurement-time 3` for a quick look)

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use std::time::Instant;
use tengen::board::{Board, Point};
use tengen::playout::{Policy, Simulate};
use tengen::rules::{Game, Standard, Stoical, Stones};
use tengen::search::{search, Limits, SearchConfig, SearchInput, ThinkRequest, Tree};

/// Playouts per measured search: enough for the tree to grow a few levels, as in real play, while
/// one measurement stays short.
const ITERATIONS: u64 = 1000;

fn bench_variant<R: Simulate + Clone>(c: &mut Criterion, name: &str, rules: R) {
    let mut group = c.benchmark_group(format!("search/{name}"));
    group.throughput(Throughput::Elements(ITERATIONS));
    group.sample_size(20);
    for size in [9, 19] {
        let game = Game::new(rules.clone(), Board::shaped(size, &[]));
        for policy in [Policy::Light, Policy::Heavy] {
            let config = SearchConfig { threads: 1, policy, seed: 5, ..SearchConfig::default() };
            let request = ThinkRequest::new(Limits { early_stop: false, ..Limits::playouts(ITERATIONS) });
            // Room for every child the search can create, so the memory bound never bites here.
            let capacity = ITERATIONS as usize * (size * size + 2);
            group.bench_function(BenchmarkId::new(policy.name(), format!("{size}x{size}")), |b| {
                b.iter(|| {
                    let input = SearchInput {
                        rules: game.rules(),
                        root: game.position(),
                        history: game.history(),
                        last_move: Point::NONE,
                        own_last_move: Point::NONE,
                        opponent_passed: false,
                        started: Instant::now(),
                    };
                    let mut tree = Tree::new(capacity);
                    search(&input, &mut tree, &config, &request, &|| false, &mut |_| {}).playouts
                })
            });
        }
    }
    group.finish();
}

fn tree_iterations(c: &mut Criterion) {
    bench_variant(c, "go", Standard::default());
    bench_variant(c, "stones", Stones::default());
    bench_variant(c, "stoical", Stoical::default());
}

criterion_group!(benches, tree_iterations);
criterion_main!(benches);
