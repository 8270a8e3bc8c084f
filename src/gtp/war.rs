//! GTP under War Go (RULES.md section 7): the commands whose answers involve the game take move
//! words (`spy@D4`, `bomb!@E5`, `D4-D5`, a vertex for a soldier) and read the War Go game; the
//! rest are the ordinary handlers. Commands that need the tree search of the other variants
//! (analysis, GoGui graphics) are not offered under `war`.

use super::args;
use super::commands::{self, Handler};
use super::session::{Call, Reply, Session};
use super::GtpError;
use crate::board::Color;
use crate::engine::WarDecision;
use crate::rules::war::{Cell, WarMove, WordError};
use std::io::Write;

const WAR_COMMANDS: &[(&str, Handler)] = &[
    ("known_command", |_, c| text(if find(args::arg(c.args, 0)?).is_some() { "true" } else { "false" })),
    ("list_commands", |_, _| text(names().join("\n"))),
    ("play", play),
    ("genmove", |s, c| genmove(s, c, true)),
    ("reg_genmove", |s, c| genmove(s, c, false)),
    ("kgs-genmove_cleanup", |s, c| genmove(s, c, true)),
    ("undo", |s, _| {
        s.engine.war_undo()?;
        text("")
    }),
    ("final_score", |s, _| text(s.engine.war_final_score()?.to_string())),
    ("final_status_list", final_status_list),
    ("showboard", |s, _| text(format!("\n{}", s.engine.war_showboard()))),
    ("loadsgf", loadsgf),
    ("printsgf", printsgf),
    ("is_legal", is_legal),
    ("captures", |s, c| {
        let color = args::color(c.args, 0)?;
        text(s.engine.war_game().map_or(0, |g| g.position().prisoners[color]).to_string())
    }),
    ("tengen-moves", tengen_moves),
    ("tengen-legal_moves", legal_words),
    ("gogui-rules_board", rules_board),
    ("gogui-rules_legal_moves", rules_legal_moves),
    ("gogui-rules_side_to_move", |s, _| {
        text(s.engine.war_game().map_or(Color::Black, |g| g.to_move()).to_string())
    }),
    ("gogui-rules_captured_count", |s, _| {
        let p = s.engine.war_game().map(|g| g.position().prisoners).unwrap_or_default();
        text(format!("{} {}", p[Color::Black], p[Color::White]))
    }),
    ("gogui-rules_final_result", |s, _| {
        let over = s.engine.war_game().is_some_and(|g| g.is_over());
        text(if over { s.engine.war_final_score()?.to_string() } else { String::new() })
    }),
];

/// The ordinary handlers that serve War Go unchanged.
const SHARED: &[&str] = &[
    "protocol_version",
    "name",
    "version",
    "quit",
    "boardsize",
    "rectangular_boardsize",
    "clear_board",
    "komi",
    "fixed_handicap",
    "place_free_handicap",
    "set_free_handicap",
    "time_settings",
    "time_left",
    "kgs-time_settings",
    "kgs-rules",
    "kgs-game_over",
    "cputime",
    "tengen-rules",
    "gogui-interrupt",
    "gogui-rules_game_id",
    "gogui-rules_board_size",
];

fn text(s: impl Into<String>) -> Result<Reply, GtpError> {
    Ok(Reply::Text(s.into()))
}

/// The handler of `name` under War Go.
pub(crate) fn find(name: &str) -> Option<Handler> {
    if let Some(&(_, h)) = WAR_COMMANDS.iter().find(|(n, _)| *n == name) {
        return Some(h);
    }
    SHARED.contains(&name).then(|| commands::find(name, true)).flatten()
}

/// Every command offered under War Go: the ordinary table's that serve it, in its order, then War
/// Go's own.
pub(crate) fn names() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = commands::command_names(true).filter(|n| find(n).is_some()).collect();
    for &(n, _) in WAR_COMMANDS {
        if !names.contains(&n) {
            names.push(n);
        }
    }
    names
}

/// A move word: `syntax error` for what is no move, `illegal move` for a point off the board.
fn word(s: &Session, w: &str) -> Result<WarMove, GtpError> {
    let geo = s.engine.war_game().map(|g| g.position().geo).ok_or_else(GtpError::illegal)?;
    WarMove::parse(w, &geo).map_err(|e| match e {
        WordError::Syntax => GtpError::syntax(),
        WordError::OffBoard => GtpError::illegal(),
    })
}

fn play(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let color = args::color(c.args, 0)?;
    let mv = word(s, args::arg(c.args, 1)?)?;
    s.engine.war_play(color, mv)?;
    text("")
}

fn genmove(s: &mut Session, c: &mut Call, commit: bool) -> Result<Reply, GtpError> {
    let color = args::color(c.args, 0)?;
    let (decision, report) = s.engine.war_genmove(color, commit)?;
    let geo = s.engine.war_game().map(|g| g.position().geo).ok_or_else(GtpError::illegal)?;
    let answer = match decision {
        WarDecision::Play(mv) => mv.word(&geo),
        WarDecision::Resign => "resign".to_string(),
    };
    if let Some(r) = report {
        let _ = writeln!(
            std::io::stderr(),
            "tengen: {color} {answer}: {} playouts in {:.2} s, win rate {:.3}",
            r.playouts,
            r.elapsed.as_secs_f64(),
            r.winrate
        );
    }
    if commit {
        s.moved();
    }
    text(answer)
}

fn is_legal(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let color = args::color(c.args, 0)?;
    let legal = match word(s, args::arg(c.args, 1)?) {
        Ok(mv) => s.engine.war_game().is_some_and(|g| g.check(color, mv).is_ok()),
        Err(e) if e == GtpError::illegal() => false,
        Err(e) => return Err(e),
    };
    text(if legal { "1" } else { "0" })
}

/// Every turn of the game, one per line: `B spy@D4`.
fn tengen_moves(s: &mut Session, _: &mut Call) -> Result<Reply, GtpError> {
    let Some(g) = s.engine.war_game() else { return text("") };
    let geo = g.position().geo;
    text(g.moves().map(|(c, m)| format!("{} {}", c.letter(), m.word(&geo))).collect::<Vec<_>>().join("\n"))
}

/// `tengen-legal_moves`: every legal move word of the side to move (soldiers, drops, moves, `pass`
/// last), one line; empty once the game is over.
fn legal_words(s: &mut Session, _: &mut Call) -> Result<Reply, GtpError> {
    let Some(g) = s.engine.war_game() else { return text("") };
    if g.is_over() {
        return text("");
    }
    let geo = g.position().geo;
    text(g.legal_moves(g.to_move()).iter().map(|m| m.word(&geo)).collect::<Vec<_>>().join(" "))
}

/// GoGui's board: `X` and `O` for every stone of a colour, `?` for a neutral piece.
fn rules_board(s: &mut Session, _: &mut Call) -> Result<Reply, GtpError> {
    let Some(g) = s.engine.war_game() else { return text("") };
    let rows: Vec<String> = g
        .position()
        .rows()
        .iter()
        .map(|r| {
            r.chars()
                .map(|ch| match Cell::from_letter(ch) {
                    Some(Cell::Stone(Color::Black, _)) => 'X',
                    Some(Cell::Stone(Color::White, _)) => 'O',
                    Some(Cell::Neutral(_)) => '?',
                    _ => '.',
                })
                .collect()
        })
        .collect();
    text(rows.join("\n"))
}

/// The soldier placements (vertices) legal for the side to move, and `pass`; empty once over.
fn rules_legal_moves(s: &mut Session, _: &mut Call) -> Result<Reply, GtpError> {
    let Some(g) = s.engine.war_game() else { return text("") };
    if g.is_over() {
        return text("");
    }
    let geo = g.position().geo;
    let color = g.to_move();
    let words: Vec<String> = geo
        .points()
        .filter(|&p| g.position().cell(p) == Cell::Empty && g.check(color, WarMove::Soldier(p)).is_ok())
        .map(|p| geo.vertex(p))
        .chain(["pass".to_string()])
        .collect();
    text(words.join(" "))
}

fn final_status_list(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let status = args::arg(c.args, 0)?.to_ascii_lowercase();
    if !matches!(status.as_str(), "alive" | "dead" | "seki") {
        return Err(GtpError::syntax());
    }
    let dead = s.engine.war_dead_stones();
    let Some(g) = s.engine.war_game() else { return text("") };
    let mut pos = g.position().clone();
    let geo = pos.geo;
    let mut seen = Vec::new();
    let mut lines = Vec::new();
    for p in geo.points() {
        if pos.cell(p).color().is_none() || seen.contains(&p) {
            continue;
        }
        let mut chain = pos.chain_at(p);
        seen.extend(&chain);
        let is_dead = dead.contains(&p);
        if (status == "dead") == is_dead && status != "seki" {
            chain.sort();
            lines.push(chain.iter().map(|&q| geo.vertex(q)).collect::<Vec<_>>().join(" "));
        }
    }
    text(lines.join("\n"))
}

fn printsgf(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    commands::answer_sgf(s.engine.war_record().to_sgf(), c)
}

fn loadsgf(s: &mut Session, c: &mut Call) -> Result<Reply, GtpError> {
    let file = args::arg(c.args, 0)?;
    let until = if c.args.len() > 1 { Some(args::int::<usize>(c.args, 1)?) } else { None };
    let cannot = |why: String| GtpError::new(format!("cannot load file: {why}"));
    let bytes = std::fs::read(file).map_err(|e| cannot(e.to_string()))?;
    let record = crate::sgf::GameRecord::parse_bytes(&bytes).map_err(|e| cannot(e.to_string()))?;
    s.engine.load_war_record(&record, until)?;
    text("")
}
