//! Analysis commands for Sabaki and Lizzie (`analyze`, `lz-analyze`, `kata-analyze` and the
//! `genmove_analyze` forms): their argument grammar and the `info move ...` lines they stream.

use super::GtpError;
use crate::board::Color;

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
    /// Centiseconds between updates; 0 means "only at the end" for genmove_analyze, and we use a
    /// sensible default for analyze.
    pub interval_cs: u32,
    pub min_moves: usize,
    pub max_moves: Option<usize>,
    pub ownership: bool,
}

impl AnalyzeArgs {
    pub fn parse(args: &[String]) -> Result<AnalyzeArgs, GtpError> {
        let mut a =
            AnalyzeArgs { color: None, interval_cs: 0, min_moves: 0, max_moves: None, ownership: false };
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
                    a.interval_cs = number(args.get(i + 1))?.min(1_000_000) as u32;
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
                    a.interval_cs = number(Some(&args[i]))?.min(1_000_000) as u32;
                    bare_interval_seen = true;
                    i += 1;
                }
                _ => return Err(GtpError::syntax()),
            }
        }
        Ok(a)
    }
}

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

fn per_ten_thousand(v: f64) -> i64 {
    (v.clamp(0.0, 1.0) * 10_000.0).round() as i64
}

/// A float that always shows a decimal point (KataGo's dialect, which Sabaki and Lizzie parse as such).
fn float(v: f64) -> String {
    let s = format!("{:.6}", if v.is_finite() { v } else { 0.0 });
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
        assert_eq!((a.color, a.interval_cs), (Some(Color::Black), 50));
        let a = AnalyzeArgs::parse(&args("30")).unwrap();
        assert_eq!((a.color, a.interval_cs), (None, 30));
        let a = AnalyzeArgs::parse(&args("W interval 10 minmoves 2 maxmoves 5 ownership true")).unwrap();
        assert_eq!(
            (a.color, a.interval_cs, a.min_moves, a.max_moves, a.ownership),
            (Some(Color::White), 10, 2, Some(5), true)
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
}
