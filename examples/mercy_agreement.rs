//! How often the playouts' mercy rule ends a playout, how early, and how often its verdict differs
//! from the result of the same playout played out: `cargo run --release --example mercy_agreement --
//! RULES SIZE POLICY PLAYOUTS [FRACTION]` (FRACTION of the board's points, default Fuego's 0.3).
//! Playout `i` runs twice from the empty board with a generator seeded `i`, with and without the
//! rule; both play the same moves up to the verdict.

use rand::SeedableRng;
use tengen::playout::{Playout, PlayoutEnd, Policy, Rng};
use tengen::rules::{AnyGame, RulesConfig};
use tengen::with_game;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = RulesConfig::parse(args.get(1).map_or("go", String::as_str)).expect("a rules string");
    let size: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(9);
    let policy: Policy = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(Policy::Light);
    let n: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let fraction: f64 = args.get(5).and_then(|s| s.parse().ok()).unwrap_or(0.3);
    let game = AnyGame::new(&rules, size);
    let threshold = (fraction * (size * size) as f64).ceil() as u32;
    let (verdicts, agree, saved, total) = with_game!(&game, g => {
        let mut merciful = Playout::new(g.position());
        merciful.mercy_at(Some(threshold));
        let mut full = Playout::new(g.position());
        let (mut verdicts, mut agree, mut saved, mut total) = (0u64, 0u64, 0u64, 0u64);
        for i in 0..n {
            let a = merciful.run(g.rules(), g.position(), policy, &mut Rng::seed_from_u64(i));
            let b = full.run(g.rules(), g.position(), policy, &mut Rng::seed_from_u64(i));
            total += b.moves as u64;
            if a.end == PlayoutEnd::Mercy {
                verdicts += 1;
                agree += (a.winner == b.winner) as u64;
                saved += (b.moves - a.moves) as u64;
            }
        }
        (verdicts, agree, saved, total)
    });
    println!(
        "{rules} {size}x{size} {policy}, threshold {threshold} stones: {verdicts} of {n} playouts ended by \
         mercy ({:.1}%), {} verdicts differ from the played-out result, {:.1}% of the moves saved",
        100.0 * verdicts as f64 / n as f64,
        verdicts - agree,
        100.0 * saved as f64 / total.max(1) as f64
    );
}
