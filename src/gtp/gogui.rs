//! GoGui's side of analysis: the `gogui-analyze_commands` menu and the graphics (`gfx`) its entries
//! answer, which are also what the live graphics on stderr (`gogui-gfx:`) draw during `genmove`.
//!
//! A gfx answer is one drawing command per line: `LABEL point text ...`, `VAR b D4 w C3 ...`,
//! `INFLUENCE point value ...` (-1..1, positive drawn black), `SQUARE points`, `TEXT status line`.

use super::analysis::Snapshot;
use super::session::{Call, Reply, Session};
use super::GtpError;
use crate::board::{Color, Geometry};

/// The analyze menu, `type/Label/command` (`%c`: the colour GoGui's analyze dialog selects, by
/// default the side to move). Every command here is in the command table and works in every variant.
pub const ANALYZE_COMMANDS: &[&str] = &[
    "param/tengen Settings/tengen-param",
    "gfx/Best Moves (Win Rate)/tengen-gfx_best_moves %c",
    "gfx/Best Moves (Visits)/tengen-gfx_visits %c",
    "gfx/Principal Variation/tengen-gfx_pv %c",
    "gfx/Ownership/tengen-gfx_ownership %c",
    "string/Win Rate/tengen-winrate %c",
    "hstring/Search Statistics/tengen-search_stats %c",
    "string/Rules/tengen-rules",
    "hstring/Moves/tengen-moves",
];

/// The analysis entries of the menu: each searches (or reuses the last search of this position and
/// colour, see `streaming::searched`) and draws one view of the result.
pub fn gfx_command(s: &mut Session, c: &mut Call, view: fn(&Snapshot) -> String) -> Result<Reply, GtpError> {
    let snap = super::streaming::searched(s, c)?;
    Ok(Reply::Text(view(&snap)))
}

/// `gogui-analyze_commands`: the menu. Asking for it is how GoGui announces itself, so it also turns
/// the live graphics on.
pub fn analyze_commands(s: &mut Session, _: &mut Call) -> Result<Reply, GtpError> {
    s.live_gfx = true;
    Ok(Reply::Text(ANALYZE_COMMANDS.join("\n")))
}

/// How many candidates the board labels show: more would cover the board with noise.
const LABELLED: usize = 10;

/// Candidates worth a label: the best few, and only those the search looked at.
fn labelled(snap: &Snapshot) -> impl Iterator<Item = &super::analysis::CandidateInfo> {
    snap.candidates.iter().filter(|c| c.visits > 0 && c.mv != "pass").take(LABELLED)
}

fn percent(v: f64) -> f64 {
    (v * 1000.0).round() / 10.0
}

/// `1234` -> `1.2k`, `2500000` -> `2.5M`: labels have room for three or four characters.
fn compact(n: u64) -> String {
    match n {
        0..=999 => n.to_string(),
        1_000..=9_999 => format!("{:.1}k", n as f64 / 1e3),
        10_000..=999_999 => format!("{}k", n / 1_000),
        _ => format!("{:.1}M", n as f64 / 1e6),
    }
}

/// A one-line summary for GoGui's status bar: the side, its win rate, the best move.
pub fn summary(snap: &Snapshot) -> String {
    let side = if snap.color == Color::Black { "Black" } else { "White" };
    let best = match snap.candidates.first() {
        Some(c) => format!(", best {} ({} visits)", c.mv, c.visits),
        None => String::new(),
    };
    format!(
        "{side}: win rate {:.1}%, lead {:+.1}, {} playouts{best}",
        percent(snap.winrate),
        snap.score_lead,
        snap.playouts
    )
}

/// The best moves labelled with their win rates (percent, for the side searched), the best one
/// marked with a square.
pub fn best_moves(snap: &Snapshot) -> String {
    let mut lines = Vec::new();
    let labels: Vec<String> =
        labelled(snap).map(|c| format!("{} {}%", c.mv, percent(c.winrate).round() as i64)).collect();
    if !labels.is_empty() {
        lines.push(format!("LABEL {}", labels.join(" ")));
    }
    if let Some(best) = labelled(snap).next() {
        lines.push(format!("SQUARE {}", best.mv));
    }
    lines.push(format!("TEXT {}", summary(snap)));
    lines.join("\n")
}

/// The best moves labelled with their visit counts.
pub fn visits(snap: &Snapshot) -> String {
    let mut lines = Vec::new();
    let labels: Vec<String> = labelled(snap).map(|c| format!("{} {}", c.mv, compact(c.visits))).collect();
    if !labels.is_empty() {
        lines.push(format!("LABEL {}", labels.join(" ")));
    }
    lines.push(format!("TEXT {}", summary(snap)));
    lines.join("\n")
}

/// The principal variation of the best move, colours alternating from the side searched.
pub fn principal_variation(snap: &Snapshot) -> String {
    let mut lines = Vec::new();
    if let Some(best) = snap.candidates.first() {
        let mut color = snap.color;
        let moves: Vec<String> = best
            .pv
            .iter()
            .map(|m| {
                let w = format!("{} {}", color.letter().to_ascii_lowercase(), m);
                color = color.opponent();
                w
            })
            .collect();
        if !moves.is_empty() {
            lines.push(format!("VAR {}", moves.join(" ")));
        }
    }
    lines.push(format!("TEXT {}", summary(snap)));
    lines.join("\n")
}

/// Ownership as influence: positive (drawn black) where Black owns the point.
pub fn ownership(snap: &Snapshot) -> String {
    let mut lines = Vec::new();
    if let Some(own) = &snap.black_ownership {
        let geo = Geometry::new(snap.size);
        let mut pairs = Vec::new();
        for (i, &v) in own.iter().enumerate() {
            let (row_from_top, x) = (i / snap.size, i % snap.size);
            let y = snap.size - 1 - row_from_top;
            // Rounded to what the eye can tell; points nobody owns (and walls) draw nothing.
            let v = (v.clamp(-1.0, 1.0) * 100.0).round() / 100.0;
            if v != 0.0 {
                pairs.push(format!("{} {v}", geo.vertex(geo.point(x, y))));
            }
        }
        if !pairs.is_empty() {
            lines.push(format!("INFLUENCE {}", pairs.join(" ")));
        }
    }
    lines.push(format!("TEXT {}", summary(snap)));
    lines.join("\n")
}

/// What GoGui draws live during `genmove`: the labelled best moves and the principal variation.
pub fn live(snap: &Snapshot) -> String {
    let mut lines = Vec::new();
    let labels: Vec<String> =
        labelled(snap).map(|c| format!("{} {}%", c.mv, percent(c.winrate).round() as i64)).collect();
    if !labels.is_empty() {
        lines.push(format!("LABEL {}", labels.join(" ")));
    }
    if let Some(var) = principal_variation(snap).lines().find(|l| l.starts_with("VAR ")) {
        lines.push(var.to_string());
    }
    lines.push(format!("TEXT {}", summary(snap)));
    lines.join("\n")
}

/// The live graphics block for stderr: `gogui-gfx:` alone, the drawing commands, an empty line
/// (GoGui reads every line up to the empty one as part of the same drawing). Never an empty block:
/// GoGui would clear the board for it, and it says nothing.
pub fn live_block(snap: &Snapshot) -> Option<String> {
    let drawing = live(snap);
    (!drawing.trim().is_empty()).then(|| format!("gogui-gfx:\n{drawing}\n\n"))
}

/// Search statistics as highlighted text: totals, then one line per candidate.
pub fn statistics(snap: &Snapshot) -> String {
    let secs = snap.elapsed.as_secs_f64();
    let rate = if secs > 0.0 { snap.playouts as f64 / secs } else { 0.0 };
    let mut lines = vec![
        format!("Side: {}", if snap.color == Color::Black { "black" } else { "white" }),
        format!("Playouts: {}", snap.playouts),
        format!("Time: {secs:.2} s"),
        format!("Speed: {rate:.0} playouts/s"),
        format!("Win rate: {:.1}%", percent(snap.winrate)),
        format!("Score lead: {:+.1}", snap.score_lead),
    ];
    for (i, c) in snap.candidates.iter().take(LABELLED).enumerate() {
        lines.push(format!(
            "{}. {} visits {} win {:.1}% prior {:.1}% lcb {:.1}% lead {:+.1} pv {}",
            i + 1,
            c.mv,
            c.visits,
            percent(c.winrate),
            percent(c.prior),
            percent(c.lcb),
            c.score_lead,
            c.pv.join(" ")
        ));
    }
    lines.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gtp::analysis::CandidateInfo;
    use std::time::Duration;

    fn cand(mv: &str, visits: u64, winrate: f64, pv: &[&str]) -> CandidateInfo {
        CandidateInfo {
            mv: mv.into(),
            visits,
            winrate,
            prior: 0.1,
            lcb: winrate - 0.05,
            score_lead: 1.5,
            pv: pv.iter().map(|s| s.to_string()).collect(),
        }
    }

    fn snapshot() -> Snapshot {
        Snapshot {
            color: Color::White,
            size: 3,
            playouts: 12_345,
            elapsed: Duration::from_millis(500),
            winrate: 0.6,
            score_lead: 1.5,
            candidates: vec![
                cand("B2", 9_000, 0.612, &["B2", "A1", "C3"]),
                cand("A1", 3_000, 0.4, &["A1"]),
                cand("C3", 0, 0.5, &["C3"]),
            ],
            black_ownership: Some(vec![1.0, 0.5, 0.0, 0.0, 0.0, 0.0, -0.25, -1.0, 0.001]),
        }
    }

    #[test]
    fn best_moves_label_visited_candidates_with_win_rates() {
        let gfx = best_moves(&snapshot());
        let lines: Vec<&str> = gfx.lines().collect();
        assert_eq!(lines[0], "LABEL B2 61% A1 40%");
        assert_eq!(lines[1], "SQUARE B2");
        assert!(lines[2].starts_with("TEXT White: win rate 60.0%"), "{gfx}");
        assert_eq!(visits(&snapshot()).lines().next().unwrap(), "LABEL B2 9.0k A1 3.0k");
    }

    #[test]
    fn variation_alternates_from_the_side_searched() {
        let gfx = principal_variation(&snapshot());
        assert_eq!(gfx.lines().next().unwrap(), "VAR w B2 b A1 w C3");
    }

    #[test]
    fn ownership_is_influence_for_black_with_rows_from_the_top() {
        let gfx = ownership(&snapshot());
        assert_eq!(gfx.lines().next().unwrap(), "INFLUENCE A3 1 B3 0.5 A1 -0.25 B1 -1");
    }

    #[test]
    fn live_block_is_one_drawing_ended_by_an_empty_line() {
        let block = live_block(&snapshot()).expect("a drawing");
        assert!(block.starts_with("gogui-gfx:\nLABEL "), "{block}");
        assert!(block.ends_with("\n\n") && !block[..block.len() - 2].contains("\n\n"), "{block}");
        for line in block.lines() {
            assert!(!line.starts_with(['=', '?']) && !line.starts_with("info") && !line.starts_with("play"));
        }
    }

    #[test]
    fn statistics_and_labels_survive_an_empty_search() {
        let mut snap = snapshot();
        snap.candidates.clear();
        snap.black_ownership = None;
        for gfx in [best_moves(&snap), visits(&snap), principal_variation(&snap), ownership(&snap)] {
            assert_eq!(gfx.lines().count(), 1, "{gfx}");
            assert!(gfx.starts_with("TEXT "));
        }
        assert!(statistics(&snap).contains("Playouts: 12345"));
    }

    #[test]
    fn every_menu_entry_is_a_known_command_and_runs_in_every_variant() {
        use crate::engine::{Engine, EngineOptions};
        use crate::rules::RulesConfig;
        for rules in ["go", "stones", "stoical"] {
            let options = EngineOptions {
                rules: RulesConfig::parse(rules).unwrap(),
                size: 9,
                threads: Some(1),
                playouts: Some(200),
                ..Default::default()
            };
            let mut s = Session::new(Engine::new(options));
            for line in ["play b E5", "play w C3"] {
                assert_eq!(s.handle_line(line.as_bytes()).unwrap(), "= \n\n");
            }
            let menu = s.handle_line(b"gogui-analyze_commands").unwrap();
            assert!(s.live_gfx, "asking for the menu turns the live graphics on");
            let entries: Vec<&str> = menu.trim_start_matches("= ").trim_end().lines().collect();
            assert_eq!(entries, ANALYZE_COMMANDS);
            for entry in entries {
                let mut parts = entry.splitn(3, '/');
                let (kind, label, command) =
                    (parts.next().unwrap(), parts.next().unwrap(), parts.next().unwrap());
                assert!(!label.is_empty());
                assert!(
                    [
                        "gfx", "string", "hstring", "param", "var", "plist", "none", "dboard", "sboard",
                        "cboard"
                    ]
                    .contains(&kind),
                    "{entry}"
                );
                let command = command.replace("%c", "w");
                let name = command.split_whitespace().next().unwrap();
                assert!(crate::gtp::is_known(name, s.engine.needs_referee()), "{entry}");
                let answer = s.handle_line(command.as_bytes()).unwrap();
                assert!(answer.starts_with("= "), "{rules}: {entry} answered {answer}");
            }
        }
    }

    #[test]
    fn compact_counts_fit_a_label() {
        for (n, s) in [(7, "7"), (999, "999"), (1_234, "1.2k"), (56_789, "56k"), (2_500_000, "2.5M")] {
            assert_eq!(compact(n), s);
        }
    }
}
