//! A small match driver: tengen against GNU Go (or any two GTP programs), colours alternating, GNU Go's
//! `final_score` as the referee. Until `tengen match` exists this is how the strength figures are taken.
//!
//! ```text
//! cargo run --release --example vs_gnugo -- GAMES SIZE "TENGEN COMMAND" ["OPPONENT COMMAND"] [FIRST_GAME]
//! cargo run --release --example vs_gnugo -- 4 9 "target/release/tengen gtp --threads 2 --time 1"
//! ```
//!
//! The opponent defaults to `gnugo --mode gtp --level 10 --chinese-rules`; komi is 7.5. Both
//! commands get `--seed` appended (game `i`: tengen `i`, the opponent `i + 1`). Game `i` gives tengen
//! Black when `i` is even. Each game is printed as it ends (with its SGF-like move
//! list on stderr), then the record with a 95% interval.

use std::time::{Duration, Instant};
use tengen::selfplay::gtp_client::{find_gnugo, GtpClient};
use tengen::selfplay::stats::{GameResult, Record};

const MOVE_TIMEOUT: Duration = Duration::from_secs(120);

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let games: usize = args.first().and_then(|s| s.parse().ok()).unwrap_or(2);
    let size: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(9);
    let tengen_cmd =
        args.get(2).cloned().unwrap_or_else(|| "target/release/tengen gtp --threads 2 --time 1".into());
    let gnugo_cmd = args.get(3).filter(|s| !s.is_empty()).cloned().unwrap_or_else(|| {
        let gnugo = find_gnugo().expect("GNU Go not found");
        format!("{} --mode gtp --level 10 --chinese-rules", gnugo.display())
    });
    let first: usize = args.get(4).and_then(|s| s.parse().ok()).unwrap_or(0);
    let mut record = Record::default();
    let mut tengen_time = Duration::ZERO;
    let mut tengen_moves = 0u32;
    let mut worst = Duration::ZERO;
    for i in first..first + games {
        // A seed per game for both programs: with fixed playouts both are deterministic, and every
        // game would repeat the first of its colour.
        let mut t = GtpClient::spawn(&format!("{tengen_cmd} --seed {i}")).expect("tengen starts");
        let mut g = GtpClient::spawn(&format!("{gnugo_cmd} --seed {}", i + 1)).expect("opponent starts");
        for p in [&mut t, &mut g] {
            for cmd in [format!("boardsize {size}"), "clear_board".into(), "komi 7.5".into()] {
                p.send(&cmd, MOVE_TIMEOUT).expect("setup");
            }
        }
        let tengen_black = i % 2 == 0;
        let mut moves = Vec::new();
        let mut passes = 0;
        let mut resigned: Option<bool> = None; // Some(true): tengen resigned
        let mut black_to_move = true;
        while passes < 2 && moves.len() < 3 * size * size {
            let colour = if black_to_move { "b" } else { "w" };
            let tengen_turn = black_to_move == tengen_black;
            let (mover, other) = if tengen_turn { (&mut t, &mut g) } else { (&mut g, &mut t) };
            let start = Instant::now();
            let mv = mover.send(&format!("genmove {colour}"), MOVE_TIMEOUT).expect("genmove").to_lowercase();
            if tengen_turn {
                let e = start.elapsed();
                tengen_time += e;
                tengen_moves += 1;
                worst = worst.max(e);
            }
            if mv == "resign" {
                resigned = Some(tengen_turn);
                break;
            }
            other.send(&format!("play {colour} {mv}"), MOVE_TIMEOUT).expect("play");
            passes = if mv == "pass" { passes + 1 } else { 0 };
            moves.push(format!("{colour} {mv}"));
            black_to_move = !black_to_move;
        }
        let (tengen_won, result) = match resigned {
            Some(tengen_resigned) => (!tengen_resigned, "resign".to_string()),
            None => {
                let score = g.send("final_score", MOVE_TIMEOUT).unwrap_or_else(|e| format!("? {e}"));
                let ours = t.send("final_score", MOVE_TIMEOUT).unwrap_or_else(|e| format!("? {e}"));
                let black_won = score.starts_with('B');
                (black_won == tengen_black, format!("{score} (tengen says {ours})"))
            }
        };
        record.add_result(if tengen_won { GameResult::AWins } else { GameResult::BWins });
        println!(
            "game {i}: tengen {} {} in {} moves: {result}",
            if tengen_black { "B" } else { "W" },
            if tengen_won { "wins" } else { "loses" },
            moves.len()
        );
        eprintln!("moves {i}: {}", moves.join(" "));
        let _ = t.quit();
        let _ = g.quit();
    }
    println!("{}", record.summary("tengen", "opponent"));
    if tengen_moves > 0 {
        println!(
            "tengen: {tengen_moves} moves, mean {:.2} s, longest {:.2} s",
            tengen_time.as_secs_f64() / tengen_moves as f64,
            worst.as_secs_f64()
        );
    }
}
