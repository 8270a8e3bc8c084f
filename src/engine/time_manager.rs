//! How long to think about one move, from the clock the controller described.
//!
//! The budget has two parts: a *target* the search aims for (it may stop earlier when the best move
//! cannot change) and a hard *limit* it never passes. The limit keeps the lag margin in reserve for
//! every move still to be made within the current period, so the engine cannot lose on time as long
//! as the controller's clock and ours agree within that margin.

use super::clock::{duration_from_secs, Clock, TimeSystem};
use crate::board::Color;
use std::time::Duration;

/// The thinking time for one move.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct MoveBudget {
    pub target: Duration,
    pub limit: Duration,
}

/// Moves `color` can still expect to play: about half the board's points are played over a game,
/// split between the players, and never fewer than a floor, so main time is never spent too early.
fn moves_left(size: usize, ply: u32) -> f64 {
    let points = (size * size) as f64;
    let expected_game = 0.75 * points;
    let floor = (points / 12.0).max(8.0);
    ((expected_game - ply as f64) / 2.0).max(floor)
}

/// Spend more in the middle game: a weight from 0.6 (opening) up to 1.3 and back down.
fn phase_weight(size: usize, ply: u32) -> f64 {
    let progress = ply as f64 / (0.6 * (size * size) as f64);
    if progress < 0.15 {
        0.6 + 0.7 * progress / 0.15
    } else if progress < 0.7 {
        1.3
    } else {
        (1.3 - (progress - 0.7)).max(0.7)
    }
}

/// The budget for `color`'s next move, or `None` when the clock sets no limit.
pub fn budget(clock: &Clock, color: Color, size: usize, ply: u32, lag: Duration) -> Option<MoveBudget> {
    let left = clock.left[color];
    let lag = lag.as_secs_f64();
    // Below this we answer at once: the search still returns its best move so far.
    let minimum = 0.01;
    let (target, limit) = match clock.system {
        TimeSystem::None => return None,
        TimeSystem::Absolute { .. } => {
            let usable = (left.seconds - lag).max(0.0);
            let target = usable / moves_left(size, ply) * phase_weight(size, ply);
            (target, usable * 0.25)
        }
        TimeSystem::Canadian { period, stones, .. } => {
            if left.overtime {
                // `count` stones must still be played in `seconds`: keep a lag margin for each of them.
                let n = left.count.max(1) as f64;
                let per_move = (left.seconds - lag * n).max(0.0) / n;
                (per_move * 0.9, per_move)
            } else {
                let main = (left.seconds - lag).max(0.0);
                let overtime_share = (period - lag * stones as f64).max(0.0) / stones.max(1) as f64;
                let target = main / moves_left(size, ply) * phase_weight(size, ply) + 0.5 * overtime_share;
                (target, main * 0.25 + overtime_share)
            }
        }
        TimeSystem::Byoyomi { period, .. } => {
            let per_period = (period - lag).max(0.0);
            if left.overtime {
                (per_period * 0.85, per_period)
            } else {
                let main = (left.seconds - lag).max(0.0);
                let target = main / moves_left(size, ply) * phase_weight(size, ply) + 0.5 * per_period;
                (target, main * 0.25 + per_period)
            }
        }
    };
    let limit = limit.max(minimum);
    Some(MoveBudget {
        target: duration_from_secs(target.clamp(minimum, limit)),
        limit: duration_from_secs(limit),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(system: TimeSystem) -> Clock {
        let mut c = Clock::default();
        c.set(system);
        c
    }

    #[test]
    fn no_clock_no_budget() {
        assert_eq!(budget(&Clock::default(), Color::Black, 19, 0, Duration::ZERO), None);
    }

    #[test]
    fn one_second_per_move_keeps_the_lag_margin() {
        // `time_settings 0 1 1`: one stone per one-second period.
        let c = clock(Clock::from_gtp(0.0, 1.0, 1));
        let b = budget(&c, Color::White, 9, 10, Duration::from_millis(300)).unwrap();
        assert!(b.limit <= Duration::from_millis(700), "{b:?}");
        assert!(b.target <= b.limit);
    }

    #[test]
    fn canadian_overtime_divides_by_stones_left() {
        let mut c = clock(Clock::from_gtp(0.0, 60.0, 10));
        c.time_left(Color::Black, 30.0, 5);
        let b = budget(&c, Color::Black, 19, 100, Duration::from_millis(500)).unwrap();
        // 30 s for 5 stones, half a second of margin each: at most 5.5 s.
        assert!(b.limit <= Duration::from_secs_f64(5.5) && b.limit >= Duration::from_secs(5), "{b:?}");
    }

    #[test]
    fn absolute_time_is_spread_over_the_game_and_peaks_mid_game() {
        let c = clock(TimeSystem::Absolute { main: 600.0 });
        let lag = Duration::from_millis(300);
        let opening = budget(&c, Color::Black, 19, 2, lag).unwrap().target;
        let middle = budget(&c, Color::Black, 19, 120, lag).unwrap().target;
        assert!(middle > opening);
        assert!(middle < Duration::from_secs(30));
        let mut low = c.clone();
        low.time_left(Color::Black, 0.2, 0);
        let b = budget(&low, Color::Black, 19, 200, lag).unwrap();
        assert!(b.limit <= Duration::from_millis(10));
    }
}
