//! One search thread: descend the tree, expand, play out, back the result up. Every buffer is owned
//! by the worker and reused, so an iteration allocates nothing (a two-pass end inside the tree is
//! scored by the rules, which count with a fresh array: rare, and only then).

use super::amaf_batch::AmafBatch;
use super::move_model::default_model;
use super::priors::{add_model_prior, Prior, PriorContext};
use super::select::select;
use super::tree::{
    point_bit, MoveCode, Tree, Writers, EXPANDING, FLAG_DRAW, LEAF, MAX_POINT_WORDS, MAX_VISITS, ROOT,
};
use super::SearchInput;
use super::{config::SearchConfig, history_key};
use crate::board::{Point, Topology};
use crate::playout::{LadderReader, Playout, PlayoutResult, Rng, Simulate};
use crate::rules::{EndReason, Move, Outcome, Position, Repetition, Variant};
use crossbeam_utils::CachePadded;
use rand::SeedableRng;
use std::sync::atomic::{AtomicBool, AtomicI64, AtomicU64, AtomicUsize, Ordering::*};

/// Playouts between two flushes of a worker's ownership counts into the shared ones.
const FLUSH_EVERY: u32 = 32;
// The worker's owner counts are 16-bit: they must hold `FLUSH_EVERY` playouts.
const _: () = assert!(FLUSH_EVERY <= i16::MAX as u32);
/// Playouts between two checks of the playout-limited early stop (deterministic with one thread).
const EARLY_STOP_EVERY: u64 = 16;

/// What the workers of one search share.
pub(super) struct Shared<'a, R: Simulate> {
    pub input: &'a SearchInput<'a, R>,
    pub tree: &'a Tree,
    pub config: &'a SearchConfig,
    /// Sorted keys of the game's earlier positions (see `history_key`), for exact superko.
    pub history: Vec<u64>,
    pub repetition: Repetition,
    /// Playouts this search may start (`None`: unlimited).
    pub tickets: Option<u64>,
    pub early_stop: bool,
    /// How the workers add to the tree's counts: without locked instructions when there is one.
    /// `Writers::One` only for a search with one worker, which is then the only thread that writes
    /// `tree` (`search` holds the tree exclusively, and the supervisor only reads it): what keeps
    /// that worker's additions by a plain load and store exact (`Writers::add_u64`).
    pub writers: Writers,
    /// Nodes with at least this many visits have their children's AMAF samples batched per worker
    /// (`AmafBatch`); `u32::MAX` with one thread, where there is no traffic to save.
    pub batch_amaf_from: u32,
    /// Per cell: sum of the final owner (+1 Black, -1 White), and count of neutral ends.
    pub owner_sum: Vec<AtomicI64>,
    pub neutral: Vec<AtomicU64>,
    pub supervisor: std::thread::Thread,
    // The fields below are written while the search runs, each on a cache line of its own: on a
    // line shared with the read-only fields above, every write would make the other threads fetch
    // those again on their next iteration (false sharing).
    pub stop: CachePadded<AtomicBool>,
    /// Playouts claimed against `tickets`.
    pub claimed: CachePadded<AtomicU64>,
    /// Playouts finished, and the moves they played beyond the tree. Exact after the search; while
    /// it runs without `tickets` each worker adds its counts in batches (see `flush`).
    pub done: CachePadded<AtomicU64>,
    pub playout_moves: CachePadded<AtomicU64>,
    /// Playouts whose owners are in `owner_sum` and `neutral`.
    pub owned: CachePadded<AtomicU64>,
    /// Workers still running, and the thread to wake when the last one stops.
    pub running: CachePadded<AtomicUsize>,
}

impl<R: Simulate> Shared<'_, R> {
    /// Lead of the most visited root child over the second, in visits.
    pub fn root_lead(&self) -> u64 {
        super::early_stop::lead(self.tree.children(ROOT).map(|c| self.tree.visits(c)))
    }
}

/// A child about to be created by an expansion.
#[derive(Copy, Clone, Debug)]
struct Kid {
    mv: Move,
    prior: Prior,
    flags: u32,
    /// The move model's strength of the move (`search::move_model`), when the model is on.
    gamma: f32,
    /// Nonzero for a move the records undervalue: its gamma is this many times the position's
    /// highest fitted one.
    top_times: u32,
}

pub(super) struct Worker<'s, 'a, R: Simulate> {
    shared: &'s Shared<'a, R>,
    playout: Playout<R>,
    /// For trying a capture in Stones: does it end the game at once?
    scratch: Position<R>,
    /// Scratch boards of the priors' ladder reads (they grow once, to the longest ladder read).
    ladder: LadderReader<R::Topology>,
    rng: Rng,
    path: Vec<u32>,
    /// History keys of the positions along the path (superko inside the tree).
    path_keys: Vec<u64>,
    kids: Vec<Kid>,
    /// AMAF: per word of a point set (`Tree::child_points`), the points each colour (by index)
    /// played first in the rest of the game. A backup sets the words the tree's sets have.
    firsts: Firsts,
    /// Per cell, 1 + the colour index of whoever played there first in the playout, else 0 (all
    /// 0 between backups): the playout's moves are marked here, a byte store each, and `firsts`
    /// read from the marks sixteen at a time (`bits_where`). Marking the sets themselves, move by
    /// move, cost 1.2% more instructions a light 9x9 iteration, 1.5% on 19x19.
    first_marks: [u8; FIRSTS_WORDS * 64],
    /// Scratch keys of a selection (see `select`).
    keys: Vec<f32>,
    amaf_batch: AmafBatch,
    /// This worker's share of the owner counts since the last flush. 16 bits are plenty for
    /// `FLUSH_EVERY` playouts, and with one width for all three arrays the per-cell loop runs
    /// several cells per vector instruction.
    owner_sum: Vec<i16>,
    neutral: Vec<u16>,
    /// Playouts and playout moves not yet added to the shared counts.
    unflushed: u32,
    unflushed_moves: u64,
    /// Does this processor extract bits fast (`fast_pext`)? Asked once, for `backup`.
    fast_pext: bool,
}

impl<'s, 'a, R: Simulate> Worker<'s, 'a, R> {
    pub fn new(shared: &'s Shared<'a, R>, thread: usize) -> Self {
        let root = shared.input.root;
        let cells = root.board.geometry().cells();
        // One generator per thread, from the search's seed and the thread's index (splitmix-style
        // spreading, so neighbouring seeds give unrelated streams).
        let seed = shared.config.seed ^ (thread as u64 + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        let mut playout = Playout::new(root);
        playout.keep_seki(shared.config.keep_seki);
        playout.mercy(shared.config.mercy);
        Worker {
            shared,
            playout,
            scratch: root.clone(),
            ladder: LadderReader::new(),
            rng: Rng::seed_from_u64(seed),
            path: Vec::with_capacity(64),
            path_keys: Vec::with_capacity(64),
            kids: Vec::with_capacity(root.board.size() * root.board.size() + 4),
            firsts: [[0; 2]; FIRSTS_WORDS],
            first_marks: [0; FIRSTS_WORDS * 64],
            keys: vec![0.0; cells],
            amaf_batch: AmafBatch::new(cells),
            owner_sum: vec![0; cells],
            neutral: vec![0; cells],
            unflushed: 0,
            unflushed_moves: 0,
            fast_pext: fast_pext(),
        }
    }

    /// Runs iterations until the search stops or its playouts are used up.
    pub fn run(mut self) {
        let sh = self.shared;
        loop {
            if sh.stop.load(Relaxed) || sh.tree.visits(ROOT) >= MAX_VISITS {
                break;
            }
            if let Some(max) = sh.tickets {
                if sh.writers.add_u64(&sh.claimed, 1) >= max {
                    break;
                }
            }
            self.iterate();
            if let Some(max) = sh.tickets {
                // Limited playouts count exactly, for the early stop and one thread's reproducibility.
                let done = sh.writers.add_u64(&sh.done, 1) + 1;
                // Stop early when the most visited move cannot be overtaken by the playouts left.
                if sh.early_stop
                    && done.is_multiple_of(EARLY_STOP_EVERY)
                    && super::early_stop::cannot_be_overtaken(sh.root_lead(), max.saturating_sub(done) as f64)
                {
                    sh.stop.store(true, Relaxed);
                }
            }
        }
        self.flush();
        if sh.running.fetch_sub(1, AcqRel) == 1 {
            sh.supervisor.unpark();
        }
    }

    /// Expands the root if it is a leaf, before the threads start: otherwise every thread but the one
    /// expanding it finds it being expanded and plays out from the root, again and again for as long
    /// as the expansion takes (longer when the expanding thread is preempted), visits that reach no
    /// child. One thread expands the root on its first iteration and needs none of this.
    pub fn expand_root(&mut self) {
        let sh = self.shared;
        let input = sh.input;
        if sh.tree.root().state() != LEAF || sh.tree.is_full() || input.root.is_over() {
            return;
        }
        self.playout.load(input.root);
        self.playout.set_last(input.last_move);
        self.expand(ROOT, input.last_move, input.own_last_move, input.opponent_passed);
    }

    /// One descent, playout and backup.
    fn iterate(&mut self) {
        let sh = self.shared;
        let (tree, input, config) = (sh.tree, sh.input, sh.config);
        let rules = input.rules;
        self.playout.load(input.root);
        self.playout.set_last(input.last_move);
        self.path.clear();
        self.path_keys.clear();
        let mut node = ROOT;
        tree.add_visit(ROOT, sh.writers);
        self.path.push(ROOT);
        let mut last = input.last_move;
        let mut own_last = input.own_last_move;
        let mut opponent_passed = input.opponent_passed;
        loop {
            if self.playout.position().is_over() {
                break;
            }
            match tree.node(node).state() {
                LEAF => {
                    let visits = tree.visits(node);
                    if (node != ROOT && visits < config.expand_threshold) || tree.is_full() {
                        break;
                    }
                    if !self.expand(node, last, own_last, opponent_passed) {
                        break;
                    }
                }
                EXPANDING => break,
                _ => {}
            }
            let Some(child) = select(tree, node, config, &mut self.keys) else {
                // An expanded node without children: the player to move has no legal move at all,
                // which loses in Stones (in the other variants a pass is always legal).
                let pos = self.playout.position_mut();
                let winner = pos.to_move.opponent();
                pos.outcome = Some(Outcome::win(winner, pos.lead(winner) as f64, EndReason::NoLegalMove));
                break;
            };
            let c = tree.node(child);
            // Visits are added on the way down: this is the virtual loss.
            tree.add_visit(child, sh.writers);
            let mv = c.mv().decode();
            let pos = self.playout.position_mut();
            let color = pos.to_move;
            pos.play(rules, color, mv);
            if c.flags() & FLAG_DRAW != 0 {
                // Stoical Go: this placement repeats an earlier position, a draw at once.
                pos.outcome = Some(Outcome::draw(EndReason::Repetition));
            }
            if sh.repetition != Repetition::SimpleKo {
                self.path_keys.push(history_key(sh.repetition, pos.board.hash(), pos.to_move));
            }
            own_last = last;
            (last, opponent_passed) = match mv {
                Move::Place(p) => (p, false),
                _ => (Point::NONE, mv == Move::Pass),
            };
            self.playout.set_last(last);
            self.path.push(child);
            node = child;
        }
        let mut result = self.playout.play_out(rules, config.policy, &mut self.rng);
        if config.score_utility {
            result.redraw_by_score(input.root.board.size().pow(2), &mut self.rng);
        } else if config.score_weight > 0.0 {
            result.blend_score(input.root.board.size(), config.score_weight, &mut self.rng);
        }
        self.unflushed_moves += result.moves as u64;
        self.backup(&result);
        self.count_owners();
    }

    /// Creates the children of `node` (the scratch position is its position). False when another
    /// thread is expanding it or the arena is full: the caller then plays out from the leaf.
    fn expand(&mut self, node: u32, last: Point, own_last: Point, opponent_passed: bool) -> bool {
        let sh = self.shared;
        let (tree, input, config) = (sh.tree, sh.input, sh.config);
        let rules = input.rules;
        let n = tree.node(node);
        if !n.claim() {
            return false;
        }
        let pos = self.playout.position();
        let color = pos.to_move;
        let mut ctx = PriorContext {
            board: &pos.board,
            color,
            last,
            own_last,
            patterns: self.playout.patterns(),
            weights: &config.priors,
            ladder: &mut self.ladder,
        };
        let stones = R::VARIANT == Variant::Stones;
        // The model was fitted on standard Go on flat boards: Stones' decisive captures are another
        // game, and a torus has no lines to read the model's edge features by (and no records).
        let use_model = config.priors.model > 0
            && !stones
            && !<R::Topology as Topology>::TORUS
            && pos.board.size() >= config.priors.model_min_size as usize;
        let model = default_model();
        let keep_eyes = config.keep_eyes && !stones;
        self.kids.clear();
        for p in pos.board.geometry().points() {
            if !pos.board.is_empty_point(p)
                || (keep_eyes && pos.board.is_eye(color, p))
                || pos.check(rules, color, Move::Place(p)).is_err()
            {
                continue;
            }
            let mut flags = 0;
            if sh.repetition != Repetition::SimpleKo {
                // Exact superko: the position this placement makes, against the game and the path.
                let key = history_key(sh.repetition, pos.board.hash_after(color, p), color.opponent());
                if sh.history.binary_search(&key).is_ok() || self.path_keys.contains(&key) {
                    if sh.repetition != Repetition::Draw {
                        continue;
                    }
                    flags = FLAG_DRAW;
                }
            }
            let mut decisive = false;
            if stones {
                let (captured, stakes) = pos.board.capture_count(color, p);
                if captured + stakes >= 2 {
                    self.scratch.clone_from(pos);
                    self.scratch.play(rules, color, Move::Place(p));
                    decisive = self.scratch.outcome.is_some_and(|o| o.winner == Some(color));
                }
            }
            // The model's strength, or none for a point it is not asked about. The point's
            // tactics are read once for the model and the hand-set prior.
            let (prior, gamma, top_times) = if use_model {
                let t = ctx.tactics(p, true);
                let f = ctx.features_from(p, &t);
                let (gamma, top_times) = if f.big_capture() {
                    (0.0, config.priors.model_capture)
                } else if f.escape() {
                    (0.0, 1)
                } else if !f.enclosed {
                    (model.gamma(&f), 0)
                } else {
                    (0.0, 0)
                };
                (ctx.placement_from(p, decisive, &t), gamma, top_times)
            } else {
                (ctx.placement(p, decisive), 0.0, 0)
            };
            self.kids.push(Kid { mv: Move::Place(p), prior, flags, gamma, top_times });
        }
        // The pass-like move is the one a GTP `pass` stands for (button, return, stake or pass), so a
        // controller replaying our `pass` makes the same move.
        let pass = rules.pass_move(pos, color);
        if pos.check(rules, color, pass).is_ok() {
            self.kids.push(Kid {
                mv: pass,
                prior: ctx.pass_like(opponent_passed),
                flags: 0,
                gamma: model.pass,
                top_times: 0,
            });
        }
        if use_model {
            // Enclosed points have no gamma (the model cannot tell whether the game is over there)
            // and keep their own priors.
            let top = self.kids.iter().map(|k| k.gamma).fold(1.0f32, f32::max);
            for kid in self.kids.iter_mut().filter(|k| k.top_times > 0) {
                kid.gamma = top * kid.top_times as f32;
            }
            let total: f64 = self.kids.iter().map(|k| k.gamma as f64).sum();
            if total > 0.0 {
                for kid in self.kids.iter_mut().filter(|k| k.gamma > 0.0) {
                    add_model_prior(&mut kid.prior, kid.gamma as f64 / total, &config.priors);
                }
            }
        }
        let k = self.kids.len() as u32;
        let first = if k == 0 {
            0
        } else {
            match tree.alloc_children(k) {
                Some(first) => first,
                None => {
                    // Full: this node stays a leaf and the search goes on without growing.
                    n.release_claim();
                    return false;
                }
            }
        };
        for (i, kid) in self.kids.iter().enumerate() {
            tree.set_move(first + i as u32, MoveCode::new(kid.mv).0 | kid.flags);
            tree.set_prior(first + i as u32, kid.prior.visits, kid.prior.wins);
        }
        if k > 0 {
            let placements = self.kids.iter().filter_map(|kid| match kid.mv {
                Move::Place(p) => Some(p),
                _ => None,
            });
            tree.set_child_points(first, placements);
        }
        // Release: a thread that sees the node expanded sees the children written above.
        n.publish_children(first, k);
        true
    }

    /// Adds the result to every node of the path (from the view of the player who made its move),
    /// and the AMAF statistics: each child of a path node whose point its player to move played
    /// first, in the tree or in the playout, after that node.
    ///
    /// Compiled a second time for processors with the population count instruction (all but the
    /// oldest x86-64 ones), which finds a child's index in its slice (`for_each_match`): without
    /// it, counting the bits of a word takes a dozen instructions. And a third time for those that
    /// also have the bit manipulation instructions (BMI1 and BMI2: Intel since 2013, AMD since
    /// 2015), where a match's mask of the bits below it takes `andn` (10 instructions a match
    /// instead of 12): 0.6% of a light iteration's instructions. And a fourth time where BMI2's
    /// bit extraction is fast (`fast_pext`): one `pext` a word turns its matches into the bits of
    /// their indices (`for_each_match`).
    // Never inlined: inlined, the fourth copy made LLVM lay the worker's iteration out
    // differently, 530 instructions more an iteration there (light 9x9).
    #[inline(never)]
    fn backup(&mut self, result: &PlayoutResult) {
        #[cfg(target_arch = "x86_64")]
        if self.fast_pext {
            // SAFETY: the processor has the instructions (`fast_pext` asked).
            return unsafe { self.backup_with_pext(result) };
        }
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("popcnt") {
            if std::arch::is_x86_feature_detected!("bmi1") && std::arch::is_x86_feature_detected!("bmi2") {
                // SAFETY: the processor has the instructions (just asked).
                return unsafe { self.backup_with_bmi(result) };
            }
            // SAFETY: the processor has the instruction (just asked).
            return unsafe { self.backup_with_popcnt(result) };
        }
        self.backup_body::<false>(result)
    }

    /// `backup` compiled for processors with the population count and the bit manipulation
    /// instructions.
    ///
    /// # Safety
    /// The processor has them.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    unsafe fn backup_with_bmi(&mut self, result: &PlayoutResult) {
        self.backup_body::<false>(result)
    }

    /// `backup` compiled for processors with the population count and the bit manipulation
    /// instructions, whose bit extraction is fast.
    ///
    /// # Safety
    /// The processor has them.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt,bmi1,bmi2")]
    unsafe fn backup_with_pext(&mut self, result: &PlayoutResult) {
        self.backup_body::<true>(result)
    }

    /// `backup` compiled for processors with the population count instruction.
    ///
    /// # Safety
    /// The processor has it.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "popcnt")]
    unsafe fn backup_with_popcnt(&mut self, result: &PlayoutResult) {
        self.backup_body::<false>(result)
    }

    /// The backup; with `PEXT` (only where the processor has BMI2, `backup_with_pext`) the
    /// matches are found by bit extraction.
    #[inline(always)]
    fn backup_body<const PEXT: bool>(&mut self, result: &PlayoutResult) {
        let sh = self.shared;
        let tree = sh.tree;
        let to_move = sh.input.root.to_move;
        let mover_at = |d: usize| if d.is_multiple_of(2) { to_move.opponent() } else { to_move };
        let score = (result.black_margin as f64 * 2.0).round() as i64;
        for (d, &id) in self.path.iter().enumerate() {
            tree.add_wins(id, result.half_points(mover_at(d)), sh.writers);
            tree.add_score(id, score, sh.writers);
        }
        // The playout's placements, latest first, so that the earliest play of a point is what
        // stays.
        for &(c, p) in self.playout.moves().iter().rev() {
            self.first_marks[p.idx() % (FIRSTS_WORDS * 64)] = 1 + c.index() as u8;
        }
        let words = tree.point_words();
        let marks = &mut self.first_marks[..words * 64];
        for (pair, chunk) in self.firsts.iter_mut().zip(marks.chunks_exact(64)) {
            *pair = [bits_where(chunk, 1), bits_where(chunk, 2)];
        }
        marks.fill(0);
        // Then the tree's moves, the deepest first: each comes before the moves below it.
        for d in (0..self.path.len()).rev() {
            // The player to move at path[d] is the one who made path[d + 1]'s move.
            let player = mover_at(d + 1);
            if let Some(&next) = self.path.get(d + 1) {
                if let Some(p) = tree.node(next).mv().placement() {
                    mark_first(&mut self.firsts, player.index(), p);
                }
            }
            let parent = self.path[d];
            let kids = tree.children(parent);
            if kids.is_empty() {
                continue;
            }
            let half = result.half_points(player);
            let points = tree.child_points(kids.start);
            let firsts = &self.firsts[..words];
            let amafs = tree.amaf_slice(kids.start, kids.len());
            let batched = sh.batch_amaf_from <= tree.visits(parent);
            match if batched { self.amaf_batch.row(parent) } else { None } {
                Some(row) => {
                    let sample = 1 | (half as u64) << 32;
                    let row = std::cell::Cell::from_mut(row).as_slice_of_cells();
                    for_each_match::<PEXT, _>(points, firsts, player.index(), row, |r| {
                        r.set(r.get() + sample)
                    });
                }
                None => for_each_match::<PEXT, _>(points, firsts, player.index(), amafs, |a| a.add(half)),
            }
        }
    }

    /// Adds the last playout's final owners to this worker's counts, flushing now and then.
    fn count_owners(&mut self) {
        let owner = self.playout.owner();
        let n = owner.len();
        for ((sum, neutral), &o) in self.owner_sum[..n].iter_mut().zip(&mut self.neutral[..n]).zip(owner) {
            *sum += o as i16;
            *neutral += (o == 0) as u16;
        }
        self.unflushed += 1;
        if self.unflushed >= FLUSH_EVERY {
            self.flush();
        }
    }

    fn flush(&mut self) {
        if self.unflushed == 0 {
            return;
        }
        let sh = self.shared;
        self.amaf_batch.flush(sh.tree);
        for i in 0..self.owner_sum.len() {
            sh.owner_sum[i].fetch_add(std::mem::take(&mut self.owner_sum[i]) as i64, Relaxed);
            sh.neutral[i].fetch_add(std::mem::take(&mut self.neutral[i]) as u64, Relaxed);
        }
        sh.owned.fetch_add(self.unflushed as u64, Relaxed);
        if sh.tickets.is_none() {
            sh.done.fetch_add(self.unflushed as u64, Relaxed);
        }
        sh.playout_moves.fetch_add(std::mem::take(&mut self.unflushed_moves), Relaxed);
        self.unflushed = 0;
    }
}

/// The bits of the 64 bytes of `chunk` that equal `mark`: on x86-64, sixteen bytes to a comparison
/// and a gathering of their top bits (SSE2, which every x86-64 processor has).
#[inline(always)]
fn bits_where(chunk: &[u8], mark: u8) -> u64 {
    let chunk: &[u8; 64] = chunk.try_into().expect("a chunk of 64 marks");
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_cmpeq_epi8, _mm_loadu_si128, _mm_movemask_epi8, _mm_set1_epi8};
        // SAFETY: SSE2 is part of the x86-64 baseline; each load reads bytes 16k to 16k + 15 of
        // the 64-byte array (unaligned loads).
        unsafe {
            let want = _mm_set1_epi8(mark as i8);
            let mut bits = 0;
            for k in 0..4 {
                let v = _mm_loadu_si128(chunk.as_ptr().add(16 * k).cast());
                bits |= (_mm_movemask_epi8(_mm_cmpeq_epi8(v, want)) as u32 as u64) << (16 * k);
            }
            bits
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    chunk.iter().enumerate().fold(0, |bits, (k, &m)| bits | ((m == mark) as u64) << k)
}

/// Words of the first plays' sets: a power of two, for `mark_first`'s mask.
const FIRSTS_WORDS: usize = MAX_POINT_WORDS.next_power_of_two();

/// Per word of a point set, the points each colour (by index) played first.
type Firsts = [[u64; 2]; FIRSTS_WORDS];

/// Records that colour `c` (by index) played `p` first: sets it in that colour's set of `firsts`
/// and clears it in the other's.
#[inline(always)]
fn mark_first(firsts: &mut Firsts, c: usize, p: Point) {
    let (word, bit) = point_bit(p);
    // Masked, so that no index is checked: every point's word is below `MAX_POINT_WORDS`.
    let pair = &mut firsts[word % FIRSTS_WORDS];
    pair[c & 1] |= bit;
    pair[(c ^ 1) & 1] &= !bit;
}

/// Calls `update`, in order, with the item of `items` (one per child, in the children's order) of
/// each child in a slice with point set `points` (`Tree::child_points`) whose point colour `c`
/// played first (`firsts`, one pair per word of the set). A word's matches are its bits that are
/// set in both; a match's index is the number of children before its word's and of the word's bits
/// below its own. The items of a word's children are checked to be there once a word (a slice of
/// them), not once a match (two instructions of every match's ten or six). About half the
/// children match, at random, so that this costs a few instructions a match and a word, where
/// looking up each child's point cost six instructions a child (3% of a light 9x9 iteration's
/// instructions).
///
/// With `PEXT`, a word's matches are extracted at its children's bits (`pext`), which leaves one
/// bit per child, set where the child matches: a match's index is then its bit's (six
/// instructions a match instead of ten). `PEXT` needs a caller compiled for BMI2 on a processor
/// that has it (`backup_with_pext`).
#[inline(always)]
fn for_each_match<const PEXT: bool, T>(
    points: &[AtomicU64],
    firsts: &[[u64; 2]],
    c: usize,
    items: &[T],
    mut update: impl FnMut(&T),
) {
    let mut before = 0;
    for (word, pair) in points.iter().zip(firsts) {
        let kids = word.load(Relaxed);
        let after = before + kids.count_ones() as usize;
        // One item per child of the word: every index below is less than the slice's length,
        // the word's number of children.
        let word_items = &items[before..after];
        let mut matches = kids & pair[c];
        if PEXT {
            // (Only x86-64 has the `PEXT` tier, `backup_with_pext`.)
            #[cfg(target_arch = "x86_64")]
            {
                // SAFETY: with `PEXT` the processor has BMI2 (see above).
                let mut found = unsafe { std::arch::x86_64::_pext_u64(matches, kids) };
                while found != 0 {
                    // SAFETY: `pext` packs the bits of `matches` at the positions of `kids`' bits
                    // into the low `kids.count_ones()` bits, so every set bit's index is below
                    // that count, `word_items.len()`.
                    update(unsafe { word_items.get_unchecked(found.trailing_zeros() as usize) });
                    found &= found - 1;
                }
            }
        } else {
            while matches != 0 {
                let lowest = matches & matches.wrapping_neg();
                // SAFETY: `lowest` is one of `kids`' bits (`matches` is a subset of them), so
                // fewer than `kids.count_ones()` of them are below it: the index is below
                // `word_items.len()`.
                update(unsafe { word_items.get_unchecked((kids & (lowest - 1)).count_ones() as usize) });
                matches ^= lowest;
            }
        }
        before = after;
    }
}

/// Is BMI2's bit extraction (`pext`) there and fast? It is on every Intel processor that has it,
/// and on AMD's since Zen 3 (family 19h); on Zen 1 and 2 (family 17h, and Hygon's 18h) and the
/// earlier AMD processors with BMI2 it is microcoded, hundreds of cycles an instruction, so the
/// backup keeps its other tiers there.
fn fast_pext() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::__cpuid;
        if !(std::arch::is_x86_feature_detected!("popcnt")
            && std::arch::is_x86_feature_detected!("bmi1")
            && std::arch::is_x86_feature_detected!("bmi2"))
        {
            return false;
        }
        // (CPUID leaves 0 and 1 exist on every x86-64 processor.)
        let (vendor, signature) = (__cpuid(0), __cpuid(1).eax);
        let words = [vendor.ebx, vendor.edx, vendor.ecx];
        let name: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        // The family: the base field, plus the extended one when the base is 0xf.
        let base = (signature >> 8) & 0xf;
        let family = if base == 0xf { base + ((signature >> 20) & 0xff) } else { base };
        let amd = name == b"AuthenticAMD" || name == b"HygonGenuine";
        !(amd && family < 0x19)
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// Seeds per search: the engine's seed, the move number and a running count mixed (splitmix64), so
/// the same seed replays the same game and every move draws fresh numbers.
pub fn mix_seed(seed: u64, a: u64, b: u64) -> u64 {
    let mut z = seed ^ a.wrapping_mul(0xBF58_476D_1CE4_E5B9) ^ b.wrapping_mul(0x94D0_49BB_1331_11EB);
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::MAX_CELLS;
    use rand::{Rng as _, SeedableRng};

    #[test]
    fn the_later_play_of_a_point_gives_way_to_the_earlier() {
        let mut firsts = [[0; 2]; FIRSTS_WORDS];
        // Latest first, as the backup marks the tree's moves: White's 70 (after a capture), then
        // Black's 130 and Black's earlier 70, which wins the point.
        mark_first(&mut firsts, 1, Point(70));
        mark_first(&mut firsts, 0, Point(130));
        mark_first(&mut firsts, 0, Point(70));
        assert_eq!(firsts[1], [1 << 6, 0]);
        assert_eq!(firsts[2], [1 << 2, 0]);
        mark_first(&mut firsts, 1, Point(130));
        assert_eq!(firsts[2], [0, 1 << 2]);
    }

    #[test]
    fn bits_where_gathers_the_bytes_equal_to_the_mark() {
        let mut rng = Rng::seed_from_u64(3);
        for _ in 0..100 {
            let chunk: Vec<u8> = (0..64).map(|_| rng.gen_range(0..3)).collect();
            for mark in 0..3 {
                let expected = (0..64).filter(|&k| chunk[k] == mark).fold(0u64, |b, k| b | 1 << k);
                assert_eq!(bits_where(&chunk, mark), expected);
            }
        }
    }

    /// Against looking up each child's point, on random slices of random boards' cells.
    #[test]
    fn matches_are_the_children_whose_point_the_colour_played_first() {
        let mut rng = Rng::seed_from_u64(7);
        for round in 0..200 {
            let cells = rng.gen_range(1..=MAX_CELLS);
            let words = cells.div_ceil(64);
            // A slice's placements, in cell order.
            let kids: Vec<usize> = (0..cells).filter(|_| rng.gen_bool(0.6)).collect();
            let mut points = vec![0u64; words];
            for &k in &kids {
                points[k / 64] |= 1 << (k % 64);
            }
            let points: Vec<AtomicU64> = points.into_iter().map(AtomicU64::new).collect();
            let mut firsts = [[0; 2]; FIRSTS_WORDS];
            let mut first = vec![None; cells];
            for _ in 0..rng.gen_range(0..2 * cells) {
                let (c, p) = (rng.gen_range(0..2), rng.gen_range(0..cells));
                mark_first(&mut firsts, c, Point(p as u16));
                first[p] = Some(c);
            }
            for c in 0..2 {
                let expected: Vec<usize> = (0..kids.len()).filter(|&i| first[kids[i]] == Some(c)).collect();
                // Each way the backup is compiled that this processor runs (`backup`).
                for (tier, found) in matches_per_tier(&points, &firsts[..words], c) {
                    assert_eq!(found, expected, "round {round}, colour {c}, {tier}");
                }
            }
        }
    }

    /// `for_each_match`'s matches as compiled for the baseline and for each tier of processor
    /// features `backup` picks that this processor has.
    fn matches_per_tier(
        points: &[AtomicU64],
        firsts: &[[u64; 2]],
        c: usize,
    ) -> Vec<(&'static str, Vec<usize>)> {
        #[inline(always)]
        fn matches<const PEXT: bool>(points: &[AtomicU64], firsts: &[[u64; 2]], c: usize) -> Vec<usize> {
            let mut found = Vec::new();
            let children = points.iter().map(|w| w.load(Relaxed).count_ones() as usize).sum();
            let indices: Vec<usize> = (0..children).collect();
            for_each_match::<PEXT, _>(points, firsts, c, &indices, |&i| found.push(i));
            found
        }
        let mut tiers = vec![("baseline", matches::<false>(points, firsts, c))];
        #[cfg(target_arch = "x86_64")]
        {
            #[target_feature(enable = "popcnt")]
            unsafe fn with_popcnt(points: &[AtomicU64], firsts: &[[u64; 2]], c: usize) -> Vec<usize> {
                matches::<false>(points, firsts, c)
            }
            #[target_feature(enable = "popcnt,bmi1,bmi2")]
            unsafe fn with_bmi(points: &[AtomicU64], firsts: &[[u64; 2]], c: usize) -> Vec<usize> {
                matches::<false>(points, firsts, c)
            }
            #[target_feature(enable = "popcnt,bmi1,bmi2")]
            unsafe fn with_pext(points: &[AtomicU64], firsts: &[[u64; 2]], c: usize) -> Vec<usize> {
                matches::<true>(points, firsts, c)
            }
            use std::arch::is_x86_feature_detected as has;
            if has!("popcnt") {
                // SAFETY: the processor has the instruction (just asked).
                tiers.push(("popcnt", unsafe { with_popcnt(points, firsts, c) }));
                if has!("bmi1") && has!("bmi2") {
                    // SAFETY: the processor has the instructions (just asked).
                    tiers.push(("popcnt, bmi1, bmi2", unsafe { with_bmi(points, firsts, c) }));
                    // Run wherever BMI2 is, fast or not (`fast_pext` only picks the tier).
                    // SAFETY: as above.
                    tiers.push(("pext", unsafe { with_pext(points, firsts, c) }));
                }
            }
        }
        tiers
    }
}
