//! Random stress test of the board (ENGINEERING.md section 2, KataGo's style): many random and garbage
//! moves on several sizes, some boards with walls. After every move the incremental state is compared with
//! `check_consistency()` (which recomputes everything), and the O(1) queries (`is_suicide`,
//! `capture_count`, `captures_any`, `in_atari` / `atari_liberty`, `liberties_up_to`,
//! `liberties_after_up_to`, `is_eye`, the free-point list's set-aside eye-shaped points) and
//! `Board::play` itself are compared with slow flood-fill recomputations that share no code with the board.
//! The playouts' placement without the hash (`Board::place::<false>`) must do the same as `play`.
//! Deterministic: every run is seeded.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use std::collections::HashSet;
use tengen::board::{Board, Cell, Color, Flat, Point, Topology, Torus};
use tengen::rules::{Game, Illegal, KoRule, Move, Standard, Stones};

type Rng64 = Xoshiro256PlusPlus;

const SIZES: [usize; 7] = [2, 3, 5, 9, 13, 19, 25];
/// Total moves (legal, illegal and garbage) tried over all runs; the test asserts at least this many.
const MOVES_PER_SIZE: usize = 16_000;

/// Every cell of the padded array, as the board reports it.
fn snapshot<T: Topology>(b: &Board<T>) -> Vec<Cell> {
    (0..b.geometry().cells()).map(|i| b.cell(Point(i as u16))).collect()
}

/// The group through `p` in a cell array and its distinct liberties, by flood fill.
fn slow_group<T: Topology>(b: &Board<T>, cells: &[Cell], p: Point) -> (Vec<Point>, Vec<Point>) {
    let c = cells[p.idx()];
    let mut seen = HashSet::from([p]);
    let mut stack = vec![p];
    let (mut stones, mut libs) = (Vec::new(), Vec::new());
    while let Some(s) = stack.pop() {
        stones.push(s);
        for q in b.neighbours(s) {
            if cells[q.idx()] == c && seen.insert(q) {
                stack.push(q);
            } else if cells[q.idx()] == Cell::Empty && !libs.contains(&q) {
                libs.push(q);
            }
        }
    }
    stones.sort();
    libs.sort();
    (stones, libs)
}

/// What a placement does, computed the slow way on a cell array: (cells after, captured, suicided).
fn slow_play<T: Topology>(b: &Board<T>, cells: &[Cell], color: Color, p: Point) -> (Vec<Cell>, u32, u32) {
    let mut cells = cells.to_vec();
    let own = Cell::stone(color);
    let enemy = Cell::stone(color.opponent());
    cells[p.idx()] = own;
    let mut captured = 0;
    for q in b.neighbours(p) {
        if cells[q.idx()] == enemy {
            let (stones, libs) = slow_group(b, &cells, q);
            if libs.is_empty() {
                captured += stones.len() as u32;
                for s in stones {
                    cells[s.idx()] = Cell::Empty;
                }
            }
        }
    }
    let mut suicided = 0;
    let (stones, libs) = slow_group(b, &cells, p);
    if libs.is_empty() {
        suicided = stones.len() as u32;
        for s in stones {
            cells[s.idx()] = Cell::Empty;
        }
    }
    (cells, captured, suicided)
}

/// `is_eye` as its documentation states it: every neighbour is `color` or wall/border, and the diagonals
/// hold at most one enemy stone, none if any diagonal is a wall or off the board.
fn slow_is_eye<T: Topology>(b: &Board<T>, cells: &[Cell], color: Color, p: Point) -> bool {
    let own = Cell::stone(color);
    if !b.neighbours(p).iter().all(|q| cells[q.idx()] == own || cells[q.idx()] == Cell::Wall) {
        return false;
    }
    let diag = b.diagonals(p);
    let enemy = diag.iter().filter(|d| cells[d.idx()] == Cell::stone(color.opponent())).count();
    let edge = diag.iter().any(|d| cells[d.idx()] == Cell::Wall);
    if edge {
        enemy == 0
    } else {
        enemy <= 1
    }
}

/// The free-point list's set-aside part as `Board::set_aside_count` documents it: only eye-shaped
/// points (no empty neighbour, not both colours around). The stress test sets aside every
/// eye-shaped point it samples, as playouts do, so the part must survive later moves.
fn check_set_aside<T: Topology>(b: &Board<T>, cells: &[Cell]) {
    for &p in &b.empties()[..b.set_aside_count()] {
        let around: Vec<Cell> = b.neighbours(p).iter().map(|q| cells[q.idx()]).collect();
        let mixed = around.contains(&Cell::Black) && around.contains(&Cell::White);
        assert!(!around.contains(&Cell::Empty) && !mixed, "{} is set aside\n{b}", b.geometry().vertex(p));
    }
}

/// Sum of the stakes over all chains (each chain counted once).
fn total_stakes<T: Topology>(b: &Board<T>) -> u32 {
    let mut heads = HashSet::new();
    let mut sum = 0;
    for p in b.geometry().points() {
        if b.cell(p).color().is_some() && heads.insert(b.chain_head(p)) {
            sum += b.chain_stakes(p);
        }
    }
    sum
}

/// Compares every query about the empty point `p` with the slow recomputation, and `Board::play` there
/// (on a copy) with `slow_play`.
fn check_empty_point<T: Topology>(b: &Board<T>, cells: &[Cell], p: Point) {
    let v = b.geometry().vertex(p);
    for color in Color::BOTH {
        let (after, captured, suicided) = slow_play(b, cells, color, p);
        assert_eq!(b.is_suicide(color, p), suicided > 0, "is_suicide {color} {v}\n{b}");
        let (stones, stakes) = b.capture_count(color, p);
        assert_eq!(stones, captured, "capture_count {color} {v}\n{b}");
        assert_eq!(b.captures_any(color, p), captured > 0, "captures_any {color} {v}\n{b}");
        assert_eq!(b.is_eye(color, p), slow_is_eye(b, cells, color, p), "is_eye {color} {v}\n{b}");
        // The stakes of the enemy groups that would be taken, each group once.
        let mut heads = HashSet::new();
        let mut slow_stakes = 0;
        for q in b.neighbours(p) {
            if cells[q.idx()] == Cell::stone(color.opponent())
                && after[q.idx()] == Cell::Empty
                && heads.insert(b.chain_head(q))
            {
                slow_stakes += b.chain_stakes(q);
            }
        }
        assert_eq!(stakes, slow_stakes, "capture_count stakes {color} {v}\n{b}");
        // The liberties the new stone's chain would have, read without playing: the slow way, from
        // the board after the placement (none after a suicide, which removes the chain).
        let slow_libs = if suicided > 0 { 0 } else { slow_group(b, &after, p).1.len() };
        for limit in 0..8 {
            assert_eq!(
                b.liberties_after_up_to(color, p, limit),
                slow_libs.min(limit + 1),
                "liberties_after_up_to({limit}) {color} {v}\n{b}"
            );
        }
        let mut copy = b.clone();
        let placed = copy.play(color, p);
        assert_eq!(snapshot(&copy), after, "play {color} {v}\n{b}");
        let counts = (u32::from(placed.captured), u32::from(placed.suicided));
        assert_eq!(counts, (captured, suicided), "play {color} {v}\n{b}");
        assert_eq!(u32::from(placed.captured_stakes), slow_stakes, "captured stakes {color} {v}\n{b}");
        assert_eq!(b.hash_after(color, p), copy.hash(), "hash_after {color} {v}\n{b}");
    }
}

/// Compares the chain queries about the stone at `p` with a flood fill.
fn check_stone<T: Topology>(b: &Board<T>, cells: &[Cell], p: Point) {
    let v = b.geometry().vertex(p);
    let (stones, libs) = slow_group(b, cells, p);
    assert_eq!(b.chain_len(p), stones.len(), "chain_len {v}\n{b}");
    let mut ring: Vec<Point> = b.chain_stones(p).collect();
    ring.sort();
    assert_eq!(ring, stones, "chain_stones {v}\n{b}");
    assert_eq!(b.in_atari(p), libs.len() == 1, "in_atari {v}\n{b}");
    assert_eq!(b.atari_liberty(p), (libs.len() == 1).then(|| libs[0]), "atari_liberty {v}\n{b}");
    assert_eq!(b.liberties(p), libs, "liberties {v}\n{b}");
    for limit in 0..=12 {
        assert_eq!(
            b.liberties_up_to(p, limit),
            libs.len().min(limit + 1),
            "liberties_up_to({limit}) {v}\n{b}"
        );
    }
}

/// Runs the slow comparisons on a sample of points (all of them on small boards).
fn check_queries<T: Topology>(rng: &mut Rng64, b: &Board<T>) {
    b.check_consistency().unwrap_or_else(|e| panic!("{e}\n{b}"));
    let cells = snapshot(b);
    check_set_aside(b, &cells);
    let points: Vec<Point> = b.geometry().points().collect();
    let sample: Vec<Point> = if points.len() <= 25 {
        points
    } else {
        (0..6).map(|_| points[rng.gen_range(0..points.len())]).collect()
    };
    for p in sample {
        match b.cell(p) {
            Cell::Empty => check_empty_point(b, &cells, p),
            Cell::Black | Cell::White => check_stone(b, &cells, p),
            Cell::Wall => assert!(b.walls().contains(&p)),
        }
    }
}

/// A random board of `size`, with walls on about one point in twelve when `walls` is set.
fn random_board<T: Topology>(rng: &mut Rng64, size: usize, walls: bool) -> Board<T> {
    let b = Board::shaped(size, &[]);
    if !walls {
        return b;
    }
    let w: Vec<Point> = b.geometry().points().filter(|_| rng.gen_ratio(1, 12)).collect();
    let b = Board::shaped(size, &w);
    assert_eq!(b.walls().len(), w.len());
    b
}

/// Raw physics: random colours on random empty points (single-stone suicides and ko retakes included),
/// with stakes added now and then; the total of the stakes must follow the captures.
fn run_board<T: Topology>(rng: &mut Rng64, size: usize, walls: bool, moves: usize) -> usize {
    let mut b = random_board::<T>(rng, size, walls);
    let mut unhashed = b.clone();
    let mut stakes = 0u32;
    for _ in 0..moves {
        if b.empties().is_empty() {
            b = random_board(rng, size, walls);
            stakes = 0;
        }
        if rng.gen_ratio(1, 10) {
            let stones: Vec<Point> = b.geometry().points().filter(|&p| b.cell(p).color().is_some()).collect();
            if !stones.is_empty() {
                b.add_stake(stones[rng.gen_range(0..stones.len())]);
                stakes += 1;
            }
        }
        let p = b.empties()[rng.gen_range(0..b.empties().len())];
        let color = if rng.gen_bool(0.5) { Color::Black } else { Color::White };
        // The playouts' placement, which lets the hash go stale, must do everything else alike.
        unhashed.clone_from(&b);
        unhashed.let_hash_go_stale();
        let placed_unhashed = unhashed.place::<false>(color, p);
        let placed = b.play(color, p);
        assert_eq!(placed_unhashed, placed);
        assert_eq!((&unhashed, unhashed.empties(), unhashed.ko()), (&b, b.empties(), b.ko()));
        unhashed.check_consistency().unwrap_or_else(|e| panic!("unhashed: {e}\n{unhashed}"));
        stakes -= u32::from(placed.captured_stakes) + u32::from(placed.suicided_stakes);
        assert_eq!(total_stakes(&b), stakes, "stakes after {color} {}\n{b}", b.geometry().vertex(p));
        // Set aside about half of the eye-shaped points, as playouts do; later moves play on
        // set-aside points too (the next move's point is drawn from the whole list).
        let empties = b.empties().to_vec();
        for q in empties {
            if rng.gen_bool(0.5) {
                b.set_aside_if_eye_shaped(q);
            }
        }
        check_queries(rng, &b);
    }
    moves
}

/// The whole observable state of a game, to prove that a refused move changed nothing.
fn game_state<R: tengen::rules::Rules>(g: &Game<R>) -> String {
    let pos = g.position();
    format!(
        "{}{:?} {:?} {} {:?} {:?} {} {} {:?}",
        g.board(),
        g.board().hash(),
        g.board().ko(),
        pos.passes,
        pos.prisoners,
        pos.outcome,
        g.moves().len(),
        g.history().len(),
        g.to_move()
    )
}

/// A random point: usually an empty one, often garbage (occupied, wall, border, outside the array).
fn random_point<T: Topology>(rng: &mut Rng64, b: &Board<T>) -> Point {
    let cells = b.geometry().cells();
    match rng.gen_range(0..10) {
        0..=5 if !b.empties().is_empty() => b.empties()[rng.gen_range(0..b.empties().len())],
        6 => Point(rng.gen_range(cells..cells + 3000) as u16),
        _ => Point(rng.gen_range(0..cells) as u16),
    }
}

/// Games of standard Go with random colours, random points (garbage included) and some passes. Every
/// refused move must leave the game unchanged; every accepted one must do what `slow_play` says, and its
/// legality must match the rule computed from scratch: suicide, and the position of one move ago (simple
/// ko) or every earlier position (positional superko).
fn run_game(rng: &mut Rng64, size: usize, walls: bool, moves: usize) -> usize {
    let ko = if rng.gen_bool(0.5) { KoRule::Simple } else { KoRule::Positional };
    let suicide_allowed = rng.gen_bool(0.5);
    let rules = Standard { ko, suicide_allowed, ..Standard::default() };
    let mut g = Game::new(rules.clone(), random_board(rng, size, walls));
    let mut seen: HashSet<Vec<Cell>> = HashSet::from([snapshot(g.board())]);
    let mut previous = snapshot(g.board());
    let mut tried = 0;
    while tried < moves {
        tried += 1;
        let color = if rng.gen_bool(0.5) { Color::Black } else { Color::White };
        let mv = match rng.gen_range(0..40) {
            0 => Move::Pass,
            1 => Move::Button,
            2 => Move::Return,
            3 => Move::Stake(random_point(rng, g.board())),
            _ => Move::Place(random_point(rng, g.board())),
        };
        let before = game_state(&g);
        let cells = snapshot(g.board());
        let prisoners = g.position().prisoners;
        let result = g.play(color, mv);
        let b = g.board();
        match mv {
            Move::Place(p) if b.geometry().on_board(p) && cells[p.idx()] == Cell::Empty => {
                let (after, captured, suicided) = slow_play(b, &cells, color, p);
                let lone = b.neighbours(p).iter().all(|q| cells[q.idx()] != Cell::stone(color));
                let expect = if suicided > 0 && (!suicide_allowed || lone) {
                    Err(Illegal::Suicide)
                } else if ko == KoRule::Positional && seen.contains(&after) || after == previous {
                    // Under positional superko the ko check may answer first: both mean "repeats".
                    Err(if after == previous && ko == KoRule::Simple {
                        Illegal::Ko
                    } else {
                        Illegal::Superko
                    })
                } else {
                    Ok(())
                };
                match (&result, expect) {
                    (Ok(placed), Ok(())) => {
                        assert_eq!(snapshot(b), after);
                        let counts = (u32::from(placed.captured), u32::from(placed.suicided));
                        assert_eq!(counts, (captured, suicided));
                        assert_eq!(g.position().prisoners[color], prisoners[color] + captured);
                        assert_eq!(
                            g.position().prisoners[color.opponent()],
                            prisoners[color.opponent()] + suicided
                        );
                        previous = cells;
                        seen.insert(after);
                    }
                    (Err(e), Err(x)) => {
                        assert!(*e == x || (*e == Illegal::Ko && x == Illegal::Superko), "{e:?} {x:?}");
                        assert_eq!(game_state(&g), before, "refused {mv:?} changed the game");
                    }
                    (r, x) => panic!(
                        "{color} {}: got {r:?}, expected {x:?} ({ko:?}, suicide {suicide_allowed})\n{b}",
                        b.geometry().vertex(p)
                    ),
                }
            }
            Move::Pass => {
                assert!(result.is_ok());
                previous = snapshot(b);
            }
            _ => {
                assert!(result.is_err(), "garbage {mv:?} accepted");
                assert_eq!(game_state(&g), before, "refused {mv:?} changed the game");
            }
        }
        check_queries(rng, g.board());
    }
    tried
}

/// Garbage sent to a Stones game (stakes on walls, the border, outside the array; placements there) is
/// refused without any change.
fn run_stones_garbage(rng: &mut Rng64, size: usize, walls: bool, moves: usize) -> usize {
    let mut g = Game::new(Stones::default(), random_board(rng, size, walls));
    for _ in 0..moves {
        let cells = g.board().geometry().cells();
        let p = Point(rng.gen_range(0..cells + 3000) as u16);
        let mv = if rng.gen_bool(0.5) { Move::Stake(p) } else { Move::Place(p) };
        let color = g.to_move();
        if !g.board().geometry().on_board(p) || g.board().cell(p) == Cell::Wall {
            let before = game_state(&g);
            assert!(g.play(color, mv).is_err());
            assert_eq!(game_state(&g), before);
        } else if g.is_over() {
            g = Game::new(Stones::default(), random_board(rng, size, walls));
        } else {
            let _ = g.play(color, mv);
        }
        check_queries(rng, g.board());
    }
    moves
}

#[test]
fn random_moves_keep_the_board_consistent() {
    let mut total = 0;
    for (i, &size) in SIZES.iter().enumerate() {
        let mut rng = Rng64::seed_from_u64(0x5eed_0000 + i as u64);
        let mut done = 0;
        let mut run = 0;
        while done < MOVES_PER_SIZE {
            let walls = run % 2 == 1;
            // Enough moves per run to fill the board several times over, with captures.
            let len = (size * size * 4).clamp(40, 1500);
            done += match run % 4 {
                0 | 1 => run_game(&mut rng, size, walls, len),
                2 => run_board::<Flat>(&mut rng, size, walls, len),
                _ => run_stones_garbage(&mut rng, size, true, len / 4),
            };
            run += 1;
        }
        total += done;
    }
    assert!(total >= 100_000, "only {total} moves");
}

/// The same physics on a torus (RULES.md 5.1), 3x3 and up: captures, merges, suicides and the
/// free-point list across the wrapped edges, with and without walls.
#[test]
fn random_moves_keep_a_torus_consistent() {
    let mut rng = Rng64::seed_from_u64(0x7045_0000);
    let mut total = 0;
    for size in [3, 4, 5, 7, 9, 19] {
        for walls in [false, true] {
            total += run_board::<Torus>(&mut rng, size, walls, (size * size * 6).clamp(60, 2000));
        }
    }
    assert!(total >= 6_000, "only {total} moves");
}

/// Big chains of the biggest board keep exact statistics (a chain's pseudo-liberty count,
/// sum and sum of squares share one word, and `check_consistency` counts them apart, so a field
/// that overflowed into the next fails it: the comb's sum is over 200,000). On 25x25, a comb of
/// Black stones (every even column, joined along the first row) has 288 liberties, each counted
/// from both sides; the gaps are then filled in order of their cells until the last one, the
/// highest gap cell, is the chain's only liberty. After every stone the chain's queries, and the
/// suicide and capture tests at its last gap, are compared with flood fills.
#[test]
fn big_chains_keep_exact_statistics() {
    let size = 25;
    let mut b = Board::new(size);
    let geo = *b.geometry();
    let mut gaps = Vec::new();
    for y in 0..size {
        for x in 0..size {
            let p = geo.point(x, y);
            if x % 2 == 0 || y == 0 {
                b.play(Color::Black, p);
            } else {
                gaps.push(p);
            }
        }
    }
    gaps.sort();
    let last = gaps.pop().expect("gaps");
    let corner = geo.point(0, 0);
    let cells = snapshot(&b);
    check_stone(&b, &cells, corner);
    assert_eq!(b.liberties(corner).len(), 288);
    for &p in &gaps {
        b.play(Color::Black, p);
        b.check_consistency().unwrap_or_else(|e| panic!("{e}\n{b}"));
        let cells = snapshot(&b);
        check_stone(&b, &cells, corner);
        check_empty_point(&b, &cells, last);
    }
    assert_eq!(b.chain_len(corner), size * size - 1);
    assert_eq!(b.atari_liberty(corner), Some(last));
    // White takes the whole board back with the last liberty; Black may not fill it.
    assert!(b.is_suicide(Color::Black, last));
    assert_eq!(b.capture_count(Color::White, last).0, (size * size - 1) as u32);
}

/// The placement core indexes its arrays without masks after one range check in `Board::place`
/// (`Position::check` keeps points off the board away from it): a point whose neighbours could
/// lie outside the arrays (the first row of the padded array, or past every board) must stop
/// there, at that check, and not write anywhere. Every point of every board passes it.
#[test]
fn placements_outside_the_arrays_stop_at_the_range_check() {
    let max_cells = Board::new(25).geometry().cells() as u16;
    for size in [2, 9, 19, 25] {
        let stride = Board::new(size).geometry().stride as u16;
        for p in [0, stride, max_cells, 1023, 1024, u16::MAX] {
            let placed = std::panic::catch_unwind(|| Board::new(size).play(Color::Black, Point(p)));
            let message = placed.expect_err("a placement outside the arrays went ahead");
            let text = message.downcast_ref::<String>().map(String::as_str).unwrap_or_default();
            assert!(text.contains("is not inside the board"), "{size}x{size} cell {p}: {text}");
        }
        let mut b = Board::new(size);
        let points: Vec<Point> = b.geometry().points().collect();
        for (k, p) in points.into_iter().enumerate() {
            b.play(if k % 3 == 0 { Color::White } else { Color::Black }, p);
            b.check_consistency().unwrap_or_else(|e| panic!("{e}\n{b}"));
        }
    }
}
