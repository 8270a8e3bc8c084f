//! Cross-check of War Go (RULES.md section 7) against an independent implementation
//! (`tests/reference/war.rs`, whole-board flood fills sharing no code with `src/rules/war`).
//!
//! Random games on small boards with random armies, walls and komi, and on 19x19 with both presets,
//! are played on both side by side: turns chosen among the reference's legal move words (every kind:
//! soldiers, drops, immediate bombs, steps), random turns that are mostly illegal, either colour now
//! and then, and undo. After every turn both must have accepted or refused it alike, and the board
//! (kinds and colours), prisoners, armies in hand, side to move, every legal move word and the result
//! after two passes must agree. Deterministic: one seed per run; a failure prints the moves.

mod reference;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use reference::war::{Spot, Turn, War, ARMY, MERCENARY, TAO, WALL};
use std::collections::{BTreeMap, HashSet};
use tengen::board::{Color, Geometry};
use tengen::rules::war::{Army, WarConfig, WarGame, WarMove, WarPreset};

type Rng64 = Xoshiro256PlusPlus;

fn color_of(c: u8) -> Color {
    if c == 1 {
        Color::Black
    } else {
        Color::White
    }
}

fn engine_words(g: &WarGame, color: Color) -> HashSet<String> {
    let geo = g.position().geo;
    g.legal_moves(color).iter().map(|m| m.word(&geo)).collect()
}

fn compare(g: &WarGame, m: &War, log: &[String], tally: &mut BTreeMap<&'static str, usize>) {
    let fail = |what: &str, e: String, r: String| -> ! {
        panic!(
            "{what} differs\nengine:    {e}\nreference: {r}\nboard:\n{}\nmoves: {}",
            m.rows().join("\n"),
            log.join(" ")
        )
    };
    let pos = g.position();
    if pos.rows() != m.rows() {
        fail("board", pos.rows().join("\n"), m.rows().join("\n"));
    }
    for c in [1u8, 2] {
        if pos.prisoners[color_of(c)] != m.prisoners[c as usize] {
            fail("prisoners", format!("{:?}", pos.prisoners), format!("{:?}", m.prisoners));
        }
        for (i, &(k, name)) in ARMY.iter().enumerate() {
            if pos.army[color_of(c)].0[i] as u32 != m.hand[c as usize][k as usize] {
                fail(name, format!("{:?}", pos.army[color_of(c)]), format!("{:?}", m.hand[c as usize]));
            }
        }
    }
    if g.to_move() != color_of(m.to_move) {
        fail("side to move", format!("{:?}", g.to_move()), m.to_move.to_string());
    }
    if m.passes >= 2 {
        let result = g.outcome().map(|o| o.to_string()).unwrap_or_default();
        if result != m.result() {
            fail("result", result, m.result());
        }
        *tally.entry("results").or_default() += 1;
        return;
    }
    let ours = engine_words(g, g.to_move());
    let theirs = m.legal_words(m.to_move);
    if ours != theirs {
        let mut e: Vec<_> = ours.difference(&theirs).collect();
        let mut r: Vec<_> = theirs.difference(&ours).collect();
        e.sort();
        r.sort();
        fail("legal moves", format!("{e:?} only"), format!("{r:?} only"));
    }
}

/// One random game; `moves` turns at most.
fn random_game(
    rng: &mut Rng64,
    mut g: WarGame,
    mut m: War,
    moves: usize,
    tally: &mut BTreeMap<&'static str, usize>,
) {
    let geo: Geometry = g.position().geo;
    let mut log: Vec<String> = Vec::new();
    let mut history: Vec<War> = Vec::new();
    compare(&g, &m, &log, tally);
    for _ in 0..moves {
        if m.passes >= 2 {
            break;
        }
        if !history.is_empty() && rng.gen_bool(0.04) {
            assert!(g.undo(), "undo refused\nmoves: {}", log.join(" "));
            m = history.pop().unwrap();
            log.push("undo".into());
            *tally.entry("undos").or_default() += 1;
            compare(&g, &m, &log, tally);
            continue;
        }
        let color = if rng.gen_bool(0.05) { rng.gen_range(1..=2) } else { m.to_move };
        let (turn, word) = if rng.gen_bool(0.2) {
            let all = m.candidates(color);
            all[rng.gen_range(0..all.len())].clone()
        } else {
            let mut legal: Vec<String> = m.legal_words(color).into_iter().collect();
            legal.sort();
            // Soldiers most of the time, as in a game; every other kind of turn often enough.
            let soldiers: Vec<&String> =
                legal.iter().filter(|w| !w.contains('@') && !w.contains('-') && *w != "pass").collect();
            let w = if !soldiers.is_empty() && rng.gen_bool(0.5) {
                soldiers[rng.gen_range(0..soldiers.len())].clone()
            } else {
                legal[rng.gen_range(0..legal.len())].clone()
            };
            let turn = if w == "pass" {
                Turn::Pass
            } else {
                m.candidates(color)
                    .into_iter()
                    .find(|(_, cw)| *cw == w)
                    .expect("a legal word is a candidate")
                    .0
            };
            (turn, w)
        };
        let mv = WarMove::parse(&word, &geo).unwrap_or_else(|e| panic!("{word}: {e:?}"));
        let theirs = m.after(color, turn);
        let ours = g.play(color_of(color), mv);
        log.push(format!("{}:{word}", if color == 1 { 'B' } else { 'W' }));
        match (&ours, &theirs) {
            (Ok(e), Some(_)) => {
                *tally.entry("accepted").or_default() += 1;
                let kind = match mv {
                    WarMove::Soldier(_) => "soldiers",
                    WarMove::Drop { now: true, .. } => "immediate bombs",
                    WarMove::Drop { .. } => "drops",
                    WarMove::Step { .. } => "steps",
                    WarMove::Pass => "passes",
                };
                *tally.entry(kind).or_default() += 1;
                if e.captured > 0 {
                    *tally.entry("captures").or_default() += 1;
                }
                if e.destroyed > 0 {
                    *tally.entry("destructions").or_default() += 1;
                }
                if e.mercenaries_removed > 0 {
                    *tally.entry("mercenaries removed").or_default() += 1;
                }
            }
            (Err(_), None) => *tally.entry("refused").or_default() += 1,
            _ => panic!(
                "{word} for {color}: engine {ours:?}, reference {}\nmoves: {}",
                theirs.is_some(),
                log.join(" ")
            ),
        }
        if let Some(next) = theirs {
            history.push(std::mem::replace(&mut m, next));
        }
        compare(&g, &m, &log, tally);
    }
}

fn small_game(rng: &mut Rng64, tally: &mut BTreeMap<&'static str, usize>) {
    let size = [4, 5, 5, 6, 6, 7][rng.gen_range(0..6)];
    let mut counts = [0u32; 9];
    for c in counts.iter_mut() {
        *c = if rng.gen_bool(0.6) { rng.gen_range(1..=2) } else { 0 };
    }
    let army = Army(counts.map(|c| c as u8));
    let komi = rng.gen_range(-8..=16) as f64 / 2.0;
    let walls: Vec<(usize, usize)> =
        (0..rng.gen_range(0..3)).map(|_| (rng.gen_range(0..size), rng.gen_range(0..size))).collect();
    let mut walls_unique = walls.clone();
    walls_unique.sort();
    walls_unique.dedup();
    let g = WarGame::new(WarConfig { army, preset: None, komi }, size, &walls_unique);
    let start: Vec<((usize, usize), Spot)> =
        walls_unique.iter().map(|&xy| (xy, Spot::Neutral(WALL))).collect();
    let m = War::new(size, counts, &start, komi);
    random_game(rng, g, m, 150, tally);
}

fn preset_game(rng: &mut Rng64, preset: WarPreset, tally: &mut BTreeMap<&'static str, usize>) {
    let g = WarGame::new(WarConfig { army: Army::FULL, preset: Some(preset), komi: 7.5 }, 19, &[]);
    // The presets' pieces, written from RULES.md 7 here again.
    let start: Vec<((usize, usize), Spot)> = match preset {
        WarPreset::Mercenary => {
            [3, 9, 15].iter().flat_map(|&y| [3, 9, 15].map(|x| ((x, y), Spot::Neutral(MERCENARY)))).collect()
        }
        WarPreset::TaoCenter => {
            [(6, 6), (11, 6), (6, 11), (11, 11)].iter().map(|&xy| (xy, Spot::Neutral(TAO))).collect()
        }
    };
    let m = War::new(19, [0; 9], &start, 7.5);
    random_game(rng, g, m, 40, tally);
}

fn cross_check(seed: u64, games: usize, presets: usize) {
    let mut rng = Rng64::seed_from_u64(seed);
    let mut tally = BTreeMap::new();
    for _ in 0..games {
        small_game(&mut rng, &mut tally);
    }
    for preset in [WarPreset::Mercenary, WarPreset::TaoCenter] {
        for _ in 0..presets {
            preset_game(&mut rng, preset, &mut tally);
        }
    }
    eprintln!("{tally:?}");
    // Every kind of turn and effect was exercised.
    for what in [
        "soldiers",
        "drops",
        "immediate bombs",
        "steps",
        "captures",
        "destructions",
        "refused",
        "undos",
        "results",
    ] {
        assert!(tally.get(what).copied().unwrap_or(0) >= 5, "too few {what}: {tally:?}");
    }
}

#[test]
fn war_go_agrees_with_the_reference() {
    cross_check(7, 150, 2);
}

#[test]
fn war_go_agrees_with_the_reference_more() {
    cross_check(61_003, 150, 1);
}
