//! Reading GTP input: cleaning raw bytes into commands, and the reader thread that lets a long command
//! notice that new input (or GoGui's `# interrupt`) has arrived.

use std::io::BufRead;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::sync::Arc;

/// Longest line we keep; the rest of a longer line is read and dropped, so it still gets one answer.
pub const MAX_LINE: usize = 1 << 20;

/// One command: optional numeric id, name, arguments.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Command {
    pub id: Option<String>,
    pub name: String,
    pub args: Vec<String>,
}

/// What a raw input line turned out to be.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Line {
    /// Nothing to answer: empty, or only a comment.
    Blank,
    /// GoGui's `# interrupt`: stop the command running now.
    Interrupt,
    Command(Command),
}

/// Cleans one raw line as GTP asks: drop `\r` and control characters except `\t` (which becomes a
/// space), cut the comment after `#` (recognising `# interrupt` first), split off a numeric id.
pub fn parse_line(raw: &[u8]) -> Line {
    let text = String::from_utf8_lossy(raw);
    let cleaned: String = text
        .chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect();
    if cleaned.trim() == "# interrupt" {
        return Line::Interrupt;
    }
    let body = match cleaned.find('#') {
        Some(i) => &cleaned[..i],
        None => &cleaned[..],
    };
    let mut words = body.split_whitespace();
    let Some(first) = words.next() else { return Line::Blank };
    let (id, name) = if first.bytes().all(|b| b.is_ascii_digit()) {
        (Some(first.to_string()), words.next().unwrap_or("").to_string())
    } else {
        (None, first.to_string())
    };
    Line::Command(Command { id, name, args: words.map(str::to_string).collect() })
}

/// Reads one line of at most `MAX_LINE` bytes (dropping the excess); `None` at end of input.
pub fn read_capped_line(input: &mut impl BufRead, buf: &mut Vec<u8>) -> std::io::Result<Option<()>> {
    buf.clear();
    let mut any = false;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(any.then_some(()));
        }
        any = true;
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = MAX_LINE.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        input.consume(take);
        if done {
            return Ok(Some(()));
        }
    }
}

/// State shared between the reader thread and the command loop.
///
/// Commands are numbered 1, 2, ... in the order the reader queues them. `# interrupt` applies to every
/// command read before it, so that an interrupt that overtakes the command loop (GoGui sends it right
/// after `genmove`, possibly before the loop has even taken `genmove` off the queue) is not lost, and one
/// that arrives after its command was answered does not leak into the next command.
#[derive(Default, Debug)]
pub struct Control {
    /// Commands queued by the reader so far.
    read: AtomicU64,
    /// Number of the command the loop is running now (0 before the first).
    current: AtomicU64,
    /// Commands up to this number are interrupted (0: none).
    interrupt_upto: AtomicU64,
    /// Commands up to this number saw a blank or comment line arrive after them: such a line has no
    /// answer, but like KataGo we let it end an analysis.
    nudge_upto: AtomicU64,
    /// The reader has reached end of input: nothing more will come, so long commands should end.
    eof: AtomicBool,
}

impl Control {
    /// Has any new input line (or the end of input) arrived since the current command started?
    /// Analysis stops on it; the new command is then answered normally.
    pub fn input_waiting(&self) -> bool {
        let current = self.current.load(Ordering::Acquire);
        self.read.load(Ordering::Acquire) > current
            || (current > 0 && self.nudge_upto.load(Ordering::Acquire) >= current)
            || self.eof.load(Ordering::Acquire)
    }

    /// Has GoGui asked (`# interrupt`) to interrupt the current command?
    pub fn interrupted(&self) -> bool {
        let current = self.current.load(Ordering::Acquire);
        current > 0 && self.interrupt_upto.load(Ordering::Acquire) >= current
    }

    /// Should a long command that stops on input (analysis, pondering) stop now?
    pub fn should_stop(&self) -> bool {
        self.input_waiting() || self.interrupted()
    }

    /// The command loop has taken the next command off the queue.
    pub(crate) fn taken(&self) {
        self.current.fetch_add(1, Ordering::AcqRel);
    }

    /// The reader queued a command.
    fn queued(&self) {
        self.read.fetch_add(1, Ordering::AcqRel);
    }

    /// The reader saw `# interrupt`: every command read so far is interrupted.
    fn interrupt(&self) {
        self.interrupt_upto.store(self.read.load(Ordering::Acquire), Ordering::Release);
    }

    /// The reader saw a line without a command (empty, or only a comment).
    fn nudge(&self) {
        self.nudge_upto.store(self.read.load(Ordering::Acquire), Ordering::Release);
    }

    fn end_of_input(&self) {
        self.eof.store(true, Ordering::Release);
    }
}

/// Starts the reader thread: it parses lines and queues commands; `# interrupt` sets the flag at once.
/// The channel closes at end of input, which the command loop treats as `quit`.
pub fn spawn_reader(mut input: impl BufRead + Send + 'static, control: Arc<Control>) -> Receiver<Command> {
    let (tx, rx): (Sender<Command>, Receiver<Command>) = std::sync::mpsc::channel();
    std::thread::Builder::new()
        .name("gtp-reader".into())
        .spawn(move || {
            let mut buf = Vec::new();
            while let Ok(Some(())) = read_capped_line(&mut input, &mut buf) {
                match parse_line(&buf) {
                    Line::Blank => control.nudge(),
                    Line::Interrupt => control.interrupt(),
                    Line::Command(c) => {
                        // Counted before it is sent, so the loop never takes a command it has not
                        // been told about (that would make `input_waiting` miss a later one).
                        control.queued();
                        if tx.send(c).is_err() {
                            return;
                        }
                    }
                }
            }
            control.end_of_input();
        })
        .expect("spawning the GTP reader thread");
    rx
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(id: Option<&str>, name: &str, args: &[&str]) -> Line {
        Line::Command(Command {
            id: id.map(str::to_string),
            name: name.into(),
            args: args.iter().map(|s| s.to_string()).collect(),
        })
    }

    #[test]
    fn cleaning_follows_gtp() {
        assert_eq!(parse_line(b"  \r\n"), Line::Blank);
        assert_eq!(parse_line(b"# just a comment"), Line::Blank);
        assert_eq!(parse_line(b"# interrupt\r\n"), Line::Interrupt);
        assert_eq!(parse_line(b"12 play\tb D4 # comment\r\n"), cmd(Some("12"), "play", &["b", "D4"]));
        assert_eq!(parse_line(b"pl\x01ay b\x00 d4"), cmd(None, "play", &["b", "d4"]));
        assert_eq!(parse_line(b"7"), cmd(Some("7"), "", &[]));
        assert!(matches!(parse_line(b"\xff\xfe name"), Line::Command(_)));
    }

    #[test]
    fn long_lines_are_capped_but_consumed() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\nname\n");
        let mut input = std::io::Cursor::new(data);
        let mut buf = Vec::new();
        assert!(read_capped_line(&mut input, &mut buf).unwrap().is_some());
        assert_eq!(buf.len(), MAX_LINE);
        read_capped_line(&mut input, &mut buf).unwrap();
        assert_eq!(buf, b"name\n");
        assert!(read_capped_line(&mut input, &mut buf).unwrap().is_none());
    }

    #[test]
    fn interrupt_applies_to_commands_read_before_it() {
        let c = Control::default();
        // `genmove` is read, then `# interrupt`, before the loop takes `genmove`.
        c.queued();
        c.interrupt();
        c.taken();
        assert!(c.interrupted(), "the interrupt that overtook the loop is kept");
        assert!(!c.input_waiting());
        // The next command is not interrupted by the old line.
        c.queued();
        assert!(c.input_waiting());
        c.taken();
        assert!(!c.interrupted());
        assert!(!c.should_stop());
        c.nudge();
        assert!(c.input_waiting(), "an empty line ends an analysis");
        assert!(!c.interrupted());
        c.queued();
        c.taken();
        assert!(!c.should_stop());
        c.end_of_input();
        assert!(c.should_stop(), "end of input ends long commands");
    }
}
