//! A small match driver until `tengen match` exists: tengen (A) against GNU Go, another GTP program,
//! or a uniformly random player (B), colours alternating, a tengen referee following the game in
//! any variant.
//!
//! ```text
//! cargo run --release --example vs_gnugo -- games=10 size=9 a="target/release/tengen gtp --threads 2" \
//!     a_time="0 1 1" [b="gnugo ..."|b=random] [rules=go] [first=0]
//! ```
//!
//! - `b` defaults to `gnugo --mode gtp --level 10 --chinese-rules`; komi is 7.5 in `go` and
//!   `stoical`. Both commands get `--seed` appended (game `i`: A `i`, B `i + 1`), since with fixed
//!   playouts both programs would otherwise repeat their games.
//! - `a_time="M B S"` sends `time_settings M B S` to A, and, for the one-stone periods of `0 P 1`,
//!   `time_left` before each of A's moves as a controller does; moves of A slower than `P` are counted
//!   as time losses.
//! - The result: resignation, else the rules' end (Stones' decisive move or blocked player, Stoical
//!   repetition), else the count: GNU Go's `final_score` when B is GNU Go, the referee's otherwise.
//! - Game `i` gives A Black when `i` is even. One line per game on stdout, the moves on stderr, then
//!   the record with a 95% interval and A's thinking times.

use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};
use tengen::selfplay::gtp_client::{find_gnugo, GtpClient};
use tengen::selfplay::stats::{GameResult, Record};

const MOVE_TIMEOUT: Duration = Duration::from_secs(300);

struct Args {
    games: usize,
    size: usize,
    rules: String,
    a: String,
    b: Option<String>,
    a_time: Option<String>,
    first: usize,
}

fn parse_args() -> Args {
    let mut args = Args {
        games: 2,
        size: 9,
        rules: "go".into(),
        a: "target/release/tengen gtp --threads 2 --time 1".into(),
        b: None,
        a_time: None,
        first: 0,
    };
    for arg in std::env::args().skip(1) {
        let (k, v) = arg.split_once('=').unwrap_or_else(|| panic!("expected key=value, got {arg}"));
        match k {
            "games" => args.games = v.parse().expect("games"),
            "size" => args.size = v.parse().expect("size"),
            "rules" => args.rules = v.into(),
            "a" => args.a = v.into(),
            "b" => args.b = Some(v.into()),
            "a_time" => args.a_time = Some(v.into()),
            "first" => args.first = v.parse().expect("first"),
            _ => panic!("unknown option {k}"),
        }
    }
    args
}

/// The opponent: a GTP program, or random moves chosen from the referee's legal moves.
enum Opponent {
    Program(GtpClient),
    Random(rand_xoshiro::Xoshiro256PlusPlus),
}

fn main() {
    let args = parse_args();
    let referee_cmd = format!(
        "{} gtp --rules {} --size {} --threads 1",
        args.a.split_whitespace().next().unwrap(),
        args.rules,
        args.size
    );
    let gnugo_default = || {
        let gnugo = find_gnugo().expect("GNU Go not found");
        format!("{} --mode gtp --level 10 --chinese-rules", gnugo.display())
    };
    let b_cmd = args.b.clone().unwrap_or_else(gnugo_default);
    let b_is_gnugo = b_cmd.contains("gnugo");
    let komi = args.rules.starts_with("go") || args.rules.starts_with("stoical");
    let one_stone_period: Option<f64> = args.a_time.as_ref().and_then(|t| {
        let f: Vec<f64> = t.split_whitespace().filter_map(|x| x.parse().ok()).collect();
        (f.len() == 3 && f[0] == 0.0 && f[2] == 1.0).then_some(f[1])
    });
    let mut record = Record::default();
    let (mut a_time, mut a_moves, mut worst, mut time_losses) = (Duration::ZERO, 0u32, Duration::ZERO, 0u32);
    for i in args.first..args.first + args.games {
        let mut a = GtpClient::spawn(&format!("{} --seed {i}", args.a)).expect("A starts");
        let mut referee = GtpClient::spawn(&referee_cmd).expect("referee starts");
        let mut b = if b_cmd == "random" {
            Opponent::Random(rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(i as u64))
        } else {
            Opponent::Program(GtpClient::spawn(&format!("{b_cmd} --seed {}", i + 1)).expect("B starts"))
        };
        let mut setup = vec![format!("boardsize {}", args.size), "clear_board".to_string()];
        if komi {
            setup.push("komi 7.5".into());
        }
        for cmd in &setup {
            a.send(cmd, MOVE_TIMEOUT).expect("setup A");
            referee.send(cmd, MOVE_TIMEOUT).expect("setup referee");
            if let Opponent::Program(p) = &mut b {
                p.send(cmd, MOVE_TIMEOUT).expect("setup B");
            }
        }
        if !args.rules.starts_with("go") {
            a.send(&format!("tengen-rules {}", args.rules), MOVE_TIMEOUT).expect("rules A");
            if let Opponent::Program(p) = &mut b {
                p.send(&format!("tengen-rules {}", args.rules), MOVE_TIMEOUT).expect("rules B");
            }
        }
        if let Some(t) = &args.a_time {
            a.send(&format!("time_settings {t}"), MOVE_TIMEOUT).expect("time settings");
        }
        let a_black = i % 2 == 0;
        let mut moves = Vec::new();
        let mut black_to_move = true;
        let mut resigned: Option<bool> = None; // Some(true): A resigned
        let cap = 4 * args.size * args.size;
        loop {
            let over = referee.send("gogui-rules_final_result", MOVE_TIMEOUT).unwrap_or_default();
            if !over.is_empty() || moves.len() >= cap {
                break;
            }
            let colour = if black_to_move { "b" } else { "w" };
            let a_turn = black_to_move == a_black;
            let mv = if a_turn {
                if let Some(p) = one_stone_period {
                    a.send(&format!("time_left {colour} {p} 1"), MOVE_TIMEOUT).expect("time_left");
                }
                let start = Instant::now();
                let mv = a.send(&format!("genmove {colour}"), MOVE_TIMEOUT).expect("genmove A");
                let e = start.elapsed();
                a_time += e;
                a_moves += 1;
                worst = worst.max(e);
                if one_stone_period.is_some_and(|p| e.as_secs_f64() > p) {
                    time_losses += 1;
                }
                mv
            } else {
                match &mut b {
                    Opponent::Program(p) => {
                        p.send(&format!("genmove {colour}"), MOVE_TIMEOUT).expect("genmove B")
                    }
                    Opponent::Random(rng) => {
                        let legal = referee.send("gogui-rules_legal_moves", MOVE_TIMEOUT).unwrap_or_default();
                        let legal: Vec<&str> = legal.split_whitespace().collect();
                        legal[rng.gen_range(0..legal.len())].to_string()
                    }
                }
            }
            .to_lowercase();
            if mv == "resign" {
                resigned = Some(a_turn);
                break;
            }
            let play = format!("play {colour} {mv}");
            referee.send(&play, MOVE_TIMEOUT).unwrap_or_else(|e| panic!("referee refuses {play}: {e:?}"));
            if a_turn {
                if let Opponent::Program(p) = &mut b {
                    p.send(&play, MOVE_TIMEOUT).expect("B plays");
                }
            } else {
                a.send(&play, MOVE_TIMEOUT).expect("A plays");
            }
            moves.push(format!("{colour} {mv}"));
            black_to_move = !black_to_move;
        }
        let (winner, result) = match resigned {
            Some(a_resigned) => (Some(a_black != a_resigned), "resign".to_string()),
            None => {
                let rules_result = referee.send("gogui-rules_final_result", MOVE_TIMEOUT).unwrap_or_default();
                let decided_by_rules = !args.rules.starts_with("go") && !args.rules.starts_with("stoical");
                let score = if !rules_result.is_empty() && (decided_by_rules || rules_result == "0") {
                    rules_result
                } else if let (true, Opponent::Program(p)) = (b_is_gnugo, &mut b) {
                    p.send("final_score", MOVE_TIMEOUT).unwrap_or_else(|e| format!("? {e:?}"))
                } else {
                    referee.send("final_score", MOVE_TIMEOUT).unwrap_or_else(|e| format!("? {e:?}"))
                };
                let winner = match score.chars().next() {
                    Some('B') => Some(true),
                    Some('W') => Some(false),
                    _ => None,
                };
                (winner, score)
            }
        };
        let outcome = match winner {
            Some(black_won) if black_won == a_black => GameResult::AWins,
            Some(_) => GameResult::BWins,
            None => GameResult::Draw,
        };
        record.add_result(outcome);
        println!(
            "game {i}: A as {} {:?} in {} moves: {result}",
            if a_black { "B" } else { "W" },
            outcome,
            moves.len()
        );
        eprintln!("moves {i}: {}", moves.join(" "));
        let _ = a.quit();
        let _ = referee.quit();
        if let Opponent::Program(p) = b {
            let _ = p.quit();
        }
    }
    println!("{}", record.summary("A", "B"));
    if a_moves > 0 {
        println!(
            "A: {a_moves} moves, mean {:.3} s, longest {:.3} s, over the period: {time_losses}",
            a_time.as_secs_f64() / a_moves as f64,
            worst.as_secs_f64()
        );
    }
}
