//! Progress on stderr: games done, the running score, elapsed time, the rate and an estimate of the
//! time left. On a terminal an `indicatif` bar redraws in place (and is cleared of its line when the
//! run ends); otherwise (a log file, CI, a pipe) the bar is hidden and each game prints one plain
//! line, so that a log still shows how far a run got.

use super::stats::Record;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::{IsTerminal, Write};
use std::time::Duration;

pub struct Progress {
    /// The bar; hidden when stderr is not a terminal (indicatif's own test) or the run is quiet.
    bar: ProgressBar,
    /// One line per game instead (stderr not a terminal).
    log_lines: bool,
}

impl Progress {
    /// A progress display for `total` games of which `done_before` were finished earlier (a resumed
    /// run: they count in the bar but not in the rate and the estimate).
    pub fn new(total: u64, done_before: u64, quiet: bool) -> Progress {
        let target = if quiet { ProgressDrawTarget::hidden() } else { ProgressDrawTarget::stderr() };
        let bar =
            ProgressBar::with_draw_target(Some(total), target).with_style(style()).with_position(done_before);
        // The games of an earlier invocation took no time in this one.
        bar.reset_eta();
        Progress { bar, log_lines: !quiet && !std::io::stderr().is_terminal() }
    }

    /// One more game done; `record` is A's running record over every finished game.
    pub fn game_done(&mut self, record: &Record) {
        self.bar.set_message(score(record));
        self.bar.inc(1);
        if self.log_lines {
            let line = format!(
                "{}/{} games  {}  elapsed {}",
                self.bar.position(),
                self.bar.length().unwrap_or(0),
                score(record),
                format_duration(self.bar.elapsed())
            );
            let mut err = std::io::stderr().lock();
            let _ = writeln!(err, "{line}").and_then(|()| err.flush());
        }
    }

    /// Ends the bar, leaving its last state on the terminal and the cursor on the next line.
    pub fn finish(&self) {
        if !self.bar.is_hidden() {
            self.bar.abandon();
            eprintln!();
        }
    }
}

/// The bar's layout: `[#####...] 4/10 games  A 3 - 1 B (draws 0)  elapsed 20s  1.5 games/min  left ~1m`.
fn style() -> ProgressStyle {
    ProgressStyle::with_template(
        "[{bar:24}] {pos}/{len} games  {msg}  elapsed {elapsed}  {rate}  left ~{eta}",
    )
    .expect("a valid template")
    .progress_chars("#>.")
    .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
        // Games take seconds to hours: per minute reads well across that range.
        let _ = write!(w, "{:.1} games/min", state.per_sec() * 60.0);
    })
}

/// `A 3 - 1 B (draws 0)`: A's wins, losses and draws.
fn score(record: &Record) -> String {
    format!("A {} - {} B (draws {})", record.wins, record.losses, record.draws)
}

/// `42s`, `3m05s`, `2h07m`.
fn format_duration(d: Duration) -> String {
    let s = d.as_secs();
    if s < 60 {
        format!("{s}s")
    } else if s < 3600 {
        format!("{}m{:02}s", s / 60, s % 60)
    } else {
        format!("{}h{:02}m", s / 3600, (s % 3600) / 60)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_games_of_a_resumed_run_and_the_score() {
        let mut p = Progress::new(10, 2, true);
        p.game_done(&Record::new(2, 1, 0));
        p.game_done(&Record::new(3, 1, 0));
        assert_eq!((p.bar.position(), p.bar.length()), (4, Some(10)));
        assert_eq!(p.bar.message(), "A 3 - 1 B (draws 0)");
        assert!(p.bar.is_hidden(), "--quiet draws nothing");
        assert_eq!(format_duration(Duration::from_secs(7260)), "2h01m");
        assert_eq!(format_duration(Duration::from_secs(185)), "3m05s");
    }
}
