//! The two kinds of player a match is made of: tengen in process ([`EnginePlayer`]) and any program
//! that speaks GTP ([`GtpPlayer`]). The referee talks to both through [`Player`] and never cares which.

use super::clock::announcements;
use super::gtp_client::{GtpClient, GtpClientError, SpawnOptions};
use crate::board::{Color, Geometry, Point};
use crate::engine::{Decision, Engine, EngineOptions, TimeSystem};
use crate::rules::{Move, RulesConfig, Variant};
use std::fmt;
use std::time::Duration;

/// What one game is played with.
#[derive(Clone, Debug)]
pub struct GameSetup {
    pub rules: RulesConfig,
    pub size: usize,
    /// GTP's fixed handicap for Black (`fixed_handicap`), 0 for an even game.
    pub handicap: usize,
    /// Index of the game in the run; engines seed their randomness from it.
    pub index: u64,
    /// The match clock (`TimeSystem::None`: none; the players are told, the referee runs it).
    pub clock: TimeSystem,
}

/// A player's clock before its move, as the referee reads it.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct ClockReading {
    /// Seconds left: main time, or the current overtime period's.
    pub seconds: f64,
    /// In overtime, the stones left in the Canadian period or the byo-yomi periods left; 0 in main
    /// time (GTP `time_left`'s convention).
    pub count: u32,
    /// The longest the move may take before the flag falls.
    pub limit: Duration,
}

/// A player's answer to `genmove`.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum PlayerMove {
    /// A move. An external program only ever answers placements and `Move::Pass`; the referee turns a
    /// pass into the move it stands for under the rules.
    Play(Move),
    Resign,
}

/// Why a player failed. Every one of these forfeits the game in progress; `Start` also stops the run,
/// since the next games could not be played either.
#[derive(Debug)]
pub enum PlayerError {
    /// The program could not be (re)started or refused the game's settings.
    Start(String),
    /// The program exited or closed its output.
    Crashed(String),
    /// No answer within the time limit.
    Timeout(String),
    /// A `?` answer, e.g. to `genmove`.
    Refused(String),
    /// An answer that is not a move of this board.
    BadAnswer(String),
}

impl PlayerError {
    /// Is this a time loss (`+T`) rather than a forfeit (`+F`)?
    pub fn is_timeout(&self) -> bool {
        matches!(self, PlayerError::Timeout(_))
    }
}

impl fmt::Display for PlayerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayerError::Start(m) => f.write_str(m),
            PlayerError::Crashed(m) => write!(f, "crashed: {m}"),
            PlayerError::Timeout(m) => write!(f, "timeout: {m}"),
            PlayerError::Refused(m) => write!(f, "refused: {m}"),
            PlayerError::BadAnswer(m) => write!(f, "bad answer: {m}"),
        }
    }
}

impl std::error::Error for PlayerError {}

/// One side of a match.
pub trait Player: Send {
    /// The name for SGF `PB`/`PW` and the summary, settings included.
    fn name(&self) -> String;
    /// Starts a new game (and the program, if it is not running).
    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError>;
    /// Checks, once before a run, that the player can play `setup`'s game, so that bad settings
    /// fail before any game.
    fn check(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.new_game(setup)
    }
    /// Tells the player about a move (its opponent's, or a random opening move).
    fn play(&mut self, color: Color, mv: Move) -> Result<(), PlayerError>;
    /// Tells the player its clock before its move (games with a match clock only), as a
    /// controller's `time_left` does.
    fn time_left(&mut self, color: Color, clock: ClockReading) -> Result<(), PlayerError>;
    /// Asks the player for its move, which it plays on its own board.
    fn genmove(&mut self, color: Color) -> Result<PlayerMove, PlayerError>;
    /// The player's own score of the finished game (GTP `final_score`), if it gives one.
    fn final_score(&mut self) -> Option<String>;
    /// Tells a Phantom Go player what the referee lets it know (GTP.md's Phantom Go commands). A
    /// player that knows no such thing refuses, which forfeits.
    fn phantom(&mut self, _message: &super::phantom::Message) -> Result<(), PlayerError> {
        Err(PlayerError::Refused("it does not play Phantom Go".into()))
    }
    /// War Go: tells the player a move by its move word (RULES.md section 7).
    fn war_play(&mut self, _color: Color, _word: &str) -> Result<(), PlayerError> {
        Err(PlayerError::Refused("it does not play War Go".into()))
    }
    /// War Go: asks for a move word; `None` is a resignation.
    fn war_genmove(&mut self, _color: Color) -> Result<Option<String>, PlayerError> {
        Err(PlayerError::Refused("it does not play War Go".into()))
    }
}

/// tengen in this process, with its own engine options.
pub struct EnginePlayer {
    label: String,
    options: EngineOptions,
    engine: Option<Engine>,
}

impl EnginePlayer {
    /// A player named `label` (e.g. `tengen A`) playing with `options`. Each game gets a fresh engine
    /// whose seed is `options.seed + game index`, so a game is the same whenever it is replayed.
    pub fn new(label: impl Into<String>, options: EngineOptions) -> EnginePlayer {
        EnginePlayer { label: label.into(), options, engine: None }
    }

    fn engine(&mut self) -> &mut Engine {
        self.engine.as_mut().expect("new_game comes first")
    }

    /// The engine of the game in progress (its view, in Phantom Go).
    pub fn current_engine(&self) -> Option<&Engine> {
        self.engine.as_ref()
    }
}

/// The settings that tell two tengen configurations apart, e.g. `playouts=100,threads=1,policy=heavy`.
pub fn describe_options(o: &EngineOptions) -> String {
    let mut parts = Vec::new();
    if let Some(p) = o.playouts {
        parts.push(format!("playouts={p}"));
    }
    if let Some(t) = o.time_per_move {
        parts.push(format!("time={}", t.as_secs_f64()));
    }
    parts.push(format!("threads={}", o.threads.map_or("all".to_string(), |t| t.to_string())));
    parts.push(format!("policy={}", format!("{:?}", o.policy).to_ascii_lowercase()));
    parts.push(format!("resign={}", o.resign_threshold.map_or("off".to_string(), |r| r.to_string())));
    parts.push(format!("max-tree-mb={}", o.max_tree_mb));
    if o.ponder {
        parts.push("ponder".into());
    }
    if o.dynamic_komi != crate::engine::DynamicKomi::default() {
        parts.push(format!("dynamic-komi={}", o.dynamic_komi));
    }
    if o.mercy {
        parts.push("mercy=on".into());
    }
    parts.push(format!("seed={}", o.seed));
    parts.join(",")
}

impl Player for EnginePlayer {
    fn name(&self) -> String {
        format!("{} ({})", self.label, describe_options(&self.options))
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        let options = EngineOptions {
            rules: setup.rules.clone(),
            size: setup.size,
            seed: self.options.seed.wrapping_add(setup.index),
            ..self.options.clone()
        };
        let mut engine = Engine::new(options);
        engine.clock_mut().set(setup.clock);
        if setup.handicap > 0 {
            engine.fixed_handicap(setup.handicap).map_err(|e| PlayerError::Start(e.to_string()))?;
        }
        self.engine = Some(engine);
        Ok(())
    }

    fn play(&mut self, color: Color, mv: Move) -> Result<(), PlayerError> {
        // In process the exact move is known (a stake says on which group), so it is played as such.
        self.engine().play(color, mv).map(drop).map_err(|e| PlayerError::Refused(e.to_string()))
    }

    fn time_left(&mut self, color: Color, clock: ClockReading) -> Result<(), PlayerError> {
        self.engine().clock_mut().time_left(color, clock.seconds, clock.count);
        Ok(())
    }

    fn genmove(&mut self, color: Color) -> Result<PlayerMove, PlayerError> {
        match self.engine().genmove(color, true) {
            Ok(Decision::Play(m)) => Ok(PlayerMove::Play(m)),
            Ok(Decision::Resign) => Ok(PlayerMove::Resign),
            Err(e) => Err(PlayerError::Refused(e.to_string())),
        }
    }

    fn final_score(&mut self) -> Option<String> {
        self.engine.as_mut()?.final_score().ok().map(|o| o.to_string())
    }

    fn phantom(&mut self, message: &super::phantom::Message) -> Result<(), PlayerError> {
        use super::phantom::Message;
        let engine = self.engine();
        let done = match message {
            Message::Illegal(p) => engine.phantom_illegal(*p),
            Message::OpponentMoved { pass } => engine.phantom_opponent_moved(*pass),
            Message::OpponentIllegal => engine.phantom_opponent_illegal(),
            Message::Removed(points) => engine.phantom_removed(points),
        };
        done.map_err(|e| PlayerError::Refused(e.to_string()))
    }

    fn war_play(&mut self, color: Color, word: &str) -> Result<(), PlayerError> {
        let engine = self.engine();
        let geo = engine
            .war_game()
            .map(|g| g.position().geo)
            .ok_or_else(|| PlayerError::Refused("not War Go".into()))?;
        let mv = crate::rules::war::WarMove::parse(word, &geo)
            .map_err(|_| PlayerError::Refused(format!("'{word}' is no move")))?;
        engine.war_play(color, mv).map_err(|e| PlayerError::Refused(e.to_string()))
    }

    fn war_genmove(&mut self, color: Color) -> Result<Option<String>, PlayerError> {
        let engine = self.engine();
        let geo = engine
            .war_game()
            .map(|g| g.position().geo)
            .ok_or_else(|| PlayerError::Refused("not War Go".into()))?;
        match engine.war_genmove(color, true) {
            Ok((crate::engine::WarDecision::Play(mv), _)) => Ok(Some(mv.word(&geo))),
            Ok((crate::engine::WarDecision::Resign, _)) => Ok(None),
            Err(e) => Err(PlayerError::Refused(e.to_string())),
        }
    }
}

/// Time limits for an external program.
#[derive(Copy, Clone, Debug)]
pub struct GtpLimits {
    /// For `genmove`.
    pub genmove: Duration,
    /// For everything else (setup, `play`, `final_score`).
    pub admin: Duration,
    /// For the program's start-up: the answer to its first command (see `SpawnOptions`).
    pub startup: Duration,
}

/// An external GTP program. It is started when first needed and restarted for the next game after it
/// crashed or timed out (a program that missed a deadline may still be busy with the old command).
pub struct GtpPlayer {
    command: String,
    limits: GtpLimits,
    client: Option<GtpClient>,
    /// `name version`, learnt at the first start.
    ident: Option<String>,
    /// Does the program take tengen's `tengen-rules`?
    knows_tengen_rules: bool,
    /// `time_settings` to send at the start of every game, if any.
    time_settings: Option<String>,
    /// Has the program's refusal of `time_settings` been reported?
    warned_clock: bool,
    /// How this game's match clock was announced to the program.
    announced: Announced,
    /// With a match clock: how long the next `genmove` may take before the program counts as hung
    /// (its clock's limit and a grace); `limits.genmove` otherwise.
    move_limit: Option<Duration>,
    geometry: Option<Geometry>,
}

/// How a match clock was announced to a GTP program.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
enum Announced {
    /// No match clock, or the program refused every clock command: it is not sent `time_left`.
    Not,
    /// As it is.
    Exactly,
    /// Byo-yomi as one Canadian period of one stone (`time_settings` cannot say more).
    OnePeriod,
}

/// Past its clock's limit, how long a program's `genmove` may still take before it counts as hung
/// (it has lost on time either way; this only decides when the runner stops waiting).
const HANG_GRACE: Duration = Duration::from_secs(30);

impl GtpPlayer {
    pub fn new(command: impl Into<String>, limits: GtpLimits, time_settings: Option<String>) -> GtpPlayer {
        GtpPlayer {
            command: command.into(),
            limits,
            client: None,
            ident: None,
            knows_tengen_rules: false,
            time_settings,
            warned_clock: false,
            announced: Announced::Not,
            move_limit: None,
            geometry: None,
        }
    }

    fn start(&mut self) -> Result<&mut GtpClient, PlayerError> {
        if self.client.is_none() {
            let options = SpawnOptions {
                admin_timeout: self.limits.admin,
                startup_timeout: self.limits.startup,
                ..SpawnOptions::default()
            };
            let mut client = GtpClient::spawn_with(&self.command, options)
                .map_err(|e| PlayerError::Start(e.to_string()))?;
            if self.ident.is_none() {
                let name = client.name().unwrap_or_else(|_| client.program().to_string());
                let ident = match client.version() {
                    Ok(v) if !v.is_empty() => format!("{name} {v}"),
                    _ => name,
                };
                self.ident = Some(ident);
            }
            self.knows_tengen_rules =
                client.send("known_command tengen-rules", self.limits.admin).is_ok_and(|a| a == "true");
            self.client = Some(client);
        }
        Ok(self.client.as_mut().expect("just started"))
    }

    /// Sends a command; a crash or timeout drops the process, so the next game starts a fresh one.
    fn send(&mut self, command: &str, timeout: Duration) -> Result<String, PlayerError> {
        let client = self.start()?;
        let answer = client.send(command, timeout);
        match answer {
            Ok(a) => Ok(a),
            Err(GtpClientError::Failure(m)) => Err(PlayerError::Refused(format!("`{command}`: {m}"))),
            Err(GtpClientError::Timeout { .. }) => {
                self.client = None;
                Err(PlayerError::Timeout(format!("no answer to `{command}` within {timeout:?}")))
            }
            Err(e) => {
                self.client = None;
                Err(PlayerError::Crashed(e.to_string()))
            }
        }
    }

    /// `new_game`'s work: start the program if needed, then rules, size, komi and clock.
    fn prepare(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.start()?;
        let rules = setup.rules.to_string();
        if setup.rules.variant() == Variant::Phantom {
            // GTP.md: a Phantom Go player takes the referee's phantom-* messages.
            let admin = self.limits.admin;
            let knows = self.send("known_command phantom-illegal", admin).is_ok_and(|a| a.trim() == "true");
            if !(knows && self.knows_tengen_rules) {
                return Err(PlayerError::Start(
                    "it does not play Phantom Go (it lacks `tengen-rules` or the phantom-* commands)".into(),
                ));
            }
        }
        if self.knows_tengen_rules {
            self.setup(&format!("tengen-rules {rules}"))?;
        } else if setup.rules.variant() != Variant::Go {
            return Err(PlayerError::Start(format!(
                "it does not play {} (it lacks the `tengen-rules` command)",
                setup.rules.variant().game_id()
            )));
        } else if let Some(option) = option_unknown_to_gtp(&setup.rules) {
            // The referee would apply it and the program not know it: its moves would be forfeits
            // (walls) or mean something else (a pass taking the button).
            return Err(PlayerError::Start(format!(
                "it cannot be told about the {option} (it lacks the `tengen-rules` command)"
            )));
        }
        self.setup(&format!("boardsize {}", setup.size))?;
        self.setup("clear_board")?;
        if setup.rules.variant() != Variant::Stones {
            self.setup(&format!("komi {}", crate::rules::format_margin(setup.rules.komi_value())))?;
        }
        if setup.handicap > 0 {
            self.handicap(setup)?;
        }
        self.announced = Announced::Not;
        self.move_limit = None;
        let commands = match (setup.clock, self.time_settings.clone()) {
            (TimeSystem::None, Some(ts)) => vec![(ts, true)],
            (clock, _) => announcements(clock),
        };
        let mut refusal = None;
        for (command, exact) in commands {
            let admin = self.limits.admin;
            match self.send(&command, admin) {
                Ok(_) => {
                    self.announced = if exact { Announced::Exactly } else { Announced::OnePeriod };
                    refusal = None;
                    break;
                }
                // GTP makes the clock commands optional: the program then plays without a clock
                // (the referee's match clock, or its time-out for a hang, still holds).
                Err(PlayerError::Refused(why)) => refusal = Some(why),
                Err(e) => return Err(PlayerError::Start(e.to_string())),
            }
        }
        if let Some(why) = refusal {
            if !self.warned_clock {
                let note =
                    if setup.clock == TimeSystem::None { "" } else { " (the match clock still holds it)" };
                eprintln!("tengen: warning: {} plays without a clock{note}: {why}", self.command);
                self.warned_clock = true;
            }
        }
        if setup.clock == TimeSystem::None {
            // `--time`'s `time_settings 0 S 1` needs no `time_left`: every move starts a period.
            self.announced = Announced::Not;
        }
        self.geometry = Some(Geometry::new(setup.size));
        Ok(())
    }

    /// `fixed_handicap`, whose stones GTP fixes: a program that puts them elsewhere would play
    /// another game than the referee's.
    fn handicap(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        let geo = Geometry::new(setup.size);
        let admin = self.limits.admin;
        let answer = self
            .send(&format!("fixed_handicap {}", setup.handicap), admin)
            .map_err(|e| PlayerError::Start(e.to_string()))?;
        let mut placed: Vec<Option<Point>> = answer.split_whitespace().map(|v| geo.parse_vertex(v)).collect();
        let mut expected: Vec<Option<Point>> = crate::rules::handicap::fixed_points(&geo, setup.handicap)
            .unwrap_or_default()
            .into_iter()
            .map(Some)
            .collect();
        placed.sort();
        expected.sort();
        if placed != expected {
            return Err(PlayerError::Start(format!(
                "fixed_handicap {} placed `{answer}`, not the points GTP fixes",
                setup.handicap
            )));
        }
        Ok(())
    }

    /// Sends a setup command; any failure means the program cannot play this game.
    fn setup(&mut self, command: &str) -> Result<(), PlayerError> {
        let admin = self.limits.admin;
        self.send(command, admin).map(drop).map_err(|e| PlayerError::Start(e.to_string()))
    }
}

/// A standard-Go option of `rules` that a program without `tengen-rules` cannot be told about.
fn option_unknown_to_gtp(rules: &RulesConfig) -> Option<&'static str> {
    if !rules.walls.is_empty() {
        Some("walls")
    } else if rules.variant.go.button {
        Some("button")
    } else {
        None
    }
}

impl Player for GtpPlayer {
    /// Starts the program and checks that it can play `setup`'s game: the variant (anything but
    /// standard Go needs `tengen-rules`), the board size and komi. Unlike `new_game`, no second
    /// start: a program that hangs or dies while being checked fails the run at once, not after a
    /// second wait.
    fn check(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        self.prepare(setup)
    }

    fn name(&self) -> String {
        let ident = self.ident.clone().unwrap_or_else(|| "GTP program".into());
        format!("{ident} ({})", self.command)
    }

    fn new_game(&mut self, setup: &GameSetup) -> Result<(), PlayerError> {
        match self.prepare(setup) {
            // It crashed or hung while being set up (the process is gone): a fresh one gets one more
            // try at this game, as after a crash in a game. A refusal stands.
            Err(PlayerError::Start(_)) if self.client.is_none() => self.prepare(setup),
            done => done,
        }
    }

    fn play(&mut self, color: Color, mv: Move) -> Result<(), PlayerError> {
        let geo = self.geometry.expect("new_game comes first");
        let admin = self.limits.admin;
        self.send(&format!("play {} {}", color.letter(), mv.to_gtp(&geo)), admin).map(drop)
    }

    fn time_left(&mut self, color: Color, clock: ClockReading) -> Result<(), PlayerError> {
        self.move_limit = Some(clock.limit.saturating_add(HANG_GRACE));
        // GTP's `time_left` takes whole seconds: rounded down, so the program never thinks it has
        // more than it has.
        let seconds = clock.seconds.max(0.0).floor() as u64;
        let count = match self.announced {
            Announced::Not => return Ok(()),
            Announced::Exactly => clock.count,
            // In byo-yomi, each move has the period: one stone in it, as announced.
            Announced::OnePeriod => clock.count.min(1),
        };
        let admin = self.limits.admin;
        match self.send(&format!("time_left {} {seconds} {count}", color.letter()), admin) {
            // The program took the clock but not `time_left`: it keeps its own count.
            Ok(_) | Err(PlayerError::Refused(_)) => Ok(()),
            Err(e) => Err(e),
        }
    }

    fn genmove(&mut self, color: Color) -> Result<PlayerMove, PlayerError> {
        let geo = self.geometry.expect("new_game comes first");
        let genmove = self.move_limit.unwrap_or(self.limits.genmove);
        let answer = self.send(&format!("genmove {}", color.letter()), genmove)?;
        let word = answer.trim();
        if word.eq_ignore_ascii_case("resign") {
            Ok(PlayerMove::Resign)
        } else if word.eq_ignore_ascii_case("pass") {
            Ok(PlayerMove::Play(Move::Pass))
        } else {
            geo.parse_vertex(word)
                .map(|p| PlayerMove::Play(Move::Place(p)))
                .ok_or_else(|| PlayerError::BadAnswer(format!("genmove answered `{word}`")))
        }
    }

    fn final_score(&mut self) -> Option<String> {
        let admin = self.limits.admin;
        self.send("final_score", admin).ok().map(|s| s.trim().to_string())
    }

    fn phantom(&mut self, message: &super::phantom::Message) -> Result<(), PlayerError> {
        use super::phantom::Message;
        let geo = self.geometry.expect("new_game comes first");
        let command = match message {
            Message::Illegal(p) => format!("phantom-illegal {}", geo.vertex(*p)),
            Message::OpponentMoved { pass: false } => "phantom-opponent-moved".into(),
            Message::OpponentMoved { pass: true } => "phantom-opponent-moved pass".into(),
            Message::OpponentIllegal => "phantom-opponent-illegal".into(),
            Message::Removed(points) => {
                let names: Vec<String> = points.iter().map(|&p| geo.vertex(p)).collect();
                format!("phantom-removed {}", names.join(" "))
            }
        };
        let admin = self.limits.admin;
        self.send(&command, admin).map(drop)
    }

    fn war_play(&mut self, color: Color, word: &str) -> Result<(), PlayerError> {
        let admin = self.limits.admin;
        self.send(&format!("play {} {word}", color.letter()), admin).map(drop)
    }

    fn war_genmove(&mut self, color: Color) -> Result<Option<String>, PlayerError> {
        let genmove = self.move_limit.unwrap_or(self.limits.genmove);
        let answer = self.send(&format!("genmove {}", color.letter()), genmove)?;
        let word = answer.trim();
        Ok((!word.eq_ignore_ascii_case("resign")).then(|| word.to_string()))
    }
}

impl Drop for GtpPlayer {
    fn drop(&mut self) {
        if let Some(client) = self.client.take() {
            let _ = client.quit();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_that_never_answers_its_check_is_started_once() {
        let dir = std::env::temp_dir().join(format!("tengen-check-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let log = dir.join("starts");
        // Notes each start, then reads its commands and never answers.
        let command = format!("sh -c 'echo start >> {}; cat >/dev/null'", log.display());
        let second = Duration::from_secs(1);
        let limits = GtpLimits { genmove: second, admin: second, startup: second };
        let mut p = GtpPlayer::new(command, limits, None);
        let setup = GameSetup {
            rules: RulesConfig::parse("go").unwrap(),
            size: 9,
            handicap: 0,
            index: 0,
            clock: TimeSystem::None,
        };
        assert!(matches!(p.check(&setup), Err(PlayerError::Start(_))));
        // The process is killed when the check fails; its line was written before it read anything.
        let starts = std::fs::read_to_string(&log).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
        assert_eq!(starts.lines().count(), 1, "{starts:?}");
    }
}
