//! Cross-check of the engine against an independent implementation of RULES.md (`tests/reference/`, a
//! naive flood-fill board sharing no code with `src/board` or `src/rules`).
//!
//! Random games in every variant and option (ko rules, suicide, scoring, button, threshold and
//! compensation, snapback, walls, torus, komi) are driven through GTP in process, with only the commands a
//! controller has: `boardsize`, `clear_board`, `komi`, `tengen-rules`, `play` (either colour, legal and
//! illegal moves, `pass`), `undo`. After every command the engine's `gogui-rules_legal_moves` (as a set;
//! `pass` stands for any legal pass-like move), `captures` of both colours, `gogui-rules_final_result`
//! (the result once the game is over, else an empty answer), `gogui-rules_side_to_move` and
//! `gogui-rules_board` must equal the reference's, and every `play` and `undo` must be accepted or refused
//! by both alike. Any disagreement fails the test with the commands that led to it, so it can be replayed.
//! Deterministic: one seed per configuration.

mod reference;

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use reference::{opp, End, Game, Ko, Mv, Rules, Variant, BLACK, COLUMNS, EMPTY, WHITE};
use std::collections::BTreeSet;
use tengen::engine::{Engine, EngineOptions};
use tengen::gtp::Session;

type Rng64 = Xoshiro256PlusPlus;

/// Board sizes and how often a game is played on each (weights); small boards give many captures, kos,
/// suicides, stakes and ends per move.
const SIZES: [(usize, u32); 9] =
    [(2, 4), (3, 10), (4, 14), (5, 22), (6, 10), (7, 14), (9, 18), (13, 3), (19, 2)];

/// The engine over GTP, in process, and the commands sent since the current game began.
struct Engine2 {
    session: Session,
    log: Vec<String>,
}

impl Engine2 {
    fn new() -> Engine2 {
        let engine = Engine::new(EngineOptions { size: 9, threads: Some(1), ..EngineOptions::default() });
        Engine2 { session: Session::new(engine), log: Vec::new() }
    }

    /// Sends one command: `Ok(payload)` for `=`, `Err(payload)` for `?`.
    fn send(&mut self, command: &str) -> Result<String, String> {
        self.log.push(command.to_string());
        let response = self.session.handle_line(command.as_bytes()).expect("a command gets a response");
        assert!(response.ends_with("\n\n"), "unterminated response to {command}: {response:?}");
        let body = &response[..response.len() - 2];
        let payload = body.get(2..).unwrap_or("").to_string();
        match body.as_bytes().first() {
            Some(b'=') => Ok(payload),
            Some(b'?') => Err(payload),
            _ => panic!("bad response to {command}: {response:?}"),
        }
    }

    fn ok(&mut self, command: &str) -> String {
        self.send(command).unwrap_or_else(|e| panic!("{command} refused: {e}\n{}", self.transcript()))
    }

    /// A query: like `ok`, but left out of the log, which keeps only what changes the game.
    fn query(&mut self, command: &str) -> String {
        let answer = self.ok(command);
        self.log.pop();
        answer
    }

    fn transcript(&self) -> String {
        self.log.join("\n")
    }
}

/// The reference side: the game plus what GTP keeps across games (size, rules, komi).
struct Model {
    size: usize,
    rules: Rules,
    /// Komi set by `komi` or a rules string's `komi=`; it survives `boardsize`, `clear_board` and rules
    /// strings that do not set it (GTP.md).
    komi: Option<f64>,
    game: Game,
}

impl Model {
    fn new() -> Model {
        let rules = Rules::new(Variant::Go);
        Model { size: 9, game: Game::new(9, rules.clone(), rules.default_komi()), rules, komi: None }
    }

    fn komi_value(&self) -> f64 {
        self.komi.unwrap_or_else(|| self.rules.default_komi())
    }

    fn new_game(&mut self) {
        self.game = Game::new(self.size, self.rules.clone(), self.komi_value());
    }
}

fn colour_name(c: u8) -> &'static str {
    if c == BLACK {
        "black"
    } else {
        "white"
    }
}

/// Random rules for `size`: every option of the variant, walls on a third of the games.
fn random_rules(rng: &mut Rng64, size: usize) -> Rules {
    let variant = [Variant::Go, Variant::Stones, Variant::Stoical][rng.gen_range(0..3)];
    let mut r = Rules::new(variant);
    match variant {
        Variant::Go => {
            r.territory = rng.gen_bool(0.5);
            r.ko = [Ko::Simple, Ko::Positional, Ko::Situational][rng.gen_range(0..3)];
            r.suicide = rng.gen_bool(0.5);
            r.button = rng.gen_bool(0.3);
        }
        Variant::Stones => {
            // Small thresholds make decisive moves frequent; compensation 0 disables it.
            r.threshold = rng.gen_range(0..=8);
            r.compensation = rng.gen_range(0..=6);
        }
        Variant::Stoical => r.snapback = rng.gen_bool(0.5),
    }
    if variant != Variant::Stones && rng.gen_bool(0.2) {
        r.komi = Some(random_komi(rng));
    }
    if rng.gen_bool(0.33) {
        let n = rng.gen_range(1..=(size * size / 4).clamp(1, 6));
        for _ in 0..n {
            let w = (rng.gen_range(0..size), rng.gen_range(0..size));
            if !r.walls.contains(&w) {
                r.walls.push(w);
            }
        }
        // Walls are written in A1, B1, ... order by the engine; the order here does not matter.
    }
    // A torus on a quarter of the games (3x3 and up, RULES.md 5.1).
    r.torus = size >= 3 && rng.gen_bool(0.25);
    r
}

/// A multiple of 0.5 in -10..10, integers included (draws).
fn random_komi(rng: &mut Rng64) -> f64 {
    rng.gen_range(-20..=20) as f64 / 2.0
}

/// Compares everything the engine reports with the reference; panics with the transcript on a difference.
fn compare(engine: &mut Engine2, model: &Model, label: &str) {
    let g = &model.game;
    let legal = engine.query("gogui-rules_legal_moves");
    let theirs: BTreeSet<String> = legal.split_whitespace().map(str::to_string).collect();
    let mut ours: BTreeSet<String> = BTreeSet::new();
    if g.end().is_none() {
        let (placements, pass) = g.legal(g.to_move());
        ours.extend(placements.iter().map(|&p| g.vertex(p)));
        if pass {
            ours.insert("pass".into());
        }
    }
    let problem = |engine: &Engine2, what: &str, engine_says: &str, reference_says: &str| -> String {
        format!(
            "{label}: {what} differs\nengine:    {engine_says}\nreference: {reference_says}\nboard:\n{}\ncommands:\n{}",
            g.board_rows(),
            engine.transcript()
        )
    };
    if theirs != ours {
        let only_engine: Vec<_> = theirs.difference(&ours).collect();
        let only_reference: Vec<_> = ours.difference(&theirs).collect();
        panic!(
            "{}",
            problem(
                engine,
                "legal moves",
                &format!("{only_engine:?} only"),
                &format!("{only_reference:?} only")
            )
        );
    }
    for c in [BLACK, WHITE] {
        let n = engine.query(&format!("captures {}", colour_name(c)));
        let expect = g.prisoners(c).to_string();
        if n != expect {
            panic!("{}", problem(engine, &format!("captures {}", colour_name(c)), &n, &expect));
        }
    }
    // After two passes the result is the count with the engine's own dead stones removed (RULES.md
    // 2): the judgement is the engine's, the count is checked here.
    let expected = if g.end() == Some(End::TwoPasses) {
        let dead = engine.query("final_status_list dead");
        let dead: Vec<usize> = dead
            .split_whitespace()
            .map(|v| g.point(v).unwrap_or_else(|| panic!("dead stone {v}?")))
            .collect();
        g.result_without(&dead)
    } else {
        g.result()
    };
    let result = engine.query("gogui-rules_final_result");
    if result != expected {
        panic!("{}", problem(engine, "final result", &result, &expected));
    }
    let side = engine.query("gogui-rules_side_to_move");
    if side != colour_name(g.to_move()) {
        panic!("{}", problem(engine, "side to move", &side, colour_name(g.to_move())));
    }
    let board = engine.query("gogui-rules_board");
    if board != g.board_rows() {
        panic!("{}", problem(engine, "board", &board, &g.board_rows()));
    }
}

/// Totals over the run, printed at the end and checked for coverage.
#[derive(Default, Debug)]
struct Tally {
    games: usize,
    commands: usize,
    plays_accepted: usize,
    plays_refused: usize,
    undos: usize,
    ends: std::collections::BTreeMap<String, usize>,
    stakes: usize,
    returns: usize,
    buttons: usize,
}

/// Starts a game the way a controller might: a new size and/or rules string, a komi, or just a clear.
fn start_game(rng: &mut Rng64, engine: &mut Engine2, model: &mut Model) {
    engine.log.clear();
    let choice = rng.gen_range(0..10);
    if choice < 8 || model.game.size != model.size {
        let total: u32 = SIZES.iter().map(|&(_, w)| w).sum();
        let mut pick = rng.gen_range(0..total);
        let size = SIZES
            .iter()
            .find(|&&(_, w)| {
                if pick < w {
                    true
                } else {
                    pick -= w;
                    false
                }
            })
            .unwrap()
            .0;
        // `boardsize 2` under a torus is refused (RULES.md 5.1): 3 instead.
        let size = if model.rules.torus { size.max(3) } else { size };
        if size != model.size || rng.gen_bool(0.3) {
            engine.ok(&format!("boardsize {size}"));
            model.size = size;
            model.new_game();
        }
        if choice < 7 {
            let rules = random_rules(rng, size);
            engine.ok(&format!("tengen-rules {}", rules.to_gtp()));
            if rules.komi.is_some() {
                model.komi = rules.komi;
            }
            model.rules = rules;
            model.new_game();
        }
    }
    if rng.gen_bool(0.3) {
        let k = random_komi(rng);
        engine.ok(&format!("komi {k}"));
        model.komi = Some(k);
        model.game.komi = model.komi_value();
    }
    if rng.gen_bool(0.2) {
        engine.ok("clear_board");
        model.new_game();
    }
    // The transcript of a game starts with everything in force, so that it can be replayed alone.
    let rules = engine.query("tengen-rules");
    engine.log = vec![format!("boardsize {}", model.size), format!("tengen-rules {rules}")];
}

/// One `play` of `color` with `text` (a vertex or `pass`) on both sides; they must agree on legality.
fn play(engine: &mut Engine2, model: &mut Model, color: u8, text: &str, tally: &mut Tally, label: &str) {
    let g = &model.game;
    let mv = if text == "pass" {
        g.pass_move(color)
    } else {
        let x = COLUMNS.iter().position(|&c| c == text.as_bytes()[0]).unwrap();
        let y: usize = text[1..].parse().unwrap();
        Mv::Place((y - 1) * g.size + x)
    };
    let answer = engine.send(&format!("play {} {text}", colour_name(color)));
    let accepted = model.game.play(color, mv);
    if answer.is_ok() != accepted {
        panic!(
            "{label}: play {} {text} ({mv:?}): engine {answer:?}, reference accepts={accepted}\nboard before:\n{}\ncommands:\n{}",
            colour_name(color),
            model.game.board_rows(),
            engine.transcript()
        );
    }
    if let Err(e) = answer {
        assert_eq!(e, "illegal move", "{label}: play {text}");
        tally.plays_refused += 1;
    } else {
        tally.plays_accepted += 1;
        if let Some(end) = model.game.end() {
            let kind = match end {
                End::TwoPasses => "two passes",
                End::Won { no_move: false, .. } => "decisive",
                End::Won { no_move: true, .. } => "no legal move",
                End::Draw => "repetition",
            };
            let torus = if model.rules.torus { " torus" } else { "" };
            *tally.ends.entry(format!("{:?}{torus} {kind}", model.rules.variant)).or_default() += 1;
        }
        match mv {
            Mv::Stake(_) => tally.stakes += 1,
            Mv::Return => tally.returns += 1,
            Mv::Button => tally.buttons += 1,
            _ => {}
        }
    }
}

/// One random game: moves (mostly legal, some illegal, some by the wrong colour), passes, undos and komi
/// changes, compared after every command.
fn random_game(rng: &mut Rng64, engine: &mut Engine2, model: &mut Model, tally: &mut Tally, label: &str) {
    start_game(rng, engine, model);
    compare(engine, model, label);
    let size = model.size;
    let steps = 3 * size * size + 10;
    let pass_prob = if model.rules.variant == Variant::Stones { 0.15 } else { 0.04 };
    for _ in 0..steps {
        let r: f64 = rng.gen();
        if r < 0.04 {
            for _ in 0..rng.gen_range(1..=3) {
                let answer = engine.send("undo");
                let undone = model.game.undo();
                if answer.is_ok() != undone {
                    panic!(
                        "{label}: undo: engine {answer:?}, reference {undone}\ncommands:\n{}",
                        engine.transcript()
                    );
                }
                if let Err(e) = answer {
                    assert_eq!(e, "cannot undo");
                }
                tally.undos += 1;
            }
        } else if r < 0.05 {
            let k = random_komi(rng);
            engine.ok(&format!("komi {k}"));
            model.komi = Some(k);
            model.game.komi = k;
        } else if model.game.end().is_some() {
            match rng.gen_range(0..3) {
                // Playing on: refused, except that a game ended by two passes is resumed.
                0 => {
                    let c = model.game.to_move();
                    let text = random_point(rng, size);
                    play(engine, model, c, &text, tally, label);
                }
                1 => {
                    let answer = engine.send("undo");
                    assert!(answer.is_ok() && model.game.undo(), "{label}: undo after the end");
                    tally.undos += 1;
                }
                _ => break,
            }
        } else {
            let to_move = model.game.to_move();
            let color = if rng.gen_bool(0.05) { opp(to_move) } else { to_move };
            let text = if rng.gen_bool(0.1) {
                // Anything: occupied points, walls, suicides, ko, or a pass that stands for nothing.
                if rng.gen_bool(0.2) {
                    "pass".to_string()
                } else {
                    random_point(rng, size)
                }
            } else {
                let (placements, pass) = model.game.legal(color);
                if (pass && rng.gen_bool(pass_prob)) || placements.is_empty() {
                    "pass".to_string()
                } else {
                    // Prefer points that do not fill the mover's own one-point eyes, so that games last.
                    let keep: Vec<usize> =
                        placements.iter().copied().filter(|&p| !own_eye(&model.game, color, p)).collect();
                    let from = if keep.is_empty() || rng.gen_bool(0.1) { &placements } else { &keep };
                    model.game.vertex(from[rng.gen_range(0..from.len())])
                }
            };
            play(engine, model, color, &text, tally, label);
        }
        compare(engine, model, label);
    }
    tally.games += 1;
    tally.commands += engine.log.len();
}

fn random_point(rng: &mut Rng64, size: usize) -> String {
    format!("{}{}", COLUMNS[rng.gen_range(0..size)] as char, rng.gen_range(1..=size))
}

/// Is `p` surrounded by `color`'s stones (or the edge)? Only a preference for the random mover.
fn own_eye(g: &Game, color: u8, p: usize) -> bool {
    g.neighbours(p).iter().all(|&q| g.cell(q) == color) && g.cell(p) == EMPTY
}

/// Plays `games` random games from `seed` and checks that they reached every kind of end and every
/// variant move.
fn cross_check(seed: u64, games: usize) {
    let mut rng = Rng64::seed_from_u64(seed);
    let mut engine = Engine2::new();
    let mut model = Model::new();
    let mut tally = Tally::default();
    for i in 0..games {
        let label = format!("seed {seed:#x} game {i}");
        random_game(&mut rng, &mut engine, &mut model, &mut tally, &label);
    }
    eprintln!("{tally:#?}");
    assert_eq!(tally.games, games);
    assert!(tally.stakes > 0 && tally.returns > 0 && tally.buttons > 0, "{tally:?}");
    for end in [
        "Go two passes",
        "Stones decisive",
        "Stones no legal move",
        "Stoical repetition",
        "Stoical two passes",
        // RULES.md 5.1: each variant on a torus, to its end.
        "Go torus two passes",
        "Stones torus decisive",
        "Stoical torus two passes",
    ] {
        assert!(tally.ends.contains_key(end), "no {end} in {tally:?}");
    }
}

// Two independent runs of 750 games, so that the test harness runs them on two cores.
#[test]
fn engine_agrees_with_the_reference_rules() {
    cross_check(0x7265_6665, 750);
}

#[test]
fn engine_agrees_with_the_reference_rules_more() {
    cross_check(0x7265_6666, 750);
    // More seeds on request, for a longer run: `TENGEN_FUZZ_SEEDS=N` adds N runs of 750 games.
    let extra: u64 = std::env::var("TENGEN_FUZZ_SEEDS").ok().and_then(|s| s.parse().ok()).unwrap_or(0);
    for k in 0..extra {
        cross_check(0x7265_0000 + k, 750);
    }
}
