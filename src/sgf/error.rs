//! The one error type of the SGF module.

use std::fmt;

/// Why an SGF text could not be read.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum SgfError {
    /// The text holds no game tree at all (no `(` followed by `;`).
    NoGame,
    /// The text breaks the SGF grammar. `offset` is in bytes; `line` and `column` count from 1,
    /// the column in characters.
    Syntax { offset: usize, line: usize, column: usize, message: &'static str },
    /// The syntax is fine but a property value makes no sense for a Go game record.
    Property { id: String, value: String, message: &'static str },
}

impl SgfError {
    /// A syntax error at byte `offset` of `text`; the line and column are worked out here, since
    /// errors are rare and the parser should not track them on every byte.
    pub(crate) fn syntax(text: &str, offset: usize, message: &'static str) -> SgfError {
        let offset = offset.min(text.len());
        // Offsets always sit on ASCII delimiters or the end, but stay safe if one does not.
        let before = text.get(..offset).unwrap_or(text);
        let line = before.matches('\n').count() + 1;
        let line_start = before.rfind('\n').map_or(0, |i| i + 1);
        let column = before[line_start..].chars().count() + 1;
        SgfError::Syntax { offset, line, column, message }
    }

    pub(crate) fn property(id: &str, value: &str, message: &'static str) -> SgfError {
        SgfError::Property { id: id.to_string(), value: value.to_string(), message }
    }
}

impl fmt::Display for SgfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SgfError::NoGame => f.write_str("no SGF game tree found"),
            SgfError::Syntax { line, column, message, .. } => {
                write!(f, "SGF syntax error at line {line}, column {column}: {message}")
            }
            SgfError::Property { id, value, message } => {
                write!(f, "bad SGF property {id}[{value}]: {message}")
            }
        }
    }
}

impl std::error::Error for SgfError {}
