//! The tree search through the engine: reproducibility, tactics in every variant, exact legality in
//! the tree, the memory bound, tree reuse, stopping, passing, scoring and clean-up. Every search that
//! a result depends on runs on one thread with a fixed seed and a playout limit.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tengen::board::{Color, Point};
use tengen::engine::{Decision, Engine, EngineOptions, Limits, ThinkRequest};
use tengen::rules::{Move, RulesConfig};

fn options(rules: &str, size: usize, seed: u64, playouts: u64) -> EngineOptions {
    EngineOptions {
        rules: RulesConfig::parse(rules).unwrap(),
        size,
        seed,
        threads: Some(1),
        playouts: Some(playouts),
        max_tree_mb: 64,
        ..EngineOptions::default()
    }
}

fn engine(rules: &str, size: usize, seed: u64, playouts: u64) -> Engine {
    Engine::new(options(rules, size, seed, playouts))
}

fn pt(e: &Engine, v: &str) -> Point {
    e.game().board().geometry().parse_vertex(v).unwrap()
}

fn vertex(e: &Engine, d: Decision) -> String {
    match d {
        Decision::Play(m) => m.to_gtp(e.game().board().geometry()),
        Decision::Resign => "resign".into(),
    }
}

/// Sets up a diagram (rows top first, `X` black, `O` white, `.` empty) by playing its stones. No
/// chain of a legal diagram is captured on the way: any part of a chain that is not all of it
/// touches an empty point where the rest will stand.
fn setup(e: &mut Engine, diagram: &str) {
    let rows: Vec<Vec<char>> = diagram
        .lines()
        .map(|l| l.chars().filter(|c| !c.is_whitespace()).collect::<Vec<_>>())
        .filter(|r| !r.is_empty())
        .collect();
    let n = rows.len();
    assert_eq!(n, e.size());
    let geo = *e.game().board().geometry();
    for (i, row) in rows.iter().enumerate() {
        for (x, &c) in row.iter().enumerate() {
            let color = match c {
                'X' => Color::Black,
                'O' => Color::White,
                _ => continue,
            };
            let p = geo.point(x, n - 1 - i);
            e.play(color, Move::Place(p))
                .unwrap_or_else(|err| panic!("setting up {c} at {}: {err}", geo.vertex(p)));
        }
    }
}

/// What a search found, without the time it took: equal for equal searches.
fn findings(r: &tengen::engine::SearchReport) -> String {
    let kids: Vec<String> =
        r.candidates.iter().map(|c| format!("{:?} {} {:.6} {:?}", c.mv, c.visits, c.winrate, c.pv)).collect();
    format!("{} {} {} {:.6} | {}", r.playouts, r.playout_moves, r.root_visits, r.winrate, kids.join(", "))
}

#[test]
fn one_thread_and_a_seed_reproduce_the_search_and_other_seeds_search_differently() {
    let run = |seed: u64| {
        let mut e = engine("go", 9, seed, 600);
        e.play(Color::Black, Move::Place(pt(&e, "E5"))).unwrap();
        e.play(Color::White, Move::Place(pt(&e, "C3"))).unwrap();
        let first = e.genmove(Color::Black, false).unwrap();
        let report = findings(e.last_report().unwrap());
        // Asked again, the kept tree already holds the playouts: the same answer.
        let again = e.genmove(Color::Black, false).unwrap();
        assert_eq!(first, again);
        (vertex(&e, first), report)
    };
    let a = run(7);
    // The same seed gives the same search, visit for visit and line for line, not only the same move.
    assert_eq!(run(7), a, "same seed, same search");
    // Every seed searches differently: the playouts it ran beyond the tree, and the visits and win
    // rates of the root's moves, differ from every other seed's (even where the move is the same).
    let searches: Vec<String> = (0..6).map(|seed| run(seed).1).collect();
    for (i, a) in searches.iter().enumerate() {
        for (j, b) in searches[..i].iter().enumerate() {
            assert_ne!(a, b, "seeds {j} and {i} searched alike");
        }
    }
}

#[test]
fn captures_a_big_group_in_atari() {
    for rules in ["go", "stoical", "go:ko=positional"] {
        let mut e = engine(rules, 9, 3, 2000);
        setup(
            &mut e,
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . X X X X . . .
            X . O O O O X . .
            . . X X X X . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        let d = e.genmove(Color::Black, true).unwrap();
        assert_eq!(vertex(&e, d), "B5", "{rules}");
        assert_eq!(e.game().prisoners(Color::Black), 4);
    }
}

/// On a torus (RULES.md 5.1) the group on the left edge keeps one liberty across it, J5, and the
/// search finds the capture there.
#[test]
fn captures_across_the_edge_of_a_torus() {
    for rules in ["go:torus=on", "stoical:torus=on"] {
        let mut e = engine(rules, 9, 3, 2000);
        setup(
            &mut e,
            "
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .
            X X X X . . . . .
            O O O O X . . . .
            X X X X . . . . .
            . . . . . . . . .
            . . . . . . . . .
            . . . . . . . . .",
        );
        let d = e.genmove(Color::Black, true).unwrap();
        assert_eq!(vertex(&e, d), "J5", "{rules}");
        assert_eq!(e.game().prisoners(Color::Black), 4);
    }
}

#[test]
fn saves_its_own_group_in_atari() {
    let mut e = engine("go", 9, 5, 2000);
    setup(
        &mut e,
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . O O . . . . .
        . O X X O . . . .
        . . O X . . . . .
        . . . O . X . . .
        . . . . . . . . .",
    );
    let d = e.genmove(Color::Black, false).unwrap();
    assert_eq!(vertex(&e, d), "E3");
}

#[test]
fn does_not_run_out_of_a_working_ladder() {
    // Black's F5 put White's E5-E6 in atari. Extending at E4 leaves two liberties, and Black's
    // ataris chase the chain down to the lower left edge: a working ladder (C3 helps Black). Anything
    // else is better, such as taking H2 at H1 or preparing the escape at E3 or D4. Without the
    // ladder penalty tengen ran at E4 on seeds 5 and 7 here (Stones: five of the eight seeds).
    for rules in ["go", "stoical", "stones"] {
        for seed in 1..=8 {
            let mut e = engine(rules, 9, seed, 1000);
            setup(
                &mut e,
                "
                . . . . . . . . .
                . . . . . . . . .
                . . . . X . O . .
                . . . X O X . . .
                . . . X O . . . .
                . . . . . X . . .
                . . X . . . O O .
                . . . . . . O X O
                . . . . . . . . .",
            );
            e.play(Color::Black, Move::Place(pt(&e, "F5"))).unwrap();
            let d = e.genmove(Color::White, false).unwrap();
            assert_ne!(vertex(&e, d), "E4", "{rules}, seed {seed}");
        }
    }
}

#[test]
fn captures_the_cutting_stone_in_a_ladder() {
    // White's D5 has two liberties. Black's E5 closes the wall and starts a ladder that runs into
    // Black's own area; D4 would let White connect out at E5 and break the wall.
    for rules in ["go", "stoical", "stones"] {
        let mut e = engine(rules, 9, 17, 1000);
        setup(
            &mut e,
            "
            . . . . X O . . .
            . . . . X O . . .
            . . . . X O . . .
            . . . X X O . . .
            . . X O . O . . .
            . . . . X O . . .
            . . . . X O . . .
            . . . . X O . . .
            . . . . X O . . .",
        );
        let d = e.genmove(Color::Black, false).unwrap();
        assert_eq!(vertex(&e, d), "E5", "{rules}");
    }
}

#[test]
fn stones_plays_the_decisive_capture() {
    // Seven white stones in atari: taking them gives Black a lead of 7 - 6 = 1, Black's threshold.
    let mut e = engine("stones", 9, 11, 2000);
    setup(
        &mut e,
        "
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . X X X X X X X .
        X O O O O O O O .
        . X X X X X X X .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
    );
    let d = e.genmove(Color::Black, true).unwrap();
    assert_eq!(vertex(&e, d), "J5");
    assert_eq!(e.game().outcome().map(|o| o.to_string()), Some("B+1".to_string()));
}

#[test]
fn stoical_respects_the_capture_restriction_then_captures() {
    let mut e = engine("stoical", 9, 13, 2000);
    setup(
        &mut e,
        "
        X O . . . . . . .
        . . . . . . . . .
        . . . . . . . . .
        . . X X X X . . .
        X . O O O O X . .
        . . X X X X . . .
        . . . . . . . . .
        . . . . . . . . .
        . . . . . . . . .",
    );
    // White captures A9 with A8: Black may not capture right after, so B5 is illegal now.
    e.play(Color::White, Move::Place(pt(&e, "A8"))).unwrap();
    let b5 = pt(&e, "B5");
    assert!(e.game().check(Color::Black, Move::Place(b5)).is_err());
    // Black's own reply under the ban is a legal move that captures nothing.
    let d = e.genmove(Color::Black, true).unwrap();
    let reply = vertex(&e, d);
    assert!(matches!(d, Decision::Play(Move::Place(_))), "{reply}");
    assert_eq!(e.game().prisoners(Color::Black), 0, "{reply} captured under the ban");
    // White answers far away without capturing: the ban is lifted. White's four stones can still be
    // taken (Black's reply cannot have taken their last liberty, B5), and Black takes them now,
    // whatever its reply was: left standing they could run out at B5, or make Black spend a move on it.
    let quiet = ["H2", "J2", "H1", "J1"].into_iter().map(|v| pt(&e, v)).find(|&p| {
        e.game().board().is_empty_point(p) && e.game().check(Color::White, Move::Place(p)).is_ok()
    });
    e.play(Color::White, Move::Place(quiet.unwrap())).unwrap();
    assert_eq!(e.game().prisoners(Color::White), 1, "White's answer captured nothing");
    assert!(e.game().check(Color::Black, Move::Place(b5)).is_ok(), "after {reply}, B5 captures");
    let d = e.genmove(Color::Black, true).unwrap();
    assert_eq!(vertex(&e, d), "B5", "after {reply}");
    assert_eq!(e.game().prisoners(Color::Black), 4);
}

/// Random games on small boards: at every position, the root's children are exactly the legal
/// placements (superko, Stoical repetition and suicide included) plus the one pass-like move a GTP
/// `pass` stands for.
#[test]
fn the_tree_offers_exactly_the_legal_moves() {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(42);
    let all = ThinkRequest { min_moves: 1000, ..ThinkRequest::new(Limits::playouts(2)) };
    let mut positions = 0;
    for rules in
        ["go:ko=positional", "go:ko=situational,suicide=allowed", "go:button=on", "stones", "stoical"]
    {
        for game in 0..12 {
            let size = 4 + game % 2;
            let mut e = engine(rules, size, game as u64, 2);
            for _ in 0..60 {
                if e.game().is_over() {
                    break;
                }
                let color = e.game().to_move();
                let report = e.think(color, &all, &|| false, &mut |_| {}).unwrap();
                let mut offered: Vec<Move> = report.candidates.iter().map(|c| c.mv).collect();
                let legal = e.game().legal_moves(color);
                let mut expected: Vec<Move> = legal.iter().copied().filter(|m| !m.is_pass_like()).collect();
                let pass = e.game().pass_move(color);
                if legal.contains(&pass) {
                    expected.push(pass);
                }
                let key = |m: &Move| format!("{m:?}");
                offered.sort_by_key(key);
                expected.sort_by_key(key);
                assert_eq!(offered, expected, "{rules}\n{}", e.game().board());
                positions += 1;
                let mv = legal[rng.gen_range(0..legal.len())];
                e.play(color, mv).unwrap();
            }
        }
    }
    assert!(positions > 1000, "{positions}");
}

#[test]
fn a_tiny_tree_fills_up_and_the_search_goes_on() {
    let capacity = tengen::search::Tree::nodes_for_mb(1);
    for size in [9, 19] {
        let mut o = options("go", size, 1, 12_000);
        o.max_tree_mb = 1;
        o.policy = tengen::engine::PolicyChoice::Light;
        let mut e = Engine::new(o);
        let limits = Limits { playouts: Some(12_000), time: None, early_stop: false };
        let r = e.think(Color::Black, &ThinkRequest::new(limits), &|| false, &mut |_| {}).unwrap();
        // The arena filled up (less than one expansion, its children and their point set, short of
        // its capacity), never beyond, and every playout still ran.
        let expansion = size * size + 1 + tengen::search::tree::MAX_POINT_WORDS;
        assert!(
            r.tree_slots <= capacity && r.tree_slots + expansion > capacity,
            "{} of {capacity}",
            r.tree_slots
        );
        assert!(r.nodes < r.tree_slots, "the point sets take slots too");
        assert_eq!(r.playouts, 12_000);
        let d = e.genmove(Color::Black, true).unwrap();
        assert!(matches!(d, Decision::Play(Move::Place(_))));
    }
}

/// Runs the tree search on `game`'s position directly (no engine): as a move with no last move and
/// no pass pending.
fn search_game(
    game: &tengen::rules::AnyGame,
    tree: &mut tengen::search::Tree,
    config: &tengen::search::SearchConfig,
    request: &ThinkRequest,
    stop: &(dyn Fn() -> bool + Sync),
    on_report: &mut dyn FnMut(&tengen::engine::SearchReport),
) -> tengen::engine::SearchReport {
    tengen::with_game!(game, g => {
        let input = tengen::search::SearchInput {
            rules: g.rules(),
            root: g.position(),
            history: g.history(),
            last_move: Point::NONE,
            own_last_move: Point::NONE,
            opponent_passed: false,
            started: std::time::Instant::now(),
        };
        tengen::search::search(&input, tree, config, request, stop, on_report)
    })
}

#[test]
fn threads_share_the_tree_safely() {
    use tengen::rules::AnyGame;
    use tengen::search::{tree::ROOT, SearchConfig, Tree};
    // A root that starts as a leaf is expanded before the threads start, and every later visit of an
    // expanded root goes on to exactly one child: the root's visits that reach no child are the ones
    // it had before the search (none in a fresh tree; in a reused subtree, those it had as a leaf),
    // however the four threads interleave.
    let unaccounted = |tree: &Tree| {
        let root = tree.visits(ROOT) as u64;
        let kids: u64 = tree.children(ROOT).map(|c| tree.visits(c) as u64).sum();
        assert!(kids <= root, "children {kids} of {root}");
        root - kids
    };
    let config = SearchConfig { threads: 4, seed: 1, ..SearchConfig::default() };
    let mut game = AnyGame::new(&RulesConfig::parse("go").unwrap(), 9);
    let mut tree = Tree::with_megabytes(2);
    for round in 0..6 {
        let before = unaccounted(&tree);
        let reused = tree.visits(ROOT) as u64;
        let limits = Limits { playouts: Some(3000), time: None, early_stop: false };
        let report =
            search_game(&game, &mut tree, &config, &ThinkRequest::new(limits), &|| false, &mut |_| {});
        // The playout limit counts the visits the reused subtree already had.
        assert_eq!(report.root_visits, reused.max(3000), "round {round}");
        assert_eq!(unaccounted(&tree), before, "round {round}");
        // On to the most visited move's subtree, as tree reuse does.
        let best = tree.best_child(ROOT).unwrap();
        game.play(game.to_move(), tree.node(best).mv().decode()).unwrap();
        tree = Tree::reroot(&tree, best, None);
    }
}

#[test]
fn the_tree_is_reused_after_the_moves_played() {
    let mut e = engine("go", 9, 2, 2000);
    e.genmove(Color::Black, true).unwrap();
    let reply = e.last_report().unwrap().best().unwrap().pv[1];
    e.play(Color::White, reply).unwrap();
    let limits = Limits { playouts: Some(2000), time: None, early_stop: false };
    let r = e.think(Color::Black, &ThinkRequest::new(limits), &|| false, &mut |_| {}).unwrap();
    // The subtree under the two moves already held visits: fewer new playouts reach the limit.
    assert!(r.playouts < 2000, "{} new playouts", r.playouts);
    assert!(r.root_visits >= 2000, "{r:?}");
    // A position the tree was not grown for starts afresh.
    e.undo().unwrap();
    e.undo().unwrap();
    e.play(Color::Black, Move::Place(pt(&e, "A1"))).unwrap();
    let limits = Limits { playouts: Some(500), time: None, early_stop: false };
    let r = e.think(Color::White, &ThinkRequest::new(limits), &|| false, &mut |_| {}).unwrap();
    assert_eq!((r.playouts, r.root_visits), (500, 500));
}

#[test]
fn an_unlimited_search_reports_and_stops_when_told() {
    let mut e = engine("go", 9, 4, 1);
    let reports = AtomicUsize::new(0);
    let req = ThinkRequest {
        report_every: Some(Duration::from_millis(1)),
        want_ownership: true,
        max_moves: Some(5),
        ..ThinkRequest::new(Limits::unlimited())
    };
    // Stops only after three interval reports, the last of them with playouts in it: the search ran,
    // reported from this thread, and heard the stop. (Reports come every millisecond from the start,
    // so on a busy machine the first ones can come before any thread has finished a playout.)
    let played = AtomicUsize::new(0);
    let stop = || reports.load(Ordering::Relaxed) >= 3 && played.load(Ordering::Relaxed) > 0;
    let last = e
        .think(Color::Black, &req, &stop, &mut |r| {
            assert!(r.candidates.len() <= 5);
            reports.fetch_add(1, Ordering::Relaxed);
            played.store(r.playouts as usize, Ordering::Relaxed);
        })
        .unwrap();
    assert!(reports.load(Ordering::Relaxed) >= 4, "three interval reports and the final one");
    let own = last.ownership.expect("ownership was asked for");
    assert_eq!(own.len(), 81);
    assert!(own.iter().all(|v| (-1.0..=1.0).contains(v)));
}

/// Black walls off columns A-E, White F-J; a white stone in atari at B5 is dead. Black wins by 1.5
/// with it removed, loses if it counted as alive.
const END: &str = "
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . X . . X O . . .
    X O X . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .
    . . . . X O . . .";

#[test]
fn passes_after_the_opponent_when_the_count_wins_and_scores_the_same_way() {
    let mut e = engine("go", 9, 6, 3000);
    setup(&mut e, END);
    e.play(Color::White, Move::Pass).unwrap();
    let d = e.genmove(Color::Black, true).unwrap();
    assert_eq!(d, Decision::Play(Move::Pass));
    assert!(e.game().is_over());
    // The count agrees with the judgement behind the pass.
    assert_eq!(e.final_status().dead, vec![pt(&e, "B5")]);
    assert_eq!(e.final_score().unwrap().to_string(), "B+1.5");
}

#[test]
fn does_not_pass_into_a_lost_count() {
    // The same position for White: passing now would lose by 1.5, so White plays on.
    let mut o = options("go", 9, 6, 3000);
    o.resign_threshold = None;
    let mut e = Engine::new(o);
    setup(&mut e, END);
    e.play(Color::Black, Move::Pass).unwrap();
    let d = e.genmove(Color::White, false).unwrap();
    assert_ne!(d, Decision::Play(Move::Pass));
}

/// A decided game: Black owns the board but for White's group in the lower left, which lives by its
/// two eyes at A1 and B2; the white stone at F5 is dead. With it removed Black wins by 49.5.
const DECIDED: &str = "
    . X . X . X . X .
    X X X X X X X X X
    . X . X . X . X .
    X X X X X X X X X
    X X X X . O X X X
    O O O X X X X X X
    O O O X . X . X .
    O . O X X X X X X
    . O O X . X . X .";

/// In a decided game every move has the same win rate for both players, so a search judging the
/// stones spent as much on the loser filling its own eyes as on anything else, and its ownership
/// called the two-eyed group dead (found in self-play: a B+54 game scored B+72).
#[test]
fn a_two_eyed_group_stays_alive_in_a_decided_game() {
    for to_move in [Color::White, Color::Black] {
        for seed in 1..=3 {
            let mut e = engine("go", 9, seed, 3000);
            setup(&mut e, DECIDED);
            if e.game().to_move() != to_move {
                e.play(e.game().to_move(), Move::Pass).unwrap();
            }
            assert_eq!(e.final_status().dead, vec![pt(&e, "F5")], "{to_move:?} to move, seed {seed}");
            assert_eq!(e.final_score().unwrap().to_string(), "B+49.5", "{to_move:?} to move, seed {seed}");
        }
    }
}

/// Another decided game (from self-play): White's big group has one liberty, A8, and only the
/// one eye there, so it is dead; so is the white stone at A9. With White to move it can take B9 at
/// C9, but only to start a ko it cannot use (connecting leaves the group with A8 alone). Counted
/// right, Black wins by 73.5.
const DECIDED_SEMEAI: &str = "
    O X . X . X . X .
    . O X X X . X . X
    O O X X O X . X .
    O O O O O X X . X
    O X X O O O O X X
    X . X X O O O X .
    X X . X O X X . X
    X . X X X . X X X
    X X . X X X X . X";

/// Black, winning by any count, was indifferent to capturing the group, so the win-or-loss
/// judging search (500 playouts, the engine's own) followed Black leaving it standing as often as
/// taking it, and called it alive: Black passed counting B+31.5 where the referee counted B+73.5.
#[test]
fn a_dead_group_stays_dead_in_a_decided_game() {
    for seed in 1..=3 {
        let mut e = engine("go", 9, seed, 500);
        setup(&mut e, DECIDED_SEMEAI);
        e.play(Color::White, Move::Pass).unwrap();
        assert_eq!(e.genmove(Color::Black, true).unwrap(), Decision::Play(Move::Pass), "seed {seed}");
        let dead = e.final_status().dead;
        for v in ["A9", "B8", "A5", "E3", "G5", "E7"] {
            assert!(dead.contains(&pt(&e, v)), "seed {seed}: {v} not dead");
        }
        assert_eq!(dead.len(), 19, "seed {seed}");
        assert_eq!(e.final_score().unwrap().to_string(), "B+73.5", "seed {seed}");
    }
}

#[test]
fn cleanup_captures_dead_stones_before_passing() {
    let mut e = engine("go", 9, 8, 3000);
    setup(&mut e, END);
    let b5 = pt(&e, "B5");
    let mut passed = false;
    for _ in 0..6 {
        e.play(Color::White, Move::Pass).unwrap();
        let d = e.genmove_cleanup(Color::Black, &|| false, &mut |_| {}).unwrap();
        if d == Decision::Play(Move::Pass) {
            passed = true;
            break;
        }
    }
    assert!(passed, "Black never passed");
    assert!(e.game().board().is_empty_point(b5), "passed with the dead stone on the board");
    assert_eq!(e.final_score().unwrap().to_string(), "B+1.5");
}

/// A search whose root already holds `tengen::search::tree::MAX_VISITS` visits adds no playout
/// (the counts would overflow past it): a limited search returns at once, an open-ended one (an
/// analysis) keeps reporting until it is told to stop.
#[test]
fn no_search_goes_past_the_visit_cap() {
    use tengen::rules::AnyGame;
    use tengen::search::{
        tree::{MAX_VISITS, ROOT},
        SearchConfig, Tree,
    };
    let game = AnyGame::new(&RulesConfig::parse("go").unwrap(), 9);
    let config = SearchConfig { threads: 2, seed: 1, ..SearchConfig::default() };
    for limits in [Limits::playouts(500), Limits::unlimited()] {
        let mut tree = Tree::with_megabytes(4);
        tree.set_stats(ROOT, MAX_VISITS, 0);
        let reports = AtomicUsize::new(0);
        let request =
            ThinkRequest { report_every: Some(Duration::from_millis(1)), ..ThinkRequest::new(limits) };
        let stop = || reports.load(Ordering::Relaxed) >= 3;
        let report = search_game(&game, &mut tree, &config, &request, &stop, &mut |_| {
            reports.fetch_add(1, Ordering::Relaxed);
        });
        assert_eq!(report.playouts, 0, "{limits:?}");
        assert_eq!(tree.visits(ROOT), MAX_VISITS);
        if limits.playouts.is_none() {
            assert!(reports.load(Ordering::Relaxed) >= 3, "the analysis went on reporting");
        }
    }
}

/// The line of a point from the nearest edge (1: the first line).
fn edge_line(e: &Engine, m: Move) -> usize {
    let Move::Place(p) = m else { return 0 };
    let geo = e.game().board().geometry();
    let (x, y) = geo.xy(p);
    let n = e.size();
    x.min(y).min(n - 1 - x).min(n - 1 - y) + 1
}

/// On the empty 19x19 board the search's most visited candidates and its priors' favourites are on
/// the third and fourth lines, where a game's first stones go: a move on the first or second line
/// there is what a Go player sees first and closes the program over.
#[test]
fn empty_19x19_candidates_are_on_the_third_and_fourth_lines() {
    let mut e = engine("go", 19, 1, 8_000);
    let req = ThinkRequest {
        min_moves: 361,
        ..ThinkRequest::new(Limits { early_stop: false, ..Limits::playouts(8_000) })
    };
    let r = e.think(Color::Black, &req, &|| false, &mut |_| {}).unwrap();
    let top: Vec<(String, usize)> = r
        .candidates
        .iter()
        .take(5)
        .map(|c| (c.mv.to_gtp(e.game().board().geometry()), edge_line(&e, c.mv)))
        .collect();
    assert!(top.iter().all(|&(_, l)| l == 3 || l == 4), "most visited: {top:?}");
    // The prior shares rank the third and fourth lines first, and every point on the first two
    // lines below them.
    let best_low =
        r.candidates.iter().filter(|c| edge_line(&e, c.mv) <= 2).map(|c| c.prior).fold(0.0, f64::max);
    let best_mid = r
        .candidates
        .iter()
        .filter(|c| matches!(edge_line(&e, c.mv), 3 | 4))
        .map(|c| c.prior)
        .fold(0.0, f64::max);
    assert!(best_mid > best_low, "third/fourth line prior {best_mid}, first/second {best_low}");
    let worst_mid = r
        .candidates
        .iter()
        .filter(|c| matches!(edge_line(&e, c.mv), 3 | 4))
        .map(|c| c.prior)
        .fold(1.0, f64::min);
    assert!(
        worst_mid > best_low,
        "third/fourth line prior down to {worst_mid}, first/second up to {best_low}"
    );
}

/// The lead of the most visited root move over the second in a report, in visits.
fn lead(r: &tengen::engine::SearchReport) -> u64 {
    tengen::search::early_stop::lead(r.candidates.iter().map(|c| c.visits))
}

/// The playout-limited early stop, end to end: a search stops short of its limit only once the most
/// visited move leads the second by more than the playouts left (so the choice could not change), and
/// at its first check (every 16 playouts) where that holds. One thread and a seed make the searches
/// reproducible, so the same search without the early stop shows where it stood before.
#[test]
fn the_early_stop_stops_once_the_best_move_cannot_be_overtaken_and_never_before() {
    const LIMIT: u64 = 3000;
    let think = |seed: u64, moves: &[&str], limits: Limits| {
        let mut e = engine("go", 9, seed, LIMIT);
        setup(&mut e, CAPTURE);
        for (i, v) in moves.iter().enumerate() {
            let color = if i % 2 == 0 { Color::Black } else { Color::White };
            e.play(color, Move::Place(pt(&e, v))).unwrap();
        }
        let color = e.game().to_move();
        e.think(color, &ThinkRequest::new(limits), &|| false, &mut |_| {}).unwrap()
    };
    let mut stopped = 0;
    // A clear capture (Black to move takes four stones at B5) and unclear positions after it.
    for moves in [&[][..], &["H8"], &["H8", "C8"], &["H8", "C8", "G2"]] {
        for seed in 1..=3 {
            let r = think(seed, moves, Limits::playouts(LIMIT));
            assert_eq!(r.root_visits, r.playouts, "a fresh tree");
            let left = LIMIT - r.playouts;
            if r.playouts == LIMIT {
                continue;
            }
            stopped += 1;
            // Stopped: the second could not even draw level with every playout left.
            assert!(
                lead(&r) > left,
                "{moves:?} seed {seed}: stopped at {} with a lead of {}",
                r.playouts,
                lead(&r)
            );
            assert_eq!(r.playouts % 16, 0, "stops are checked every 16 playouts");
            // The same search run to the same count without the early stop is the same search...
            let full =
                |n: u64| think(seed, moves, Limits { playouts: Some(n), time: None, early_stop: false });
            assert_eq!(findings(&full(r.playouts)), findings(&r), "{moves:?} seed {seed}");
            // ... and at the check before, the second could still have caught up: no stop was missed.
            let before = full(r.playouts - 16);
            assert!(
                lead(&before) <= LIMIT - before.playouts,
                "{moves:?} seed {seed}: a lead of {} with {} left at the check before",
                lead(&before),
                LIMIT - before.playouts
            );
        }
    }
    // The capture is clear enough to stop early on every seed.
    assert!(stopped >= 3, "only {stopped} early stops");
}

/// White's four stones are in atari at B5 (Black to move).
const CAPTURE: &str = "
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . X X X X . . .
    X . O O O O X . .
    . . X X X X . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .";

/// A GTP session in process (the engine behind it searches on one thread with a fixed seed).
struct Gtp(tengen::gtp::Session);

impl Gtp {
    fn new(seed: u64, playouts: u64) -> Gtp {
        Gtp(tengen::gtp::Session::new(engine("go", 9, seed, playouts)))
    }

    /// Sends one command; panics unless it succeeds. The payload.
    fn ok(&mut self, command: &str) -> String {
        let response = self.0.handle_line(command.as_bytes()).expect("a command gets a response");
        let body = response.strip_suffix("\n\n").unwrap_or_else(|| panic!("{command}: {response:?}"));
        let payload = body.strip_prefix("= ").or(body.strip_prefix("=")).unwrap_or_else(|| {
            panic!("{command} refused: {response:?}");
        });
        payload.trim().to_string()
    }

    fn run(&mut self, commands: &str) {
        for line in commands.lines().map(str::trim).filter(|l| !l.is_empty()) {
            self.ok(line);
        }
    }

    /// A list answer (vertices on one or more lines) as a sorted set.
    fn set(&mut self, command: &str) -> std::collections::BTreeSet<String> {
        self.ok(command).split_whitespace().map(str::to_string).collect()
    }
}

/// `kgs-genmove_cleanup` under territory scoring: Black owns columns A-D of a 7x7 board, White E-G,
/// and White's A4 is dead in Black's area. Black captures it (on its liberties A3, B4, A5, in any
/// order), then passes, and the count is B+4.5: every other stone Black played in its own area would
/// cost it a point (filling first gave B+1.5).
#[test]
fn cleanup_takes_the_dead_stone_on_its_liberties_then_passes() {
    for seed in [1, 2, 3] {
        let mut g = Gtp::new(seed, 1000);
        g.run(
            "boardsize 7
            komi 0.5
            tengen-rules go:scoring=territory
            play b D1
            play w E1
            play b D2
            play w E2
            play b D3
            play w E3
            play b D4
            play w E4
            play b D5
            play w E5
            play b D6
            play w E6
            play b D7
            play w E7
            play b B6
            play w A4
            play b pass
            play w F6",
        );
        let mut played = Vec::new();
        loop {
            let mv = g.ok("kgs-genmove_cleanup b");
            if mv == "PASS" || mv == "pass" {
                break;
            }
            played.push(mv);
            assert!(played.len() <= 3, "seed {seed}: {played:?} and no pass yet");
            g.ok("play w pass");
        }
        let mut set = played.clone();
        set.sort();
        assert_eq!(set, ["A3", "A5", "B4"], "seed {seed}: played {played:?} before passing");
        assert_eq!(g.ok("captures b"), "1", "seed {seed}");
        // Black's pass after White's ends the game; the count removes nothing more.
        assert_eq!(g.ok("final_status_list dead"), "", "seed {seed}");
        assert_eq!(g.ok("final_score"), "B+4.5", "seed {seed}");
    }
}

/// The end-of-game judgement belongs to the rules it was made under: the same finished board after a
/// change of rules is judged again, exactly as an engine that had those rules from the start judges
/// it. Black walls off columns A-E, White F-J; White's B3 and C8 stand in Black's area. Under Go
/// they are dead (GNU Go says so too); Stoical Go is judged by its own search, whatever it finds.
#[test]
fn the_dead_stones_are_judged_again_after_a_change_of_rules() {
    const GAME: &str = "play b E1
        play w F1
        play b E2
        play w F2
        play b E3
        play w F3
        play b E4
        play w F4
        play b E5
        play w F5
        play b E6
        play w F6
        play b E7
        play w F7
        play b E8
        play w F8
        play b E9
        play w F9
        play w C8
        play w B3
        play b pass
        play w pass";
    // One session judges under `first`, then under `second`; a fresh one judges under `second` only.
    let judged = |first: &str, second: &str| {
        let mut g = Gtp::new(5, 50);
        g.run("komi 0.5");
        g.run(&format!("tengen-rules {first}"));
        g.run(GAME);
        let before = (g.set("final_status_list dead"), g.ok("final_score"));
        g.run(&format!("tengen-rules {second}"));
        g.run(GAME);
        let after = (g.set("final_status_list dead"), g.ok("final_score"));
        let mut fresh = Gtp::new(5, 50);
        fresh.run("komi 0.5");
        fresh.run(&format!("tengen-rules {second}"));
        fresh.run(GAME);
        let alone = (fresh.set("final_status_list dead"), fresh.ok("final_score"));
        assert_eq!(after, alone, "{second} after {first}");
        (before, after)
    };
    let (stoical, go) = judged("stoical", "go");
    let dead_in_go: std::collections::BTreeSet<String> = ["B3", "C8"].map(String::from).into();
    assert_eq!(go.0, dead_in_go);
    // Area count with them removed: 45 - 36 - 0.5.
    assert_eq!(go.1, "B+8.5");
    let (go_first, stoical_after) = judged("go", "stoical");
    assert_eq!(go_first, go);
    assert_eq!(stoical_after, stoical);
}
