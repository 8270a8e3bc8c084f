//! Proves that a playout allocates nothing once its buffers are warm: a counting global allocator
//! counts every allocation the measuring thread makes while it measures. (Only that thread: the test
//! harness's own threads allocate now and then, which made a process-wide count flaky.)

use rand::SeedableRng;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};
use tengen::board::{Board, Torus};
use tengen::playout::{Playout, Policy, Rng, Simulate};
use tengen::rules::{Position, Standard, Stoical, Stones};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Set on the measuring thread while it measures.
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTING.with(Cell::get) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc(layout)
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_per_playouts<R: Simulate>(rules: R, size: usize, policy: Policy) -> usize {
    let start = Position::new(&rules, Board::shaped(size, &[]));
    let mut playout = Playout::new(&start);
    let mut rng = Rng::seed_from_u64(42);
    // Warm-up: the move list and count buffers reach their working sizes.
    for _ in 0..20 {
        playout.run(&rules, &start, policy, &mut rng);
    }
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    let mut moves = 0;
    COUNTING.with(|c| c.set(true));
    for _ in 0..200 {
        moves += playout.run(&rules, &start, policy, &mut rng).moves;
    }
    COUNTING.with(|c| c.set(false));
    assert!(moves > 200, "the playouts played moves");
    ALLOCATIONS.load(Ordering::Relaxed) - before
}

#[test]
fn playouts_allocate_nothing_after_warm_up() {
    for size in [9, 19] {
        for policy in [Policy::Light, Policy::Heavy] {
            assert_eq!(allocations_per_playouts(Standard::default(), size, policy), 0, "go {size} {policy}");
            assert_eq!(
                allocations_per_playouts(Stones::default(), size, policy),
                0,
                "stones {size} {policy}"
            );
            assert_eq!(
                allocations_per_playouts(Stoical::default(), size, policy),
                0,
                "stoical {size} {policy}"
            );
            // The options that add work to the playout's legality test: the snapback exemption
            // (which once copied the board to read a reply's liberties), suicide and the button.
            let snapback = Stoical { snapback: true, ..Stoical::default() };
            assert_eq!(
                allocations_per_playouts(snapback, size, policy),
                0,
                "stoical snapback {size} {policy}"
            );
            let go = Standard { suicide_allowed: true, button: true, ..Standard::default() };
            assert_eq!(allocations_per_playouts(go, size, policy), 0, "go suicide button {size} {policy}");
            // On a torus.
            let go = Standard::default().on::<Torus>();
            assert_eq!(allocations_per_playouts(go, size, policy), 0, "go torus {size} {policy}");
            let stones = Stones::default().on::<Torus>();
            assert_eq!(allocations_per_playouts(stones, size, policy), 0, "stones torus {size} {policy}");
        }
    }
}

/// War Go's playouts (`search::war::WarPlayout`), with the default army (drops, steps, bombs and
/// spies among their turns), allocate nothing once warm either.
#[test]
fn war_playouts_allocate_nothing_after_warm_up() {
    use tengen::rules::war::{WarGame, WarMove};
    use tengen::rules::RulesConfig;
    use tengen::search::war::WarPlayout;
    for size in [9, 19] {
        let rules = RulesConfig::parse("war").unwrap();
        let mut game = WarGame::new(rules.war(), size, &rules.walls);
        // A few stones, so that the playouts meet chains from their first turn.
        for v in ["C3", "D4", "D3", "C4"] {
            let c = game.to_move();
            game.play(c, WarMove::parse(v, &game.position().geo).unwrap()).unwrap();
        }
        let start = game.position().clone();
        let mut playout = WarPlayout::new(&start, 7.5);
        let mut rng = Rng::seed_from_u64(42);
        let mut pos = start.clone();
        for _ in 0..20 {
            pos.clone_from(&start);
            playout.run(&mut pos, &mut rng);
        }
        let before = ALLOCATIONS.load(Ordering::Relaxed);
        let mut moves = 0;
        COUNTING.with(|c| c.set(true));
        for _ in 0..200 {
            pos.clone_from(&start);
            playout.run(&mut pos, &mut rng);
            moves += pos.ply - start.ply;
        }
        COUNTING.with(|c| c.set(false));
        assert!(moves > 200, "the playouts played moves");
        assert_eq!(ALLOCATIONS.load(Ordering::Relaxed) - before, 0, "war {size}");
    }
}
