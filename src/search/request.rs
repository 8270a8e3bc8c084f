//! What a caller asks of one search: when to stop, how often to report, what to report.

use std::time::Duration;

/// Thinking time: a target the search aims for (it may stop earlier when the best move cannot change,
/// or go a little past it when the best move is unclear) and a hard limit it never passes.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub struct TimeLimit {
    pub target: Duration,
    pub limit: Duration,
}

impl TimeLimit {
    /// Exactly `d`: the target is the limit.
    pub fn fixed(d: Duration) -> TimeLimit {
        TimeLimit { target: d, limit: d }
    }
}

/// When a search stops (whichever comes first). No limit at all: it runs until `stop` says so
/// (analysis).
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Limits {
    /// Visits of the root, counting those a reused tree already had (like Leela Zero's visits): a
    /// second search of the same position with the same limit adds nothing and answers the same.
    pub playouts: Option<u64>,
    pub time: Option<TimeLimit>,
    /// Stop as soon as the most visited move cannot be overtaken within the limits left. Off for
    /// analysis, which wants every candidate's figures to keep improving.
    pub early_stop: bool,
}

impl Limits {
    /// No limit: the search runs until stopped.
    pub fn unlimited() -> Limits {
        Limits::default()
    }

    pub fn playouts(n: u64) -> Limits {
        Limits { playouts: Some(n), time: None, early_stop: true }
    }

    pub fn time(d: Duration) -> Limits {
        Limits { playouts: None, time: Some(TimeLimit::fixed(d)), early_stop: true }
    }

    pub fn is_unlimited(&self) -> bool {
        self.playouts.is_none() && self.time.is_none()
    }
}

/// One request to think about a position.
#[derive(Clone, PartialEq, Debug)]
pub struct ThinkRequest {
    pub limits: Limits,
    /// Call the report callback this often while searching (`None`: only the final report).
    pub report_every: Option<Duration>,
    /// Fill `SearchReport::ownership`.
    pub want_ownership: bool,
    /// Report at least this many candidates (unvisited ones by prior), as lz-analyze's `minmoves`.
    pub min_moves: usize,
    /// Report at most this many candidates (`None`: all visited ones), as lz-analyze's `maxmoves`.
    pub max_moves: Option<usize>,
}

impl ThinkRequest {
    pub fn new(limits: Limits) -> ThinkRequest {
        ThinkRequest { limits, report_every: None, want_ownership: false, min_moves: 0, max_moves: None }
    }
}

impl Default for ThinkRequest {
    fn default() -> Self {
        ThinkRequest::new(Limits::unlimited())
    }
}
