//! The search's knobs: threads, playout policy, seed, and the constants of selection and priors.

use crate::playout::Policy;

/// Prior knowledge given to a new child, as equivalent experience: `n` imagined visits won at
/// `rate`. Each heuristic that applies adds its experience (MoGo's and Pachi's "equivalent
/// experience" priors).
#[derive(Copy, Clone, PartialEq, Debug)]
pub struct PriorWeights {
    /// Every move: this many visits at 50% (how much real experience it takes to overrule the rest).
    pub even: u32,
    /// Capturing one stone / two or more.
    pub capture_one: u32,
    pub capture_many: u32,
    /// Saving an own chain in atari by extending at its last liberty (when that gains liberties).
    pub atari_escape: u32,
    /// Losses, instead of the escape's wins, for extending a chain in atari into a ladder that
    /// captures it (read by [`crate::playout::LadderReader`]): the classic losing run.
    pub ladder_escape: u32,
    /// Ladders are read for chains of at most this many stones (ladder escapes and ladder ataris
    /// alike). A bigger chain in atari is simply captured: were its ladder read, the tree would
    /// find that leaving it in atari costs nothing and let the capture wait.
    pub ladder_max_stones: u32,
    /// Wins for an atari on a chain with two liberties that a ladder then captures.
    pub ladder_capture: u32,
    /// A 3x3 pattern of the heavy policy matches.
    pub pattern: u32,
    /// Losses for a self-atari of one stone / of two or more.
    pub self_atari_one: u32,
    pub self_atari_many: u32,
    /// Losses for filling an own eye.
    pub own_eye: u32,
    /// Wins for a move next to the opponent's last move (distance 1 or 2, Chebyshev).
    pub near_last: u32,
    /// Losses for a first- or second-line move, and wins for a third-line move (and a
    /// fourth-line one on 13x13 and larger), in an empty area.
    pub first_line: u32,
    pub second_line: u32,
    pub third_line: u32,
    pub fourth_line: u32,
    /// Losses for a pass while the opponent has not just passed.
    pub pass: u32,
    /// Stones: wins for a decisive capture (the game ends at once).
    pub decisive: u32,
    /// The learned move model's weight: a move gets this many visits won times the square root
    /// of its share of the model's strengths (0: the model is not consulted).
    pub model: u32,
    /// The model is consulted on boards of this size and larger (it was fitted on 19x19 records;
    /// smaller boards than 9x9 are not measured).
    pub model_min_size: u32,
    /// A big capture (`MoveFeatures::big_capture`) gets this many times the position's highest
    /// gamma, an escape from atari the highest. At the highest gamma, captures of four stones in
    /// atari lost out on 9x9 to other winning moves (the capture tests of `tests/search.rs`);
    /// escapes at 16 times it lost on 13x13 and 9x9 (docs/strength.md).
    pub model_capture: u32,
}

impl Default for PriorWeights {
    fn default() -> Self {
        PriorWeights {
            even: 10,
            capture_one: 15,
            capture_many: 30,
            atari_escape: 20,
            ladder_escape: 40,
            ladder_max_stones: 3,
            ladder_capture: 20,
            pattern: 10,
            self_atari_one: 10,
            self_atari_many: 30,
            own_eye: 50,
            near_last: 6,
            first_line: 300,
            second_line: 300,
            third_line: 30,
            fourth_line: 30,
            pass: 20,
            decisive: 1000,
            model: 50,
            model_min_size: 9,
            model_capture: 16,
        }
    }
}

/// Everything a search runs with besides the position and the request.
#[derive(Clone, PartialEq, Debug)]
pub struct SearchConfig {
    pub threads: usize,
    pub policy: Policy,
    /// Seed of this search; thread `t` draws from a generator seeded with it and `t`.
    pub seed: u64,
    /// A leaf is expanded once it has this many visits (the root always is).
    pub expand_threshold: u32,
    /// RAVE equivalence parameter `k` of the minimum-error schedule (Gelly and Silver 2011):
    /// `beta = n_amaf / (n_amaf + n + n * n_amaf / k)`; larger trusts AMAF longer.
    pub rave_equiv: f64,
    /// UCB exploration constant added to the RAVE value (0: priors and RAVE alone explore).
    pub explore: f64,
    pub priors: PriorWeights,
    /// Heavy playouts that leave a seki standing (`Playout::keep_seki`): for judging dead stones.
    pub keep_seki: bool,
    /// No child that fills an own eye (`Board::is_eye`), as the playouts never play one: for
    /// judging dead stones. When the game is decided every move has the same win rate, and a
    /// tree that offered eye fills spent as much on the loser destroying its own two-eyed groups
    /// as on anything else, which the ownership then called dead. No tactic is lost: with at most
    /// one enemy diagonal, a chain beside the eye in atari joins all four neighbours, so filling it
    /// never saves a chain by connection (it would be suicide). Not in Stones, where a player
    /// cannot pass and an eye fill may be the only move.
    pub keep_eyes: bool,
    /// A playout that ends in a count is a win for Black with probability `1/2 + margin / (2 *
    /// points)` (`points`: the board's points; clamped to 0..1; `PlayoutResult::redraw_by_score`),
    /// not by the margin's sign. In expectation the value is then linear in the score, so neither
    /// player is indifferent when the game is decided: for judging dead stones, where a win-or-loss
    /// search of a decided game follows a player giving groups away as readily as one defending
    /// them.
    pub score_utility: bool,
    /// Share of a counted playout's value that comes from its margin rather than its winner
    /// (`PlayoutResult::blend_score`): a move that wins by more is worth a little more, so a
    /// search far ahead keeps its points instead of giving them away, and one far behind still
    /// prefers the closer count. Pachi's `val_scale` (0.04) is the same idea.
    pub score_weight: f64,
    /// Playouts end by the mercy rule (`Playout::mercy`, 30% of the board's points): faster on
    /// small boards, but the margins (`Tree::mean_black_margin`) of playouts that stop early are
    /// the counts of boards not played out, smaller than the counts at the end, so the search's
    /// scores shrink toward zero where it fires often. Off by default, as in Pachi (`mercy=N`);
    /// never in the end-of-game judgement.
    pub mercy: bool,
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            threads: 1,
            policy: Policy::Heavy,
            seed: 0,
            expand_threshold: 8,
            rave_equiv: 3000.0,
            explore: 0.0,
            priors: PriorWeights::default(),
            keep_seki: false,
            keep_eyes: false,
            score_utility: false,
            score_weight: 0.0,
            mercy: false,
        }
    }
}
