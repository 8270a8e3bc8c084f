//! One GTP session: the engine plus the protocol state around it.

use super::analysis::Snapshot;
use super::commands::find;
use super::input::{parse_line, Command, Control, Line};
use super::{frame, GtpError};
use crate::engine::{Engine, RootKey};
use std::io::Write;

/// What a command handler produced.
pub enum Reply {
    /// The payload of a successful response, framed by the session.
    Text(String),
    /// The handler wrote its whole response itself (streaming analysis commands).
    Streamed,
}

/// Everything a handler may use besides the session.
pub struct Call<'a> {
    pub id: Option<&'a str>,
    pub args: &'a [String],
    pub out: &'a mut dyn Write,
    pub control: &'a Control,
}

/// The protocol state around the engine.
pub struct Session {
    pub engine: Engine,
    /// Draw the search's thoughts on stderr (`gogui-gfx:` lines) during `genmove`. Turned on when a
    /// controller asks for `gogui-analyze_commands` (GoGui does as it attaches an engine), and by the
    /// `live_graphics` parameter.
    pub live_gfx: bool,
    /// The last search of GoGui's gfx commands: (position and colour, what it found).
    pub gfx_cache: Option<(RootKey, Snapshot)>,
    /// A move was just generated and played: pondering may start once it is answered.
    ponder_due: bool,
    quit: bool,
}

impl Session {
    pub fn new(engine: Engine) -> Session {
        Session { engine, live_gfx: false, gfx_cache: None, ponder_due: false, quit: false }
    }

    pub fn quit_requested(&self) -> bool {
        self.quit
    }

    pub(crate) fn request_quit(&mut self) {
        self.quit = true;
    }

    /// The engine just played a move of its own (genmove and the like).
    pub(crate) fn moved(&mut self) {
        self.ponder_due = true;
    }

    /// With `--ponder`, after the engine's own move: thinks on the opponent's time until the next
    /// input line (see `streaming::ponder`).
    pub fn ponder(&mut self, control: &Control) {
        if std::mem::take(&mut self.ponder_due) && self.engine.options().ponder && !control.should_stop() {
            super::streaming::ponder(self, control);
        }
    }

    /// Runs one command and writes its framed response, flushed.
    pub fn execute(&mut self, cmd: &Command, out: &mut dyn Write, control: &Control) -> std::io::Result<()> {
        let id = cmd.id.as_deref();
        let seed = self.engine.game_seed();
        // War Go answers from its own game: its own handlers, or the ordinary ones that serve it.
        let handler = if self.engine.is_war() {
            super::war::find(&cmd.name)
        } else {
            find(&cmd.name, self.engine.needs_referee())
        };
        let result = match handler {
            None => Err(GtpError::unknown()),
            Some(handler) => {
                let mut call = Call { id, args: &cmd.args, out: &mut *out, control };
                match handler(self, &mut call) {
                    Ok(Reply::Streamed) => return out.flush(),
                    Ok(Reply::Text(t)) => Ok(t),
                    Err(e) => Err(e),
                }
            }
        };
        out.write_all(frame(id, &result).as_bytes())?;
        out.flush()?;
        self.log_new_seed(seed);
        Ok(())
    }

    /// A command that began a new game gave it a new seed: say which on stderr, so that the game
    /// can be replayed alone (`--seed`).
    fn log_new_seed(&self, before: u64) {
        let seed = self.engine.game_seed();
        if seed != before {
            let _ =
                writeln!(std::io::stderr(), "tengen: new game, seed {seed} (replay it with --seed {seed})");
        }
    }

    /// Handles one raw input line in process (tests, fuzzing): the response text, if the line was a
    /// command. `# interrupt` and blank lines produce nothing.
    pub fn handle_line(&mut self, raw: &[u8]) -> Option<String> {
        let Line::Command(cmd) = parse_line(raw) else { return None };
        let control = Control::default();
        let mut out = Vec::new();
        self.execute(&cmd, &mut out, &control).expect("writing to memory");
        Some(String::from_utf8_lossy(&out).into_owned())
    }
}
