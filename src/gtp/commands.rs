//! The command table: one entry per GTP command. Dispatch, `known_command` and `list_commands` all
//! read this table (through `offered`, which drops the few commands the current rules do not offer),
//! so nothing can be listed that is not dispatched, nor dispatched that is not listed.

use super::analysis::Dialect;
use super::args;
use super::gogui;
use super::session::{Call, Reply, Session};
use super::streaming::{self, GenMove};
use super::GtpError;
use crate::board::{Cell, Color, Point};
use crate::engine::{Clock, TimeSystem};
use crate::rules::{Move, RulesConfig};
use std::io::Write;

pub(crate) type Handler = fn(&mut Session, &mut Call) -> Result<Reply, GtpError>;

const COMMANDS: &[(&str, Handler)] = &[
    ("protocol_version", |_, _| text("2")),
    ("name", |_, _| text("tengen")),
    ("version", |_, _| text(env!("CARGO_PKG_VERSION"))),
    ("known_command", known_command),
    ("list_commands", |s, _| text(command_names(s.engine.needs_referee()).collect::<Vec<_>>().join("\n"))),
    ("quit", |s, _| {
        s.request_quit();
        text("")
    }),
    ("boardsize", boardsize),
    ("rectangular_boardsize", boardsize),
    ("clear_board", |s, _| {
        s.engine.clear_board();
        text("")
    }),
    ("komi", komi),
    ("play", play),
    ("genmove", |s, c| streaming::genmove(s, c, GenMove::Play)),
    ("reg_genmove", |s, c| streaming::genmove(s, c, GenMove::Suggest)),
    ("kgs-genmove_cleanup", |s, c| streaming::genmove(s, c, GenMove::Cleanup)),
    ("undo", |s, _| {
        s.engine.undo()?;
        text("")
    }),
    ("fixed_handicap", |s, c| handicap(s, c, true)),
    ("place_free_handicap", |s, c| handicap(s, c, false)),
    ("set_free_handicap", set_free_handicap),
    ("time_settings", time_settings),
    ("time_left", time_left),
    ("kgs-time_settings", kgs_time_settings),
    ("final_score", |s, _| text(s.engine.final_score()?.to_string())),
    ("final_status_list", final_status_list),
    ("showboard", |s, _| text(format!("\n{}", s.engine.showboard()))),
    ("loadsgf", loadsgf),
    ("printsgf", printsgf),
    ("kgs-rules", kgs_rules),
    ("kgs-game_over", |_, _| text("")),
    ("cputime", |_, _| text(format!("{:.3}", cpu_seconds()))),
    ("is_legal", is_legal),
    ("captures", |s, c| text(s.engine.game().prisoners(args::color(c.args, 0)?).to_string())),
    ("tengen-rules", tengen_rules),
    ("tengen-moves", tengen_moves),
    ("phantom-illegal", super::phantom::illegal),
    ("phantom-opponent-moved", super::phantom::opponent_moved),
    ("phantom-opponent-illegal", super::phantom::opponent_illegal),
    ("phantom-removed", super::phantom::removed),
    ("gogui-interrupt", |_, _| text("")),
    ("gogui-analyze_commands", super::gogui::analyze_commands),
    ("tengen-gfx_best_moves", |s, c| gogui::gfx_command(s, c, gogui::best_moves)),
    ("tengen-gfx_visits", |s, c| gogui::gfx_command(s, c, gogui::visits)),
    ("tengen-gfx_pv", |s, c| gogui::gfx_command(s, c, gogui::principal_variation)),
    ("tengen-gfx_ownership", |s, c| gogui::gfx_command(s, c, gogui::ownership)),
    ("tengen-winrate", |s, c| gogui::gfx_command(s, c, gogui::summary)),
    ("tengen-search_stats", |s, c| gogui::gfx_command(s, c, gogui::statistics)),
    ("analyze", |s, c| streaming::analyze(s, c, Dialect::Leela)),
    ("lz-analyze", |s, c| streaming::analyze(s, c, Dialect::Leela)),
    ("kata-analyze", |s, c| streaming::analyze(s, c, Dialect::KataGo)),
    ("genmove_analyze", |s, c| streaming::genmove_analyze(s, c, Dialect::Leela)),
    ("lz-genmove_analyze", |s, c| streaming::genmove_analyze(s, c, Dialect::Leela)),
    ("kata-genmove_analyze", |s, c| streaming::genmove_analyze(s, c, Dialect::KataGo)),
    ("tengen-param", super::params::param),
    ("gogui-rules_game_id", |s, _| text(s.engine.variant().game_id())),
    ("gogui-rules_board_size", |s, _| text(s.engine.size().to_string())),
    ("gogui-rules_board", rules_board),
    ("gogui-rules_legal_moves", rules_legal_moves),
    ("gogui-rules_side_to_move", |s, _| text(s.engine.game().to_move().to_string())),
    ("gogui-rules_captured_count", |s, _| {
        let g = s.engine.game();
        text(format!("{} {}", g.prisoners(Color::Black), g.prisoners(Color::White)))
    }),
    ("gogui-rules_final_result", |s, _| {
        text(s.engine.game_result().map(|o| o.to_string()).unwrap_or_default())
    }),
];

fn text(s: impl Into<String>) -> Result<Reply, GtpError> {
    Ok(Reply::Text(s.into()))
}

/// Whether the rules in force offer a command. GoGui 1.6 asks a program that lists
/// `gogui-rules_board_size` for its size as soon as it attaches it, and adopts the answer as its own
/// board size (throwing away the size the user chose) before it sends `boardsize`. Under standard Go,
/// GoGui knows the rules and needs no size from the engine, so that command is not offered: GoGui
/// keeps its size and sends it. Under Stones and Stoical Go GoGui needs tengen as its referee, which
/// must tell it the size of the game it referees (GoGui sends a referee `clear_board`, never
/// `boardsize`): there the command stays, and the size is the command line's (`--size`). So it is on
/// a torus (RULES.md 5.1), whose captures across the edges GoGui's own Go rules would miss.
/// `referee`: GoGui needs tengen as its referee under the rules in force
/// (`Engine::needs_referee`).
fn offered(name: &str, referee: bool) -> bool {
    name != "gogui-rules_board_size" || referee
}

/// The handler for a command name under the rules in force (names are case-sensitive, as in GNU Go).
pub(crate) fn find(name: &str, referee: bool) -> Option<Handler> {
    COMMANDS.iter().find(|(n, _)| *n == name && offered(n, referee)).map(|&(_, h)| h)
}

pub fn is_known(name: &str, referee: bool) -> bool {
    find(name, referee).is_some()
}

/// Every command name offered under the rules in force, in table order.
pub fn command_names(referee: bool) -> impl Iterator<Item = &'static str> {
    COMMANDS.iter().map(|&(n, _)| n).filter(move |n| offered(n, referee))
}

fn known_command(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    text(if is_known(args::arg(c.args, 0)?, s.engine.needs_referee()) { "true" } else { "false" })
}

fn boardsize(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let unacceptable = || GtpError::new("unacceptable size");
    let n = args::count(c.args, 0, unacceptable)?;
    // `boardsize W H` and `rectangular_boardsize W H`: only square boards are supported.
    if c.args.len() > 1 {
        let h = args::count(c.args, 1, unacceptable)?;
        if h != n {
            return Err(unacceptable());
        }
    }
    s.engine.set_size(n)?;
    text("")
}

fn komi(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let k = args::float(c.args, 0)?;
    let k = crate::rules::checked_komi(k).ok_or_else(|| GtpError::new("unacceptable komi"))?;
    s.engine.set_komi(k);
    text("")
}

fn play(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let color = args::color(c.args, 0)?;
    let mv = args::mv(s.engine.game().board().geometry(), args::arg(c.args, 1)?)?;
    s.engine.play(color, mv)?;
    text("")
}

fn handicap(s: &mut Session, c: &mut Call, fixed: bool) -> Result<Reply, GtpError> {
    let n = args::count(c.args, 0, || GtpError::new("invalid number of stones"))?;
    let pts = if fixed { s.engine.fixed_handicap(n)? } else { s.engine.place_free_handicap(n)? };
    let geo = s.engine.game().board().geometry();
    text(pts.iter().map(|&p| geo.vertex(p)).collect::<Vec<_>>().join(" "))
}

fn set_free_handicap(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let geo = *s.engine.game().board().geometry();
    let pts: Vec<Point> = c
        .args
        .iter()
        .map(|a| geo.parse_vertex(a).ok_or_else(|| GtpError::new("bad vertex list")))
        .collect::<Result<_, _>>()?;
    s.engine.set_free_handicap(&pts)?;
    text("")
}

fn time_settings(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let (main, byo) = (args::float(c.args, 0)?, args::float(c.args, 1)?);
    let stones: u32 = args::int(c.args, 2)?;
    if main < 0.0 || byo < 0.0 {
        return Err(GtpError::syntax());
    }
    s.engine.clock_mut().set(Clock::from_gtp(main, byo, stones));
    text("")
}

fn time_left(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let color = args::color(c.args, 0)?;
    let seconds = args::float(c.args, 1)?;
    let count: u32 = args::int(c.args, 2)?;
    // A clock that ran past zero (server lag) is reported, not refused: nothing is left.
    s.engine.clock_mut().time_left(color, seconds.max(0.0), count);
    text("")
}

fn kgs_time_settings(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let kind = args::arg(c.args, 0)?.to_ascii_lowercase();
    let nonneg =
        |i| args::float(c.args, i).and_then(|v| if v >= 0.0 { Ok(v) } else { Err(GtpError::syntax()) });
    let system = match kind.as_str() {
        "none" => TimeSystem::None,
        "absolute" => TimeSystem::Absolute { main: nonneg(1)? },
        "canadian" => {
            TimeSystem::Canadian { main: nonneg(1)?, period: nonneg(2)?, stones: args::int(c.args, 3)? }
        }
        "byoyomi" => {
            TimeSystem::Byoyomi { main: nonneg(1)?, period: nonneg(2)?, periods: args::int(c.args, 3)? }
        }
        _ => return Err(GtpError::syntax()),
    };
    s.engine.clock_mut().set(system);
    text("")
}

fn final_status_list(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let status = args::arg(c.args, 0)?.to_ascii_lowercase();
    if !matches!(status.as_str(), "alive" | "dead" | "seki") {
        return Err(GtpError::syntax());
    }
    let judged = s.engine.final_status();
    let board = s.engine.game().board();
    let geo = board.geometry();
    let wanted = |p: Point| {
        let dead = judged.dead.contains(&p);
        let seki = judged.seki.contains(&p);
        match status.as_str() {
            "alive" => !dead && !seki,
            "dead" => dead,
            _ => seki,
        }
    };
    // One line per chain, as GNU Go answers.
    let mut lines = Vec::new();
    for p in geo.points() {
        if board.cell(p).color().is_some() && board.chain_head(p) == p && wanted(p) {
            let mut stones: Vec<Point> = board.chain_stones(p).collect();
            stones.sort();
            lines.push(stones.iter().map(|&q| geo.vertex(q)).collect::<Vec<_>>().join(" "));
        }
    }
    text(lines.join("\n"))
}

/// `loadsgf FILE [N]`: the game in FILE, up to but not including move N.
fn loadsgf(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let file = args::arg(c.args, 0)?;
    let until = if c.args.len() > 1 { Some(args::int::<usize>(c.args, 1)?) } else { None };
    let cannot = |why: String| GtpError::new(format!("cannot load file: {why}"));
    let bytes = std::fs::read(file).map_err(|e| cannot(e.to_string()))?;
    let record = crate::sgf::GameRecord::parse_bytes(&bytes).map_err(|e| cannot(e.to_string()))?;
    // What the record does that the rules in force forbid was played as recorded: say so.
    for note in s.engine.load_record(&record, until)? {
        let _ = writeln!(std::io::stderr(), "tengen: loadsgf {file}: {note}");
    }
    text("")
}

/// `printsgf [FILE]`: the game as SGF, answered or written to FILE.
fn printsgf(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    answer_sgf(s.engine.to_record().to_sgf(), c)
}

/// `printsgf`'s answer for any variant's record: the SGF text, or written to the file named.
pub(super) fn answer_sgf(sgf: String, c: &Call) -> Result<Reply, GtpError> {
    match c.args.first() {
        None => text(sgf.trim_end()),
        Some(file) => {
            std::fs::write(file, sgf).map_err(|e| GtpError::new(format!("cannot save file: {e}")))?;
            text("")
        }
    }
}

fn kgs_rules(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let name = args::arg(c.args, 0)?;
    let rules =
        RulesConfig::from_kgs(name, s.engine.rules()).ok_or_else(|| GtpError::new("unknown rules"))?;
    s.engine.change_rules(rules)?;
    text("")
}

fn tengen_rules(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    if c.args.is_empty() {
        return text(s.engine.rules().to_string());
    }
    let unknown = |e: crate::rules::RulesError| GtpError::new(format!("unknown rules: {e}"));
    let rules = RulesConfig::parse(&c.args.join(" ")).map_err(unknown)?;
    rules.check_walls_fit(s.engine.size()).map_err(unknown)?;
    s.engine.set_rules(rules);
    text("")
}

/// Every move of the game, one per line, naming variant moves (`B stake on D4`, `W prisoner return`).
fn tengen_moves(s: &mut Session, _: &mut Call) -> Result<Reply, GtpError> {
    let g = s.engine.game();
    let geo = g.board().geometry();
    text(
        g.moves()
            .iter()
            .map(|&(c, m)| format!("{} {}", c.letter(), m.describe(geo)))
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

fn is_legal(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let color = args::color(c.args, 0)?;
    let geo = *s.engine.game().board().geometry();
    let legal = match args::mv(&geo, args::arg(c.args, 1)?) {
        Ok(m) => {
            let m = if m == Move::Pass { s.engine.game().pass_move(color) } else { m };
            s.engine.game().check_play(color, m).is_ok()
        }
        Err(e) if e == GtpError::illegal() => false,
        Err(e) => return Err(e),
    };
    text(if legal { "1" } else { "0" })
}

fn rules_board(s: &mut Session, _: &mut Call) -> Result<Reply, GtpError> {
    let b = s.engine.game().board();
    let geo = b.geometry();
    let rows: Vec<String> = (0..b.size())
        .rev()
        .map(|y| {
            (0..b.size())
                .map(|x| match b.cell(geo.point(x, y)) {
                    Cell::Empty => '.',
                    Cell::Black => 'X',
                    Cell::White => 'O',
                    Cell::Wall => '?',
                })
                .collect()
        })
        .collect();
    text(rows.join("\n"))
}

fn rules_legal_moves(s: &mut Session, _: &mut Call) -> Result<Reply, GtpError> {
    let g = s.engine.game();
    let geo = g.board().geometry();
    let moves = g.legal_moves(g.to_move());
    let mut words: Vec<String> = moves
        .iter()
        .filter_map(|m| if let Move::Place(p) = m { Some(geo.vertex(*p)) } else { None })
        .collect();
    if moves.iter().any(|m| m.is_pass_like()) {
        words.push("pass".into());
    }
    text(words.join(" "))
}

/// Processor time used by this process (user + system), for `cputime`; wall time where /proc is absent.
fn cpu_seconds() -> f64 {
    let from_proc = || -> Option<f64> {
        let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
        // Fields after the command name, which is in parentheses and may contain spaces.
        let rest = &stat[stat.rfind(')')? + 2..];
        let f: Vec<&str> = rest.split_whitespace().collect();
        let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
        // Linux reports in USER_HZ, which is 100 on every mainstream architecture.
        Some(ticks / 100.0)
    };
    from_proc().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_listed_command_is_known_and_the_size_question_only_off_standard_go() {
        for referee in [false, true] {
            for name in command_names(referee) {
                assert!(is_known(name, referee), "{name}");
            }
            let listed = command_names(referee).any(|n| n == "gogui-rules_board_size");
            assert_eq!(listed, referee);
            assert_eq!(is_known("gogui-rules_board_size", referee), listed);
            // GoGui recognises a Go program by its game id, and a referee by these three.
            for needed in ["gogui-rules_game_id", "gogui-rules_legal_moves", "gogui-rules_side_to_move"] {
                assert!(is_known(needed, referee), "{referee}: {needed}");
            }
        }
        assert_eq!(command_names(false).count() + 1, COMMANDS.len());
        // Which rules need a referee.
        let needs = |rules: &str| {
            let options = crate::engine::EngineOptions {
                rules: RulesConfig::parse(rules).unwrap(),
                size: 9,
                ..Default::default()
            };
            crate::engine::Engine::new(options).needs_referee()
        };
        let referees: Vec<bool> =
            ["go", "phantom", "stones", "stoical", "go:torus=on"].into_iter().map(needs).collect();
        assert_eq!(referees, [false, false, true, true, true]);
    }
}
