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
