//! The early stop: a search with a limit (playouts, or time at the current rate) ends as soon as the
//! most visited root move can no longer be overtaken by the playouts that may still come. The final
//! choice is the most visited move, so more playouts could not change it.

/// The lead of the most visited of `visits` (the root children's counts) over the second, in
/// visits: all of the first's when there is one child, none when there is none or two tie.
pub fn lead(visits: impl IntoIterator<Item = u32>) -> u64 {
    let (mut first, mut second) = (0u32, 0u32);
    for v in visits {
        if v > first {
            second = first;
            first = v;
        } else if v > second {
            second = v;
        }
    }
    (first - second) as u64
}

/// May the search stop with this `lead` when at most `left` playouts could still come? Only when
/// the second move could not even draw level with all of them: a tie could still change the choice.
pub fn cannot_be_overtaken(lead: u64, left: f64) -> bool {
    lead as f64 > left
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lead_is_the_first_minus_the_second_whatever_the_order() {
        assert_eq!(lead([]), 0);
        assert_eq!(lead([7]), 7);
        assert_eq!(lead([3, 10, 4]), 6);
        assert_eq!(lead([10, 3, 4]), 6);
        assert_eq!(lead([4, 3, 10]), 6);
        assert_eq!(lead([10, 10, 2]), 0);
        assert_eq!(lead([0, 0, 0]), 0);
        assert_eq!(lead([5, 9, 9, 1]), 0);
    }

    /// Every split of `left` more playouts between the first two moves: could the second end with
    /// at least as many visits as the first?
    fn second_can_catch_up(first: u32, second: u32, left: u64) -> bool {
        (0..=left).any(|to_second| second as u64 + to_second >= first as u64 + (left - to_second))
    }

    #[test]
    fn stops_exactly_when_no_split_of_the_playouts_left_lets_the_second_catch_up() {
        for first in 0..40u32 {
            for second in 0..=first {
                for left in 0..50u64 {
                    let stop = cannot_be_overtaken(lead([second, first, second / 2]), left as f64);
                    assert_eq!(
                        stop,
                        !second_can_catch_up(first, second, left),
                        "first {first}, second {second}, {left} left"
                    );
                }
            }
        }
    }

    #[test]
    fn a_fraction_of_a_playout_left_still_counts() {
        // The time-limited stop estimates the playouts left from the rate: 3.5 left and a lead of 3
        // could still be overtaken; a lead of 4 cannot.
        assert!(!cannot_be_overtaken(3, 3.5));
        assert!(cannot_be_overtaken(4, 3.5));
        assert!(!cannot_be_overtaken(0, 0.0));
        assert!(cannot_be_overtaken(1, 0.0));
    }
}
