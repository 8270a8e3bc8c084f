//! How benchmark results are shown: an aligned table for people, JSON lines for scripts.

use super::BenchResult;

/// The table's header line.
pub fn table_header() -> String {
    format!(
        "{:>4} {:>7} {:>6} {:>8} {:>10} {:>7} {:>12} {:>9}  {}",
        "size", "threads", "policy", "mode", "playouts", "seconds", "playouts/s", "moves/po", "rules"
    )
}

/// One result as a table row under [`table_header`].
pub fn table_row(r: &BenchResult) -> String {
    format!(
        "{:>4} {:>7} {:>6} {:>8} {:>10} {:>7.2} {:>12.0} {:>9.1}  {}",
        r.size,
        r.threads,
        r.policy.name(),
        r.mode.name(),
        r.playouts,
        r.seconds,
        r.playouts_per_sec(),
        r.moves_per_playout(),
        r.rules
    )
}

/// One result as a single-line JSON object.
pub fn json_line(r: &BenchResult) -> String {
    serde_json::json!({
        "rules": r.rules,
        "size": r.size,
        "threads": r.threads,
        "policy": r.policy.name(),
        "mode": r.mode.name(),
        "playouts": r.playouts,
        "moves": r.moves,
        "seconds": r.seconds,
        "playouts_per_sec": r.playouts_per_sec(),
        "moves_per_playout": r.moves_per_playout(),
    })
    .to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::BenchMode;
    use crate::playout::Policy;

    fn sample() -> BenchResult {
        BenchResult {
            rules: "stones:threshold=5".into(),
            size: 9,
            threads: 2,
            policy: Policy::Heavy,
            mode: BenchMode::Playout,
            playouts: 1000,
            moves: 85_000,
            seconds: 0.5,
        }
    }

    #[test]
    fn json_has_every_field_the_issue_names() {
        let v: serde_json::Value = serde_json::from_str(&json_line(&sample())).unwrap();
        assert_eq!(v["rules"], "stones:threshold=5");
        assert_eq!(v["size"], 9);
        assert_eq!(v["threads"], 2);
        assert_eq!(v["policy"], "heavy");
        assert_eq!(v["mode"], "playout");
        assert_eq!(v["playouts"], 1000);
        assert_eq!(v["seconds"], 0.5);
        assert_eq!(v["playouts_per_sec"], 2000.0);
        assert_eq!(v["moves_per_playout"], 85.0);
    }

    #[test]
    fn table_rows_line_up_with_the_header() {
        let (row, header) = (table_row(&sample()), table_header());
        assert_eq!(row.find("stones"), header.find("rules"));
    }
}
