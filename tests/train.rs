//! `tengen train` learns what the records' player does: records of a player who answers the last
//! move next to it whenever it can and captures whenever it can, written as SGF, give those
//! features the largest weights, and the fitted model picks that player's moves far more often
//! than chance.

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tengen::board::{Board, Color, Point};
use tengen::search::move_model::{MoveModel, GROUPS};
use tengen::sgf::{GameRecord, RecordMove};
use tengen::train::{train, TrainOptions};

/// A game of the scripted player: a capture if there is one, else a point beside the last move,
/// else any legal point; passes when nothing is legal or after 60 moves.
fn scripted_game(rng: &mut Xoshiro256PlusPlus) -> GameRecord {
    let mut board = Board::new(9);
    let geo = *board.geometry();
    let mut record = GameRecord::new(9);
    let mut color = Color::Black;
    let mut last = Point::NONE;
    for _ in 0..60 {
        let legal: Vec<Point> = geo
            .points()
            .filter(|&p| {
                board.is_empty_point(p) && !board.is_suicide(color, p) && !board.is_ko_retake(color, p)
            })
            .collect();
        if legal.is_empty() {
            break;
        }
        let captures: Vec<Point> =
            legal.iter().copied().filter(|&p| board.capture_count(color, p).0 > 0).collect();
        let beside: Vec<Point> = if last.is_none() {
            Vec::new()
        } else {
            legal.iter().copied().filter(|p| board.neighbours(last).contains(p)).collect()
        };
        let p = if let Some(&p) = captures.choose(rng) {
            p
        } else if !beside.is_empty() && rng.gen_bool(0.9) {
            *beside.choose(rng).unwrap()
        } else {
            *legal.choose(rng).unwrap()
        };
        board.play(color, p);
        record.moves.push(RecordMove {
            color,
            at: Some(geo.xy(p)),
            comment: None,
            time_left: None,
            war: None,
        });
        last = p;
        color = color.opponent();
    }
    record
}

fn group(name: &str) -> usize {
    GROUPS.iter().position(|&(_, n, _)| n == name).unwrap()
}

#[test]
fn the_fit_learns_the_scripted_players_habits() {
    let dir = std::env::temp_dir().join(format!("tengen-train-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(17);
    for i in 0..40 {
        std::fs::write(dir.join(format!("game-{i:02}.sgf")), scripted_game(&mut rng).to_sgf()).unwrap();
    }
    std::fs::write(dir.join("broken.sgf"), "(;SZ[9];B[").unwrap();
    let options = TrainOptions { records: vec![dir.clone()], min_pattern: 20, rounds: 20 };
    let trained = train(&options, &mut |_| {}).unwrap();
    std::fs::remove_dir_all(&dir).unwrap();

    assert_eq!(trained.games, 40, "the broken file is skipped");
    let m: &MoveModel = &trained.model;
    // Distance 2 (`dx + dy + max`) is a point beside the last move: bucket 1.
    let near = m.groups[group("last_distance")][1];
    let far = m.groups[group("last_distance")][9];
    assert!(near > 20.0 * far, "beside the last move {near}, far from it {far}");
    let capture = m.groups[group("capture")][1].max(m.groups[group("capture")][2]);
    assert!(capture > 3.0 * m.groups[group("capture")][0], "capture {capture}");
    // About 70 legal moves a position: chance would pick the move played 1.5% of the time.
    assert!(trained.held_out_top1 > 0.15, "first choice {}", trained.held_out_top1);
    // The text form keeps every weight.
    assert_eq!(MoveModel::parse(&m.to_text("test")).unwrap().groups, m.groups);
}

#[test]
fn no_records_is_an_error_not_a_model() {
    let dir = std::env::temp_dir().join(format!("tengen-train-empty-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let options = TrainOptions { records: vec![dir.clone()], min_pattern: 20, rounds: 5 };
    assert!(train(&options, &mut |_| {}).is_err());
    std::fs::remove_dir_all(&dir).unwrap();
}
