//! War Go over GTP (RULES.md section 7, GTP.md): move words in every command that takes or gives
//! moves, bad words refused without a change, the SGF round trip of every move kind, a short game
//! of `genmove`s to its count, and random move words and commands that never crash or hang.

use rand::{Rng, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;
use tengen::engine::{Engine, EngineOptions};
use tengen::gtp::Session;
use tengen::rules::RulesConfig;

fn session(rules: &str, size: usize, playouts: u64) -> Session {
    Session::new(Engine::new(EngineOptions {
        rules: RulesConfig::parse(rules).unwrap(),
        size,
        seed: 7,
        threads: Some(1),
        playouts: Some(playouts),
        ..EngineOptions::default()
    }))
}

/// The response payload of `line`, panicking on an error response.
fn ok(s: &mut Session, line: &str) -> String {
    let r = s.handle_line(line.as_bytes()).expect("a command");
    assert!(r.starts_with("= "), "{line}: {r:?}");
    r[2..].trim_end().to_string()
}

fn err(s: &mut Session, line: &str) -> String {
    let r = s.handle_line(line.as_bytes()).expect("a command");
    assert!(r.starts_with("? "), "{line}: {r:?}");
    r[2..].trim_end().to_string()
}

/// RULES.md 7: "A soldier is a plain vertex. A drop is `KIND@VERTEX` ... a move is `FROM-TO`";
/// GTP.md: a bad move gets `? syntax error` or `? illegal move` and changes nothing.
#[test]
fn bad_move_words_change_nothing() {
    let mut s = session("war", 9, 20);
    for line in ["play b E5", "play w spy@D5", "play b mercenary@C3", "play w C3-C4"] {
        ok(&mut s, line);
    }
    let board = ok(&mut s, "showboard");
    let moves = ok(&mut s, "tengen-moves");
    for (line, why) in [
        ("play b spy@E5", "illegal move"),
        ("play b cavalry@K9", "illegal move"),
        ("play b E5-E6", "illegal move"),
        ("play b D5-D6", "illegal move"),
        ("play b bomb!@", "syntax error"),
        ("play b wall@E5!", "syntax error"),
        ("play b king@E6", "syntax error"),
        ("play b E6-", "syntax error"),
        ("play b", "syntax error"),
        ("play b pass extra-word-is-fine", ""),
    ] {
        if why.is_empty() {
            // GTP ignores extra arguments: this one is a pass, undone at once.
            ok(&mut s, line);
            ok(&mut s, "undo");
            continue;
        }
        assert_eq!(err(&mut s, line), why, "{line}");
        assert_eq!(ok(&mut s, "showboard"), board, "{line}");
        assert_eq!(ok(&mut s, "tengen-moves"), moves, "{line}");
    }
    assert_eq!(ok(&mut s, "is_legal b C4-C5"), "1");
    assert_eq!(ok(&mut s, "is_legal b C4-C6"), "0");
    assert_eq!(err(&mut s, "is_legal b C4-"), "syntax error");
}

/// RULES.md 7: "SGF keeps a soldier as `B[]`/`W[]` and records drops and moves in a property of the
/// project's own, so that the record replays exactly (`loadsgf` reads it back)."
#[test]
fn every_move_kind_survives_printsgf_and_loadsgf() {
    let mut s = session("war:army=full,komi=0.5,walls=A1", 9, 20);
    let moves = [
        "play b E5",
        "play w spy@D5",
        "play b bomb@F5",
        "play w bomb!@E4",
        "play b mercenary@C3",
        "play w C3-C4",
        "play b samurai@E3",
        "play w cavalry@G3",
        "play b E3-E2",
        "play w G3-E4",
        "play b tao@D7",
        "play w ambassador@H8",
        "play b monk@B8",
        "play w wall@J1",
        "play b pass",
        "play w D5-D6",
    ];
    for line in moves {
        ok(&mut s, line);
    }
    let board = ok(&mut s, "showboard");
    let listed = ok(&mut s, "tengen-moves");
    let dir = std::env::temp_dir().join(format!("tengen_war_sgf_{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("war.sgf");
    ok(&mut s, &format!("printsgf {}", file.display()));
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.contains("WM[spy@D5]") && text.contains("WM[bomb!@E4]") && text.contains("WM[G3-E4]"),
        "{text}"
    );
    assert!(text.contains(";B[ee]"), "a soldier is a plain move: {text}");
    // Read back by an engine under another variant: the record's RU brings War Go.
    let mut t = session("go", 19, 20);
    ok(&mut t, &format!("loadsgf {}", file.display()));
    assert_eq!(ok(&mut t, "tengen-moves"), listed);
    assert_eq!(ok(&mut t, "showboard"), board);
    assert_eq!(
        ok(&mut t, "tengen-rules"),
        "war:army=ambassador1+bomb2+wall6+spy4+monk2+tao1+mercenary2+samurai4+cavalry2,komi=0.5,walls=A1"
    );
    // `loadsgf FILE N` stops before move N.
    ok(&mut t, &format!("loadsgf {} 3", file.display()));
    assert_eq!(ok(&mut t, "tengen-moves"), "B E5\nW spy@D5");
    // A record whose move the rules refuse is not loaded, and nothing changes.
    let broken = dir.join("broken.sgf");
    std::fs::write(&broken, text.replace("WM[spy@D5]", "WM[spy@E5]")).unwrap();
    assert!(err(&mut t, &format!("loadsgf {}", broken.display())).starts_with("cannot load file"));
    assert_eq!(ok(&mut t, "tengen-moves"), "B E5\nW spy@D5");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `genmove` under War Go answers move words that the game accepts, both colours, to the end of a
/// game by two passes (or a resignation), and `final_score` counts it.
#[test]
fn genmove_plays_a_whole_game() {
    let mut s = session("war", 7, 200);
    let mut passes = 0;
    for turn in 0..200 {
        let color = if turn % 2 == 0 { "b" } else { "w" };
        let mv = ok(&mut s, &format!("genmove {color}"));
        if mv == "resign" {
            passes = 2;
            break;
        }
        passes = if mv == "pass" { passes + 1 } else { 0 };
        if passes == 2 {
            break;
        }
    }
    assert_eq!(passes, 2, "the game ends");
    let score = ok(&mut s, "final_score");
    assert!(score.starts_with("B+") || score.starts_with("W+") || score == "0", "{score}");
    assert_eq!(ok(&mut s, "gogui-rules_legal_moves"), "");
    // Every move listed replays on a fresh engine.
    let listed = ok(&mut s, "tengen-moves");
    let mut t = session("war", 7, 20);
    for line in listed.lines() {
        let (c, w) = line.split_once(' ').unwrap();
        ok(&mut t, &format!("play {c} {w}"));
    }
    assert_eq!(
        ok(&mut t, "showboard").lines().take(8).collect::<Vec<_>>(),
        ok(&mut s, "showboard").lines().take(8).collect::<Vec<_>>()
    );
}

/// Random move words (well formed or not, on and off the board) and commands under `war` never
/// crash or hang the engine: every line gets one `=` or `?` response.
#[test]
fn random_words_and_commands_never_crash() {
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(61);
    let kinds = [
        "ambassador",
        "bomb",
        "bomb!",
        "wall",
        "spy",
        "monk",
        "tao",
        "mercenary",
        "samurai",
        "cavalry",
        "soldier",
        "spy!",
        "",
        "x",
    ];
    let commands = [
        "showboard",
        "undo",
        "tengen-moves",
        "gogui-rules_legal_moves",
        "gogui-rules_board",
        "final_score",
        "final_status_list dead",
        "captures b",
        "printsgf",
        "clear_board",
        "boardsize 5",
        "boardsize 9",
        "komi 3.5",
        "tengen-rules war:army=spy2+mercenary2+tao1",
        "tengen-rules war",
        "fixed_handicap 2",
        "genmove b",
        "reg_genmove w",
        "list_commands",
        "known_command analyze",
        "analyze b 10",
        "kgs-rules chinese",
    ];
    let mut s = session("war", 7, 8);
    let vertex = |rng: &mut Xoshiro256PlusPlus| {
        let col = b"ABCDEFGHJKLZI"[rng.gen_range(0..13)] as char;
        let row = rng.gen_range(0..12);
        format!("{col}{row}")
    };
    for i in 0..4000 {
        let line = if rng.gen_bool(0.15) {
            commands[rng.gen_range(0..commands.len())].to_string()
        } else {
            let color = ["b", "w", "x"][rng.gen_range(0..3)];
            let verb = ["play", "is_legal"][rng.gen_range(0..2)];
            let word = match rng.gen_range(0..4) {
                0 => vertex(&mut rng),
                1 => format!("{}@{}", kinds[rng.gen_range(0..kinds.len())], vertex(&mut rng)),
                2 => format!("{}-{}", vertex(&mut rng), vertex(&mut rng)),
                _ => ["pass", "@", "-", "A1-", "@@", "spy@A1@B2", "A1-B1-C1", "resign"][rng.gen_range(0..8)]
                    .into(),
            };
            format!("{verb} {color} {word}")
        };
        let r = s.handle_line(line.as_bytes()).expect("a command");
        assert!(
            (r.starts_with("= ") || r.starts_with("? ")) && r.ends_with("\n\n"),
            "line {i}: {line}: {r:?}"
        );
    }
}
