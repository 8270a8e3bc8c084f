//! The SGF syntax: collections, game trees, nodes and properties, with a reader and a writer.
//!
//! Grammar (FF[4]): `Collection = GameTree+`, `GameTree = "(" Node+ GameTree* ")"`,
//! `Node = ";" Property*`, `Property = Ident ("[" Value "]")+`, whitespace allowed between tokens.

use super::SgfError;

/// Deepest nesting of variations accepted. The parser, the writer and `Drop` all recurse once per
/// level, so a hostile file of a million `(` must be refused rather than overflow the stack.
pub const MAX_DEPTH: usize = 1000;

/// One property: an identifier and its values.
///
/// Values are stored raw, exactly as between the brackets in the file (`\]` and `\\` still escaped),
/// because how to decode a value depends on its type (text, simple text, compose `a:b`) and an
/// escaped `\:` must stay distinguishable from a compose separator. Use [`unescape_text`],
/// [`unescape_simple_text`] and [`split_compose`] to read them, [`escape_text`] to build them.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Property {
    /// Upper-case identifier, e.g. `AB`. Old `FF[3]` spellings such as `AddBlack` are reduced to
    /// their capitals when read.
    pub id: String,
    /// Raw values; never empty in a parsed tree.
    pub values: Vec<String>,
}

impl Property {
    /// A property from raw (already escaped) values.
    pub fn new(id: impl Into<String>, values: Vec<String>) -> Property {
        Property { id: id.into(), values }
    }

    /// A property with one text value, escaped here.
    pub fn text(id: impl Into<String>, text: &str) -> Property {
        Property { id: id.into(), values: vec![escape_text(text)] }
    }
}

/// A node: the properties between one `;` and the next.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct Node {
    pub properties: Vec<Property>,
}

impl Node {
    /// The first property named `id`.
    pub fn get(&self, id: &str) -> Option<&Property> {
        self.properties.iter().find(|p| p.id == id)
    }

    /// The first raw value of the first property named `id`.
    pub fn value(&self, id: &str) -> Option<&str> {
        self.get(id).and_then(|p| p.values.first()).map(String::as_str)
    }

    /// All raw values of every property named `id`: `FF[4]` forbids repeating an identifier in a node,
    /// but old files do it (`AB[aa]AB[bb]`) and the intent is plain.
    pub fn values<'a>(&'a self, id: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.properties.iter().filter(move |p| p.id == id).flat_map(|p| p.values.iter().map(String::as_str))
    }
}

/// A game tree: a sequence of nodes, then the variations that branch from its last node.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct GameTree {
    /// Never empty in a parsed tree.
    pub nodes: Vec<Node>,
    pub variations: Vec<GameTree>,
}

impl GameTree {
    /// The main line: this tree's nodes, then those of the first variation at every branch.
    pub fn main_line(&self) -> MainLine<'_> {
        MainLine { tree: self, index: 0 }
    }

    /// The tree as SGF text: one `(...)` game, each variation on a new line.
    pub fn to_sgf(&self) -> String {
        let mut out = String::new();
        self.write(&mut out);
        out.push('\n');
        out
    }

    fn write(&self, out: &mut String) {
        out.push('(');
        for node in &self.nodes {
            out.push(';');
            for property in &node.properties {
                out.push_str(&property.id);
                for value in &property.values {
                    out.push('[');
                    out.push_str(value);
                    out.push(']');
                }
            }
        }
        for variation in &self.variations {
            out.push('\n');
            variation.write(out);
        }
        out.push(')');
    }
}

/// Iterator over the main line of a [`GameTree`].
pub struct MainLine<'a> {
    tree: &'a GameTree,
    index: usize,
}

impl<'a> Iterator for MainLine<'a> {
    type Item = &'a Node;

    fn next(&mut self) -> Option<&'a Node> {
        while self.index >= self.tree.nodes.len() {
            self.tree = self.tree.variations.first()?;
            self.index = 0;
        }
        self.index += 1;
        Some(&self.tree.nodes[self.index - 1])
    }
}

/// Reads every game tree of a collection. Junk before, between and after the games is skipped,
/// as is a byte-order mark.
pub fn parse_collection(text: &str) -> Result<Vec<GameTree>, SgfError> {
    let mut parser = Parser::new(text);
    let mut trees = Vec::new();
    while let Some(tree) = parser.next_tree() {
        trees.push(tree?);
    }
    if trees.is_empty() {
        return Err(SgfError::NoGame);
    }
    Ok(trees)
}

/// Reads only the first game tree, so that a broken later game does not stop loading the first.
pub(crate) fn parse_first(text: &str) -> Result<GameTree, SgfError> {
    Parser::new(text).next_tree().unwrap_or(Err(SgfError::NoGame))
}

/// Writes a collection, one game tree after another.
pub fn write_collection(trees: &[GameTree]) -> String {
    trees.iter().map(GameTree::to_sgf).collect()
}

/// Turns file bytes into text: UTF-8 if they are valid UTF-8 (a BOM is dropped), otherwise
/// ISO-8859-1, the `FF[4]` default charset and the usual encoding of old non-UTF-8 files. Latin-1
/// maps every byte to a character, so this never fails.
pub fn decode(bytes: &[u8]) -> String {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// Escapes text for a property value: `\` and `]` get a backslash. `:` is left alone: only compose
/// values need it escaped, and we never write free text into one.
pub fn escape_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if c == '\\' || c == ']' {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Decodes a raw Text value (comments): a backslash followed by a line break is a soft line break and
/// disappears, any other escaped character stands for itself, line breaks become `\n`, and other
/// white space becomes a space, as `FF[4]` prescribes.
pub fn unescape_text(raw: &str) -> String {
    unescape(raw, false)
}

/// Decodes a raw SimpleText value (names, rules, results): like [`unescape_text`], but line breaks
/// become spaces too.
pub fn unescape_simple_text(raw: &str) -> String {
    unescape(raw, true)
}

fn unescape(raw: &str, simple: bool) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars().peekable();
    while let Some(c) = chars.next() {
        let escaped = c == '\\';
        let c = if escaped {
            match chars.next() {
                Some(next) => next,
                None => break,
            }
        } else {
            c
        };
        if c == '\r' || c == '\n' {
            // A line break is "\r\n", "\n\r", "\n" or "\r": swallow the partner of a two-char one.
            let partner = if c == '\r' { '\n' } else { '\r' };
            if chars.peek() == Some(&partner) {
                chars.next();
            }
            if !escaped {
                out.push(if simple { ' ' } else { '\n' });
            }
        } else if c.is_whitespace() && c != ' ' {
            out.push(' ');
        } else {
            out.push(c);
        }
    }
    out
}

/// Splits a raw compose value `a:b` at its first unescaped colon.
pub fn split_compose(raw: &str) -> Option<(&str, &str)> {
    let bytes = raw.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b':' => return Some((&raw[..i], &raw[i + 1..])),
            _ => i += 1,
        }
    }
    None
}

/// Recursive-descent parser over bytes. Every position where it slices the text sits next to an ASCII
/// delimiter, so slices always fall on character boundaries.
struct Parser<'a> {
    text: &'a str,
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Parser<'a> {
    fn new(text: &'a str) -> Parser<'a> {
        Parser { text, bytes: text.as_bytes(), pos: 0 }
    }

    fn error(&self, offset: usize, message: &'static str) -> SgfError {
        SgfError::syntax(self.text, offset, message)
    }

    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.pos).copied()
    }

    fn skip_whitespace(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    /// The next game tree, or `None` when only junk remains. A game starts at a `(` followed by `;`
    /// (white space allowed), so a stray parenthesis in a header or a mail signature is not one.
    fn next_tree(&mut self) -> Option<Result<GameTree, SgfError>> {
        loop {
            let open = self.pos + self.bytes.get(self.pos..)?.iter().position(|&b| b == b'(')?;
            self.pos = open + 1;
            self.skip_whitespace();
            if self.peek() == Some(b';') {
                self.pos = open;
                return Some(self.game_tree(1));
            }
        }
    }

    fn game_tree(&mut self, depth: usize) -> Result<GameTree, SgfError> {
        if depth > MAX_DEPTH {
            return Err(self.error(self.pos, "variations nested too deeply"));
        }
        debug_assert_eq!(self.peek(), Some(b'('));
        self.pos += 1;
        let mut tree = GameTree::default();
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b';') {
                break;
            }
            self.pos += 1;
            tree.nodes.push(self.node()?);
        }
        if tree.nodes.is_empty() {
            return Err(self.error(self.pos, "a game tree must start with a node (';')"));
        }
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some(b'(') => tree.variations.push(self.game_tree(depth + 1)?),
                Some(b')') => {
                    self.pos += 1;
                    return Ok(tree);
                }
                None => return Err(self.error(self.pos, "unexpected end of input: missing ')'")),
                Some(_) => return Err(self.error(self.pos, "expected a property, ';', '(' or ')'")),
            }
        }
    }

    fn node(&mut self) -> Result<Node, SgfError> {
        let mut node = Node::default();
        loop {
            self.skip_whitespace();
            match self.peek() {
                Some(b) if b.is_ascii_alphabetic() => node.properties.push(self.property()?),
                _ => return Ok(node),
            }
        }
    }

    fn property(&mut self) -> Result<Property, SgfError> {
        let start = self.pos;
        let mut id = String::new();
        while let Some(b) = self.peek().filter(u8::is_ascii_alphabetic) {
            // FF[3] allowed lower-case letters in identifiers ("AddBlack"); only the capitals count.
            if b.is_ascii_uppercase() {
                id.push(char::from(b));
            }
            self.pos += 1;
        }
        if id.is_empty() {
            return Err(self.error(start, "property identifier without an upper-case letter"));
        }
        let mut values = Vec::new();
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'[') {
                break;
            }
            values.push(self.value()?);
        }
        if values.is_empty() {
            return Err(self.error(self.pos, "property without a value ('[' expected)"));
        }
        Ok(Property { id, values })
    }

    fn value(&mut self) -> Result<String, SgfError> {
        let open = self.pos;
        let mut i = open + 1;
        while i < self.bytes.len() {
            match self.bytes[i] {
                // Skipping one byte is enough even before a multi-byte character: its continuation
                // bytes are never `]` or `\`.
                b'\\' => i += 2,
                b']' => {
                    self.pos = i + 1;
                    return Ok(self.text[open + 1..i].to_string());
                }
                _ => i += 1,
            }
        }
        Err(self.error(open, "unterminated property value (missing ']')"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn first(text: &str) -> GameTree {
        parse_collection(text).unwrap().remove(0)
    }

    #[test]
    fn nodes_properties_and_values() {
        let tree = first("(;FF[4]SZ[9];B[aa];W[bb]AB[cc][dd])");
        assert_eq!(tree.nodes.len(), 3);
        assert_eq!(tree.nodes[0].value("SZ"), Some("9"));
        assert_eq!(tree.nodes[2].get("AB").unwrap().values, ["cc", "dd"]);
        assert!(tree.variations.is_empty());
    }

    #[test]
    fn whitespace_between_tokens() {
        let tree = first(" \n( \r\n ; FF [4] \t SZ\n[9]\n; B [aa] [bb] \n)\n");
        assert_eq!(tree.nodes[0].value("FF"), Some("4"));
        assert_eq!(tree.nodes[1].get("B").unwrap().values, ["aa", "bb"]);
    }

    #[test]
    fn old_style_identifiers_keep_only_capitals() {
        let tree = first("(;GaMe[1]AddBlack[aa][bb]AddWhite[cc]Comment[hi])");
        let ids: Vec<&str> = tree.nodes[0].properties.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["GM", "AB", "AW", "C"]);
    }

    #[test]
    fn escapes_are_kept_raw_and_decoded_on_demand() {
        let tree = first(r"(;C[a \] b \\ c \: d]GN[x\\])");
        let raw = tree.nodes[0].value("C").unwrap();
        assert_eq!(raw, r"a \] b \\ c \: d");
        assert_eq!(unescape_text(raw), r"a ] b \ c : d");
        assert_eq!(unescape_text(tree.nodes[0].value("GN").unwrap()), r"x\");
    }

    #[test]
    fn soft_and_hard_line_breaks() {
        assert_eq!(unescape_text("one\\\ntwo\nthree\\\r\nfour\r\nfive\rsix"), "onetwo\nthreefour\nfive\nsix");
        assert_eq!(unescape_simple_text("Lee\\\nSedol\nJr\r\nX\tY"), "LeeSedol Jr X Y");
        assert_eq!(unescape_text("trailing\\"), "trailing");
    }

    #[test]
    fn escape_round_trips_through_unescape() {
        for text in ["plain", r"a]b\c", r"\\]]", "x:y", "multi\nline", "ünïcødé 囲碁"] {
            assert_eq!(unescape_text(&escape_text(text)), text);
        }
    }

    #[test]
    fn compose_values_split_at_unescaped_colon() {
        assert_eq!(split_compose("aa:cc"), Some(("aa", "cc")));
        assert_eq!(split_compose(r"a\:b:c"), Some((r"a\:b", "c")));
        assert_eq!(split_compose("aa"), None);
        assert_eq!(split_compose("\\"), None);
    }

    #[test]
    fn variations_and_main_line() {
        let tree = first("(;SZ[9];B[aa](;W[bb];B[cc](;W[dd])(;W[ee]))(;W[ff]))");
        assert_eq!(tree.variations.len(), 2);
        let main: Vec<&str> =
            tree.main_line().filter_map(|n| n.value("B").or_else(|| n.value("W"))).collect();
        assert_eq!(main, ["aa", "bb", "cc", "dd"]);
    }

    #[test]
    fn several_games_bom_and_junk() {
        let text = "\u{FEFF}From: someone (a friend)\n(;GN[one])\njunk ( not a game\n(;GN[two]) trailer";
        let trees = parse_collection(text).unwrap();
        assert_eq!(trees.len(), 2);
        assert_eq!(trees[1].nodes[0].value("GN"), Some("two"));
    }

    #[test]
    fn writer_round_trips() {
        let text = "(;FF[4]C[a \\] b\n c];B[aa]\n(;W[bb])\n(;W[cc];B[dd]))\n";
        let trees = parse_collection(text).unwrap();
        assert_eq!(write_collection(&trees), text);
        assert_eq!(parse_collection(&write_collection(&trees)).unwrap(), trees);
    }

    fn syntax_message(text: &str) -> &'static str {
        match parse_collection(text) {
            Err(SgfError::Syntax { message, .. }) => message,
            other => panic!("expected a syntax error for {text:?}, got {other:?}"),
        }
    }

    #[test]
    fn errors() {
        assert_eq!(parse_collection(""), Err(SgfError::NoGame));
        assert_eq!(parse_collection("no game (here)"), Err(SgfError::NoGame));
        assert!(syntax_message("(;B[aa]").contains("missing ')'"));
        assert!(syntax_message("(;C[never closed)").contains("unterminated"));
        assert!(syntax_message("(;B)").contains("without a value"));
        assert!(syntax_message("(;B[aa]7)").contains("expected"));
        assert!(syntax_message("(;b[aa])").contains("upper-case"));
        assert!(syntax_message("(;B[aa]();W[bb])").contains("must start with a node"));
    }

    #[test]
    fn error_positions_count_lines_and_characters() {
        match parse_collection("(;GN[é]\n  ;B[aa]\n  7)") {
            Err(SgfError::Syntax { line, column, offset, .. }) => {
                assert_eq!((line, column), (3, 3));
                assert_eq!(offset, "(;GN[é]\n  ;B[aa]\n  ".len());
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn deep_nesting_is_refused_not_a_stack_overflow() {
        let deep = format!("{}{}", "(;".repeat(100_000), ")".repeat(100_000));
        assert!(syntax_message(&deep).contains("nested too deeply"));
        let ok = format!("{}{}", "(;".repeat(MAX_DEPTH), ")".repeat(MAX_DEPTH));
        assert!(parse_collection(&ok).is_ok());
    }

    #[test]
    fn decode_handles_bom_and_latin1() {
        assert_eq!(decode(b"\xEF\xBB\xBF(;)"), "(;)");
        assert_eq!(decode(b"(;PB[Jos\xe9])"), "(;PB[José])");
        assert_eq!(decode("(;PB[José])".as_bytes()), "(;PB[José])");
    }
}
