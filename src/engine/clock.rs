//! Game clocks as GTP and KGS describe them: what the controller told us, per colour.

use crate::board::{ByColor, Color};
use std::time::Duration;

/// The longest time any clock value stands for: about three years. Controllers may send any number
/// (`time_settings 1e300 0 0` is well-formed GTP), and `Instant + Duration` panics on overflow, so
/// every seconds value becomes a `Duration` through [`duration_from_secs`].
pub const MAX_SECONDS: f64 = 1e8;

/// Seconds as a `Duration`, saturating: NaN and negatives are zero, and anything beyond
/// `MAX_SECONDS` is that much.
pub fn duration_from_secs(secs: f64) -> Duration {
    Duration::from_secs_f64(clamp_secs(secs))
}

/// A seconds value within `0..=MAX_SECONDS` (NaN is zero), so sums and differences of clock values
/// stay finite.
fn clamp_secs(secs: f64) -> f64 {
    if secs.is_nan() {
        0.0
    } else {
        secs.clamp(0.0, MAX_SECONDS)
    }
}

/// A time system (GTP `time_settings`, KGS `kgs-time_settings`).
#[derive(Copy, Clone, PartialEq, Debug, Default)]
pub enum TimeSystem {
    /// No limit.
    #[default]
    None,
    /// Main time only.
    Absolute { main: f64 },
    /// Main time, then `stones` moves in each `period` seconds.
    Canadian { main: f64, period: f64, stones: u32 },
    /// Main time, then `periods` periods of `period` seconds, one move each.
    Byoyomi { main: f64, period: f64, periods: u32 },
}

/// The time left for one colour, as the last `time_left` reported it (or the start of the game).
#[derive(Copy, Clone, PartialEq, Debug, Default)]
pub struct TimeLeft {
    pub seconds: f64,
    /// Canadian: stones left in the period (0 while in main time); byo-yomi: periods left.
    pub count: u32,
    /// Are we in the overtime part (byo-yomi or the Canadian period)?
    pub overtime: bool,
}

/// The clock state the engine keeps between commands.
#[derive(Clone, PartialEq, Debug, Default)]
pub struct Clock {
    pub system: TimeSystem,
    pub left: ByColor<TimeLeft>,
}

impl Clock {
    /// Sets the system and resets both colours to its start.
    pub fn set(&mut self, system: TimeSystem) {
        self.system = match system {
            TimeSystem::None => TimeSystem::None,
            TimeSystem::Absolute { main } => TimeSystem::Absolute { main: clamp_secs(main) },
            TimeSystem::Canadian { main, period, stones } => {
                TimeSystem::Canadian { main: clamp_secs(main), period: clamp_secs(period), stones }
            }
            TimeSystem::Byoyomi { main, period, periods } => {
                TimeSystem::Byoyomi { main: clamp_secs(main), period: clamp_secs(period), periods }
            }
        };
        self.reset();
    }

    /// Both colours back to the start of the time system (a new game).
    pub fn reset(&mut self) {
        let start = match self.system {
            TimeSystem::None => TimeLeft::default(),
            TimeSystem::Absolute { main } => TimeLeft { seconds: main, count: 0, overtime: false },
            TimeSystem::Canadian { main, period, stones } => {
                if main > 0.0 {
                    TimeLeft { seconds: main, count: 0, overtime: false }
                } else {
                    TimeLeft { seconds: period, count: stones, overtime: true }
                }
            }
            TimeSystem::Byoyomi { main, period, periods } => {
                if main > 0.0 {
                    TimeLeft { seconds: main, count: periods, overtime: false }
                } else {
                    TimeLeft { seconds: period, count: periods, overtime: true }
                }
            }
        };
        self.left = ByColor::new(start, start);
    }

    /// GTP `time_settings M B S`: `B > 0, S = 0` means no limit (GTP spec); `B = 0` is absolute time.
    pub fn from_gtp(main: f64, byo: f64, stones: u32) -> TimeSystem {
        if byo > 0.0 && stones == 0 {
            TimeSystem::None
        } else if byo <= 0.0 {
            if main <= 0.0 {
                TimeSystem::None
            } else {
                TimeSystem::Absolute { main }
            }
        } else {
            TimeSystem::Canadian { main, period: byo, stones }
        }
    }

    /// GTP `time_left C T S`: `S = 0` means main time (or absolute), otherwise stones/periods left.
    pub fn time_left(&mut self, color: Color, seconds: f64, count: u32) {
        self.left[color] = TimeLeft { seconds: clamp_secs(seconds), count, overtime: count > 0 };
    }

    /// Charges `elapsed` to `color` for a move just made, as the controller's clock would: the engine
    /// does so for its own moves, so that a controller that never sends `time_left` still finds us
    /// within our time (the next `time_left` replaces this estimate), and a match referee does so
    /// for both players. False when the move overran the clock (the flag fell): absolute time
    /// exceeded, a Canadian period's time exceeded, or the last byo-yomi period overrun. The clock
    /// is then left at its nearest legal state (no time, or the last period).
    pub fn spend(&mut self, color: Color, elapsed: Duration) -> bool {
        let mut e = elapsed.as_secs_f64();
        let left = &mut self.left[color];
        match self.system {
            TimeSystem::None => true,
            TimeSystem::Absolute { .. } => {
                let rest = left.seconds - e;
                left.seconds = rest.max(0.0);
                rest >= 0.0
            }
            TimeSystem::Canadian { period, stones, .. } => {
                if !left.overtime {
                    let rest = left.seconds - e;
                    if rest >= 0.0 {
                        left.seconds = rest;
                        return true;
                    }
                    // Main time ran out during this move: the rest came out of the first period.
                    *left = TimeLeft { seconds: period, count: stones.max(1), overtime: true };
                    e = -rest;
                }
                let rest = left.seconds - e;
                left.seconds = rest.max(0.0);
                left.count = left.count.saturating_sub(1);
                if left.count == 0 {
                    // The period's stones are played: a new period starts.
                    *left = TimeLeft { seconds: period, count: stones.max(1), overtime: true };
                }
                rest >= 0.0
            }
            TimeSystem::Byoyomi { period, periods, .. } => {
                if !left.overtime {
                    let rest = left.seconds - e;
                    if rest >= 0.0 {
                        left.seconds = rest;
                        return true;
                    }
                    *left = TimeLeft { seconds: period, count: periods, overtime: true };
                    e = -rest;
                }
                // A move inside the period keeps it; each whole period overrun costs one, and
                // overrunning the last loses.
                // A move of exactly one period is still within it, as `rest >= 0` is elsewhere.
                let overrun = if period > 0.0 { ((e / period).ceil() - 1.0).max(0.0) } else { f64::INFINITY };
                let alive = overrun < left.count as f64;
                left.count = if alive { left.count - overrun as u32 } else { 1 };
                left.seconds = period;
                alive
            }
        }
    }

    /// What a controller's `time_left` says of `color`'s clock: seconds left and, in overtime, the
    /// stones left in the Canadian period or the byo-yomi periods left (0 in main time, as GTP has
    /// it). In byo-yomi the seconds are the period's, since each move starts a fresh one.
    pub fn time_left_of(&self, color: Color) -> (f64, u32) {
        let left = self.left[color];
        match self.system {
            TimeSystem::None => (0.0, 0),
            _ if !left.overtime => (left.seconds, 0),
            _ => (left.seconds, left.count.max(1)),
        }
    }

    /// How long `color`'s next move may take before its flag falls, as a referee counts it: all the
    /// time left, overtime included (byo-yomi: every period left; Canadian: the whole first period
    /// after main time). `None` when unlimited. Unlike [`Clock::hard_limit`], which is what the
    /// engine allows itself for one move, this is what the rules allow.
    pub fn flag_limit(&self, color: Color) -> Option<Duration> {
        let left = self.left[color];
        let secs = match self.system {
            TimeSystem::None => return None,
            TimeSystem::Absolute { .. } => left.seconds,
            TimeSystem::Canadian { period, .. } => {
                if left.overtime {
                    left.seconds
                } else {
                    left.seconds + period
                }
            }
            TimeSystem::Byoyomi { period, periods, .. } => {
                if left.overtime {
                    period * left.count as f64
                } else {
                    left.seconds + period * periods as f64
                }
            }
        };
        Some(duration_from_secs(secs))
    }

    /// How long `color` may think about the next move at most, before any allocation policy: the
    /// time that must not be exceeded to stay alive on the clock. `None` when unlimited.
    pub fn hard_limit(&self, color: Color) -> Option<Duration> {
        let left = self.left[color];
        let secs = match self.system {
            TimeSystem::None => return None,
            TimeSystem::Absolute { .. } => left.seconds,
            TimeSystem::Canadian { period, stones, .. } => {
                if left.overtime {
                    left.seconds / left.count.max(1) as f64
                } else {
                    left.seconds + period / stones.max(1) as f64
                }
            }
            TimeSystem::Byoyomi { period, .. } => {
                if left.overtime {
                    period
                } else {
                    left.seconds + period
                }
            }
        };
        Some(duration_from_secs(secs))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_time_settings_follow_the_spec() {
        assert_eq!(Clock::from_gtp(0.0, 1.0, 0), TimeSystem::None);
        assert_eq!(Clock::from_gtp(300.0, 0.0, 0), TimeSystem::Absolute { main: 300.0 });
        assert_eq!(Clock::from_gtp(0.0, 1.0, 1), TimeSystem::Canadian { main: 0.0, period: 1.0, stones: 1 });
        let mut c = Clock::default();
        c.set(Clock::from_gtp(0.0, 10.0, 5));
        assert_eq!(c.hard_limit(Color::Black), Some(Duration::from_secs(2)));
        c.time_left(Color::Black, 3.0, 1);
        assert_eq!(c.hard_limit(Color::Black), Some(Duration::from_secs(3)));
    }

    #[test]
    fn spending_follows_the_controllers_clock() {
        let mut c = Clock::default();
        c.set(TimeSystem::Absolute { main: 10.0 });
        c.spend(Color::White, Duration::from_secs(3));
        assert_eq!(c.left.white.seconds, 7.0);
        assert_eq!(c.left.black.seconds, 10.0);
        // Canadian 5 s main, then 3 stones in 6 s: main runs out inside a move, then periods restart.
        c.set(TimeSystem::Canadian { main: 5.0, period: 6.0, stones: 3 });
        c.spend(Color::Black, Duration::from_secs(4));
        assert_eq!((c.left.black.seconds, c.left.black.overtime), (1.0, false));
        c.spend(Color::Black, Duration::from_secs(2));
        assert_eq!((c.left.black.seconds, c.left.black.count, c.left.black.overtime), (5.0, 2, true));
        c.spend(Color::Black, Duration::from_secs(1));
        c.spend(Color::Black, Duration::from_secs(1));
        assert_eq!((c.left.black.seconds, c.left.black.count), (6.0, 3));
        // Byo-yomi: overrunning a period costs one.
        c.set(TimeSystem::Byoyomi { main: 0.0, period: 2.0, periods: 3 });
        c.spend(Color::White, Duration::from_secs(1));
        assert_eq!(c.left.white.count, 3);
        c.spend(Color::White, Duration::from_secs(3));
        assert_eq!((c.left.white.seconds, c.left.white.count), (2.0, 2));
    }

    #[test]
    fn the_flag_falls_where_each_system_says() {
        let s = Duration::from_secs_f64;
        let mut c = Clock::default();
        // Absolute: exactly the time left is still in time, a moment more is not.
        c.set(TimeSystem::Absolute { main: 10.0 });
        assert!(c.spend(Color::Black, s(10.0)));
        assert_eq!(c.time_left_of(Color::Black), (0.0, 0));
        assert!(!c.spend(Color::Black, s(0.001)));
        // Canadian 5 + 4 s for 2 stones: main time runs into the period, whose time is shared by its
        // stones; a period overrun loses.
        c.set(TimeSystem::Canadian { main: 5.0, period: 4.0, stones: 2 });
        assert!(c.spend(Color::White, s(6.0)));
        assert_eq!(c.time_left_of(Color::White), (3.0, 1));
        assert!(!c.spend(Color::White, s(3.5)));
        // Byo-yomi 0 + 2 s x 3: a move within the period keeps it, each whole overrun costs one
        // period, and overrunning the last loses.
        c.set(TimeSystem::Byoyomi { main: 1.0, period: 2.0, periods: 3 });
        assert_eq!(c.time_left_of(Color::Black), (1.0, 0));
        assert!(c.spend(Color::Black, s(2.5)));
        assert_eq!(c.time_left_of(Color::Black), (2.0, 3));
        assert!(c.spend(Color::Black, s(4.5)));
        assert_eq!(c.time_left_of(Color::Black), (2.0, 1));
        assert!(c.spend(Color::Black, s(1.9)));
        assert!(!c.spend(Color::Black, s(2.1)));
        // No clock: nothing ever runs out.
        c.set(TimeSystem::None);
        assert!(c.spend(Color::Black, s(1e6)));
    }

    #[test]
    fn the_flag_limit_is_exactly_where_spending_fails() {
        let s = Duration::from_secs_f64;
        let mut states = Vec::new();
        for system in [
            TimeSystem::Absolute { main: 10.0 },
            TimeSystem::Canadian { main: 5.0, period: 20.0, stones: 4 },
            TimeSystem::Canadian { main: 0.0, period: 20.0, stones: 4 },
            TimeSystem::Byoyomi { main: 5.0, period: 2.0, periods: 3 },
            TimeSystem::Byoyomi { main: 0.0, period: 2.0, periods: 3 },
        ] {
            let mut c = Clock::default();
            c.set(system);
            states.push(c.clone());
            // And one move later, into or further along the overtime.
            c.spend(Color::Black, s(6.0));
            states.push(c);
        }
        for c in states {
            let limit = c.flag_limit(Color::Black).unwrap();
            // The engine allows itself less than the rules do, never more.
            assert!(c.hard_limit(Color::Black).unwrap() <= limit, "{c:?}");
            assert!(c.clone().spend(Color::Black, limit), "{c:?} at {limit:?}");
            assert!(!c.clone().spend(Color::Black, limit + s(0.01)), "{c:?} past {limit:?}");
        }
        // The figures themselves, for a Canadian clock in main time and in a period's middle.
        let mut c = Clock::default();
        c.set(TimeSystem::Canadian { main: 5.0, period: 20.0, stones: 4 });
        assert_eq!(c.flag_limit(Color::White), Some(s(25.0)));
        c.spend(Color::White, s(6.0));
        assert_eq!(c.flag_limit(Color::White), Some(s(19.0)));
        assert_eq!(Clock::default().flag_limit(Color::White), None);
    }

    #[test]
    fn absurd_values_saturate_instead_of_overflowing() {
        assert_eq!(duration_from_secs(f64::NAN), Duration::ZERO);
        assert_eq!(duration_from_secs(-3.0), Duration::ZERO);
        assert_eq!(duration_from_secs(1.5), Duration::from_millis(1500));
        let most = duration_from_secs(MAX_SECONDS);
        assert_eq!(duration_from_secs(1e300), most);
        assert_eq!(duration_from_secs(f64::INFINITY), most);
        // Whatever the controller sent, the hard limit can be added to an `Instant`.
        let mut c = Clock::default();
        c.set(TimeSystem::Canadian { main: 1e300, period: 1e308, stones: 1 });
        c.time_left(Color::Black, f64::MAX, 0);
        let limit = c.hard_limit(Color::Black).unwrap();
        assert!(limit <= most + most);
        assert!(std::time::Instant::now().checked_add(limit).is_some());
    }
}
