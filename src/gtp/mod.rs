//! The GTP front end: a reader thread feeds parsed lines to the command loop, which dispatches through
//! one command table (the same table answers `known_command` and `list_commands`) and writes exactly
//! one framed, flushed response per command.

pub mod analysis;
mod args;
mod commands;
mod gogui;
mod input;
mod params;
mod phantom;
mod session;
mod streaming;
mod war;

pub use commands::{command_names, is_known};
pub use input::{parse_line, Command, Control, Line};
pub use session::{Call, Reply, Session};

use std::fmt;
use std::io::{BufRead, Write};
use std::sync::Arc;

/// A failed command: the text after `?`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GtpError(pub String);

impl GtpError {
    pub fn new(text: impl Into<String>) -> GtpError {
        GtpError(text.into())
    }
    pub fn syntax() -> GtpError {
        GtpError::new("syntax error")
    }
    pub fn illegal() -> GtpError {
        GtpError::new("illegal move")
    }
    pub fn unknown() -> GtpError {
        GtpError::new("unknown command")
    }
}

impl fmt::Display for GtpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for GtpError {}

impl From<crate::engine::EngineError> for GtpError {
    fn from(e: crate::engine::EngineError) -> Self {
        GtpError(e.to_string())
    }
}

/// Formats a response: `=id payload` or `?id error`, then exactly one empty line. Empty lines inside a
/// payload would end the response early for the client, so they are removed.
pub fn frame(id: Option<&str>, result: &Result<String, GtpError>) -> String {
    let (mark, text) = match result {
        Ok(t) => ('=', t.as_str()),
        Err(e) => ('?', e.0.as_str()),
    };
    let mut body: String = text.lines().filter(|l| !l.trim().is_empty()).collect::<Vec<_>>().join("\n");
    if text.starts_with('\n') {
        // Multi-line answers such as showboard start on the line after `= `.
        body.insert(0, '\n');
    }
    format!("{mark}{} {body}\n\n", id.unwrap_or(""))
}

/// Runs a GTP session until `quit` or end of input.
pub fn run(
    session: &mut Session,
    input: impl BufRead + Send + 'static,
    output: &mut dyn Write,
) -> std::io::Result<()> {
    let control = Arc::new(Control::default());
    let commands = input::spawn_reader(input, control.clone());
    // End of input behaves as `quit`.
    while let Ok(cmd) = commands.recv() {
        control.taken();
        session.execute(&cmd, output, &control)?;
        if session.quit_requested() {
            break;
        }
        // Thinking on the opponent's time, until the next line arrives.
        session.ponder(&control);
    }
    Ok(())
}
