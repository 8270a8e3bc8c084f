//! The progress bar on stderr: games done, the running score, elapsed time and an estimate of the time
//! left. On a terminal it redraws one line; otherwise (a log file, CI) it prints one line per game.

use super::stats::Record;
use std::io::{IsTerminal, Write};
use std::time::{Duration, Instant};

pub struct Progress {
    quiet: bool,
    tty: bool,
    total: u64,
    /// Games already done when this invocation started (a resumed run).
    done_before: u64,
    /// Games finished by this invocation.
    done_now: u64,
    start: Instant,
    width: usize,
}

impl Progress {
    /// A progress display for `total` games of which `done_before` were finished earlier.
    pub fn new(total: u64, done_before: u64, quiet: bool) -> Progress {
        Progress {
            quiet,
            tty: std::io::stderr().is_terminal(),
            total,
            done_before,
            done_now: 0,
            start: Instant::now(),
            width: 24,
        }
    }

    /// One more game done; `record` is A's running record over every finished game.
    pub fn game_done(&mut self, record: &Record) {
        self.done_now += 1;
        if self.quiet {
            return;
        }
        let line = self.line(record, self.start.elapsed());
        let mut err = std::io::stderr().lock();
        let _ = if self.tty { write!(err, "\r{line}\x1b[K") } else { writeln!(err, "{line}") };
        let _ = err.flush();
    }

    /// Ends the bar's line (on a terminal).
    pub fn finish(&self) {
        if !self.quiet && self.tty && self.done_now > 0 {
            eprintln!();
        }
    }

    /// The text of the bar after `elapsed` time in this invocation.
    pub fn line(&self, record: &Record, elapsed: Duration) -> String {
        let done = self.done_before + self.done_now;
        let filled =
            if self.total == 0 { self.width } else { (done as usize * self.width) / self.total as usize };
        let bar: String =
            (0..self.width).map(|i| if i < filled.min(self.width) { '#' } else { '.' }).collect();
        let left = self.total.saturating_sub(done);
        let eta = if self.done_now == 0 {
            "?".to_string()
        } else {
            format_duration(elapsed.mul_f64(left as f64 / self.done_now as f64))
        };
        format!(
            "[{bar}] {done}/{} games  A {} - {} B (draws {})  elapsed {}  left ~{eta}",
            self.total,
            record.wins,
            record.losses,
            record.draws,
            format_duration(elapsed)
        )
    }
}

/// `42s`, `3m05s`, `2h07m`.
pub fn format_duration(d: Duration) -> String {
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
    fn bar_score_and_estimate() {
        let mut p = Progress::new(10, 2, true);
        p.game_done(&Record::new(2, 1, 0));
        p.game_done(&Record::new(3, 1, 0));
        // 4 of 10 done, 2 of them in 20 s: 6 left take about 60 s.
        assert_eq!(
            p.line(&Record::new(3, 1, 0), Duration::from_secs(20)),
            "[#########...............] 4/10 games  A 3 - 1 B (draws 0)  elapsed 20s  left ~1m00s"
        );
        assert_eq!(format_duration(Duration::from_secs(7260)), "2h01m");
    }
}
