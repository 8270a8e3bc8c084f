//! Smart Game Format (SGF, `FF[4]`) for Go: a generic reader and writer, and a game-record layer.
//!
//! Two layers, because most callers want one but some need the other:
//! - `tree`: the syntax. A collection of game trees, each a sequence of nodes holding properties
//!   (an identifier with one or more values) plus variations. Values are kept exactly as written
//!   between the brackets (escapes included), so a tree written back is byte-for-byte the same data;
//!   [`unescape_text`] and friends decode them.
//! - `record`: the meaning for Go. [`GameRecord`] holds size, komi, rules, players, setup stones and
//!   the main line of moves, with points as `(x, y)`, `y` counted from the bottom as on a Go board.
//!
//! Nothing here panics on bad input: every failure is an [`SgfError`].

mod error;
mod record;
mod tree;

pub use error::SgfError;
pub use record::{GameRecord, RecordMove, TimeMark};
pub use tree::{
    decode, escape_text, parse_collection, split_compose, unescape_simple_text, unescape_text,
    write_collection, GameTree, MainLine, Node, Property, MAX_DEPTH,
};
