//! Speed baseline of the board and rules: random games (legality check plus play), in moves per
//! second. Each iteration plays a fixed number of moves, starting a new game whenever one ends, so
//! `Throughput::Elements` counts moves exactly.
//!
//! Run: `cargo bench --bench random_games`

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tengen::board::{Board, Point};
use tengen::rules::{Move, Position, Rules, Standard, Stoical, Stones};

const MOVES_PER_ITER: u64 = 10_000;

/// Plays `MOVES_PER_ITER` random legal non-eye-filling moves, restarting finished games.
fn random_moves<R: Rules>(
    rules: &R,
    start: &Position<R>,
    pos: &mut Position<R>,
    rng: &mut Xoshiro256PlusPlus,
) {
    pos.clone_from(start);
    let mut moves = 0;
    while moves < MOVES_PER_ITER {
        // A cap keeps Stoical and Stones (no superko check here) from long cycles.
        if pos.is_over() || pos.ply > 3 * (pos.board.size() * pos.board.size()) as u32 {
            pos.clone_from(start);
        }
        let color = pos.to_move;
        let empties = pos.board.empties();
        let n = empties.len();
        let mut chosen = None;
        if n > 0 {
            let first = rng.gen_range(0..n);
            for k in 0..n {
                let p: Point = empties[(first + k) % n];
                if !pos.board.is_eye(color, p) && pos.check(rules, color, Move::Place(p)).is_ok() {
                    chosen = Some(Move::Place(p));
                    break;
                }
            }
        }
        let mv = chosen.unwrap_or_else(|| rules.pass_move(pos, color));
        if pos.check(rules, color, mv).is_err() {
            pos.clone_from(start);
            continue;
        }
        pos.play(rules, color, mv);
        moves += 1;
    }
}

fn bench_variant<R: Rules>(c: &mut Criterion, name: &str, rules: R) {
    let mut group = c.benchmark_group(format!("random_games/{name}"));
    group.throughput(Throughput::Elements(MOVES_PER_ITER));
    for size in [9usize, 19] {
        let start = Position::new(&rules, Board::shaped(size, &[]));
        let mut pos = start.clone();
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(1);
        group.bench_with_input(BenchmarkId::from_parameter(format!("{size}x{size}")), &size, |b, _| {
            b.iter(|| random_moves(&rules, &start, &mut pos, &mut rng))
        });
    }
    group.finish();
}

fn benches(c: &mut Criterion) {
    bench_variant(c, "go", Standard::default());
    bench_variant(c, "stones", Stones::default());
    bench_variant(c, "stoical", Stoical::default());
}

criterion_group!(random_games, benches);
criterion_main!(random_games);
