//! `showboard`: the board with coordinates, and beside it prisoners, side to move, the last move and
//! the rules. No empty lines (GTP forbids them inside a response).

use super::Engine;
use crate::board::{Cell, Color};
use crate::rules::{AnyGame, Outcome, Variant};

const COLUMNS: &str = "ABCDEFGHJKLMNOPQRSTUVWXYZ";

impl Engine {
    /// Lines of information shown beside the board, with the game's result once it is over.
    fn board_notes(&self, result: Option<Outcome>) -> Vec<String> {
        let g: &AnyGame = self.game();
        let geo = g.board().geometry();
        let mut notes = vec![
            format!("Rules: {}", self.rules()),
            format!("To move: {}", g.to_move()),
            format!("Black (X) prisoners: {}", g.prisoners(Color::Black)),
            format!("White (O) prisoners: {}", g.prisoners(Color::White)),
        ];
        // A Phantom Go view keeps no moves (the engine never saw the opponent's).
        if !self.is_phantom() {
            notes.push(format!("Moves played: {}", g.moves().len()));
        }
        if let Some(&(c, m)) = g.moves().last() {
            notes.push(format!("Last move: {} {}", c, m.describe(geo)));
        }
        if g.variant() == Variant::Stones {
            let mut stakes = Vec::new();
            for p in geo.points() {
                let b = g.board();
                if b.cell(p).color().is_some() && b.chain_head(p) == p && b.chain_stakes(p) > 0 {
                    // Name the group by its first point in A1, B1, ... order.
                    let first = b.chain_stones(p).min().unwrap_or(p);
                    stakes.push(format!("{}x{}", geo.vertex(first), b.chain_stakes(p)));
                }
            }
            if !stakes.is_empty() {
                notes.push(format!("Stakes: {}", stakes.join(" ")));
            }
        }
        if let AnyGame::Go(game) = g {
            if game.rules().button {
                let who =
                    game.position().extra.button.map_or("untaken".to_string(), |c| format!("taken by {c}"));
                notes.push(format!("Button: {who}"));
            }
        }
        if let Some(v) = self.phantom_view() {
            let vertices = |ps: &[crate::board::Point]| {
                let names: Vec<String> = ps.iter().map(|&p| geo.vertex(p)).collect();
                if names.is_empty() {
                    "none".to_string()
                } else {
                    names.join(" ")
                }
            };
            notes.push(format!("Playing: {}", v.me.map_or("not known yet".to_string(), |c| c.to_string())));
            notes.push(format!("Known opponent stones (x/o): {}", vertices(&v.known)));
            notes.push(format!("Unseen opponent stones: {}", v.unseen));
            let suspects: Vec<_> = v.suspects.iter().map(|&(p, _)| p).collect();
            notes.push(format!("Suspected: {}", vertices(&suspects)));
            notes.push(format!("Illegal this turn: {}", vertices(&v.illegal)));
        }
        if let Some(o) = result {
            notes.push(format!("Game over: {o} ({:?})", o.reason));
        }
        notes
    }

    /// The `showboard` diagram. After two passes it shows `final_score`'s result, which may need a
    /// search to judge the dead stones.
    pub fn showboard(&mut self) -> String {
        let result = self.game_result();
        let notes = self.board_notes(result);
        let b = self.game().board();
        let size = b.size();
        let letters: String = COLUMNS.chars().take(size).flat_map(|c| [' ', c]).collect();
        let header = format!("   {letters}");
        let mut lines = vec![header.clone()];
        for (row, y) in (0..size).rev().enumerate() {
            let mut line = format!("{:>2} ", y + 1);
            for x in 0..size {
                let p = b.geometry().point(x, y);
                // Phantom Go: the opponent stones the engine knows of are marked in lower case.
                let known = self.phantom_view().is_some_and(|v| v.known.contains(&p));
                line.push(match (b.cell(p), known) {
                    (Cell::Empty, _) => '.',
                    (Cell::Black, false) => 'X',
                    (Cell::White, false) => 'O',
                    (Cell::Black, true) => 'x',
                    (Cell::White, true) => 'o',
                    (Cell::Wall, _) => '#',
                });
                line.push(' ');
            }
            line.push_str(&format!("{:>2}", y + 1));
            if let Some(n) = notes.get(row) {
                line.push_str("    ");
                line.push_str(n);
            }
            lines.push(line);
        }
        lines.push(header);
        // Boards smaller than the notes: print the rest below, still without empty lines.
        for n in notes.iter().skip(size) {
            lines.push(format!("    {n}"));
        }
        lines.join("\n")
    }
}
