//! Shards of a run: `--shard K/N` plays exactly the games of the whole run whose index is K modulo
//! N, each with the seeds, opening and colours it has in the whole run (they all follow from the
//! game's index), into a directory of its own, so that N processes on N machines play the same
//! games as one process would, and no two of them write one file. `tengen summary` merges them.

use std::fmt;
use std::str::FromStr;

/// Shard `index` of `count` (`index < count`).
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

impl Shard {
    /// Does this shard play game `game`?
    pub fn contains(self, game: u64) -> bool {
        game % self.count == self.index
    }

    /// How many of the games `0..games` this shard plays.
    pub fn games_of(self, games: u64) -> u64 {
        games / self.count + u64::from(games % self.count > self.index)
    }

    /// The shard's own directory inside the run's `--out`: `shard-3-of-8`.
    pub fn dir_name(self) -> String {
        format!("shard-{}-of-{}", self.index, self.count)
    }
}

/// `3/8`, as on the command line and in `run.json`.
impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("'{s}' is not K/N (shard K of N, 0 <= K < N), e.g. 3/8");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (index, count) =
            (k.trim().parse::<u64>().map_err(|_| bad())?, n.trim().parse::<u64>().map_err(|_| bad())?);
        if count == 0 || index >= count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_games() {
        let games = 1000;
        let shards: Vec<Shard> = (0..7).map(|index| Shard { index, count: 7 }).collect();
        for g in 0..games {
            assert_eq!(shards.iter().filter(|s| s.contains(g)).count(), 1, "game {g}");
        }
        let counts: Vec<u64> = shards.iter().map(|s| s.games_of(games)).collect();
        // 1000 = 7 * 142 + 6: the first six shards play 143 games, the last 142.
        assert_eq!(counts, [143, 143, 143, 143, 143, 143, 142]);
        for s in &shards {
            assert_eq!(s.games_of(games), (0..games).filter(|&g| s.contains(g)).count() as u64);
        }
        assert_eq!(Shard { index: 3, count: 4 }.games_of(2), 0);
    }

    #[test]
    fn parses_and_prints_k_of_n() {
        let s: Shard = "3/8".parse().unwrap();
        assert_eq!(s, Shard { index: 3, count: 8 });
        assert_eq!(s.to_string(), "3/8");
        assert_eq!(s.dir_name(), "shard-3-of-8");
        assert_eq!("0/1".parse::<Shard>().unwrap(), Shard { index: 0, count: 1 });
        for bad in ["8/8", "1/0", "3", "-1/4", "a/b", "3/8/1", ""] {
            let e = bad.parse::<Shard>().unwrap_err();
            assert!(e.contains("K/N"), "{bad}: {e}");
        }
    }
}
