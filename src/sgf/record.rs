//! The game-record layer: what an SGF file means for a game of Go.

use super::tree::{escape_text, parse_first, split_compose, unescape_simple_text, unescape_text};
use super::{GameTree, Property, SgfError};
use crate::board::Color;

/// SGF point letters `a..z` then `A..Z` address at most 52 lines.
const MAX_SGF_SIZE: usize = 52;

/// Root properties that [`GameRecord`] reads into its own fields; every other root property is kept in
/// [`GameRecord::extra`]. `FF`, `CA` and `AP` are dropped on purpose: the writer sets its own.
const KNOWN_ROOT: [&str; 21] = [
    "GM", "FF", "CA", "AP", "SZ", "KM", "RU", "HA", "PB", "PW", "DT", "RE", "GN", "GC", "C", "AB", "AW",
    "AE", "PL", "B", "W",
];

/// Soft limit for the length of a line of moves in written files; a node never gets split.
const LINE_WIDTH: usize = 72;

/// One move of the main line.
#[derive(Clone, PartialEq, Debug)]
pub struct RecordMove {
    pub color: Color,
    /// `(x, y)`: column from the left, row from the bottom, both 0-based. `None` is a pass.
    pub at: Option<(usize, usize)>,
    /// The comment (`C`) of the move's node, decoded.
    pub comment: Option<String>,
    /// The mover's clock after the move (`BL`/`WL`, with `OB`/`OW` in overtime), when timed.
    pub time_left: Option<TimeMark>,
    /// War Go's drop or piece move as its move word (`spy@D4`, `D4-D5`), in the project's own
    /// property `WM`; the node's `B[]`/`W[]` is then empty (a pass to other readers).
    pub war: Option<String>,
}

/// A clock reading after a move, as SGF records it.
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct TimeMark {
    /// Seconds left: main time, or in overtime the period's (`BL`/`WL`).
    pub seconds: f64,
    /// In overtime, the stones left in the Canadian period or the byo-yomi periods left (`OB`/`OW`).
    pub overtime_count: Option<u32>,
}

/// A game of Go as an SGF file records it: game information, setup stones and the main line.
///
/// Points are `(x, y)` with `x` the column from the left and `y` the row from the **bottom**, 0-based,
/// as on a Go board (SGF counts rows from the top; the conversion happens here and only here).
/// Text fields hold decoded text, not SGF escapes.
#[derive(Clone, PartialEq, Debug)]
pub struct GameRecord {
    /// Board size (`SZ`, default 19). Only square boards.
    pub size: usize,
    /// Komi (`KM`); `None` when the file does not say.
    pub komi: Option<f64>,
    /// The rules string (`RU`) as written, e.g. `Japanese` or `stones:threshold=7,compensation=6`;
    /// interpreting it is the rules module's business.
    pub rules: Option<String>,
    /// Number of handicap stones (`HA`), 0 when absent. The stones themselves are in `black_stones`.
    pub handicap: u32,
    /// `PB`.
    pub black_name: Option<String>,
    /// `PW`.
    pub white_name: Option<String>,
    /// `DT`.
    pub date: Option<String>,
    /// `RE`, e.g. `B+R`, `W+3.5`, `0`.
    pub result: Option<String>,
    /// `GN`.
    pub game_name: Option<String>,
    /// `GC`: a comment about the whole game.
    pub game_comment: Option<String>,
    /// `C` of the root node.
    pub root_comment: Option<String>,
    /// Black setup stones (`AB`, minus any `AE`), in file order.
    pub black_stones: Vec<(usize, usize)>,
    /// White setup stones (`AW`, minus any `AE`), in file order.
    pub white_stones: Vec<(usize, usize)>,
    /// Player to move first (`PL`), if the file says.
    pub to_play: Option<Color>,
    /// The main line: the first variation at every branch.
    pub moves: Vec<RecordMove>,
    /// Other root properties (e.g. `EV`, `PC`, `BR`, `TM`), raw, so they survive a round trip.
    pub extra: Vec<Property>,
}

impl Default for GameRecord {
    fn default() -> GameRecord {
        GameRecord::new(19)
    }
}

impl GameRecord {
    /// An empty record for a `size` x `size` board.
    pub fn new(size: usize) -> GameRecord {
        GameRecord {
            size,
            komi: None,
            rules: None,
            handicap: 0,
            black_name: None,
            white_name: None,
            date: None,
            result: None,
            game_name: None,
            game_comment: None,
            root_comment: None,
            black_stones: Vec::new(),
            white_stones: Vec::new(),
            to_play: None,
            moves: Vec::new(),
            extra: Vec::new(),
        }
    }

    /// Reads the first game of an SGF collection. Later games are not even parsed, so a broken one
    /// does not matter. Variations other than the main line are ignored.
    pub fn parse(text: &str) -> Result<GameRecord, SgfError> {
        GameRecord::from_tree(&parse_first(text)?)
    }

    /// Reads file bytes: see [`super::decode`] for the encodings accepted.
    pub fn parse_bytes(bytes: &[u8]) -> Result<GameRecord, SgfError> {
        GameRecord::parse(&super::decode(bytes))
    }

    /// Interprets a parsed game tree.
    ///
    /// Setup (`AB`, `AW`, `AE`) may appear in any node before the first move; setup after a move
    /// would need a position in the middle of the move list, which this record cannot express, so
    /// it is an error rather than silently wrong.
    pub fn from_tree(tree: &GameTree) -> Result<GameRecord, SgfError> {
        let root = tree.nodes.first().ok_or(SgfError::NoGame)?;
        if let Some(gm) = root.value("GM") {
            if gm.trim() != "1" {
                return Err(SgfError::property("GM", gm, "not a game of Go (GM[1])"));
            }
        }
        let mut record = GameRecord::new(match root.value("SZ") {
            Some(raw) => parse_size(raw)?,
            None => 19,
        });

        for property in &root.properties {
            let raw = property.values[0].as_str();
            let simple = || Some(unescape_simple_text(raw));
            match property.id.as_str() {
                "KM" => record.komi = Some(parse_komi(raw)?),
                "RU" => record.rules = simple(),
                "HA" => {
                    record.handicap =
                        raw.trim().parse().map_err(|_| SgfError::property("HA", raw, "not a number"))?
                }
                "PB" => record.black_name = simple(),
                "PW" => record.white_name = simple(),
                "DT" => record.date = simple(),
                "RE" => record.result = simple(),
                "GN" => record.game_name = simple(),
                "GC" => record.game_comment = Some(unescape_text(raw)),
                id if KNOWN_ROOT.contains(&id) => {}
                _ => record.extra.push(property.clone()),
            }
        }

        for (index, node) in tree.main_line().enumerate() {
            for property in &node.properties {
                let id = property.id.as_str();
                match id {
                    "AB" | "AW" | "AE" => {
                        if !record.moves.is_empty() {
                            return Err(SgfError::property(
                                id,
                                &property.values[0],
                                "setup stones after the first move are not supported",
                            ));
                        }
                        for raw in &property.values {
                            for point in parse_point_list(id, raw, record.size)? {
                                record.set_up(id, point);
                            }
                        }
                    }
                    "PL" if record.moves.is_empty() => {
                        let raw = &property.values[0];
                        record.to_play = Some(
                            Color::parse(raw.trim())
                                .ok_or_else(|| SgfError::property("PL", raw, "not a colour"))?,
                        );
                    }
                    _ => {}
                }
            }
            let comment = node.value("C").map(unescape_text);
            let (color, raw) = match (node.value("B"), node.value("W")) {
                (Some(_), Some(w)) => {
                    return Err(SgfError::property("W", w, "a node holds both a black and a white move"))
                }
                (Some(b), None) => (Color::Black, b),
                (None, Some(w)) => (Color::White, w),
                (None, None) => {
                    if index == 0 {
                        record.root_comment = comment;
                    }
                    continue;
                }
            };
            let at = parse_move(color, raw, record.size)?;
            // Clock readings are informative: one that does not read as a finite number is left
            // out (`inf` and `NaN` parse as floats but are no time anyone kept).
            let (left, count) = match color {
                Color::Black => ("BL", "OB"),
                Color::White => ("WL", "OW"),
            };
            let time_left =
                node.value(left).and_then(|v| v.trim().parse::<f64>().ok()).filter(|s| s.is_finite()).map(
                    |seconds| TimeMark {
                        seconds,
                        overtime_count: node.value(count).and_then(|v| v.trim().parse().ok()),
                    },
                );
            let war = node.value("WM").map(unescape_simple_text);
            record.moves.push(RecordMove { color, at, comment, time_left, war });
        }
        Ok(record)
    }

    /// Applies one setup point: a stone replaces whatever stood there, `AE` clears it.
    fn set_up(&mut self, id: &str, point: (usize, usize)) {
        self.black_stones.retain(|&p| p != point);
        self.white_stones.retain(|&p| p != point);
        match id {
            "AB" => self.black_stones.push(point),
            "AW" => self.white_stones.push(point),
            _ => {}
        }
    }

    /// Writes the record as an `FF[4]` SGF game: game information and setup in the root node, then one
    /// node per move, several moves to a line. Passes are written `B[]`, as `FF[4]` prescribes.
    ///
    /// Points must lie on the board; this writes what it is given.
    pub fn to_sgf(&self) -> String {
        let mut out = String::with_capacity(64 + 8 * self.moves.len());
        out.push_str(concat!("(;GM[1]FF[4]CA[UTF-8]AP[tengen:", env!("CARGO_PKG_VERSION"), "]"));
        out.push_str(&format!("SZ[{}]", self.size));
        if let Some(komi) = self.komi {
            out.push_str(&format!("KM[{komi}]"));
        }
        if self.handicap > 0 {
            out.push_str(&format!("HA[{}]", self.handicap));
        }
        let texts = [
            ("RU", &self.rules),
            ("PB", &self.black_name),
            ("PW", &self.white_name),
            ("DT", &self.date),
            ("RE", &self.result),
            ("GN", &self.game_name),
            ("GC", &self.game_comment),
        ];
        for (id, text) in texts {
            if let Some(text) = text {
                push_property(&mut out, id, text);
            }
        }
        if let Some(color) = self.to_play {
            out.push_str(&format!("PL[{}]", color.letter()));
        }
        for property in &self.extra {
            out.push_str(&property.id);
            for value in &property.values {
                out.push_str(&format!("[{value}]"));
            }
        }
        if let Some(comment) = &self.root_comment {
            push_property(&mut out, "C", comment);
        }
        for (id, stones) in [("AB", &self.black_stones), ("AW", &self.white_stones)] {
            if !stones.is_empty() {
                out.push('\n');
                out.push_str(id);
                for &point in stones {
                    out.push('[');
                    self.push_point(&mut out, point);
                    out.push(']');
                }
            }
        }

        let mut line_len = 0;
        for m in &self.moves {
            let mut node = String::with_capacity(8);
            node.push(';');
            node.push(m.color.letter());
            node.push('[');
            if let Some(point) = m.at {
                self.push_point(&mut node, point);
            }
            node.push(']');
            if let Some(mark) = m.time_left {
                let (left, count) = match m.color {
                    Color::Black => ("BL", "OB"),
                    Color::White => ("WL", "OW"),
                };
                node.push_str(&format!("{left}[{:.3}]", mark.seconds));
                if let Some(n) = mark.overtime_count {
                    node.push_str(&format!("{count}[{n}]"));
                }
            }
            if let Some(word) = &m.war {
                push_property(&mut node, "WM", word);
            }
            if let Some(comment) = &m.comment {
                push_property(&mut node, "C", comment);
            }
            if line_len == 0 || line_len + node.len() > LINE_WIDTH {
                out.push('\n');
                line_len = 0;
            }
            out.push_str(&node);
            line_len += node.len();
            // A comment spreads over lines of its own; start the next move on a fresh one.
            if m.comment.is_some() {
                line_len = 0;
            }
        }
        out.push_str(")\n");
        out
    }

    fn push_point(&self, out: &mut String, (x, y): (usize, usize)) {
        debug_assert!(x < self.size && y < self.size, "point {x},{y} off a {} board", self.size);
        out.push(point_letter(x));
        out.push(point_letter((self.size - 1).saturating_sub(y)));
    }
}

fn push_property(out: &mut String, id: &str, text: &str) {
    out.push_str(id);
    out.push('[');
    out.push_str(&escape_text(text));
    out.push(']');
}

fn point_letter(index: usize) -> char {
    match index {
        0..=25 => char::from(b'a' + index as u8),
        26..=51 => char::from(b'A' + (index - 26) as u8),
        _ => '?',
    }
}

fn letter_index(letter: u8) -> Option<usize> {
    match letter {
        b'a'..=b'z' => Some(usize::from(letter - b'a')),
        b'A'..=b'Z' => Some(usize::from(letter - b'A') + 26),
        _ => None,
    }
}

/// `SZ[19]` or the FF[4] form `SZ[cols:rows]`, which must be square here.
fn parse_size(raw: &str) -> Result<usize, SgfError> {
    let number = |s: &str| {
        s.trim()
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_SGF_SIZE).contains(n))
            .ok_or_else(|| SgfError::property("SZ", raw, "board size must be a number from 1 to 52"))
    };
    match split_compose(raw) {
        None => number(raw),
        Some((cols, rows)) => {
            let (cols, rows) = (number(cols)?, number(rows)?);
            if cols != rows {
                return Err(SgfError::property("SZ", raw, "only square boards are supported"));
            }
            Ok(cols)
        }
    }
}

fn parse_komi(raw: &str) -> Result<f64, SgfError> {
    // Some European files write a decimal comma.
    raw.trim()
        .replace(',', ".")
        .parse::<f64>()
        .ok()
        .filter(|k| k.is_finite())
        .ok_or_else(|| SgfError::property("KM", raw, "komi is not a number"))
}

/// A point `xy`, converted to `(column, row from the bottom)`.
fn parse_point(id: &str, raw: &str, size: usize) -> Result<(usize, usize), SgfError> {
    let bad = |message| SgfError::property(id, raw, message);
    let &[col, row] = raw.trim().as_bytes() else {
        return Err(bad("a point is two letters"));
    };
    let (Some(x), Some(row)) = (letter_index(col), letter_index(row)) else {
        return Err(bad("a point is two letters"));
    };
    if x >= size || row >= size {
        return Err(bad("point off the board"));
    }
    Ok((x, size - 1 - row))
}

/// A move value: empty is a pass, and so is `tt` on boards up to 19x19 (the FF[3] convention).
fn parse_move(color: Color, raw: &str, size: usize) -> Result<Option<(usize, usize)>, SgfError> {
    let value = raw.trim();
    if value.is_empty() || (value == "tt" && size <= 19) {
        return Ok(None);
    }
    parse_point(&color.letter().to_string(), value, size).map(Some)
}

/// One value of a point list: a point, or a compressed rectangle `aa:cc` given by two corners.
fn parse_point_list(id: &str, raw: &str, size: usize) -> Result<Vec<(usize, usize)>, SgfError> {
    match split_compose(raw) {
        None => Ok(vec![parse_point(id, raw, size)?]),
        Some((a, b)) => {
            let (a, b) = (parse_point(id, a, size)?, parse_point(id, b, size)?);
            let (xs, ys) = (a.0.min(b.0)..=a.0.max(b.0), a.1.min(b.1)..=a.1.max(b.1));
            // Rows from the top, as a reader of the file would list them.
            Ok(ys.rev().flat_map(|y| xs.clone().map(move |x| (x, y))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mv(color: Color, at: Option<(usize, usize)>) -> RecordMove {
        RecordMove { color, at, comment: None, time_left: None, war: None }
    }

    #[test]
    fn game_info_and_moves() {
        let text = "(;GM[1]FF[4]SZ[9]KM[6.5]RU[Japanese]PB[Black \\] Guy]PW[White]DT[2024-01-02]RE[W+R]\
                    GN[test]GC[about\nthe game]EV[Cup]C[root]\n;B[ee]C[center];W[ci];B[];W[tt])";
        let r = GameRecord::parse(text).unwrap();
        assert_eq!(r.size, 9);
        assert_eq!(r.komi, Some(6.5));
        assert_eq!(r.rules.as_deref(), Some("Japanese"));
        assert_eq!(r.black_name.as_deref(), Some("Black ] Guy"));
        assert_eq!(r.white_name.as_deref(), Some("White"));
        assert_eq!(r.date.as_deref(), Some("2024-01-02"));
        assert_eq!(r.result.as_deref(), Some("W+R"));
        assert_eq!(r.game_name.as_deref(), Some("test"));
        assert_eq!(r.game_comment.as_deref(), Some("about\nthe game"));
        assert_eq!(r.root_comment.as_deref(), Some("root"));
        assert_eq!(r.extra, [Property::new("EV", vec!["Cup".into()])]);
        assert_eq!(
            r.moves,
            [
                RecordMove {
                    color: Color::Black,
                    at: Some((4, 4)),
                    comment: Some("center".into()),
                    time_left: None,
                    war: None,
                },
                // `ci`: third column, bottom row of a 9x9 board.
                mv(Color::White, Some((2, 0))),
                mv(Color::Black, None),
                mv(Color::White, None),
            ]
        );
    }

    #[test]
    fn coordinates_count_rows_from_the_bottom() {
        let r = GameRecord::parse("(;SZ[19];B[aa];W[as];B[sa];W[pd])").unwrap();
        let at: Vec<_> = r.moves.iter().map(|m| m.at.unwrap()).collect();
        // aa = top-left = A19; as = bottom-left = A1; sa = top-right = T19; pd = Q16.
        assert_eq!(at, [(0, 18), (0, 0), (18, 18), (15, 15)]);
    }

    #[test]
    fn defaults() {
        let r = GameRecord::parse("(;)").unwrap();
        assert_eq!(r, GameRecord::new(19));
    }

    #[test]
    fn tt_is_a_point_on_big_boards() {
        let r = GameRecord::parse("(;SZ[21];B[tt];W[])").unwrap();
        assert_eq!(r.moves, [mv(Color::Black, Some((19, 1))), mv(Color::White, None)]);
    }

    #[test]
    fn setup_compressed_lists_and_ae() {
        let r = GameRecord::parse("(;SZ[5]AB[aa:bb][ee]AW[cc]PL[w];AE[ba][cc]AW[dd];W[ae])").unwrap();
        // aa:bb covers a5 b5 a4 b4; AE then clears b5 and the white c3.
        assert_eq!(r.black_stones, [(0, 4), (0, 3), (1, 3), (4, 0)]);
        assert_eq!(r.white_stones, [(3, 1)]);
        assert_eq!(r.to_play, Some(Color::White));
        assert_eq!(r.moves, [mv(Color::White, Some((0, 0)))]);
        // Corners may come in any order.
        let r = GameRecord::parse("(;SZ[5]AB[bb:aa])").unwrap();
        assert_eq!(r.black_stones, [(0, 4), (1, 4), (0, 3), (1, 3)]);
    }

    #[test]
    fn main_line_follows_first_variations() {
        let r = GameRecord::parse("(;SZ[9];B[aa](;W[bb](;B[cc])(;B[dd]))(;W[ee];B[ff]))").unwrap();
        let at: Vec<_> = r.moves.iter().map(|m| m.at.unwrap()).collect();
        assert_eq!(at, [(0, 8), (1, 7), (2, 6)]);
    }

    #[test]
    fn square_sizes_only() {
        assert_eq!(GameRecord::parse("(;SZ[13:13])").unwrap().size, 13);
        for bad in ["(;SZ[9:13])", "(;SZ[0])", "(;SZ[53])", "(;SZ[x])", "(;SZ[9:])"] {
            assert!(matches!(GameRecord::parse(bad), Err(SgfError::Property { .. })), "{bad}");
        }
    }

    #[test]
    fn property_errors() {
        for bad in [
            "(;GM[2])",
            "(;KM[seven])",
            "(;HA[-1])",
            "(;PL[x])",
            "(;SZ[9];B[jj])",
            "(;SZ[9];B[a])",
            "(;SZ[9];B[a1])",
            "(;B[aa]W[bb])",
            "(;SZ[9];AB[aj])",
            "(;SZ[9];AB[])",
            "(;B[aa];AB[bb])",
            "(;SZ[19];AB[tt])",
        ] {
            assert!(matches!(GameRecord::parse(bad), Err(SgfError::Property { .. })), "{bad}");
        }
        assert_eq!(GameRecord::parse("no sgf"), Err(SgfError::NoGame));
    }

    #[test]
    fn lenient_where_harmless() {
        let r = GameRecord::parse("(;KM[ 5,5 ]HA[ 2 ]AB[dd]AB[pp];B[ dd ])").unwrap();
        assert_eq!(r.komi, Some(5.5));
        assert_eq!(r.handicap, 2);
        assert_eq!(r.black_stones, [(3, 15), (15, 3)]);
        assert_eq!(r.moves[0].at, Some((3, 15)));
        // A broken second game does not stop the first from loading.
        assert!(GameRecord::parse("(;SZ[9];B[aa])(;B[").is_ok());
    }

    fn sample() -> GameRecord {
        let mut r = GameRecord::new(19);
        r.komi = Some(0.5);
        r.rules = Some("stones:threshold=7,compensation=6".into());
        r.handicap = 2;
        r.black_name = Some("tengen [a] \\ b".into());
        r.white_name = Some("GNU Go 3.8".into());
        r.date = Some("2025-01-01".into());
        r.result = Some("B+12.5".into());
        r.game_name = Some("round trip".into());
        r.game_comment = Some("line one\nline ] two \\".into());
        r.root_comment = Some("handicap 2".into());
        r.black_stones = vec![(3, 3), (15, 15)];
        r.to_play = Some(Color::White);
        r.extra = vec![Property::new("EV", vec!["Test Cup".into()]), Property::new("TM", vec!["600".into()])];
        for i in 0..150 {
            let at = if i % 37 == 5 { None } else { Some((i % 19, (i * 7) % 19)) };
            let comment = match i % 50 {
                3 => Some("a ] bracket and a \\ backslash\nand a newline".to_string()),
                4 => Some(String::new()),
                _ => None,
            };
            let color = if i % 2 == 0 { Color::White } else { Color::Black };
            let time_left = match i % 3 {
                0 => Some(TimeMark { seconds: 600.0 - i as f64 * 1.25, overtime_count: None }),
                1 => Some(TimeMark { seconds: 30.0, overtime_count: Some(i as u32 % 5 + 1) }),
                _ => None,
            };
            r.moves.push(RecordMove { color, at, comment, time_left, war: None });
        }
        r
    }

    #[test]
    fn round_trip() {
        let r = sample();
        let text = r.to_sgf();
        assert_eq!(GameRecord::parse(&text).unwrap(), r);
        for r in [GameRecord::new(9), GameRecord::new(52), GameRecord::new(1)] {
            assert_eq!(GameRecord::parse(&r.to_sgf()).unwrap(), r);
        }
        let mut big = GameRecord::new(25);
        big.moves =
            vec![mv(Color::Black, Some((24, 0))), mv(Color::White, Some((19, 1))), mv(Color::Black, None)];
        assert_eq!(GameRecord::parse(&big.to_sgf()).unwrap(), big);
    }

    #[test]
    fn clock_readings_that_are_no_time_are_left_out() {
        let r = GameRecord::parse("(;SZ[9];B[aa]BL[12.5]OB[3];W[bb]WL[inf];B[cc]BL[NaN];W[dd]WL[soon]OW[2])")
            .unwrap();
        let marks: Vec<_> = r.moves.iter().map(|m| m.time_left).collect();
        assert_eq!(marks, vec![Some(TimeMark { seconds: 12.5, overtime_count: Some(3) }), None, None, None]);
    }

    /// Every input must give a record or an error, never a panic.
    fn parse_anything(bytes: &[u8]) {
        let text = crate::sgf::decode(bytes);
        let _ = GameRecord::parse(&text);
        let _ = crate::sgf::parse_collection(&text);
    }

    #[test]
    fn fuzz_truncations_and_random_bytes() {
        let text = sample().to_sgf();
        for end in 0..text.len() {
            parse_anything(&text.as_bytes()[..end]);
        }
        // xorshift64: a fixed seed keeps failures reproducible without a dependency.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        // Mostly SGF's own characters, so the parser gets deep rather than failing at the first byte.
        let alphabet = b"()[];\\:\n ABWCKMSZHPLEacdtz19.\xc3\xa9\xff";
        for _ in 0..3000 {
            let len = (next() % 80) as usize;
            let bytes: Vec<u8> =
                (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect();
            parse_anything(&bytes);
            let mut mutated = text.as_bytes().to_vec();
            for _ in 0..1 + next() % 4 {
                let i = (next() % mutated.len() as u64) as usize;
                mutated[i] = alphabet[(next() % alphabet.len() as u64) as usize];
            }
            parse_anything(&mutated);
        }
    }

    #[test]
    fn written_layout() {
        let mut r = GameRecord::new(9);
        r.komi = Some(7.0);
        r.rules = Some("stones:threshold=7,compensation=6".into());
        r.black_stones = vec![(2, 2)];
        r.moves = vec![mv(Color::Black, Some((4, 4))), mv(Color::White, None)];
        let version = env!("CARGO_PKG_VERSION");
        assert_eq!(
            r.to_sgf(),
            format!(
                "(;GM[1]FF[4]CA[UTF-8]AP[tengen:{version}]SZ[9]KM[7]RU[stones:threshold=7,compensation=6]\n\
                 AB[cg]\n;B[ee];W[])\n"
            )
        );
        let long = sample().to_sgf();
        for line in long.lines().filter(|l| l.starts_with(";B") || l.starts_with(";W")) {
            assert!(line.len() <= LINE_WIDTH || line.contains("C["), "{line}");
        }
    }
}
