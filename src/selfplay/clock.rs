//! The match clock (`--clock`): how it is written on the command line, announced to a GTP program and
//! recorded in SGF. The referee runs it with the engine's own [`Clock`](crate::engine::Clock), which
//! models the clock a controller keeps; here it is the controller.
//!
//! Written as `MAIN` (sudden death), `MAIN+PERIODxN` (Japanese byo-yomi: N periods of PERIOD seconds,
//! one move each) or `MAIN+PERIOD/STONES` (Canadian: STONES moves in each PERIOD), all in seconds,
//! like the overtime notations of KGS and SGF's `OT`.

use crate::engine::TimeSystem;
use crate::sgf::Property;

/// Parses a `--clock` value.
pub fn parse_clock(text: &str) -> Result<TimeSystem, String> {
    let bad = |why: &str| format!("--clock {text}: {why} (e.g. 600, 300+30x3 or 600+300/25)");
    let seconds = |s: &str| -> Result<f64, String> {
        match s.trim().parse::<f64>() {
            // `+ 0.0` turns `-0` into 0, so that it reads back and prints as written.
            Ok(v) if v.is_finite() && (0.0..=1e6).contains(&v) => Ok(v + 0.0),
            _ => Err(bad(&format!("`{s}` is not a number of seconds"))),
        }
    };
    let count = |s: &str| -> Result<u32, String> {
        match s.trim().parse::<u32>() {
            Ok(n) if (1..=1000).contains(&n) => Ok(n),
            _ => Err(bad(&format!("`{s}` is not a count from 1 to 1000"))),
        }
    };
    let (main, overtime) = match text.split_once('+') {
        Some((m, o)) => (seconds(m)?, Some(o)),
        None => (seconds(text)?, None),
    };
    let system = match overtime {
        None => TimeSystem::Absolute { main },
        Some(o) => {
            if let Some((period, periods)) = o.split_once(['x', 'X']) {
                TimeSystem::Byoyomi { main, period: seconds(period)?, periods: count(periods)? }
            } else if let Some((period, stones)) = o.split_once('/') {
                TimeSystem::Canadian { main, period: seconds(period)?, stones: count(stones)? }
            } else {
                return Err(bad("the overtime is PERIODxN or PERIOD/STONES"));
            }
        }
    };
    let (main, period) = match system {
        TimeSystem::Byoyomi { main, period, .. } | TimeSystem::Canadian { main, period, .. } => {
            (main, period)
        }
        TimeSystem::Absolute { main } => (main, 0.0),
        TimeSystem::None => unreachable!("never parsed"),
    };
    if matches!(system, TimeSystem::Absolute { .. }) && main == 0.0 {
        return Err(bad("no time at all"));
    }
    if !matches!(system, TimeSystem::Absolute { .. }) && period == 0.0 {
        return Err(bad("an overtime period needs some seconds"));
    }
    Ok(system)
}

/// The `--clock` notation of a system (`None` for no clock), for `run.json` and messages.
pub fn describe_clock(system: TimeSystem) -> Option<String> {
    match system {
        TimeSystem::None => None,
        TimeSystem::Absolute { main } => Some(format!("{main}")),
        TimeSystem::Byoyomi { main, period, periods } => Some(format!("{main}+{period}x{periods}")),
        TimeSystem::Canadian { main, period, stones } => Some(format!("{main}+{period}/{stones}")),
    }
}

/// Does every value of the clock fit GTP's whole seconds?
pub fn whole_seconds(system: TimeSystem) -> bool {
    let whole = |v: f64| v.fract() == 0.0;
    match system {
        TimeSystem::None => true,
        TimeSystem::Absolute { main } => whole(main),
        TimeSystem::Byoyomi { main, period, .. } | TimeSystem::Canadian { main, period, .. } => {
            whole(main) && whole(period)
        }
    }
}

/// The commands that announce the clock to a GTP program, the preferred one first: KGS's
/// `kgs-time_settings` says everything; GTP's `time_settings` cannot say byo-yomi with several
/// periods, so it gets one period as a Canadian period of one stone (as KGS does for programs
/// without the KGS command). The bool says whether the command tells byo-yomi periods apart.
pub fn announcements(system: TimeSystem) -> Vec<(String, bool)> {
    let s = |v: f64| v as u64;
    match system {
        TimeSystem::None => vec![],
        TimeSystem::Absolute { main } => vec![(format!("time_settings {} 0 0", s(main)), true)],
        TimeSystem::Canadian { main, period, stones } => {
            vec![(format!("time_settings {} {} {stones}", s(main), s(period)), true)]
        }
        TimeSystem::Byoyomi { main, period, periods } => vec![
            (format!("kgs-time_settings byoyomi {} {} {periods}", s(main), s(period)), true),
            (format!("time_settings {} {} 1", s(main), s(period)), false),
        ],
    }
}

/// SGF's `TM` (main time) and `OT` (the overtime, in the common notation) for a record.
pub fn sgf_properties(system: TimeSystem) -> Vec<Property> {
    let prop = |id: &str, value: String| Property { id: id.into(), values: vec![value] };
    match system {
        TimeSystem::None => vec![],
        TimeSystem::Absolute { main } => vec![prop("TM", format!("{main}"))],
        TimeSystem::Byoyomi { main, period, periods } => {
            vec![prop("TM", format!("{main}")), prop("OT", format!("{periods}x{period} byo-yomi"))]
        }
        TimeSystem::Canadian { main, period, stones } => {
            vec![prop("TM", format!("{main}")), prop("OT", format!("{stones}/{period} Canadian"))]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_three_notations_parse_and_print_back() {
        for (text, system) in [
            ("600", TimeSystem::Absolute { main: 600.0 }),
            ("300+30x3", TimeSystem::Byoyomi { main: 300.0, period: 30.0, periods: 3 }),
            ("0+5X1", TimeSystem::Byoyomi { main: 0.0, period: 5.0, periods: 1 }),
            ("600+300/25", TimeSystem::Canadian { main: 600.0, period: 300.0, stones: 25 }),
            ("1.5+0.5/2", TimeSystem::Canadian { main: 1.5, period: 0.5, stones: 2 }),
        ] {
            assert_eq!(parse_clock(text), Ok(system), "{text}");
            assert_eq!(parse_clock(&describe_clock(system).unwrap()), Ok(system), "{text}");
        }
        // A negative zero is a zero, and prints as one.
        let zero = parse_clock("-0+5x1").unwrap();
        assert_eq!(describe_clock(zero).as_deref(), Some("0+5x1"));
        assert_eq!(describe_clock(TimeSystem::None), None);
        assert!(whole_seconds(TimeSystem::Byoyomi { main: 300.0, period: 30.0, periods: 3 }));
        assert!(!whole_seconds(TimeSystem::Canadian { main: 1.5, period: 1.0, stones: 2 }));
    }

    #[test]
    fn bad_clocks_say_what_is_wrong() {
        for (text, says) in [
            ("", "not a number"),
            ("ten", "not a number"),
            ("-5", "not a number"),
            ("0", "no time at all"),
            ("60+30", "PERIODxN or PERIOD/STONES"),
            ("60+30x0", "count from 1"),
            ("60+0x3", "needs some seconds"),
            ("60+30/", "count from 1"),
            ("inf", "not a number"),
        ] {
            let e = parse_clock(text).unwrap_err();
            assert!(e.contains(says), "{text}: {e}");
        }
    }

    #[test]
    fn byoyomi_is_announced_to_programs_with_and_without_the_kgs_command() {
        let a = announcements(TimeSystem::Byoyomi { main: 60.0, period: 10.0, periods: 3 });
        assert_eq!(a[0], ("kgs-time_settings byoyomi 60 10 3".to_string(), true));
        assert_eq!(a[1], ("time_settings 60 10 1".to_string(), false));
        let a = announcements(TimeSystem::Absolute { main: 90.0 });
        assert_eq!(a, vec![("time_settings 90 0 0".to_string(), true)]);
        let props = sgf_properties(TimeSystem::Canadian { main: 600.0, period: 300.0, stones: 25 });
        assert_eq!((props[1].id.as_str(), props[1].values[0].as_str()), ("OT", "25/300 Canadian"));
    }
}
