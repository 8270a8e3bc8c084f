//! How benchmark results are shown: an aligned table for people, JSON lines for scripts.

use super::BenchSummary;

/// The table's header line.
pub fn table_header() -> String {
    format!(
        "{:>4} {:>7} {:>6} {:>8} {:>5} {:>10} {:>7} {:>12} {:>9} {:>7}  {}",
        "size",
        "threads",
        "policy",
        "mode",
        "mercy",
        "playouts",
        "seconds",
        "playouts/s",
        "moves/po",
        "x1 thr",
        "rules"
    )
}

/// One configuration as a table row under [`table_header`]: playouts and seconds summed over its
/// runs, the median run's rate, and that rate over one thread's (blank when one thread was not
/// measured alongside).
pub fn table_row(s: &BenchSummary) -> String {
    let r = &s.total;
    let speedup = s.vs_one_thread.map_or(String::new(), |x| format!("{x:.2}"));
    format!(
        "{:>4} {:>7} {:>6} {:>8} {:>5} {:>10} {:>7.2} {:>12.0} {:>9.1} {:>7}  {}",
        r.size,
        r.threads,
        r.policy.name(),
        r.mode.name(),
        if r.mercy { "on" } else { "off" },
        r.playouts,
        r.seconds,
        s.median_rate(),
        r.moves_per_playout(),
        speedup,
        r.rules
    )
}

/// One configuration as a single-line JSON object: `playouts`, `moves` and `seconds` summed over its
/// runs, `playouts_per_sec` the median run's rate (with one run, `playouts / seconds`),
/// `runs_playouts_per_sec` every run's rate in the order they ran, and `vs_one_thread` the rate over
/// one thread's when that was measured alongside.
pub fn json_line(s: &BenchSummary) -> String {
    let r = &s.total;
    let mut v = serde_json::json!({
        "rules": r.rules,
        "size": r.size,
        "threads": r.threads,
        "policy": r.policy.name(),
        "mode": r.mode.name(),
        "mercy": r.mercy,
        "playouts": r.playouts,
        "moves": r.moves,
        "seconds": r.seconds,
        "playouts_per_sec": s.median_rate(),
        "moves_per_playout": r.moves_per_playout(),
        "runs_playouts_per_sec": s.rates,
    });
    if let Some(x) = s.vs_one_thread {
        v["vs_one_thread"] = x.into();
    }
    v.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::{BenchMode, BenchResult};
    use crate::playout::Policy;

    fn sample() -> BenchSummary {
        let total = BenchResult {
            rules: "stones:threshold=5".into(),
            size: 9,
            threads: 2,
            policy: Policy::Heavy,
            mode: BenchMode::Playout,
            mercy: false,
            playouts: 1000,
            moves: 85_000,
            seconds: 0.5,
        };
        BenchSummary { total, rates: vec![2000.0], vs_one_thread: None }
    }

    #[test]
    fn json_has_every_field_the_issue_names() {
        let v: serde_json::Value = serde_json::from_str(&json_line(&sample())).unwrap();
        assert_eq!(v["rules"], "stones:threshold=5");
        assert_eq!(v["size"], 9);
        assert_eq!(v["threads"], 2);
        assert_eq!(v["policy"], "heavy");
        assert_eq!(v["mode"], "playout");
        assert_eq!(v["mercy"], false);
        assert_eq!(v["playouts"], 1000);
        assert_eq!(v["seconds"], 0.5);
        assert_eq!(v["playouts_per_sec"], 2000.0);
        assert_eq!(v["moves_per_playout"], 85.0);
        assert_eq!(v["runs_playouts_per_sec"], serde_json::json!([2000.0]));
        assert!(v.get("vs_one_thread").is_none());
    }

    #[test]
    fn repeated_runs_report_sums_the_median_and_the_speed_up() {
        let mut s = sample();
        (s.total.playouts, s.total.seconds) = (3000, 1.5);
        s.rates = vec![2500.0, 1000.0, 2000.0];
        s.vs_one_thread = Some(1.875);
        let v: serde_json::Value = serde_json::from_str(&json_line(&s)).unwrap();
        assert_eq!((v["playouts"].as_u64(), v["seconds"].as_f64()), (Some(3000), Some(1.5)));
        assert_eq!(v["playouts_per_sec"], 2000.0);
        assert_eq!(v["runs_playouts_per_sec"], serde_json::json!([2500.0, 1000.0, 2000.0]));
        assert_eq!(v["vs_one_thread"], 1.875);
        assert!(table_row(&s).contains(" 1.88 "), "{}", table_row(&s));
    }

    #[test]
    fn table_rows_line_up_with_the_header() {
        let (row, header) = (table_row(&sample()), table_header());
        assert_eq!(row.find("stones"), header.find("rules"));
    }
}
