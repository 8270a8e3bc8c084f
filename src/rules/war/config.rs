//! War Go's options: the armies in hand, the two presets of the seed, komi.

use super::piece::{Army, Cell, Kind};
use crate::board::{Geometry, Point};

/// The set-ups of RULES.md section 7's presets (both 19x19 only, no armies).
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum WarPreset {
    /// Mercenary Go: nine mercenaries on the nine 19x19 handicap points.
    Mercenary,
    /// The center of Tao: four taos whose zones make the central 10x10.
    TaoCenter,
}

impl WarPreset {
    pub fn name(self) -> &'static str {
        match self {
            WarPreset::Mercenary => "mercenary",
            WarPreset::TaoCenter => "tao-center",
        }
    }

    pub fn parse(s: &str) -> Option<WarPreset> {
        match s.trim().to_ascii_lowercase().as_str() {
            "mercenary" | "mercenary-go" => Some(WarPreset::Mercenary),
            "tao-center" | "tao-centre" | "taocenter" => Some(WarPreset::TaoCenter),
            _ => None,
        }
    }

    /// The pieces standing at the start, as (column, row) counted from 0 at A1.
    pub fn pieces(self) -> Vec<((usize, usize), Cell)> {
        match self {
            WarPreset::Mercenary => [3, 9, 15]
                .iter()
                .flat_map(|&y| [3, 9, 15].map(|x| ((x, y), Cell::Neutral(Kind::Mercenary))))
                .collect(),
            // (7,7), (12,7), (7,12), (12,12) counting from 1 at A1.
            WarPreset::TaoCenter => [(6, 6), (11, 6), (6, 11), (11, 11)]
                .iter()
                .map(|&xy| (xy, Cell::Neutral(Kind::Tao)))
                .collect(),
        }
    }
}

/// War Go's rules as data: the army each player starts with, a preset, komi.
#[derive(Clone, PartialEq, Debug)]
pub struct WarConfig {
    pub army: Army,
    pub preset: Option<WarPreset>,
    pub komi: f64,
}

impl Default for WarConfig {
    fn default() -> Self {
        WarConfig { army: Army::FULL, preset: None, komi: 7.5 }
    }
}

impl WarConfig {
    /// The only board size the presets are played on.
    pub const PRESET_SIZE: usize = 19;

    /// The pieces on the board at the start on a `size` board: `walls` (the set-up option of
    /// RULES.md section 6, as (column, row)) and the preset's pieces.
    pub fn start_pieces(&self, size: usize, walls: &[(usize, usize)]) -> Vec<(Point, Cell)> {
        let geo = Geometry::new(size);
        let mut out: Vec<(Point, Cell)> = walls
            .iter()
            .filter(|&&(x, y)| x < size && y < size)
            .map(|&(x, y)| (geo.point(x, y), Cell::Neutral(Kind::Wall)))
            .collect();
        if let Some(preset) = self.preset {
            for ((x, y), c) in preset.pieces() {
                if x < size && y < size && !out.iter().any(|&(p, _)| p == geo.point(x, y)) {
                    out.push((geo.point(x, y), c));
                }
            }
        }
        out
    }
}
