//! Final scores against GNU Go: finished self-play games of tengen's own (`tests/data/final_scores/`,
//! made by `tengen selfplay` with resignation off, so each ended in two passes) are loaded into
//! tengen and into GNU Go 3.8, and the two `final_score` answers must be the same result. Area
//! scoring is compared with GNU Go's `--chinese-rules`, territory scoring with its default Japanese
//! rules. Both programs judge the dead stones themselves, so this checks tengen's end-of-game
//! judgement as well as its count. tengen searches for its judgement on one thread with a fixed seed.
//!
//! Without GNU Go the test prints a notice and passes, unless `TENGEN_REQUIRE_GNUGO=1` (CI sets it).

mod common;

use std::path::{Path, PathBuf};
use tengen::engine::{Engine, EngineOptions};
use tengen::gtp::Session;

fn games(scoring: &str) -> Vec<PathBuf> {
    common::sgf_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/final_scores").join(scoring))
}

/// tengen's `final_score` of a game record, over GTP in process.
fn tengen_score(path: &Path) -> String {
    let engine = Engine::new(EngineOptions { seed: 1, threads: Some(1), ..EngineOptions::default() });
    let mut session = Session::new(engine);
    let mut ask = |command: &str| {
        let r = session.handle_line(command.as_bytes()).expect("an answer");
        r.strip_prefix("= ").unwrap_or_else(|| panic!("{command}: {r:?}")).trim().to_string()
    };
    ask(&format!("loadsgf {}", path.display()));
    ask("final_score")
}

fn compare(scoring: &str, gnugo_rules: &[&str]) {
    let Some(gnugo) = common::gnugo() else { return };
    let files = games(scoring);
    assert!(files.len() >= 5, "{scoring}: {} games", files.len());
    let mut differ = Vec::new();
    for path in &files {
        let record = std::fs::read_to_string(path).unwrap();
        assert!(record.contains("RE["), "{}: not a finished game", path.display());
        let ours = tengen_score(path);
        let theirs = common::gnugo_answers(
            &gnugo,
            gnugo_rules,
            &[format!("loadsgf {}", path.display()), "final_score".into()],
        );
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        eprintln!("{scoring} {name}: tengen {ours}, GNU Go {}", theirs[1]);
        if common::result_value(&ours) != common::result_value(&theirs[1]) {
            differ.push(format!("{name}: tengen {ours}, GNU Go {}", theirs[1]));
        }
    }
    assert!(differ.is_empty(), "{scoring} scoring: tengen and GNU Go count differently: {differ:#?}");
}

#[test]
fn area_scores_agree_with_gnugo_chinese_rules() {
    compare("area", &["--chinese-rules"]);
}

#[test]
fn territory_scores_agree_with_gnugo_japanese_rules() {
    compare("territory", &[]);
}
