//! Match statistics: score fraction, a 95% confidence interval, Elo difference with error bars,
//! and the likelihood of superiority.
//!
//! Everything is seen from player A's side. A draw (Stoical Go has them) counts half a point.
//! The interval is the Wilson score interval; see [`wilson_interval`] for why.

use std::fmt;
use std::ops::Add;

use crate::board::{ByColor, Color};

/// The two-sided 95% quantile of the standard normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// The result of one game from player A's point of view.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum GameResult {
    AWins,
    BWins,
    Draw,
}

/// Wins, losses and draws of player A against player B.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Record {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// A closed interval of score fractions, `0 <= lower <= upper <= 1`.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct Interval {
    pub lower: f64,
    pub upper: f64,
}

/// An Elo difference (A minus B) with the error bars of the 95% interval.
///
/// The ends are infinite when the score interval reaches 0% or 100%: no finite rating difference
/// explains a clean sweep, and pretending otherwise would be a made-up number.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct EloEstimate {
    pub elo: f64,
    pub lower: f64,
    pub upper: f64,
}

/// Results of a match between player A and player B, split by the colour A played.
#[derive(Copy, Clone, PartialEq, Eq, Debug, Default)]
pub struct Tally {
    /// `by_a_colour.black` holds the games where A played Black.
    pub by_a_colour: ByColor<Record>,
}

impl Record {
    /// A record with the given counts.
    pub fn new(wins: u32, losses: u32, draws: u32) -> Record {
        Record { wins, losses, draws }
    }

    /// Adds one game.
    pub fn add_result(&mut self, result: GameResult) {
        match result {
            GameResult::AWins => self.wins += 1,
            GameResult::BWins => self.losses += 1,
            GameResult::Draw => self.draws += 1,
        }
    }

    /// Number of games played.
    pub fn games(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// A's points: a win is 1, a draw 1/2.
    pub fn points(&self) -> f64 {
        f64::from(self.wins) + 0.5 * f64::from(self.draws)
    }

    /// A's score fraction in `[0, 1]`, or `None` before the first game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / f64::from(n))
    }

    /// The 95% Wilson interval of A's score fraction, or `None` before the first game.
    pub fn interval(&self) -> Option<Interval> {
        let n = self.games();
        (n > 0).then(|| wilson_interval(self.points(), f64::from(n), Z_95))
    }

    /// The Elo difference A minus B with 95% error bars, or `None` before the first game.
    pub fn elo(&self) -> Option<EloEstimate> {
        let p = self.score()?;
        let ci = self.interval()?;
        Some(EloEstimate {
            elo: elo_from_score(p),
            lower: elo_from_score(ci.lower),
            upper: elo_from_score(ci.upper),
        })
    }

    /// The likelihood that A is stronger than B; see [`likelihood_of_superiority`].
    pub fn los(&self) -> f64 {
        likelihood_of_superiority(self.wins, self.losses)
    }

    /// One line for humans, for example
    /// `A 60 - 40 B (draws 0): 60.0% [50.2%, 69.1%], Elo +70.4 [+1.4, +139.5], LOS 97.7%`.
    pub fn summary(&self, a: &str, b: &str) -> String {
        let head = format!("{a} {} - {} {b} (draws {})", self.wins, self.losses, self.draws);
        match (self.score(), self.interval(), self.elo()) {
            (Some(p), Some(ci), Some(elo)) => format!(
                "{head}: {} [{}, {}], Elo {elo}, LOS {}",
                percent(p),
                percent(ci.lower),
                percent(ci.upper),
                percent(self.los())
            ),
            _ => format!("{head}: no games"),
        }
    }
}

impl Add for Record {
    type Output = Record;
    fn add(self, other: Record) -> Record {
        Record {
            wins: self.wins + other.wins,
            losses: self.losses + other.losses,
            draws: self.draws + other.draws,
        }
    }
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} [{}, {}]", format_elo(self.elo), format_elo(self.lower), format_elo(self.upper))
    }
}

impl Tally {
    /// An empty tally.
    pub fn new() -> Tally {
        Tally::default()
    }

    /// Adds one game in which A played `a_colour`.
    pub fn add_result(&mut self, a_colour: Color, result: GameResult) {
        self.by_a_colour[a_colour].add_result(result);
    }

    /// All games, both colours together.
    pub fn total(&self) -> Record {
        self.by_a_colour.black + self.by_a_colour.white
    }

    /// The overall one-line summary; see [`Record::summary`].
    pub fn summary(&self, a: &str, b: &str) -> String {
        self.total().summary(a, b)
    }

    /// A's record with each colour, e.g. `A as Black 31-19-0 (62.0%), as White 29-21-0 (58.0%)`.
    pub fn colour_summary(&self, a: &str) -> String {
        let part = |r: &Record| {
            let score = r.score().map_or_else(|| "-".to_string(), percent);
            format!("{}-{}-{} ({score})", r.wins, r.losses, r.draws)
        };
        format!("{a} as Black {}, as White {}", part(&self.by_a_colour.black), part(&self.by_a_colour.white))
    }
}

/// The Wilson score interval for `successes` out of `n` trials at normal quantile `z`.
///
/// Why Wilson: the textbook normal ("Wald") interval `p ± z·sqrt(p(1-p)/n)` collapses to a single
/// point at 0% and 100%, which is exactly where a strong engine against a weak one lands, and it
/// spills outside `[0, 1]` for small matches. Wilson inverts the score test instead, so it stays
/// inside `[0, 1]`, keeps a sensible width at the ends and has close to nominal coverage even for a
/// few dozen games. Clopper-Pearson would need beta quantiles and is needlessly conservative.
///
/// Draws enter as half successes (`successes` may be fractional). A draw has less variance than a
/// coin flip between win and loss, so this slightly overstates the width: the honest direction.
pub fn wilson_interval(successes: f64, n: f64, z: f64) -> Interval {
    if n <= 0.0 {
        return Interval { lower: 0.0, upper: 1.0 };
    }
    let p = (successes / n).clamp(0.0, 1.0);
    let z2 = z * z;
    let denom = 1.0 + z2 / n;
    let centre = (p + z2 / (2.0 * n)) / denom;
    let half = z / denom * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    // At p = 0 or 1 one end is exactly the boundary in exact arithmetic; rounding would otherwise
    // leave 1e-17 there, which turns an honest infinite Elo bound into a bogus -6000.
    let lower = if p == 0.0 { 0.0 } else { (centre - half).max(0.0) };
    let upper = if p == 1.0 { 1.0 } else { (centre + half).min(1.0) };
    Interval { lower, upper }
}

/// The Elo difference that predicts score fraction `p`: `-400 * log10(1/p - 1)`.
///
/// `p` is clamped to `[0, 1]`; 0 gives negative infinity and 1 positive infinity (never NaN for
/// a number in range).
pub fn elo_from_score(p: f64) -> f64 {
    let p = p.clamp(0.0, 1.0);
    if p == 0.0 {
        f64::NEG_INFINITY
    } else if p == 1.0 {
        f64::INFINITY
    } else {
        // Adding 0.0 turns the -0.0 of an even score into +0.0, so it prints as "+0.0".
        -400.0 * (1.0 / p - 1.0).log10() + 0.0
    }
}

/// The likelihood of superiority: the probability that A is the stronger player, given the
/// decisive games, under a normal approximation with a flat prior:
/// `LOS = Φ((W - L) / sqrt(W + L)) = (1 + erf((W - L) / sqrt(2 (W + L)))) / 2`.
///
/// Draws carry no information about which side is stronger, so they are left out. Without any
/// decisive game the answer is 1/2.
pub fn likelihood_of_superiority(wins: u32, losses: u32) -> f64 {
    let decisive = f64::from(wins) + f64::from(losses);
    if decisive == 0.0 {
        return 0.5;
    }
    let x = (f64::from(wins) - f64::from(losses)) / (2.0 * decisive).sqrt();
    0.5 * (1.0 + erf(x))
}

/// The error function, Abramowitz & Stegun 7.1.26 (absolute error below 1.5e-7, far below what a
/// match of a few hundred games can resolve). std has no `erf`.
fn erf(x: f64) -> f64 {
    let t = 1.0 / (1.0 + 0.327_591_1 * x.abs());
    let poly = t
        * (0.254_829_592
            + t * (-0.284_496_736 + t * (1.421_413_741 + t * (-1.453_152_027 + t * 1.061_405_429))));
    let y = 1.0 - poly * (-x * x).exp();
    if x < 0.0 {
        -y
    } else {
        y
    }
}

fn percent(p: f64) -> String {
    format!("{:.1}%", 100.0 * p)
}

fn format_elo(elo: f64) -> String {
    if elo == f64::INFINITY {
        "+inf".to_string()
    } else if elo == f64::NEG_INFINITY {
        "-inf".to_string()
    } else {
        format!("{elo:+.1}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, eps: f64) -> bool {
        (a - b).abs() <= eps
    }

    #[test]
    fn elo_of_known_scores() {
        // 60%: 1/0.6 - 1 = 2/3, log10(2/3) = -0.176091, times -400 = +70.44.
        assert!(close(elo_from_score(0.6), 70.437, 0.001));
        // 50%: log10(1) = 0, and it must print as +0.0, not -0.0.
        assert_eq!(elo_from_score(0.5), 0.0);
        assert_eq!(format_elo(elo_from_score(0.5)), "+0.0");
        // 75%: 1/0.75 - 1 = 1/3, log10(1/3) = -0.477121, times -400 = +190.85.
        assert!(close(elo_from_score(0.75), 190.849, 0.001));
        // Symmetry: 25% is the mirror image of 75%.
        assert!(close(elo_from_score(0.25), -190.849, 0.001));
        assert_eq!(elo_from_score(1.0), f64::INFINITY);
        assert_eq!(elo_from_score(0.0), f64::NEG_INFINITY);
        assert_eq!(elo_from_score(1.5), f64::INFINITY);
        assert_eq!(elo_from_score(-0.5), f64::NEG_INFINITY);
    }

    #[test]
    fn wilson_interval_of_60_in_100() {
        // z^2 = 3.841459; denominator 1 + z^2/100 = 1.0384146;
        // centre (0.6 + 0.0192073) / 1.0384146 = 0.596301;
        // half-width 1.959964 / 1.0384146 * sqrt(0.0024 + 0.0000960365) = 1.887459 * 0.0499604 = 0.094298;
        // so [0.502003, 0.690599].
        let ci = Record::new(60, 40, 0).interval().unwrap();
        assert!(close(ci.lower, 0.50200, 0.00001), "{ci:?}");
        assert!(close(ci.upper, 0.69060, 0.00001), "{ci:?}");
    }

    #[test]
    fn elo_error_bars_come_from_the_interval_ends() {
        // Ends of the interval above: elo(0.502003) = -400 log10(0.992020) = +1.39,
        // elo(0.690599) = -400 log10(0.448021) = -400 * (-0.348704) = +139.48.
        let elo = Record::new(60, 40, 0).elo().unwrap();
        assert!(close(elo.elo, 70.44, 0.01));
        assert!(close(elo.lower, 1.39, 0.01), "{elo:?}");
        assert!(close(elo.upper, 139.48, 0.01), "{elo:?}");
    }

    #[test]
    fn draws_count_half() {
        // 50 wins, 20 draws, 30 losses: 60 points of 100, the same score as 60-40.
        let r = Record::new(50, 30, 20);
        assert_eq!(r.games(), 100);
        assert_eq!(r.points(), 60.0);
        assert_eq!(r.score(), Some(0.6));
        assert_eq!(r.elo().unwrap().elo, Record::new(60, 40, 0).elo().unwrap().elo);
        // Only draws: exactly even.
        let even = Record::new(0, 0, 8);
        assert_eq!(even.score(), Some(0.5));
        assert_eq!(even.elo().unwrap().elo, 0.0);
    }

    #[test]
    fn all_wins_has_a_finite_lower_bound_and_an_infinite_upper_bound() {
        // 10 of 10: Wilson lower bound n / (n + z^2) = 10 / 13.841459 = 0.722467,
        // elo(0.722467) = -400 log10(0.384143) = +166.2.
        let r = Record::new(10, 0, 0);
        let ci = r.interval().unwrap();
        assert!(close(ci.lower, 0.72247, 0.00001), "{ci:?}");
        assert_eq!(ci.upper, 1.0);
        let elo = r.elo().unwrap();
        assert_eq!(elo.elo, f64::INFINITY);
        assert!(elo.lower.is_finite() && close(elo.lower, 166.2, 0.1), "{elo:?}");
        assert_eq!(elo.upper, f64::INFINITY);
        assert_eq!(
            r.summary("A", "B"),
            "A 10 - 0 B (draws 0): 100.0% [72.2%, 100.0%], Elo +inf [+166.2, +inf], LOS 99.9%"
        );
    }

    #[test]
    fn all_losses_mirror_all_wins() {
        let elo = Record::new(0, 10, 0).elo().unwrap();
        assert_eq!(elo.elo, f64::NEG_INFINITY);
        assert_eq!(elo.lower, f64::NEG_INFINITY);
        assert!(close(elo.upper, -166.2, 0.1), "{elo:?}");
        assert_eq!(Record::new(0, 10, 0).interval().unwrap().lower, 0.0);
    }

    #[test]
    fn no_games_is_not_a_number_but_none() {
        let r = Record::default();
        assert_eq!(r.score(), None);
        assert_eq!(r.interval(), None);
        assert_eq!(r.elo(), None);
        assert_eq!(r.los(), 0.5);
        assert_eq!(r.summary("A", "B"), "A 0 - 0 B (draws 0): no games");
    }

    #[test]
    fn likelihood_of_superiority() {
        // 60-40: (W - L) / sqrt(W + L) = 20 / 10 = 2 standard deviations; Phi(2) = 0.977250.
        assert!(close(Record::new(60, 40, 7).los(), 0.97725, 0.00001));
        // Even: exactly one half. 40-60 mirrors 60-40.
        assert!(close(Record::new(30, 30, 0).los(), 0.5, 1e-9));
        assert!(close(Record::new(40, 60, 0).los(), 1.0 - 0.97725, 0.00001));
    }

    #[test]
    fn summary_line() {
        assert_eq!(
            Record::new(60, 40, 0).summary("tengen", "gnugo"),
            "tengen 60 - 40 gnugo (draws 0): 60.0% [50.2%, 69.1%], Elo +70.4 [+1.4, +139.5], LOS 97.7%"
        );
    }

    #[test]
    fn tally_splits_by_colour() {
        let mut t = Tally::new();
        t.add_result(Color::Black, GameResult::AWins);
        t.add_result(Color::Black, GameResult::Draw);
        t.add_result(Color::White, GameResult::BWins);
        t.add_result(Color::White, GameResult::AWins);
        t.add_result(Color::White, GameResult::AWins);
        assert_eq!(t.by_a_colour.black, Record::new(1, 0, 1));
        assert_eq!(t.by_a_colour.white, Record::new(2, 1, 0));
        assert_eq!(t.total(), Record::new(3, 1, 1));
        assert_eq!(t.colour_summary("A"), "A as Black 1-0-1 (75.0%), as White 2-1-0 (66.7%)");
        assert_eq!(Tally::new().colour_summary("A"), "A as Black 0-0-0 (-), as White 0-0-0 (-)");
    }
}
