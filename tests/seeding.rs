//! Seeding of `tengen gtp`: without `--seed` every run draws its seed from the system's entropy and
//! prints it on stderr; that seed replays the run's moves (one thread, a playout limit). Without
//! `--seed`, each game after the first in one process gets a seed of its own, printed too, so a
//! controller that keeps the process for many games (gogui-twogtp) gets different games, and each
//! can be replayed alone; with `--seed`, every game is played with that seed.

use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `tengen gtp FLAGS` on `commands`; returns the answers to `genmove` and the seeds the
/// run printed on stderr (start-up first, then one per new game).
fn run(flags: &[&str], commands: &[&str]) -> (Vec<String>, Vec<u64>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .arg("gtp")
        .args(["--threads", "1", "--playouts", "50", "--size", "9"])
        .args(flags)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting tengen");
    let mut input = commands.join("\n");
    input.push_str("\nquit\n");
    child.stdin.take().unwrap().write_all(input.as_bytes()).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8(out.stdout).unwrap();
    let answers: Vec<&str> =
        stdout.split("\n\n").filter(|a| !a.is_empty()).map(|a| a.trim_start_matches('=').trim()).collect();
    assert_eq!(answers.len(), commands.len() + 1, "every command answered: {stdout}");
    let moves =
        commands.iter().zip(&answers).filter(|(c, _)| c.starts_with("genmove")).map(|(_, a)| a.to_string());
    let stderr = String::from_utf8(out.stderr).unwrap();
    let seeds = stderr
        .lines()
        .filter_map(|l| l.strip_prefix("tengen: seed ").or_else(|| l.strip_prefix("tengen: new game, seed ")))
        .map(|rest| rest.split_whitespace().next().unwrap().parse::<u64>().expect("a seed"))
        .collect();
    (moves.collect(), seeds)
}

const GAME: &[&str] = &["genmove b", "genmove w", "genmove b", "genmove w", "genmove b", "genmove w"];

#[test]
fn without_a_seed_each_run_draws_its_own_and_the_printed_seed_replays_it() {
    let (moves_a, seeds_a) = run(&[], GAME);
    let (_, seeds_b) = run(&[], GAME);
    assert_eq!((seeds_a.len(), seeds_b.len()), (1, 1), "one seed printed at start-up");
    assert_ne!(seeds_a[0], seeds_b[0], "two runs without --seed draw different seeds");
    let seed = seeds_a[0].to_string();
    let (replayed, printed) = run(&["--seed", &seed], GAME);
    assert_eq!(printed, seeds_a, "a given seed is printed as it is");
    assert_eq!(replayed, moves_a, "the printed seed replays the run");
}

/// Two games in one process, as gogui-twogtp starts the second (`boardsize`, `clear_board`,
/// `komi`).
fn two_games() -> Vec<&'static str> {
    let mut two: Vec<&str> = GAME.to_vec();
    two.extend(["boardsize 9", "clear_board", "komi 6.5"]);
    two.extend(GAME);
    two
}

#[test]
fn without_a_seed_each_game_of_a_process_has_its_own_seed_which_replays_it_alone() {
    let (moves, seeds) = run(&[], &two_games());
    assert_eq!(seeds.len(), 2, "the start-up seed and the second game's: {seeds:?}");
    assert_ne!(seeds[0], seeds[1]);
    let (first, second) = moves.split_at(GAME.len());
    assert_ne!(first, second, "the second game is not the first one again");
    // The second game alone, from its printed seed.
    let mut alone = vec!["komi 6.5"];
    alone.extend(GAME);
    let (replayed, _) = run(&["--seed", &seeds[1].to_string()], &alone);
    assert_eq!(replayed, second);
}

#[test]
fn with_a_seed_every_game_of_a_process_is_played_with_it() {
    // The same command line and commands give the same two games, and the second game is the one
    // its position and that seed give, whatever the process played before it: a game replays
    // alone, and a sharded match's opponent plays each game as the whole run's would.
    let (moves, seeds) = run(&["--seed", "5"], &two_games());
    assert_eq!(seeds, [5], "no new seed for a later game");
    assert_eq!(run(&["--seed", "5"], &two_games()).0, moves);
    let mut alone = vec!["komi 6.5"];
    alone.extend(GAME);
    assert_eq!(run(&["--seed", "5"], &alone).0, moves[GAME.len()..]);
}

#[test]
fn clearing_an_empty_board_keeps_the_seed() {
    // Controllers send `boardsize` and `clear_board` before the first game: still the first game.
    let (moves, seeds) =
        run(&["--seed", "5"], &[&["boardsize 9", "clear_board", "clear_board"], GAME].concat());
    assert_eq!(seeds, [5]);
    assert_eq!(run(&["--seed", "5"], GAME).0, moves);
}
