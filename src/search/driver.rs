//! Running a search: start the workers, watch the clock and the caller's stop signal, report at the
//! requested interval, stop early when the best move cannot change, and build the final report.

use super::amaf_batch::BATCH_FROM_VISITS;
use super::report::{self, OwnerCounts, SearchReport};
use super::request::ThinkRequest;
use super::tree::{Tree, Writers, ROOT};
use super::worker::{Shared, Worker};
use super::{config::SearchConfig, history_key, SearchInput};
use crate::playout::Simulate;
use crate::rules::Rules;
use crossbeam_utils::CachePadded;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering::*};
use std::time::{Duration, Instant};

/// Longest sleep of the supervising thread between two looks at the stop signal and the clock: a new
/// GTP line stops a search within about this long (plus one playout).
const POLL: Duration = Duration::from_millis(5);

/// Playouts a time-limited search runs whatever its clock says: with none, a budget of a few
/// milliseconds (or `--time 0.001`, or a clock all but run out) answered from an unexpanded root,
/// which is a pass on an empty board. This many cost about 2 ms on 19x19 with heavy playouts.
const MIN_TIMED_PLAYOUTS: u32 = 32;

/// Searches `input.root` in `tree` (which may hold a reused subtree) until the request's limits or
/// `stop` end it, calling `on_report` from this thread every `request.report_every`. The tree is
/// held exclusively while the search runs, so that a one-thread search's worker is the only
/// thread that writes it (see `Shared::writers`).
pub fn search<R: Simulate>(
    input: &SearchInput<'_, R>,
    tree: &mut Tree,
    config: &SearchConfig,
    request: &ThinkRequest,
    stop: &(dyn Fn() -> bool + Sync),
    on_report: &mut dyn FnMut(&SearchReport),
) -> SearchReport {
    let began = Instant::now();
    let root = input.root;
    let geo = *root.board.geometry();
    let cells = geo.cells();
    tree.fit_board(cells);
    let tree: &Tree = tree;
    let repetition = input.rules.repetition();
    let mut history: Vec<u64> = input.history.iter().map(|&(h, c)| history_key(repetition, h, c)).collect();
    history.sort_unstable();
    let limits = request.limits;
    let timed_floor = tree.visits(ROOT).saturating_add(MIN_TIMED_PLAYOUTS);
    // A root without children gets at least the one playout that expands it, so there are
    // candidates to report.
    let floor = if tree.children(ROOT).is_empty() { 1 } else { 0 };
    let tickets = limits.playouts.map(|n| n.saturating_sub(tree.visits(ROOT) as u64).max(floor));
    let threads = config.threads.max(1);
    let shared = Shared {
        input,
        tree,
        config,
        history,
        repetition,
        tickets,
        early_stop: limits.early_stop,
        writers: Writers::of(threads),
        batch_amaf_from: if threads > 1 { BATCH_FROM_VISITS } else { u32::MAX },
        owner_sum: (0..cells).map(|_| AtomicI64::new(0)).collect(),
        neutral: (0..cells).map(|_| AtomicU64::new(0)).collect(),
        supervisor: std::thread::current(),
        stop: CachePadded::new(AtomicBool::new(false)),
        claimed: CachePadded::new(AtomicU64::new(0)),
        done: CachePadded::new(AtomicU64::new(0)),
        playout_moves: CachePadded::new(AtomicU64::new(0)),
        owned: CachePadded::new(AtomicU64::new(0)),
        running: CachePadded::new(AtomicUsize::new(threads)),
    };
    let snapshot = |shared: &Shared<'_, R>| {
        let sum: Vec<i64> = shared.owner_sum.iter().map(|a| a.load(Relaxed)).collect();
        let neutral: Vec<u64> = shared.neutral.iter().map(|a| a.load(Relaxed)).collect();
        let counts = OwnerCounts { sum: &sum, neutral: &neutral, playouts: shared.owned.load(Relaxed) };
        report::build(
            tree,
            &geo,
            root.to_move,
            request,
            (shared.done.load(Relaxed), shared.playout_moves.load(Relaxed)),
            input.started.elapsed(),
            Some(counts),
        )
    };
    if tickets == Some(0) || root.is_over() {
        return snapshot(&shared);
    }
    if threads > 1 {
        // A worker of its own, dropped at once: the threads' loop stays one closure, which the
        // compiler inlines the whole iteration into (handing the first thread this worker cost
        // 0.6% more instructions per iteration, measured with callgrind).
        Worker::new(&shared, 0).expand_root();
    }
    std::thread::scope(|scope| {
        for t in 0..threads {
            let shared = &shared;
            scope.spawn(move || Worker::new(shared, t).run());
        }
        let mut next_report = request.report_every.map(|d| began + d);
        // A search without limits (analysis, pondering) runs until the caller stops it: when the
        // workers stop at `MAX_VISITS`, it goes on reporting the finished tree until then.
        let open_ended = limits.time.is_none() && tickets.is_none();
        while (open_ended || shared.running.load(Acquire) > 0) && !shared.stop.load(Relaxed) {
            if stop() || time_is_up(&shared, input.started, began, &limits, timed_floor) {
                shared.stop.store(true, Relaxed);
                break;
            }
            let now = Instant::now();
            let mut wait = POLL;
            if let (Some(at), Some(every)) = (next_report, request.report_every) {
                if now >= at {
                    on_report(&snapshot(&shared));
                    next_report = Some(at + every);
                    wait = wait.min((at + every).saturating_duration_since(Instant::now()));
                } else {
                    wait = wait.min(at - now);
                }
            }
            if let Some(t) = limits.time {
                wait = wait.min((input.started + t.limit).saturating_duration_since(now));
            }
            // Workers wake us when the last of them stops; otherwise we look again after `wait`.
            std::thread::park_timeout(wait.max(Duration::from_micros(100)));
        }
        shared.stop.store(true, Relaxed);
    });
    snapshot(&shared)
}

/// Should a time-limited search stop now? Never before the root has `floor` visits
/// ([`MIN_TIMED_PLAYOUTS`] more than it started with); then at the hard limit always; at the target
/// unless the best move is unclear (then up to twice the target, within the limit); before the
/// target when the most visited move cannot be overtaken at the current rate (if early stops are
/// allowed).
fn time_is_up<R: Rules + Simulate>(
    shared: &Shared<'_, R>,
    started: Instant,
    began: Instant,
    limits: &super::Limits,
    floor: u32,
) -> bool {
    let Some(t) = limits.time else { return false };
    if shared.tree.visits(ROOT) < floor && shared.running.load(Acquire) > 0 {
        return false;
    }
    let elapsed = started.elapsed();
    if elapsed >= t.limit {
        return true;
    }
    if elapsed >= t.target {
        return !unclear(shared.tree) || elapsed >= (t.target * 2).min(t.limit);
    }
    if limits.early_stop {
        let done = shared.done.load(Relaxed);
        let searched = began.elapsed().as_secs_f64();
        if done >= 64 && searched > 0.0 {
            let rate = done as f64 / searched;
            let left = (t.target - elapsed).as_secs_f64() * rate;
            let left = match shared.tickets {
                Some(max) => left.min(max.saturating_sub(done) as f64),
                None => left,
            };
            return super::early_stop::cannot_be_overtaken(shared.root_lead(), left);
        }
    }
    false
}

/// Is the choice unclear: does the runner-up have a better win rate and nearly as many visits?
fn unclear(tree: &Tree) -> bool {
    let mut kids: Vec<(u32, f64)> = tree.children(ROOT).map(|c| (tree.visits(c), tree.winrate(c))).collect();
    kids.sort_by_key(|k| std::cmp::Reverse(k.0));
    match kids.as_slice() {
        [(v1, w1), (v2, w2), ..] => *w2 > *w1 + 0.02 && (*v2 as f64) > 0.5 * (*v1 as f64),
        _ => false,
    }
}
