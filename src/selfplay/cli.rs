//! The flags of `tengen selfplay` and `tengen match`, and how they become a [`RunConfig`].
//!
//! Each tengen side is configured by the same flags as `tengen gtp` ([`EngineArgs`]): the common
//! options (`--playouts`, `--time`, `--threads`, `--seed`) first, then the side's own string
//! (`--black "--playouts 400 --policy light"`) on top, later flags winning.

use super::clock::{describe_clock, parse_clock, whole_seconds};
use super::gtp_client::split_command_line;
use super::player::GtpLimits;
use super::runner::{PlayerSpec, RunConfig};
use super::shard::Shard;
use crate::cli::EngineArgs;
use crate::engine::{duration_from_secs, Engine, EngineOptions, TimeSystem};
use crate::rules::{Komi, RulesConfig, Variant};
use clap::{Args, Parser};
use std::path::PathBuf;
use std::time::Duration;

/// Options shared by `selfplay` and `match`.
#[derive(Args, Clone, Debug)]
pub struct RunArgs {
    /// Number of games.
    #[arg(long, value_parser = crate::cli::parse_positive_count)]
    pub games: u64,
    /// Rules string: VARIANT[:key=value,...], e.g. `go:scoring=territory`, `stones`, `stoical`.
    #[arg(long, default_value = "go", value_parser = parse_rules)]
    pub rules: RulesConfig,
    /// Board size.
    #[arg(long, default_value_t = 19, value_parser = clap::value_parser!(u8).range(2..=25))]
    pub size: u8,
    /// Komi (go and stoical; Stones has none).
    #[arg(long, allow_negative_numbers = true)]
    pub komi: Option<f64>,
    /// Playouts per move for tengen.
    #[arg(long, value_parser = crate::cli::parse_positive_count)]
    pub playouts: Option<u64>,
    /// Seconds per move (tengen's limit; an external opponent gets it as `time_settings 0 S 1`, with
    /// S rounded up to whole seconds as GTP requires).
    #[arg(long, value_parser = crate::cli::parse_positive_seconds, conflicts_with = "clock")]
    pub time: Option<f64>,
    /// A game clock for both players, kept by the referee: MAIN seconds of main time, then
    /// `+PERIODxN` (N byo-yomi periods of PERIOD seconds) or `+PERIOD/STONES` (Canadian), e.g.
    /// `300+30x3`. Each player is told its clock (`time_settings`; byo-yomi by
    /// `kgs-time_settings`, falling back to `time_settings` with one-stone periods), then
    /// `time_left` before each move, and loses on time when its flag falls.
    #[arg(long, value_parser = parse_clock)]
    pub clock: Option<TimeSystem>,
    /// Search threads of each tengen engine.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=512))]
    pub threads: u16,
    /// Games played at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    pub parallel: u64,
    /// Random legal moves played before the players take over; the two games of a colour-swapped pair
    /// get the same opening.
    #[arg(long, default_value_t = 0)]
    pub random_opening: usize,
    /// Black's handicap in every game: GTP's fixed handicap stones (2 to 9 on 19x19; fewer on
    /// smaller boards), White moving first. Colours still alternate between the players, so each
    /// gives the handicap in half the games. Set `--komi` too (0.5 is usual).
    #[arg(long, default_value_t = 0)]
    pub handicap: usize,
    /// Base seed: game i uses the engines' seed plus i, and its pair's opening seed plus i/2.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// Output directory: one SGF per game, results.jsonl, run.json, summary.txt (with --shard, in
    /// its subdirectory shard-K-of-N).
    #[arg(long)]
    pub out: PathBuf,
    /// Play shard K of N: only the games whose index is K modulo N, each exactly as the whole run
    /// would play it, into OUT/shard-K-of-N. `tengen summary OUT` merges the shards.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<Shard>,
    /// Continue the run that the output directory holds (with --shard, this shard's).
    #[arg(long)]
    pub resume: bool,
    /// No progress bar.
    #[arg(long)]
    pub quiet: bool,
}

/// `tengen selfplay`.
#[derive(Args, Clone, Debug)]
pub struct SelfplayArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Extra engine flags of player A (Black in even games), e.g. "--playouts 400 --policy light".
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub black: String,
    /// Extra engine flags of player B (White in even games).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub white: String,
}

/// `tengen match`.
#[derive(Args, Clone, Debug)]
pub struct MatchArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// The opponent's command line, e.g. "gnugo --mode gtp --level 1".
    #[arg(long)]
    pub opponent: String,
    /// Extra engine flags for tengen, e.g. "--playouts 2000 --policy light" (the flags of `tengen gtp`).
    #[arg(long, default_value = "", allow_hyphen_values = true)]
    pub tengen: String,
    /// Seconds the opponent may take to start (to answer its first command) before the run
    /// gives up on it: engines that load a large network take a while, and a first run that tunes
    /// its GPU kernels longer still.
    #[arg(long, default_value_t = 300.0, value_name = "SECS", value_parser = crate::cli::parse_positive_seconds)]
    pub opponent_startup: f64,
}

/// `tengen summary`.
#[derive(Args, Clone, Debug)]
pub struct SummaryArgs {
    /// Run directories (a run's --out, a shard's shard-K-of-N in its --out), or directories whose
    /// subdirectories are runs (the --out of a sharded run).
    #[arg(required = true, value_name = "DIR")]
    pub dirs: Vec<PathBuf>,
    /// Fail (exit status 1) unless every game of the run is there.
    #[arg(long)]
    pub complete: bool,
    /// Wait until every game is there, printing the progress on stderr when it changes (looking
    /// every SECS seconds, 10 by default), then print the summary.
    #[arg(long, value_name = "SECS", num_args = 0..=1, require_equals = true, default_missing_value = "10",
          value_parser = crate::cli::parse_positive_seconds)]
    pub watch: Option<f64>,
}

fn parse_rules(s: &str) -> Result<RulesConfig, String> {
    RulesConfig::parse(s).map_err(|e| format!("unknown rules: {e}"))
}

/// `EngineArgs` as a parser of its own, for the per-side strings. Repeating a flag overrides it, so the
/// side's flags win over the common ones.
#[derive(Parser, Debug)]
#[command(name = "side options", no_binary_name = true, args_override_self = true)]
struct SideArgs {
    #[command(flatten)]
    engine: EngineArgs,
}

impl RunArgs {
    /// The rules with `--komi` applied.
    pub fn rules(&self) -> Result<RulesConfig, String> {
        let mut rules = self.rules.clone();
        if let Some(k) = self.komi {
            if rules.variant() == Variant::Stones {
                return Err("--komi: Stones has no komi".into());
            }
            let k = crate::rules::checked_komi(k)
                .ok_or_else(|| format!("--komi {k} is not a multiple of 0.5 within 1000"))?;
            rules.komi = Komi::Set(k);
        }
        rules.check_walls_fit(self.size as usize).map_err(|e| format!("--rules: {e}"))?;
        Ok(rules)
    }

    /// Engine options for one tengen side: the common flags, then `extra` (named `flag` in errors).
    pub fn engine_options(&self, flag: &str, extra: &str) -> Result<EngineOptions, String> {
        let extra = split_command_line(extra).map_err(|e| format!("{flag}: {e}"))?;
        if let Some(bad) =
            extra.iter().find(|a| ["--rules", "--size"].iter().any(|f| a.split('=').next() == Some(*f)))
        {
            return Err(format!("{flag}: {bad} is set for the whole run, not per player"));
        }
        let mut argv: Vec<String> = vec!["--seed".into(), self.seed.to_string()];
        argv.extend(["--threads".into(), self.threads.to_string()]);
        if let Some(p) = self.playouts {
            argv.extend(["--playouts".into(), p.to_string()]);
        }
        if let Some(t) = self.time {
            argv.extend(["--time".into(), t.to_string()]);
        }
        argv.extend(extra);
        let side = SideArgs::try_parse_from(&argv).map_err(|e| {
            let text = e.render().to_string();
            let first = text.lines().next().unwrap_or("").trim_start_matches("error: ").to_string();
            format!("{flag}: {first}")
        })?;
        let mut options = side.engine.options();
        options.rules = self.rules()?;
        options.size = self.size as usize;
        Ok(options)
    }

    fn config(&self, mode: &str, a: PlayerSpec, b: PlayerSpec) -> Result<RunConfig, String> {
        if let Some(t) = self.time {
            if !(t > 0.0 && t < 1e6) {
                return Err(format!("--time {t}: seconds per move must be positive"));
            }
        }
        let size = self.size as usize;
        if self.handicap > 0 {
            // The board must take it: size, and no wall on a handicap point.
            let mut trial =
                Engine::new(EngineOptions { rules: self.rules()?, size, ..EngineOptions::default() });
            trial.fixed_handicap(self.handicap).map_err(|_| {
                format!(
                    "--handicap {}: a {size}x{size} board does not take that fixed handicap",
                    self.handicap
                )
            })?;
        }
        // The referee judges dead stones with tengen's own settings (player A is always tengen).
        let referee = match &a {
            PlayerSpec::Engine { options, .. } => options.clone(),
            PlayerSpec::Gtp { .. } => {
                EngineOptions { rules: self.rules()?, size, ..EngineOptions::default() }
            }
        };
        Ok(RunConfig {
            mode: mode.into(),
            referee,
            games: self.games,
            rules: self.rules()?,
            size,
            a,
            b,
            parallel: self.parallel as usize,
            random_opening: self.random_opening,
            handicap: self.handicap,
            clock: self.clock.unwrap_or_default(),
            seed: self.seed,
            // A safety net against endless games (two programs that never pass): a game this long is
            // scored as it stands. Real games end far sooner.
            max_moves: 4 * size * size,
            shard: self.shard,
            out: match self.shard {
                Some(shard) => self.out.join(shard.dir_name()),
                None => self.out.clone(),
            },
            resume: self.resume,
            quiet: self.quiet,
        })
    }
}

impl SelfplayArgs {
    pub fn config(&self) -> Result<RunConfig, String> {
        let a = self.run.engine_options("--black", &self.black)?;
        let mut b = self.run.engine_options("--white", &self.white)?;
        // Two sides with the same seed would mirror each other's random choices: B's stream is shifted.
        if b.seed == a.seed {
            b.seed = b.seed.wrapping_add(1 << 32);
        }
        self.run.config(
            "selfplay",
            PlayerSpec::Engine { label: "tengen A".into(), options: a },
            PlayerSpec::Engine { label: "tengen B".into(), options: b },
        )
    }
}

impl MatchArgs {
    pub fn config(&self) -> Result<RunConfig, String> {
        let tengen = self.run.engine_options("--tengen", &self.tengen)?;
        let argv = split_command_line(&self.opponent).map_err(|e| format!("--opponent: {e}"))?;
        if argv.is_empty() {
            return Err("--opponent: empty command".into());
        }
        if let Some(clock) = self.run.clock.filter(|c| !whole_seconds(*c)) {
            let text = describe_clock(clock).unwrap_or_default();
            return Err(format!("--clock {text}: a GTP program's clock is in whole seconds"));
        }
        // Without --clock, the opponent loses on time when one move takes ten times tengen's
        // allowance plus half a minute (a hang, not slowness); without --time it has five minutes.
        // With --clock, its flag decides (and a hang is cut off half a minute after it fell).
        let genmove = self.run.time.map_or(300.0, |t| 10.0 * t + 30.0);
        let limits = GtpLimits {
            genmove: duration_from_secs(genmove),
            admin: Duration::from_secs(30),
            startup: duration_from_secs(self.opponent_startup),
        };
        // GTP's `time_settings` takes whole seconds.
        let time_settings = self.run.time.map(|t| format!("time_settings 0 {} 1", t.ceil().max(1.0) as u64));
        self.run.config(
            "match",
            PlayerSpec::Engine { label: "tengen".into(), options: tengen },
            PlayerSpec::Gtp { command: self.opponent.clone(), limits, time_settings },
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::PolicyChoice;

    #[derive(Parser)]
    struct Top {
        #[command(flatten)]
        selfplay: SelfplayArgs,
    }

    fn parse(args: &[&str]) -> Result<RunConfig, String> {
        let argv = ["tengen", "--games", "2", "--out", "/tmp/x"].iter().chain(args);
        Top::try_parse_from(argv).map_err(|e| e.to_string())?.selfplay.config()
    }

    #[test]
    fn side_options_layer_over_the_common_ones() {
        let c =
            parse(&["--playouts", "50", "--black", "--playouts 400 --policy light", "--size", "9"]).unwrap();
        let (PlayerSpec::Engine { options: a, .. }, PlayerSpec::Engine { options: b, .. }) = (&c.a, &c.b)
        else {
            panic!("two engines")
        };
        assert_eq!(a.playouts, Some(400));
        assert_eq!(a.policy, PolicyChoice::Light);
        assert_eq!(b.playouts, Some(50));
        assert_eq!(b.policy, PolicyChoice::Heavy);
        assert_eq!((a.size, b.size, c.size), (9, 9, 9));
        assert_eq!(a.threads, Some(1));
        assert_ne!(a.seed, b.seed);
        assert_eq!(c.max_moves, 4 * 81);
    }

    #[test]
    fn bad_side_options_say_which_side() {
        let e = parse(&["--white", "--playouts zero"]).unwrap_err();
        assert!(e.starts_with("--white: "), "{e}");
        let e = parse(&["--black", "--rules stones"]).unwrap_err();
        assert!(e.contains("whole run"), "{e}");
        let e = parse(&["--black", "--bogus"]).unwrap_err();
        assert!(e.contains("--bogus"), "{e}");
        assert!(parse(&["--rules", "stones", "--komi", "5"]).unwrap_err().contains("no komi"));
        assert!(parse(&["--rules", "chess"]).unwrap_err().contains("unknown rules"));
        let e = parse(&["--playouts", "0"]).unwrap_err();
        assert!(e.contains("must be at least 1"), "{e}");
        let e = parse(&["--white", "--playouts 0"]).unwrap_err();
        assert!(e.contains("must be at least 1"), "{e}");
        let e = parse(&["--time", "0"]).unwrap_err();
        assert!(e.contains("more than zero") || e.contains("positive"), "{e}");
    }

    #[test]
    fn a_clock_reaches_the_games_and_excludes_time_per_move() {
        let c = parse(&["--clock", "60+5x3"]).unwrap();
        assert_eq!(c.clock, TimeSystem::Byoyomi { main: 60.0, period: 5.0, periods: 3 });
        assert_eq!(c.spec(3).setup.clock, c.clock);
        assert_eq!(parse(&[]).unwrap().clock, TimeSystem::None);
        assert!(parse(&["--clock", "60", "--time", "1"]).unwrap_err().contains("cannot be used with"));
        assert!(parse(&["--clock", "60+5"]).unwrap_err().contains("PERIODxN"));
    }

    #[derive(Parser)]
    struct MatchTop {
        #[command(flatten)]
        the_match: MatchArgs,
    }

    fn parse_match(args: &[&str]) -> Result<RunConfig, String> {
        let argv = ["tengen", "--games", "2", "--out", "/tmp/x", "--opponent", "gnugo --mode gtp"]
            .iter()
            .chain(args);
        MatchTop::try_parse_from(argv).map_err(|e| e.to_string())?.the_match.config()
    }

    #[test]
    fn the_opponent_gets_minutes_to_start_and_half_a_minute_for_the_rest() {
        let limits = |c: RunConfig| match c.b {
            PlayerSpec::Gtp { limits, .. } => limits,
            PlayerSpec::Engine { .. } => panic!("the opponent is a GTP program"),
        };
        let default = limits(parse_match(&[]).unwrap());
        assert_eq!((default.startup, default.admin), (Duration::from_secs(300), Duration::from_secs(30)));
        assert_eq!(
            limits(parse_match(&["--opponent-startup", "45"]).unwrap()).startup,
            Duration::from_secs(45)
        );
        let e = parse_match(&["--opponent-startup", "0"]).unwrap_err();
        assert!(e.contains("more than zero"), "{e}");
    }

    #[test]
    fn komi_and_rules() {
        let c = parse(&["--rules", "stoical", "--komi", "-2.5"]).unwrap();
        assert_eq!(c.rules.komi_value(), -2.5);
        assert_eq!(c.rules.variant(), Variant::Stoical);
    }
}
