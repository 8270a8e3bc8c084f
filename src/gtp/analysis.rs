//! Analysis commands for Sabaki and Lizzie (`analyze`, `lz-analyze`, `kata-analyze` and the
//! `genmove_analyze` forms): their argument grammar and the `info move ...` lines they stream.

use super::GtpError;
use crate::board::Color;
use std::time::Duration;

/// Which dialect of analysis output a command speaks.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Dialect {
    /// `analyze` and `lz-analyze`: win rate, prior and lcb as integers 0..10000.
    Leela,
    /// `kata-analyze`: floats that always contain a `.`, plus `scoreLead`.
    KataGo,
}

/// Parsed arguments: `[C] [INTERVAL] [interval N] [minmoves N] [maxmoves N] [ownership true]`.
#[derive(Clone, PartialEq, Debug)]
pub struct AnalyzeArgs {
    pub color: Option<Color>,
    /// Centiseconds between updates, as given (`None`: not given).
    pub interval_cs: Option<u32>,
    pub min_moves: usize,
    pub max_moves: Option<usize>,
    pub ownership: bool,
}

impl AnalyzeArgs {
    pub fn parse(args: &[String]) -> Result<AnalyzeArgs, GtpError> {
        let mut a =
            AnalyzeArgs { color: None, interval_cs: None, min_moves: 0, max_moves: None, ownership: false };
        let mut i = 0;
        let mut bare_interval_seen = false;
        let number = |s: Option<&String>| -> Result<u64, GtpError> {
            s.ok_or_else(GtpError::syntax)?.parse::<u64>().map_err(|_| GtpError::syntax())
        };
        while i < args.len() {
            let w = args[i].as_str();
            if i == 0 {
                if let Some(c) = Color::parse(w) {
                    a.color = Some(c);
                    i += 1;
                    continue;
                }
            }
            match w.to_ascii_lowercase().as_str() {
                "interval" => {
                    a.interval_cs = Some(number(args.get(i + 1))?.min(1_000_000) as u32);
                    i += 2;
                }
                "minmoves" => {
                    a.min_moves = number(args.get(i + 1))?.min(10_000) as usize;
                    i += 2;
                }
                "maxmoves" => {
                    a.max_moves = Some(number(args.get(i + 1))?.min(10_000) as usize);
                    i += 2;
                }
                "ownership" | "ownershipstdev" | "movesownership" | "pvvisits" | "rootinfo" => {
                    let v = args.get(i + 1).ok_or_else(GtpError::syntax)?.to_ascii_lowercase();
                    let on = match v.as_str() {
                        "true" => true,
                        "false" => false,
                        _ => return Err(GtpError::syntax()),
                    };
                    if w.eq_ignore_ascii_case("ownership") {
                        a.ownership = on;
                    }
                    i += 2;
                }
                // KataGo's avoid/allow take a colour, a vertex list and a move count: accepted and ignored.
                "avoid" | "allow" => i += 4,
                _ if !bare_interval_seen && w.bytes().all(|b| b.is_ascii_digit()) => {
                    a.interval_cs = Some(number(Some(&args[i]))?.min(1_000_000) as u32);
                    bare_interval_seen = true;
                    i += 1;
                }
                _ => return Err(GtpError::syntax()),
            }
        }
        Ok(a)
    }

    /// Time between two updates. Without an interval (or with 0, which would mean never for an
    /// analysis that runs until the next command) updates come every `DEFAULT_INTERVAL_CS`; the first
    /// comes one interval after the start.
    pub fn interval(&self) -> Duration {
        let cs = match self.interval_cs {
            Some(cs) if cs > 0 => cs,
            _ => DEFAULT_INTERVAL_CS,
        };
        Duration::from_millis(10 * u64::from(cs))
    }
}

/// Updates every 10 centiseconds unless the client asks otherwise: often enough for a live display,
/// rare enough that a 19x19 line (a few kilobytes) costs nothing.
pub const DEFAULT_INTERVAL_CS: u32 = 10;

/// One candidate move as the analysis reports it, from the side to move's point of view.
#[derive(Clone, PartialEq, Debug)]
pub struct CandidateInfo {
    /// GTP vertex or `pass`.
    pub mv: String,
    pub visits: u64,
    /// 0..1.
    pub winrate: f64,
    /// 0..1.
    pub prior: f64,
    /// Lower confidence bound of the win rate, 0..1.
    pub lcb: f64,
    /// Expected lead in points (Stones: prisoners) for the side to move.
    pub score_lead: f64,
    pub pv: Vec<String>,
}

/// What one report of the search says, as the GTP front end shows it: vertices already named, every
/// value from the point of view of `color`, the side the search is for.
#[derive(Clone, PartialEq, Debug)]
pub struct Snapshot {
    pub color: Color,
    pub size: usize,
    pub playouts: u64,
    pub elapsed: Duration,
    /// Win rate of `color`, 0..1.
    pub winrate: f64,
    /// Expected lead of `color` in points (Stones: prisoners).
    pub score_lead: f64,
    /// Best first.
    pub candidates: Vec<CandidateInfo>,
    /// Black's ownership of every point (+1 Black, -1 White, walls 0), rows top first, each row left to
    /// right; only when asked for.
    pub black_ownership: Option<Vec<f64>>,
}

impl Snapshot {
    /// Ownership from `color`'s point of view (+1: `color` owns the point), as KataGo reports it.
    pub fn own_ownership(&self) -> Option<Vec<f64>> {
        let sign = if self.color == Color::Black { 1.0 } else { -1.0 };
        self.black_ownership.as_ref().map(|o| o.iter().map(|v| sign * v).collect())
    }

    /// The `info ...` line of this snapshot; `None` while there is no candidate yet (an empty line
    /// would end the response).
    pub fn info_line(&self, dialect: Dialect, with_ownership: bool) -> Option<String> {
        if self.candidates.is_empty() {
            return None;
        }
        let own = if with_ownership { self.own_ownership() } else { None };
        Some(info_line(dialect, &self.candidates, own.as_deref()))
    }
}

fn per_ten_thousand(v: f64) -> i64 {
    (v.clamp(0.0, 1.0) * 10_000.0).round() as i64
}

/// A float that always shows a decimal point (KataGo's dialect, which Sabaki and Lizzie parse as such).
fn float(v: f64) -> String {
    let s = format!("{:.6}", if v.is_finite() { v } else { 0.0 });
    // No negative zero (`-0.0` from a tiny negative value): clients compare signs.
    let s = if s.trim_start_matches('-').bytes().all(|b| b == b'0' || b == b'.') { "0.0" } else { &s };
    let s = s.trim_end_matches('0');
    if s.ends_with('.') {
        format!("{s}0")
    } else {
        s.to_string()
    }
}

/// One analysis line: every candidate in order, and for KataGo the ownership when asked (values for
/// the side to move, -1..1, rows top first).
pub fn info_line(dialect: Dialect, candidates: &[CandidateInfo], ownership: Option<&[f64]>) -> String {
    let mut parts = Vec::with_capacity(candidates.len());
    for (order, c) in candidates.iter().enumerate() {
        let body = match dialect {
            Dialect::Leela => format!(
                "info move {} visits {} winrate {} prior {} lcb {} order {} pv {}",
                c.mv,
                c.visits,
                per_ten_thousand(c.winrate),
                per_ten_thousand(c.prior),
                per_ten_thousand(c.lcb),
                order,
                c.pv.join(" ")
            ),
            Dialect::KataGo => format!(
                "info move {} visits {} utility {} winrate {} scoreMean {} scoreLead {} prior {} lcb {} order {} pv {}",
                c.mv,
                c.visits,
                float(2.0 * c.winrate - 1.0),
                float(c.winrate),
                float(c.score_lead),
                float(c.score_lead),
                float(c.prior),
                float(c.lcb),
                order,
                c.pv.join(" ")
            ),
        };
        parts.push(body);
    }
    let mut line = parts.join(" ");
    if let (Dialect::KataGo, Some(own)) = (dialect, ownership) {
        line.push_str(" ownership");
        for v in own {
            line.push(' ');
            line.push_str(&float(*v));
        }
    }
    line
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(s: &str) -> Vec<String> {
        s.split_whitespace().map(str::to_string).collect()
    }

    #[test]
    fn every_argument_form_parses() {
        let a = AnalyzeArgs::parse(&args("b 50")).unwrap();
        assert_eq!((a.color, a.interval_cs), (Some(Color::Black), Some(50)));
        assert_eq!(a.interval(), Duration::from_millis(500));
        let a = AnalyzeArgs::parse(&args("30")).unwrap();
        assert_eq!((a.color, a.interval_cs), (None, Some(30)));
        let a = AnalyzeArgs::parse(&args("")).unwrap();
        assert_eq!((a.color, a.interval_cs, a.interval()), (None, None, Duration::from_millis(100)));
        let a = AnalyzeArgs::parse(&args("white 0")).unwrap();
        assert_eq!((a.color, a.interval()), (Some(Color::White), Duration::from_millis(100)));
        let a = AnalyzeArgs::parse(&args("W interval 10 minmoves 2 maxmoves 5 ownership true")).unwrap();
        assert_eq!(
            (a.color, a.interval_cs, a.min_moves, a.max_moves, a.ownership),
            (Some(Color::White), Some(10), 2, Some(5), true)
        );
        assert!(AnalyzeArgs::parse(&args("b interval")).is_err());
        assert!(AnalyzeArgs::parse(&args("b banana")).is_err());
        assert!(AnalyzeArgs::parse(&args("ownership maybe")).is_err());
    }

    #[test]
    fn dialects_format_as_clients_parse() {
        let c = CandidateInfo {
            mv: "D4".into(),
            visits: 120,
            winrate: 0.53125,
            prior: 0.183,
            lcb: 0.512,
            score_lead: 2.0,
            pv: vec!["D4".into(), "Q16".into()],
        };
        let lz = info_line(Dialect::Leela, &[c.clone(), c.clone()], None);
        assert_eq!(
            lz,
            "info move D4 visits 120 winrate 5313 prior 1830 lcb 5120 order 0 pv D4 Q16 \
             info move D4 visits 120 winrate 5313 prior 1830 lcb 5120 order 1 pv D4 Q16"
        );
        let kata = info_line(Dialect::KataGo, &[c], Some(&[1.0, -0.5]));
        assert!(kata.contains("winrate 0.53125 "), "{kata}");
        assert!(kata.contains("scoreLead 2.0 "), "{kata}");
        assert!(kata.ends_with("ownership 1.0 -0.5"), "{kata}");
    }

    #[test]
    fn snapshots_speak_for_their_colour_and_never_print_an_empty_line() {
        let mut snap = Snapshot {
            color: Color::White,
            size: 2,
            playouts: 0,
            elapsed: Duration::ZERO,
            winrate: 0.5,
            score_lead: 0.0,
            candidates: vec![],
            black_ownership: Some(vec![1.0, -0.25, 0.0, 0.5]),
        };
        assert_eq!(snap.info_line(Dialect::Leela, false), None);
        assert_eq!(snap.own_ownership().unwrap(), vec![-1.0, 0.25, 0.0, -0.5]);
        snap.candidates.push(CandidateInfo {
            mv: "A1".into(),
            visits: 3,
            winrate: 0.25,
            prior: 0.5,
            lcb: 0.0,
            score_lead: -1.5,
            pv: vec!["A1".into()],
        });
        let kata = snap.info_line(Dialect::KataGo, true).unwrap();
        assert!(kata.ends_with(" pv A1 ownership -1.0 0.25 0.0 -0.5"), "{kata}");
        let lz = snap.info_line(Dialect::Leela, true).unwrap();
        assert_eq!(lz, "info move A1 visits 3 winrate 2500 prior 5000 lcb 0 order 0 pv A1");
    }
}
