//! `tengen bench` through the binary: the JSON lines carry every field of a measurement, and bad
//! input is an error before anything runs.

use std::process::Command;

fn tengen() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tengen"))
}

#[test]
fn json_lines_describe_each_measurement() {
    let out = tengen()
        .args(["bench", "--rules", "stones", "--size", "7", "--threads", "1", "--seconds", "0.05", "--json"])
        .args(["--mode", "playout"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<_> = text.lines().collect();
    assert_eq!(lines.len(), 2, "light and heavy: {text}");
    for (line, policy) in lines.iter().zip(["light", "heavy"]) {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["size"], 7);
        assert_eq!(v["threads"], 1);
        assert_eq!(v["policy"], policy);
        assert_eq!(v["mode"], "playout");
        assert!(v["rules"].as_str().unwrap().starts_with("stones:"));
        assert!(v["playouts"].as_u64().unwrap() > 0);
        let ppm = v["moves_per_playout"].as_f64().unwrap();
        assert!(ppm > 0.0 && ppm < 3.0 * 49.0 + 17.0, "playouts stop at the move cap: {ppm}");
        assert!(v["seconds"].as_f64().unwrap() > 0.0);
        assert!(v["playouts_per_sec"].as_f64().unwrap() > 0.0);
    }
}

#[test]
fn a_missing_sgf_file_is_a_clear_error() {
    let out =
        tengen().args(["bench", "--sgf", "/nonexistent/game.sgf", "--seconds", "0.05"]).output().unwrap();
    assert!(!out.status.success());
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot read"));
}

#[test]
fn a_game_that_ended_by_passes_is_played_out_from_its_final_position() {
    // What `tengen selfplay` writes: the game's last two moves are passes.
    let dir = std::env::temp_dir().join(format!("tengen-bench-sgf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("passed.sgf");
    std::fs::write(&path, "(;GM[1]FF[4]SZ[5]KM[0.5]RU[go];B[cc];W[bb];B[];W[])").unwrap();
    let out = tengen()
        .args([
            "bench",
            "--threads",
            "1",
            "--seconds",
            "0.05",
            "--json",
            "--mode",
            "playout",
            "--policy",
            "light",
        ])
        .arg("--sgf")
        .arg(&path)
        .output()
        .unwrap();
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(v["size"], 5);
    assert!(v["playouts"].as_u64().unwrap() > 0);
}

#[test]
fn search_mode_runs_the_tree_search() {
    let out = tengen()
        .args(["bench", "--rules", "go", "--size", "9", "--threads", "1", "--seconds", "0.1", "--json"])
        .args(["--mode", "search", "--policy", "light"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let v: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    assert_eq!(v["mode"], "search");
    assert!(v["playouts"].as_u64().unwrap() > 0);
    // Playouts start below the tree: fewer moves than a whole game from the empty board, never none.
    let ppm = v["moves_per_playout"].as_f64().unwrap();
    assert!(ppm > 0.0 && ppm < 3.0 * 81.0 + 17.0, "{ppm}");
}

#[test]
fn repeated_thread_lists_report_medians_and_the_speed_up() {
    let out = tengen()
        .args(["bench", "--rules", "go", "--size", "5", "--threads", "1,2", "--policy", "light"])
        .args(["--seconds", "0.05", "--repeat", "3", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).unwrap();
    let rows: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    assert_eq!(rows.len(), 2, "{text}");
    for (row, threads) in rows.iter().zip([1, 2]) {
        assert_eq!(row["threads"], threads);
        let runs: Vec<f64> =
            row["runs_playouts_per_sec"].as_array().unwrap().iter().map(|r| r.as_f64().unwrap()).collect();
        assert_eq!(runs.len(), 3);
        let mut sorted = runs.clone();
        sorted.sort_by(f64::total_cmp);
        assert_eq!(row["playouts_per_sec"].as_f64().unwrap(), sorted[1], "the median run");
        assert!(row["seconds"].as_f64().unwrap() >= 3.0 * 0.05, "seconds add up over the runs");
    }
    let one = rows[0]["playouts_per_sec"].as_f64().unwrap();
    let two = rows[1]["playouts_per_sec"].as_f64().unwrap();
    assert_eq!(rows[0]["vs_one_thread"], 1.0);
    assert!((rows[1]["vs_one_thread"].as_f64().unwrap() - two / one).abs() < 1e-9);
}

#[test]
fn the_mercy_flag_shortens_playouts_and_is_reported() {
    // Bare light playouts from the empty 9x9 board: with the rule, about a third end some 26 moves
    // early (7% of the moves), so the mean length falls by several moves, far beyond its noise.
    let run = |rules: &str, mercy: &str| {
        let out = tengen()
            .args(["bench", "--rules", rules, "--size", "9", "--threads", "1", "--seconds", "0.3"])
            .args(["--mode", "playout", "--policy", "light", "--json", "--mercy", mercy])
            .output()
            .unwrap();
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        (v["mercy"].as_bool().unwrap(), v["moves_per_playout"].as_f64().unwrap())
    };
    let (on, with) = run("go", "on");
    let (off, without) = run("go", "off");
    assert!(on && !off);
    assert!(with < without - 3.0, "{with} against {without}");
    // Stones has no mercy rule: the flag changes nothing, and the report says so.
    assert!(!run("stones", "on").0);
}

/// One bench measurement of 9x9 Go from the empty board on one thread with `--seed 5`, light
/// playouts: (playouts, moves those playouts played), the moves recovered from the mean.
fn one_thread_bench(mode: &str) -> (u64, u64) {
    let out = tengen()
        .args(["bench", "--rules", "go", "--size", "9", "--threads", "1", "--seconds", "0.1", "--json"])
        .args(["--mode", mode, "--policy", "light", "--seed", "5"])
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let playouts = v["playouts"].as_u64().unwrap();
    assert!(playouts > 0);
    let moves = (v["moves_per_playout"].as_f64().unwrap() * playouts as f64).round() as u64;
    (playouts, moves)
}

/// The bench's count checked by another route: one thread's bare playouts are a fixed sequence for
/// a seed (the bench seeds thread 0's generator with the seed itself), so replaying as many
/// playouts here through the library must play exactly as many moves as the bench reports. A
/// playout counted but not run, run but not counted, or moves miscounted would break the equality.
#[test]
fn bare_playouts_counted_by_the_bench_are_the_playouts_it_ran() {
    use rand::SeedableRng;
    use tengen::playout::{Playout, Policy, Rng};
    use tengen::rules::{AnyGame, RulesConfig};
    let (playouts, moves) = one_thread_bench("playout");
    let game = AnyGame::new(&RulesConfig::parse("go").unwrap(), 9);
    let replayed: u64 = tengen::with_game!(&game, g => {
        let start = g.position();
        let mut playout = Playout::new(start);
        playout.mercy(false);
        let mut rng = Rng::seed_from_u64(5);
        (0..playouts).map(|_| playout.run(g.rules(), start, Policy::Light, &mut rng).moves as u64).sum()
    });
    assert_eq!(replayed, moves, "{playouts} playouts");
}

/// The same for the tree search: on one thread a seeded search is a fixed sequence of iterations,
/// so a search limited here to the playouts the timed bench reported plays the same moves beyond
/// the tree, and its root has one visit per playout.
#[test]
fn search_playouts_counted_by_the_bench_are_the_playouts_it_ran() {
    use tengen::rules::{AnyGame, RulesConfig};
    use tengen::search::{tree::ROOT, Limits, SearchConfig, ThinkRequest, Tree};
    let (playouts, moves) = one_thread_bench("search");
    let game = AnyGame::new(&RulesConfig::parse("go").unwrap(), 9);
    let config = SearchConfig {
        threads: 1,
        policy: tengen::playout::Policy::Light,
        seed: 5,
        mercy: false,
        ..SearchConfig::default()
    };
    let limits = Limits { playouts: Some(playouts), time: None, early_stop: false };
    let mut tree = Tree::with_megabytes(512);
    let report = tengen::with_game!(&game, g => {
        let input = tengen::search::SearchInput {
            rules: g.rules(),
            root: g.position(),
            history: g.history(),
            last_move: tengen::board::Point::NONE,
            own_last_move: tengen::board::Point::NONE,
            opponent_passed: false,
            started: std::time::Instant::now(),
        };
        tengen::search::search(&input, &mut tree, &config, &ThinkRequest::new(limits), &|| false, &mut |_| {})
    });
    assert_eq!(report.playouts, playouts);
    assert_eq!(tree.visits(ROOT) as u64, playouts, "one root visit per playout");
    assert_eq!(report.playout_moves, moves, "{playouts} playouts");
}
