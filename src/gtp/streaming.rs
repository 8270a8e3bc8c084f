//! The commands that answer while they search:
//!
//! - `analyze`, `lz-analyze`, `kata-analyze`: `=id` on a line of its own at once, then one `info ...`
//!   line per interval (the first after one interval, 0.4 s at the latest) until ANY new input line
//!   arrives (or `# interrupt`, or the end of input); then the empty line that ends the response. The
//!   line that stopped the analysis stays in the queue and is answered normally.
//! - `genmove_analyze` and its `lz-`/`kata-` forms: the same lines while a normal move search runs
//!   (its usual limits: clock, `--time`, `--playouts`), then `play MOVE` and the empty line; new input
//!   does not stop it (Sabaki pipelines commands behind it), `# interrupt` does. The move is played.
//! - `genmove`, `reg_genmove`, `kgs-genmove_cleanup`: stop early on `# interrupt` with the best move so
//!   far, and draw GoGui's live graphics on stderr while they search when those are on.
//!
//! Output goes straight to the client and is flushed after every line, so a client sees each update as
//! it is made.

use super::analysis::{AnalyzeArgs, CandidateInfo, Dialect, Snapshot};
use super::args;
use super::gogui;
use super::input::Control;
use super::session::{Call, Reply, Session};
use super::GtpError;
use crate::board::{Color, Geometry};
use crate::engine::{Decision, MoveReports};
use crate::search::{Limits, SearchReport, ThinkRequest};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// How often GoGui's live graphics are redrawn during a search: about twice a second is smooth
/// enough to watch, and keeps stderr small (one block is a few hundred bytes).
pub const LIVE_GFX_EVERY: Duration = Duration::from_millis(500);

/// A candidate the search tried fewer times than this (the most visited one aside) is left out of
/// the analysis: its win rate is a handful of playouts' noise (a 3-visit move at 66.7%), and a
/// client shows every listed move with its win rate. KataGo's and Leela Zero's clients hide or shade
/// such moves. When `minmoves` asks for more candidates than are left, they are listed again, in
/// order, before the unvisited ones.
pub const MIN_SHOWN_VISITS: u32 = 10;

/// The GTP view of a search report, for `color` (the side the search was for), with at least
/// `min_moves` candidates where the report has them (`MIN_SHOWN_VISITS`).
pub fn snapshot(report: &SearchReport, color: Color, geo: &Geometry, min_moves: usize) -> Snapshot {
    let few = |i: usize, visits: u32| i > 0 && visits > 0 && visits < MIN_SHOWN_VISITS;
    let well_seen = report.candidates.iter().enumerate().filter(|&(i, c)| !few(i, c.visits)).count();
    let mut readmitted = min_moves.saturating_sub(well_seen);
    let mut candidates: Vec<CandidateInfo> = Vec::with_capacity(report.candidates.len());
    for (i, c) in report.candidates.iter().enumerate() {
        if few(i, c.visits) {
            if readmitted == 0 {
                continue;
            }
            readmitted -= 1;
        }
        let mv = c.mv.to_gtp(geo);
        // Stones' pass-like moves (return, stakes on several groups) are all `pass` in GTP: show the
        // best of them only, so that every candidate names a different move.
        if candidates.iter().any(|k| k.mv == mv) {
            continue;
        }
        candidates.push(CandidateInfo {
            mv,
            visits: u64::from(c.visits),
            winrate: c.winrate,
            prior: c.prior,
            lcb: c.lcb,
            score_lead: c.score_lead,
            pv: c.pv.iter().map(|m| m.to_gtp(geo)).collect(),
        });
    }
    Snapshot {
        color,
        size: geo.size,
        playouts: report.playouts,
        elapsed: report.elapsed,
        winrate: report.winrate,
        score_lead: report.score_lead,
        candidates,
        black_ownership: report.ownership.as_ref().map(|o| o.iter().map(|&v| f64::from(v)).collect()),
    }
}

/// Latest time of the first analysis update: a client sees the analysis start within half a second
/// whatever interval it asked for (Sabaki's default is 50 centiseconds).
pub const FIRST_UPDATE_BY: Duration = Duration::from_millis(400);

/// Granularity of the search's reports when the interval is longer than `FIRST_UPDATE_BY`.
const TICK: Duration = Duration::from_millis(50);

/// When analysis lines are due: the first one `min(interval, FIRST_UPDATE_BY)` after the start, then
/// one per interval after it (without drift: the schedule does not slip when a line is late).
struct Cadence {
    next: Instant,
    every: Duration,
    /// How often to ask the search for a report: the interval itself when the first update is due
    /// after one interval, else a fine tick from which the due reports are picked.
    tick: Duration,
}

impl Cadence {
    fn new(every: Duration) -> Cadence {
        let first = every.min(FIRST_UPDATE_BY);
        let tick = if every <= FIRST_UPDATE_BY { every } else { TICK };
        Cadence { next: Instant::now() + first, every, tick }
    }

    /// Is a line due now? Reports come every `tick`, so one half a tick early counts as on time.
    fn due(&mut self) -> bool {
        let now = Instant::now() + self.tick / 2;
        if now < self.next {
            return false;
        }
        while self.next <= now {
            self.next += self.every;
        }
        true
    }
}

/// Writes GoGui live graphics to stderr at most every `LIVE_GFX_EVERY`, each block in one write so
/// that nothing else on stderr lands inside it, and clears them before the command answers.
struct LiveGfx {
    on: bool,
    next: Instant,
    /// Something was drawn since the last clear.
    drawn: bool,
}

/// How long the answer waits after the clearing line. GoGui reads stderr and stdout on two threads
/// and draws a live graphics line only while the command is still running; its manual ("Live
/// Graphics") advises a `CLEAR` before the answer or a short pause, since Java cannot keep the two
/// streams in order. This pause gives its stderr thread a head start over the answer, so that the
/// clear is drawn, not dropped (dropped, the last drawing stays on the board while GoGui shows its
/// resignation or pass dialog). It costs nothing outside GoGui, and one pause per drawn search in it.
const CLEAR_LEAD: Duration = Duration::from_millis(20);

impl LiveGfx {
    fn new(on: bool) -> LiveGfx {
        LiveGfx { on, next: Instant::now() + LIVE_GFX_EVERY, drawn: false }
    }

    fn report(&mut self, report: &SearchReport, color: Color, geo: &Geometry) {
        let now = Instant::now();
        if !self.on || now < self.next {
            return;
        }
        self.next = now + LIVE_GFX_EVERY;
        if let Some(block) = gogui::live_block(&snapshot(report, color, geo, 0)) {
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(block.as_bytes()).and_then(|()| err.flush());
            self.drawn = true;
        }
    }

    /// Clears the drawing, flushed, before the command writes its answer (whatever the answer: a
    /// move, `pass`, `resign` or an error), so that it does not linger on GoGui's board. Nothing is
    /// written when nothing was drawn.
    fn finish(&mut self) {
        if std::mem::take(&mut self.drawn) {
            let mut err = std::io::stderr().lock();
            let _ = err.write_all(b"gogui-gfx: CLEAR\n").and_then(|()| err.flush());
            drop(err);
            std::thread::sleep(CLEAR_LEAD);
        }
    }
}

/// `analyze`, `lz-analyze`, `kata-analyze`.
pub fn analyze(s: &mut Session, c: &mut Call, dialect: Dialect) -> Result<Reply, GtpError> {
    let a = AnalyzeArgs::parse(c.args)?;
    let color = a.color.unwrap_or_else(|| s.engine.game().to_move());
    let geo = *s.engine.game().board().geometry();
    let want_ownership = a.ownership && dialect == Dialect::KataGo;
    let mut cadence = Cadence::new(a.interval());
    let request = ThinkRequest {
        limits: Limits::unlimited(),
        report_every: Some(cadence.tick),
        want_ownership,
        min_moves: a.min_moves,
        max_moves: a.max_moves,
    };
    let control = c.control;
    let out = &mut *c.out;
    // A client that stopped reading: end the search rather than think for nobody.
    let broken = AtomicBool::new(false);
    let written = |out: &mut dyn Write, text: &[u8]| {
        if out.write_all(text).and_then(|()| out.flush()).is_err() {
            broken.store(true, Ordering::Relaxed);
        }
    };
    written(out, format!("={}\n", c.id.unwrap_or("")).as_bytes());
    let stop = || control.should_stop() || broken.load(Ordering::Relaxed);
    let mut on_report = |r: &SearchReport| {
        // Once new input is waiting the analysis is over: no more lines, answer the input quickly.
        if stop() || !cadence.due() {
            return;
        }
        if let Some(line) = snapshot(r, color, &geo, a.min_moves).info_line(dialect, want_ownership) {
            written(out, format!("{line}\n").as_bytes());
        }
    };
    if let Err(e) = s.engine.think(color, &request, &stop, &mut on_report) {
        // The `=` is out already: an analysis of a finished game simply has no update.
        let _ = writeln!(std::io::stderr(), "tengen: no analysis: {e}");
    }
    written(out, b"\n");
    Ok(Reply::Streamed)
}

/// `genmove_analyze`, `lz-genmove_analyze`, `kata-genmove_analyze`.
pub fn genmove_analyze(s: &mut Session, c: &mut Call, dialect: Dialect) -> Result<Reply, GtpError> {
    let a = AnalyzeArgs::parse(c.args)?;
    let color = a.color.ok_or_else(GtpError::syntax)?;
    let geo = *s.engine.game().board().geometry();
    let want_ownership = a.ownership && dialect == Dialect::KataGo;
    // An explicit interval of 0: no update, only the move.
    let mut cadence = (a.interval_cs != Some(0)).then(|| Cadence::new(a.interval()));
    let reports = MoveReports {
        every: cadence.as_ref().map(|c| c.tick),
        want_ownership,
        min_moves: a.min_moves,
        max_moves: a.max_moves,
    };
    let control = c.control;
    let id = c.id.unwrap_or("").to_string();
    let out = &mut *c.out;
    let broken = AtomicBool::new(false);
    let mut header = false;
    let mut live = LiveGfx::new(s.live_gfx);
    let interrupted = interrupt_after_minimum(control);
    let stop = || interrupted() || broken.load(Ordering::Relaxed);
    let result = {
        let mut on_report = |r: &SearchReport| {
            let mut text = String::new();
            // The `=` waits for the search to start, so that a refused command (game over) can
            // still answer `?`.
            if !header {
                header = true;
                text.push_str(&format!("={id}\n"));
            }
            if cadence.as_mut().is_none_or(Cadence::due) {
                if let Some(line) = snapshot(r, color, &geo, a.min_moves).info_line(dialect, want_ownership) {
                    text.push_str(&line);
                    text.push('\n');
                }
            }
            if out.write_all(text.as_bytes()).and_then(|()| out.flush()).is_err() {
                broken.store(true, Ordering::Relaxed);
            }
            live.report(r, color, &geo);
        };
        s.engine.genmove_reporting(color, true, &reports, &stop, &mut on_report)
    };
    live.finish();
    let text = match result {
        Err(e) if !header => return Err(e.into()),
        Err(e) => {
            let _ = writeln!(std::io::stderr(), "tengen: genmove_analyze: {e}");
            "\n".to_string()
        }
        Ok(decision) => {
            log_move(s, color, decision, &geo);
            s.moved();
            let head = if header { String::new() } else { format!("={id}\n") };
            format!("{head}play {}\n\n", decision_text(decision, &geo))
        }
    };
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
    Ok(Reply::Streamed)
}

/// Search statistics of the move just chosen, on stderr only, on a line no client mistakes for a
/// response.
fn log_move(s: &Session, color: Color, decision: Decision, geo: &Geometry) {
    if let Some(report) = s.engine.last_report() {
        let name = match decision {
            Decision::Play(m) => m.describe(geo),
            Decision::Resign => "resign".into(),
        };
        let shift = s.engine.last_komi_shift();
        let komi = if shift != 0.0 { format!(" | dynamic komi {shift:+.1}") } else { String::new() };
        let _ =
            writeln!(std::io::stderr(), "tengen: {} {name} {}{komi}", color.letter(), summary(report, geo));
    }
}

/// One line of search statistics: playouts, rate, win rate, score, best line.
pub fn summary(r: &SearchReport, geo: &Geometry) -> String {
    let pv = r
        .best()
        .map(|b| b.pv.iter().map(|m| m.to_gtp(geo)).collect::<Vec<_>>().join(" "))
        .unwrap_or_default();
    format!(
        "| {} playouts in {:.2} s ({:.0}/s) | root visits {} | nodes {} | winrate {:.1}% | score {:+.1} | pv {}",
        r.playouts,
        r.elapsed.as_secs_f64(),
        r.playouts_per_sec(),
        r.root_visits,
        r.nodes,
        100.0 * r.winrate,
        r.score_lead,
        pv
    )
}

fn decision_text(d: Decision, geo: &Geometry) -> String {
    match d {
        Decision::Play(m) => m.to_gtp(geo),
        Decision::Resign => "resign".to_string(),
    }
}

/// Shortest search before `# interrupt` is obeyed by a move search: an interrupt that arrives at once
/// (GoGui sends it as soon as the user presses Escape) still gets a searched move, not the fallback
/// of a search that visited nothing (the pass-like move).
pub const MIN_SEARCH: Duration = Duration::from_millis(50);

/// The stop condition of a move search: `# interrupt`, once `MIN_SEARCH` has passed. Other input
/// waits for the answer, and so does the end of input: it behaves as `quit`, which comes after the
/// commands before it, so `echo genmove b | tengen gtp` searches as long as an open pipe would.
fn interrupt_after_minimum(control: &Control) -> impl Fn() -> bool + Sync + '_ {
    let started = Instant::now();
    move || control.interrupted() && started.elapsed() >= MIN_SEARCH
}

/// Which move-generating command: they differ in whether the move is played and in the cleanup rule.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum GenMove {
    /// `genmove`: searched and played.
    Play,
    /// `reg_genmove`: searched, not played.
    Suggest,
    /// `kgs-genmove_cleanup`: played, and no pass while dead opponent stones can be captured.
    Cleanup,
}

/// `genmove`, `reg_genmove`, `kgs-genmove_cleanup`: interrupted by `# interrupt` (answering the best
/// move so far), with live graphics on stderr when they are on.
pub fn genmove(s: &mut Session, c: &mut Call, kind: GenMove) -> Result<Reply, GtpError> {
    let color = args::color(c.args, 0)?;
    let geo = *s.engine.game().board().geometry();
    let control = c.control;
    let stop = interrupt_after_minimum(control);
    let mut live = LiveGfx::new(s.live_gfx);
    let reports = MoveReports { every: live.on.then_some(LIVE_GFX_EVERY), ..MoveReports::default() };
    let decision = {
        let mut on_report = |r: &SearchReport| live.report(r, color, &geo);
        match kind {
            GenMove::Play => s.engine.genmove_reporting(color, true, &reports, &stop, &mut on_report),
            GenMove::Suggest => s.engine.genmove_reporting(color, false, &reports, &stop, &mut on_report),
            GenMove::Cleanup => s.engine.genmove_cleanup(color, &stop, &mut on_report),
        }
    };
    live.finish();
    let decision = decision?;
    log_move(s, color, decision, &geo);
    if kind != GenMove::Suggest {
        s.moved();
    }
    Ok(Reply::Text(decision_text(decision, &geo)))
}

/// The search behind GoGui's gfx analysis commands: the position searched for `color` with the
/// normal move limits (interruptible, live graphics meanwhile), remembered so that asking for the
/// win rates, then the variation, then the ownership of one position costs one search.
pub fn searched(s: &mut Session, c: &mut Call) -> Result<Snapshot, GtpError> {
    let color = match c.args.first() {
        Some(_) => args::color(c.args, 0)?,
        None => s.engine.game().to_move(),
    };
    let key = s.engine.root_key(color);
    if let Some((k, snap)) = &s.gfx_cache {
        if *k == key {
            return Ok(snap.clone());
        }
    }
    let geo = *s.engine.game().board().geometry();
    let control = c.control;
    let stop = interrupt_after_minimum(control);
    let mut live = LiveGfx::new(s.live_gfx);
    let reports = MoveReports {
        every: live.on.then_some(LIVE_GFX_EVERY),
        want_ownership: true,
        ..MoveReports::default()
    };
    let searched = {
        let mut on_report = |r: &SearchReport| live.report(r, color, &geo);
        s.engine.genmove_reporting(color, false, &reports, &stop, &mut on_report)
    };
    live.finish();
    searched?;
    let report = s.engine.last_report().ok_or_else(|| GtpError::new("no search"))?;
    let snap = snapshot(report, color, &geo, 0);
    // An interrupted search is shown but not remembered: asking again searches in full.
    if !control.interrupted() {
        s.gfx_cache = Some((key, snap.clone()));
    }
    Ok(snap)
}

/// Pondering: after the engine's own move, the position is searched for the opponent until the next
/// input line arrives (or `# interrupt`, or the end of input). The engine keeps the tree, so the
/// search of the engine's next move starts from the subtree of the reply actually played (tree
/// reuse), with the visits pondering gave it. Nothing goes to stdout; the live graphics, when on,
/// show what the engine expects.
pub fn ponder(s: &mut Session, control: &Control) {
    let color = s.engine.game().to_move();
    let geo = *s.engine.game().board().geometry();
    let mut live = LiveGfx::new(s.live_gfx);
    let mut request = ThinkRequest::new(Limits::unlimited());
    request.report_every = live.on.then_some(LIVE_GFX_EVERY);
    let stop = || control.should_stop();
    let result = {
        let mut on_report = |r: &SearchReport| live.report(r, color, &geo);
        s.engine.ponder(color, &request, &stop, &mut on_report)
    };
    live.finish();
    if let Ok(report) = result {
        let _ = writeln!(
            std::io::stderr(),
            "tengen: pondered {} playouts for {color} in {:.2} s",
            report.playouts,
            report.elapsed.as_secs_f64()
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_intervals_are_reported_as_asked_and_long_ones_from_a_finer_tick() {
        let c = Cadence::new(Duration::from_millis(100));
        assert_eq!((c.tick, c.every), (Duration::from_millis(100), Duration::from_millis(100)));
        let c = Cadence::new(Duration::from_secs(2));
        assert_eq!((c.tick, c.every), (TICK, Duration::from_secs(2)));
        // The first line is due by FIRST_UPDATE_BY at the latest.
        assert!(c.next <= Instant::now() + FIRST_UPDATE_BY);
    }

    #[test]
    fn a_handful_of_visits_is_not_shown_with_a_win_rate() {
        use crate::rules::Move;
        use crate::search::Candidate;
        let geo = Geometry::new(9);
        let cand = |v: &str, visits: u32, winrate: f64| {
            let mv = Move::Place(geo.parse_vertex(v).unwrap());
            Candidate { mv, visits, winrate, prior: 0.1, lcb: 0.0, score_lead: 0.0, pv: vec![mv] }
        };
        let report = |candidates: Vec<Candidate>| SearchReport {
            playouts: 0,
            playout_moves: 0,
            root_visits: 0,
            nodes: 0,
            tree_slots: 0,
            elapsed: Duration::ZERO,
            winrate: 0.5,
            score_lead: 0.0,
            candidates,
            ownership: None,
            neutral: None,
        };
        let shown = |r: &SearchReport| -> Vec<String> {
            snapshot(r, Color::Black, &geo, 0).candidates.into_iter().map(|c| c.mv).collect()
        };
        // A 3-visit move at 66.7% is noise; an unvisited one that `minmoves` asked for is listed by
        // prior, without a win rate of its own.
        let r = report(vec![
            cand("E5", 400, 0.52),
            cand("C3", MIN_SHOWN_VISITS, 0.5),
            cand("G2", 3, 0.667),
            cand("D4", 0, 0.5),
        ]);
        assert_eq!(shown(&r), ["E5", "C3", "D4"]);
        // The most visited move is always shown, however young the search.
        assert_eq!(shown(&report(vec![cand("E5", 2, 0.5), cand("C3", 1, 1.0)])), ["E5"]);
        // `minmoves` 4 brings the 3-visit move back, before the unvisited one.
        let four: Vec<String> =
            snapshot(&r, Color::Black, &geo, 4).candidates.into_iter().map(|c| c.mv).collect();
        assert_eq!(four, ["E5", "C3", "G2", "D4"]);
    }
}
