use super::*;
use crate::board::{Board, Geometry};
use crate::rules::{Game, KoRule, RulesConfig};
use rand::SeedableRng;

fn rng(seed: u64) -> Rng {
    Rng::seed_from_u64(seed)
}

/// Runs `count` playouts of `rules` on every size from 2 to 25 (with a few walls) with `policy`, and
/// checks that each one ends, within the move cap, with a consistent board.
fn terminates_everywhere<R: Simulate>(rules: R, policy: Policy, count: usize) {
    let mut r = rng(7);
    for size in crate::board::MIN_SIZE.max(R::Topology::TORUS as usize * 3)..=25 {
        for walls in [false, true] {
            let geo = Geometry::new(size);
            let wall_points: Vec<Point> = if walls && size >= 3 {
                vec![geo.point(size / 2, size / 2), geo.point(0, size - 1)]
            } else {
                Vec::new()
            };
            let start = Position::new(&rules, Board::shaped(size, &wall_points));
            let mut playout = Playout::new(&start);
            for _ in 0..count {
                let res = playout.run(&rules, &start, policy, &mut r);
                assert!(res.moves <= 3 * (size * size) as u32 + 16, "size {size}: {res:?}");
                playout.position().board.check_consistency().unwrap();
                for &w in &wall_points {
                    assert_eq!(playout.owner()[w.idx()], 0);
                }
            }
        }
    }
}

#[test]
fn playouts_terminate_on_every_size_and_variant() {
    for policy in [Policy::Light, Policy::Heavy] {
        terminates_everywhere(Standard::default(), policy, 3);
        terminates_everywhere(
            Standard { suicide_allowed: true, button: true, ..Standard::default() },
            policy,
            2,
        );
        terminates_everywhere(Stones::default(), policy, 3);
        terminates_everywhere(Stoical::default(), policy, 3);
        // On a torus (3x3 and up).
        terminates_everywhere(Standard::default().on::<crate::board::Torus>(), policy, 3);
        terminates_everywhere(Stones::default().on::<crate::board::Torus>(), policy, 3);
        terminates_everywhere(Stoical::default().on::<crate::board::Torus>(), policy, 3);
    }
}

#[test]
fn results_are_reproducible_for_a_seed() {
    let rules = Standard::default();
    let start = Position::new(&rules, Board::new(9));
    for policy in [Policy::Light, Policy::Heavy] {
        let run = |seed| {
            let mut p = Playout::new(&start);
            let mut r = rng(seed);
            (0..20).map(|_| (p.run(&rules, &start, policy, &mut r), p.moves().to_vec())).collect::<Vec<_>>()
        };
        assert_eq!(run(3), run(3));
        assert_ne!(run(3), run(4));
    }
}

#[test]
fn two_pass_result_matches_the_rules_count() {
    let rules = Standard { komi: 6.5, ..Standard::default() };
    // Walls too: a point enclosed by walls alone belongs to nobody, one by walls and one colour's
    // stones to that colour (the count's single-point shortcut must agree with the flood fill).
    let geo = crate::board::Geometry::new(9);
    let walls = [geo.point(0, 1), geo.point(1, 0), geo.point(4, 4), geo.point(4, 5), geo.point(8, 7)];
    let boards = [Board::new(9), Board::with_walls(9, &walls), Board::with_walls(9, &[geo.point(1, 0)])];
    let mut checked = 0;
    for (k, (board, policy)) in
        boards.iter().flat_map(|b| [(b, Policy::Light), (b, Policy::Heavy)]).enumerate()
    {
        let start = Position::new(&rules, board.clone());
        let mut p = Playout::new(&start);
        let mut r = rng(11 + k as u64);
        for _ in 0..50 {
            let res = p.run(&rules, &start, policy, &mut r);
            if res.end != PlayoutEnd::TwoPasses {
                continue;
            }
            checked += 1;
            let o = rules.score(p.position(), &[]).unwrap();
            assert_eq!(o.winner, res.winner);
            assert_eq!(o.margin as f32, res.black_margin.abs());
            let owners = crate::rules::scoring::owners(&p.position().board, &[]);
            for q in p.position().board.geometry().points() {
                let want = match owners[q.idx()] {
                    Some(Color::Black) => 1,
                    Some(Color::White) => -1,
                    None => 0,
                };
                assert_eq!(p.owner()[q.idx()], want);
            }
        }
    }
    assert!(checked > 240, "{checked}");
}

/// The owner map after a Stones playout, which ends at a decisive capture with large empty regions
/// left (most of its count is flood fill, where a two-pass go board has mostly one-point eyes),
/// is the rules' own area count of the final board, walls included.
#[test]
fn stones_owner_map_matches_the_rules_count() {
    let rules = Stones::default();
    let mut regions = 0;
    for (k, size) in [5, 9, 19].into_iter().enumerate() {
        let geo = Geometry::new(size);
        let walls = [geo.point(0, 1), geo.point(size / 2, size / 2), geo.point(size - 1, size - 2)];
        for board in [Board::new(size), Board::with_walls(size, &walls)] {
            let start = Position::new(&rules, board);
            let mut p = Playout::new(&start);
            let mut r = rng(21 + k as u64);
            for policy in [Policy::Light, Policy::Heavy] {
                for _ in 0..20 {
                    p.run(&rules, &start, policy, &mut r);
                    let b = &p.position().board;
                    regions += b.empties().iter().filter(|&&q| b.neighbour_count(q, Cell::Empty) > 0).count();
                    let owners = crate::rules::scoring::owners(b, &[]);
                    for q in b.geometry().points() {
                        let want = match owners[q.idx()] {
                            Some(Color::Black) => 1,
                            Some(Color::White) => -1,
                            None => 0,
                        };
                        assert_eq!(
                            p.owner()[q.idx()],
                            want,
                            "{size}x{size} {policy} at {}\n{b}",
                            geo.vertex(q)
                        );
                    }
                }
            }
        }
    }
    // The boards had empty points beside empty points: regions the flood fill had to walk.
    assert!(regions > 1000, "{regions}");
}

#[test]
fn no_eye_is_filled_in_go() {
    // Black owns the left side with two eyes; playouts never fill them, so Black's group lives.
    let b = Board::from_diagram(
        "
        . X . X O . .
        X X X X O . .
        . X . X O . .
        X X X X O . .
        O O O O O . .
        . . . . . . .
        . . . . . . .",
    );
    let rules = Standard { komi: 0.5, ..Standard::default() };
    let start = Position::new(&rules, b);
    let mut p = Playout::new(&start);
    let mut r = rng(5);
    let eyes = ["A7", "C7", "A5", "C5"].map(|v| start.board.geometry().parse_vertex(v).unwrap());
    for policy in [Policy::Light, Policy::Heavy] {
        for _ in 0..50 {
            p.run(&rules, &start, policy, &mut r);
            for &(c, q) in p.moves() {
                assert!(!(c == Color::Black && eyes.contains(&q)), "black filled its own eye");
            }
            for e in eyes {
                assert_eq!(p.owner()[e.idx()], 1);
            }
        }
    }
}

#[test]
fn seki_keeping_playouts_leave_a_seki_standing() {
    // Black's B9-A8-B8-C8 (eye A9) and White's D9-D8-E8-F8-F9 (eye E9) share C9: whoever fills it
    // puts their own group in atari, so with `keep_seki` neither does and the seki stays to the end.
    // Every other empty point is an eye: light playouts, and heavy ones without `keep_seki`, play the
    // self-atari as the last move left and lose the group of whoever has to move first.
    let b = Board::from_diagram(
        "
        . X . O . O X X .
        X X X O O O X X X
        O O O X X X X X X
        O O O X X X X X X
        . O O X X . X X X
        O O O X X X X X X
        O . O X X X X . X
        O O O X X X X X X
        . O O X X X X X X",
    );
    let rules = Standard { komi: 0.5, ..Standard::default() };
    let geo = *b.geometry();
    let at = |v: &str| geo.parse_vertex(v).unwrap();
    for to_move in [Color::Black, Color::White] {
        let mut start = Position::new(&rules, b.clone());
        start.to_move = to_move;
        let mut p = Playout::new(&start);
        p.keep_seki(true);
        let mut r = rng(9);
        for _ in 0..200 {
            p.run(&rules, &start, Policy::Heavy, &mut r);
            assert_eq!(p.owner()[at("C9").idx()], 0, "{to_move} to move: the shared liberty was filled");
            assert_eq!(p.owner()[at("B9").idx()], 1);
            assert_eq!(p.owner()[at("D9").idx()], -1);
        }
    }
}

#[test]
fn heavy_captures_the_chain_the_last_move_left_in_atari() {
    // White's last move B3 leaves the white B3-C3 chain... Black to move: White C4 is in atari at C5.
    let b = Board::from_diagram(
        "
        . . . . .
        . X O X .
        . . X . .
        . . . . .
        . . . . .",
    );
    let rules = Stoical::default();
    let mut start = Position::new(&rules, b);
    start.to_move = Color::Black;
    let geo = *start.board.geometry();
    let c4 = geo.parse_vertex("C4").unwrap();
    let c5 = geo.parse_vertex("C5").unwrap();
    let mut p = Playout::new(&start);
    let mut r = rng(9);
    let mut captured = 0;
    for _ in 0..200 {
        p.load(&start);
        p.set_last(c4);
        p.play_out(&rules, Policy::Heavy, &mut r);
        captured += (p.moves()[0] == (Color::Black, c5)) as u32;
    }
    // 90% of the time the atari answer is tried first.
    assert!(captured > 150, "captured {captured} of 200");
}

#[test]
fn stones_playouts_use_returns_and_end_decisively() {
    let rules = Stones::default();
    let start = Position::new(&rules, Board::new(9));
    let mut p = Playout::new(&start);
    let mut r = rng(1);
    let mut decisive = 0;
    for _ in 0..100 {
        let res = p.run(&rules, &start, Policy::Heavy, &mut r);
        assert!(res.winner.is_some() || res.end == PlayoutEnd::MoveCap);
        if res.end == PlayoutEnd::GameOver {
            decisive += 1;
            assert_eq!(p.position().outcome.unwrap().winner, res.winner);
        }
    }
    assert!(decisive > 50, "{decisive} decisive of 100");
}

#[test]
fn a_finished_game_is_evaluated_as_it_ended() {
    let cfg = RulesConfig::parse("go:ko=positional,komi=0.5").unwrap();
    let mut g = Game::new(cfg.standard(), Board::new(5));
    assert_eq!(g.rules().ko, KoRule::Positional);
    g.play(Color::Black, Move::Place(Geometry::new(5).point(2, 2))).unwrap();
    g.play(Color::White, Move::Pass).unwrap();
    g.play(Color::Black, Move::Pass).unwrap();
    assert!(g.is_over());
    let mut p = Playout::new(g.position());
    let res = p.run(g.rules(), g.position(), Policy::Light, &mut rng(0));
    assert_eq!(res.end, PlayoutEnd::GameOver);
    assert_eq!(res.winner, Some(Color::Black));
    assert_eq!(res.black_margin, 24.5);
    assert_eq!(res.moves, 0);
}

#[test]
fn policy_names_parse() {
    assert_eq!("light".parse::<Policy>(), Ok(Policy::Light));
    assert_eq!("HEAVY".parse::<Policy>(), Ok(Policy::Heavy));
    assert!("medium".parse::<Policy>().is_err());
    assert_eq!(Policy::default(), Policy::Heavy);
}

#[test]
fn light_finds_captures_in_eye_shaped_points_and_passes_when_none_is_left() {
    // Every empty point is eye-shaped: Black's eyes A5, A3 and A1, and D5 and D1, the last
    // liberties of two white chains in atari. Black's only moves are those two captures; White
    // has none (its own eyes, and suicides in Black's).
    let b = Board::from_diagram(
        "
        . X O . O
        X X O O O
        . X X X X
        X X O O O
        . X O . O",
    );
    assert!(b.empties().iter().all(|&p| b.is_eye_shaped_point(p)), "all five empty points are eye-shaped");
    let rules = Standard::default();
    let geo = *b.geometry();
    let captures = ["D5", "D1"].map(|v| geo.parse_vertex(v).unwrap());
    let mut start = Position::new(&rules, b);
    let mut p = Playout::new(&start);
    let mut r = rng(3);
    let mut seen = [0; 2];
    for _ in 0..40 {
        let choice = p.choose_light(&rules, Color::Black, &mut r, 1);
        let k = captures.iter().position(|&c| Some(c) == choice).expect("a capture");
        seen[k] += 1;
    }
    assert!(seen[0] > 0 && seen[1] > 0, "both captures are chosen: {seen:?}");
    // Black's probes set its eyes aside (the captures were taken, so they stay where they were).
    assert_eq!(p.position().board.set_aside_count(), 3);
    start.to_move = Color::White;
    let mut p = Playout::new(&start);
    assert_eq!(p.choose_light(&rules, Color::White, &mut r, 1), None);
    assert_eq!(p.position().board.set_aside_count(), 5, "White's probes set every point aside");
    assert_eq!(p.choose_light(&rules, Color::White, &mut r, 1), None);
}

#[test]
fn light_plays_an_eye_shaped_capture_among_other_moves() {
    // White's B5-A4-B4 is in atari with its last liberty in its eye A5, an eye-shaped point, set
    // aside here; the rest of the board is open. A first draw of A5 is played: over many first
    // moves, A5 comes up about once in `n` (n = 17 free points here).
    let b = Board::from_diagram(
        "
        . O X . .
        O O X . .
        X X X . .
        . . . . .
        . . . . .",
    );
    let geo = *b.geometry();
    let a5 = geo.parse_vertex("A5").unwrap();
    assert!(b.is_eye_shaped_point(a5));
    let rules = Standard::default();
    let start = Position::new(&rules, b);
    let mut p = Playout::new(&start);
    p.position_mut().board.set_aside_if_eye_shaped(a5);
    assert_eq!(p.position().board.empties()[..1], [a5]);
    let mut r = rng(4);
    let captures = (0..1600).filter(|_| p.choose_light(&rules, Color::Black, &mut r, 1) == Some(a5)).count();
    // 94 expected; the bounds are five standard deviations (about 9.4) either side.
    assert!((47..=141).contains(&captures), "{captures} of 1600");
}

/// Light playouts of `rules` with `Playout::stuck_choice` and with the full scans of the
/// set-aside points instead, one per seed below `seeds`: the same moves and results. Returns how
/// often the shortcut was taken and how often it found a point to play.
fn stuck_shortcut_agrees<R: Simulate>(rules: &R, size: usize, walls: bool, seeds: u64) -> (u32, u32) {
    let geo = Geometry::new(size);
    let wall_points: Vec<Point> =
        if walls { vec![geo.point(size / 2, size / 2), geo.point(1, size - 2)] } else { Vec::new() };
    let start = Position::new(rules, Board::shaped(size, &wall_points));
    let mut with = Playout::new(&start);
    let mut without = Playout::new(&start);
    without.stuck_log.off = true;
    for seed in 0..seeds {
        let a = with.run(rules, &start, Policy::Light, &mut rng(seed));
        let b = without.run(rules, &start, Policy::Light, &mut rng(seed));
        assert_eq!(a, b, "{size}x{size}, seed {seed}");
        assert_eq!(with.moves(), without.moves(), "{size}x{size}, seed {seed}");
    }
    assert_eq!(without.stuck_log.used.get(), 0);
    (with.stuck_log.used.get(), with.stuck_log.chose.get())
}

#[test]
fn a_stuck_players_shortcut_makes_the_full_scans_choices() {
    // Small boards, walls, suicide allowed, the button, Stoical's capture restriction: playouts
    // that end in runs of passes, captures in eyes and false eyes filled. (Debug builds also
    // compare each shortcut with the full scan as it is taken.)
    let (mut used, mut chose) = (0, 0);
    for (config, size, walls) in [
        ("go", 5, false),
        ("go", 7, true),
        ("go", 9, false),
        ("go:suicide=allowed", 7, false),
        ("go:button=on", 6, true),
        ("go:ko=positional", 9, true),
    ] {
        let rules = RulesConfig::parse(config).unwrap().variant.go;
        let (u, c) = stuck_shortcut_agrees(&rules, size, walls, 2000);
        (used, chose) = (used + u, chose + c);
    }
    // Most shortcuts find nothing (the player passes again); some find a capture or a false eye.
    assert!(used > 5000 && chose > 0, "go: shortcuts taken {used}, with a choice {chose}");
    let (mut used, mut chose) = (0, 0);
    for (size, walls) in [(5, false), (6, true), (7, true), (9, false)] {
        let (u, c) = stuck_shortcut_agrees(&Stoical::default(), size, walls, 4000);
        (used, chose) = (used + u, chose + c);
    }
    assert!(used > 2000 && chose > 0, "Stoical: shortcuts taken {used}, with a choice {chose}");
}

/// Runs one playout of `rules` from `diagram` with `to_move` to play and the mercy rule at
/// `threshold` stones.
fn mercy_playout<R: Simulate>(
    rules: &R,
    diagram: &str,
    to_move: Color,
    threshold: Option<u32>,
    seed: u64,
) -> PlayoutResult {
    let mut start = Position::new(rules, Board::from_diagram_shaped(diagram));
    start.to_move = to_move;
    let mut p = Playout::new(&start);
    p.mercy_at(threshold);
    p.run(rules, &start, Policy::Light, &mut rng(seed))
}

#[test]
fn the_mercy_rule_ends_a_playout_at_its_threshold_beyond_komi() {
    // Komi 2.5 and a threshold of 4 stones: Black wins by mercy at 7 stones more than White (a
    // lead of 4 beyond komi), White at 4 stones more than Black (on the board: komi alone never
    // decides).
    let rules = Standard { komi: 2.5, ..Standard::default() };
    let six_black = "
        X X X . .
        X X X . .
        . . . . .
        . . . . .
        . . . . .";
    let five_black = "
        X X X . .
        X X . . .
        . . . . .
        . . . . .
        . . . . .";
    let three_white = "
        O O O . .
        . . . . .
        . . . . .
        . . . . .
        . . . . .";
    for seed in 0..20 {
        // Any placement of Black's makes 7: the playout ends after it.
        let r = mercy_playout(&rules, six_black, Color::Black, Some(4), seed);
        assert_eq!((r.end, r.winner, r.moves), (PlayoutEnd::Mercy, Some(Color::Black), 1), "seed {seed}");
        // One stone short: Black's placement makes 6, not enough.
        let r = mercy_playout(&rules, five_black, Color::Black, Some(4), seed);
        assert!(r.moves > 1, "seed {seed}: {r:?}");
        // White's placement makes -4.
        let r = mercy_playout(&rules, three_white, Color::White, Some(4), seed);
        assert_eq!((r.end, r.winner, r.moves), (PlayoutEnd::Mercy, Some(Color::White), 1), "seed {seed}");
        // A large komi (a handicap game's dynamic komi) does not hand White the game: with 20.5,
        // White's placement beside nothing makes -1, ahead by 21.5 beyond komi but not on the board.
        let big_komi = Standard { komi: 20.5, ..Standard::default() };
        let r = mercy_playout(&big_komi, five_black.replace('X', ".").as_str(), Color::White, Some(4), seed);
        assert!(r.moves > 1, "seed {seed}: {r:?}");
        // Off, the same playout runs to the end.
        let r = mercy_playout(&rules, six_black, Color::Black, None, seed);
        assert_ne!(r.end, PlayoutEnd::Mercy, "seed {seed}");
        assert!(r.moves > 1, "seed {seed}: {r:?}");
        // Stones has no mercy rule: its playouts end by a decisive capture.
        let r = mercy_playout(&Stones::default(), six_black, Color::Black, Some(4), seed);
        assert_ne!(r.end, PlayoutEnd::Mercy, "seed {seed}");
    }
}

#[test]
fn a_mercy_verdict_is_the_played_out_result_almost_always() {
    // The same generator with and without the rule plays the same moves up to the verdict, so each
    // verdict can be held against the playout's own end. Fuego's threshold, 30% of the points.
    // Komi 7.5 and -7.5: a lead of 25 stones on the board, and beyond komi.
    for rules in [Standard::default(), Standard { komi: -7.5, ..Standard::default() }] {
        let start = Position::new(&rules, Board::new(9));
        let mut merciful = Playout::new(&start);
        merciful.mercy(true);
        let mut full = Playout::new(&start);
        let (mut verdicts, mut agree) = (0, 0);
        for seed in 0..400 {
            let policy = if seed % 2 == 0 { Policy::Light } else { Policy::Heavy };
            let a = merciful.run(&rules, &start, policy, &mut rng(seed));
            let b = full.run(&rules, &start, policy, &mut rng(seed));
            assert_eq!(merciful.moves(), &full.moves()[..merciful.moves().len()], "seed {seed}");
            if a.end == PlayoutEnd::Mercy {
                verdicts += 1;
                agree += (a.winner == b.winner) as u32;
                assert!(a.moves < b.moves);
            } else {
                assert_eq!(a, b);
            }
        }
        // About a third of 9x9 playouts from the empty board end by mercy; of 15,116 light ones
        // (`examples/mercy_agreement.rs`), no verdict differed from the played-out result.
        assert!(verdicts > 100, "{verdicts}");
        assert!(agree as f64 >= 0.99 * verdicts as f64, "{agree} of {verdicts}");
    }
}

#[test]
fn a_blended_score_moves_the_expected_result_with_the_margin() {
    // White wins a counted 9x9 game by 4.5; with weight w the expected result for Black is
    // w * (1/2 - 4.5 / 36), and a game ended otherwise keeps its winner whatever the weight.
    let counted = PlayoutResult {
        winner: Some(Color::White),
        black_margin: -4.5,
        moves: 60,
        end: PlayoutEnd::TwoPasses,
    };
    let decisive = PlayoutResult { end: PlayoutEnd::GameOver, ..counted };
    let mut r = rng(11);
    let trials = 40_000;
    for (weight, expected) in [(0.0, 0.0), (0.2, 0.2 * 0.375), (1.0, 0.375)] {
        let mut black = 0;
        for _ in 0..trials {
            let mut res = counted;
            res.blend_score(9, weight, &mut r);
            black += (res.winner == Some(Color::Black)) as u32;
            let mut other = decisive;
            other.blend_score(9, weight, &mut r);
            assert_eq!(other.winner, Some(Color::White));
        }
        let share = black as f64 / trials as f64;
        assert!((share - expected).abs() < 0.01, "weight {weight}: Black won {share}, expected {expected}");
    }
}
