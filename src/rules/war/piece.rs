//! War Go's pieces (RULES.md section 7): what stands on a point, and the armies in hand.

use crate::board::Color;
use std::fmt;

/// The kinds of piece. `Soldier` is the ordinary stone; the other nine make up an army. A spy
/// never stands on the board: once dropped it is a soldier.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Kind {
    Soldier,
    Ambassador,
    Bomb,
    Wall,
    Spy,
    Monk,
    Tao,
    Mercenary,
    Samurai,
    Cavalry,
}

impl Kind {
    /// The army's kinds, in the order RULES.md lists them.
    pub const ARMY: [Kind; 9] = [
        Kind::Ambassador,
        Kind::Bomb,
        Kind::Wall,
        Kind::Spy,
        Kind::Monk,
        Kind::Tao,
        Kind::Mercenary,
        Kind::Samurai,
        Kind::Cavalry,
    ];

    /// The name in move words and rules strings (`spy`, `wall`, ...).
    pub fn name(self) -> &'static str {
        match self {
            Kind::Soldier => "soldier",
            Kind::Ambassador => "ambassador",
            Kind::Bomb => "bomb",
            Kind::Wall => "wall",
            Kind::Spy => "spy",
            Kind::Monk => "monk",
            Kind::Tao => "tao",
            Kind::Mercenary => "mercenary",
            Kind::Samurai => "samurai",
            Kind::Cavalry => "cavalry",
        }
    }

    /// The kind named `s` (any case), soldiers included.
    pub fn parse(s: &str) -> Option<Kind> {
        let s = s.to_ascii_lowercase();
        [Kind::Soldier].into_iter().chain(Kind::ARMY).find(|k| k.name() == s)
    }

    /// Neutral pieces have no colour, belong to no chain, are nobody's liberty and count for nobody.
    pub fn is_neutral(self) -> bool {
        matches!(self, Kind::Wall | Kind::Tao | Kind::Mercenary)
    }

    /// The index into an `Army` (`None` for soldiers).
    pub fn army_index(self) -> Option<usize> {
        Kind::ARMY.iter().position(|&k| k == self)
    }
}

/// What a point holds. Border cells of the padded array are `Edge`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    Empty,
    Edge,
    /// A piece with a colour: part of its owner's chains (soldier, ambassador, delayed bomb, monk,
    /// samurai, cavalry).
    Stone(Color, Kind),
    /// A wall, a tao or a mercenary.
    Neutral(Kind),
}

impl Cell {
    #[inline]
    pub fn is_empty(self) -> bool {
        self == Cell::Empty
    }

    /// The colour of a stone.
    #[inline]
    pub fn color(self) -> Option<Color> {
        match self {
            Cell::Stone(c, _) => Some(c),
            _ => None,
        }
    }

    /// A small number per cell content, for the position hash.
    pub fn code(self) -> u64 {
        match self {
            Cell::Empty => 0,
            Cell::Edge => 1,
            Cell::Stone(c, k) => 2 + (k as u64) * 2 + c.index() as u64,
            Cell::Neutral(k) => 40 + k as u64,
        }
    }

    /// The cell a diagram letter stands for (`letter`'s inverse; `.` is empty).
    pub fn from_letter(ch: char) -> Option<Cell> {
        let color = if ch.is_ascii_uppercase() { Color::Black } else { Color::White };
        Some(match ch {
            '.' => Cell::Empty,
            '#' => Cell::Neutral(Kind::Wall),
            'T' => Cell::Neutral(Kind::Tao),
            'R' => Cell::Neutral(Kind::Mercenary),
            'X' => Cell::Stone(Color::Black, Kind::Soldier),
            'O' => Cell::Stone(Color::White, Kind::Soldier),
            _ => {
                let kind = match ch.to_ascii_uppercase() {
                    'A' => Kind::Ambassador,
                    'B' => Kind::Bomb,
                    'M' => Kind::Monk,
                    'S' => Kind::Samurai,
                    'C' => Kind::Cavalry,
                    _ => return None,
                };
                Cell::Stone(color, kind)
            }
        })
    }

    /// The letter `showboard` prints: Black's pieces upper case, White's lower case, soldiers `X`
    /// and `O`; neutral pieces `#` (wall), `T` (tao), `R` (mercenary, the roaming piece).
    pub fn letter(self) -> char {
        match self {
            Cell::Empty => '.',
            Cell::Edge => ' ',
            Cell::Neutral(Kind::Wall) => '#',
            Cell::Neutral(Kind::Tao) => 'T',
            Cell::Neutral(_) => 'R',
            Cell::Stone(c, k) => {
                let l = match k {
                    Kind::Soldier => return if c == Color::Black { 'X' } else { 'O' },
                    Kind::Ambassador => 'A',
                    Kind::Bomb => 'B',
                    Kind::Monk => 'M',
                    Kind::Samurai => 'S',
                    Kind::Cavalry => 'C',
                    _ => '?',
                };
                if c == Color::Black {
                    l
                } else {
                    l.to_ascii_lowercase()
                }
            }
        }
    }
}

/// How many pieces of each army kind a player holds in hand.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Army(pub [u8; 9]);

impl Army {
    /// The army RULES.md section 7 gives each player: 1 ambassador, 2 bombs, 6 walls, 4 spies,
    /// 2 monks, 1 tao, 2 mercenaries, 4 samurai, 2 cavalry.
    pub const FULL: Army = Army([1, 2, 6, 4, 2, 1, 2, 4, 2]);
    pub const NONE: Army = Army([0; 9]);

    pub fn count(&self, kind: Kind) -> u8 {
        kind.army_index().map_or(0, |i| self.0[i])
    }

    pub fn is_empty(&self) -> bool {
        self.0.iter().all(|&n| n == 0)
    }

    /// Parses `none` or `KINDN+KINDN...` (`bomb2+wall6`); kinds not named hold none.
    pub fn parse(s: &str) -> Result<Army, String> {
        let s = s.trim().to_ascii_lowercase();
        if s == "none" || s.is_empty() {
            return Ok(Army::NONE);
        }
        if s == "full" {
            return Ok(Army::FULL);
        }
        let mut army = Army::NONE;
        for item in s.split('+').map(str::trim) {
            let digits = item.find(|c: char| c.is_ascii_digit()).unwrap_or(item.len());
            let (name, n) = item.split_at(digits);
            let kind = Kind::parse(name)
                .and_then(|k| k.army_index().map(|i| (k, i)))
                .ok_or_else(|| format!("'{name}' is not a piece of an army"))?;
            let n: u8 = if n.is_empty() {
                1
            } else {
                n.parse().ok().filter(|&n| n <= 99).ok_or_else(|| format!("'{item}': a count is 0 to 99"))?
            };
            army.0[kind.1] = n;
        }
        Ok(army)
    }
}

impl fmt::Display for Army {
    /// `none`, or the kinds held with their counts (`ambassador1+bomb2`); `parse` reads it back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_empty() {
            return f.write_str("none");
        }
        let items: Vec<String> = Kind::ARMY
            .iter()
            .zip(self.0)
            .filter(|&(_, n)| n > 0)
            .map(|(k, n)| format!("{}{n}", k.name()))
            .collect();
        f.write_str(&items.join("+"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn armies_read_back() {
        assert_eq!(
            Army::FULL.to_string(),
            "ambassador1+bomb2+wall6+spy4+monk2+tao1+mercenary2+samurai4+cavalry2"
        );
        for a in [Army::FULL, Army::NONE, Army::parse("spy3+cavalry").unwrap()] {
            assert_eq!(Army::parse(&a.to_string()).unwrap(), a);
        }
        assert_eq!(Army::parse("spy3+cavalry").unwrap().count(Kind::Cavalry), 1);
        for bad in ["soldier2", "spy100", "dragon1", "spy-1"] {
            assert!(Army::parse(bad).is_err(), "{bad}");
        }
    }
}
