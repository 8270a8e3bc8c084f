//! A fixed amount of tree search, for profiling (`valgrind --tool=callgrind`) and instruction counts
//! per playout: `cargo run --release --example search_iters -- [rules] [size] [policy] [playouts]`.
//! One thread, seed 1, no early stop, from the empty board; prints playouts, moves per playout, the
//! tree's size and the rate. A further argument `bare` runs that many bare playouts instead (the
//! same start position, no tree), for comparison; `mercy=on` turns the playouts' mercy rule on
//! (off by default, as in the engine).

use rand::SeedableRng;
use std::time::Instant;
use tengen::playout::{Playout, Policy, Rng};
use tengen::rules::{AnyGame, RulesConfig};
use tengen::search::{search, Limits, SearchConfig, SearchInput, ThinkRequest, Tree};
use tengen::with_game;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rules = RulesConfig::parse(args.get(1).map_or("go", String::as_str)).expect("a rules string");
    let size = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(9);
    let policy: Policy = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(Policy::Light);
    let playouts: u64 = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let game = AnyGame::new(&rules, size);
    let flag = |f: &str| args[5.min(args.len())..].iter().any(|a| a == f);
    let mercy = flag("mercy=on");
    if flag("bare") {
        let t = Instant::now();
        let moves: u64 = with_game!(&game, g => {
            let mut playout = Playout::new(g.position());
            playout.mercy(mercy);
            let mut rng = Rng::seed_from_u64(1);
            (0..playouts).map(|_| playout.run(g.rules(), g.position(), policy, &mut rng).moves as u64).sum()
        });
        let s = t.elapsed().as_secs_f64();
        println!(
            "{rules} {size}x{size} {policy} bare: {playouts} playouts, {:.1} moves/playout, {:.0} playouts/s",
            moves as f64 / playouts as f64,
            playouts as f64 / s
        );
        return;
    }
    let config = SearchConfig { threads: 1, policy, seed: 1, mercy, ..SearchConfig::default() };
    let limits = Limits { playouts: Some(playouts), time: None, early_stop: false };
    let mut tree = Tree::with_megabytes(512);
    let t = Instant::now();
    let report = with_game!(&game, g => {
        let input = SearchInput {
            rules: g.rules(),
            root: g.position(),
            history: g.history(),
            last_move: tengen::board::Point::NONE,
            own_last_move: tengen::board::Point::NONE,
            opponent_passed: false,
            started: Instant::now(),
        };
        search(&input, &mut tree, &config, &ThinkRequest::new(limits), &|| false, &mut |_| {})
    });
    let s = t.elapsed().as_secs_f64();
    println!(
        "{rules} {size}x{size} {policy}: {} playouts, {:.1} moves/playout, {} nodes, {:.0} playouts/s",
        report.playouts,
        report.playout_moves as f64 / report.playouts.max(1) as f64,
        report.nodes,
        report.playouts as f64 / s
    );
}
