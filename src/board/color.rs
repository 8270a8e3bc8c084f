//! Colours of stones and per-colour containers.

use std::fmt;
use std::ops::{Index, IndexMut};

/// The colour of a player or a stone.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
#[repr(u8)]
pub enum Color {
    Black = 1,
    White = 2,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Black, Color::White];

    #[inline]
    pub fn opponent(self) -> Color {
        match self {
            Color::Black => Color::White,
            Color::White => Color::Black,
        }
    }

    /// 0 for Black, 1 for White: the index into a `ByColor`.
    #[inline]
    pub fn index(self) -> usize {
        self as usize - 1
    }

    /// The GTP / SGF letter: `B` or `W`.
    pub fn letter(self) -> char {
        match self {
            Color::Black => 'B',
            Color::White => 'W',
        }
    }

    /// Parses `b`, `black`, `w`, `white` in any case (GTP colour syntax).
    pub fn parse(s: &str) -> Option<Color> {
        match s.to_ascii_lowercase().as_str() {
            "b" | "black" => Some(Color::Black),
            "w" | "white" => Some(Color::White),
            _ => None,
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Black => "black",
            Color::White => "white",
        })
    }
}

/// One value per colour, indexed by `Color` rather than by magic numbers.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct ByColor<T> {
    pub black: T,
    pub white: T,
}

impl<T> ByColor<T> {
    pub fn new(black: T, white: T) -> Self {
        ByColor { black, white }
    }
}

impl<T: Copy + std::ops::AddAssign> ByColor<T> {
    /// Adds `own` to `color`'s value and `other` to its opponent's. The two values are swapped by
    /// the colour rather than the two places chosen by it: a choice of place compiles to a branch
    /// on the colour, which alternates move by move and is mispredicted in a playout's stream of
    /// random branches, where a choice of values compiles to conditional moves.
    #[inline]
    pub fn add_both(&mut self, color: Color, own: T, other: T) {
        let (black, white) = if color == Color::Black { (own, other) } else { (other, own) };
        self.black += black;
        self.white += white;
    }
}

impl<T> Index<Color> for ByColor<T> {
    type Output = T;
    #[inline]
    fn index(&self, c: Color) -> &T {
        match c {
            Color::Black => &self.black,
            Color::White => &self.white,
        }
    }
}

impl<T> IndexMut<Color> for ByColor<T> {
    #[inline]
    fn index_mut(&mut self, c: Color) -> &mut T {
        match c {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn add_both_gives_each_colour_its_own_share() {
        let mut prisoners = ByColor::new(10u32, 20u32);
        prisoners.add_both(Color::Black, 3, 1);
        assert_eq!(prisoners, ByColor::new(13, 21));
        prisoners.add_both(Color::White, 5, 2);
        assert_eq!(prisoners, ByColor::new(15, 26));
        assert_eq!((prisoners[Color::Black], prisoners[Color::White]), (15, 26));
    }
}
