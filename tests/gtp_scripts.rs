//! Golden GTP transcripts: every `gtp-scripts/NAME.gtp` is piped into the real binary and the
//! transcript (each command line followed by its response) is compared with `gtp-scripts/NAME.out`.
//! `TENGEN_BLESS=1 cargo test --test gtp_scripts` rewrites the expected files. The format is described
//! in `gtp-scripts/README.md`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use tengen::gtp::{parse_line, Line};

/// The command line every script runs with, before the script's own `#! args:` flags.
const BASE_ARGS: &[&str] = &["gtp", "--seed", "1", "--threads", "1", "--playouts", "50"];

fn scripts_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("gtp-scripts")
}

/// Extra flags from `#! args: ...` lines at the top of a script.
fn extra_args(script: &str) -> Vec<String> {
    script
        .lines()
        .take_while(|l| l.starts_with('#'))
        .filter_map(|l| l.strip_prefix("#! args:"))
        .flat_map(|rest| rest.split_whitespace().map(str::to_string))
        .collect()
}

/// Runs `script` through the binary: its stdout and stderr.
fn run_binary(script: &str) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tengen"))
        .args(BASE_ARGS)
        .args(extra_args(script))
        .current_dir(scripts_dir())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starting tengen");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = script.as_bytes().to_vec();
    // Written from a thread: the engine may stop reading (quit) before the script ends.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let out = child.wait_with_output().expect("waiting for tengen");
    writer.join().expect("writer thread");
    assert!(out.status.success(), "tengen exited with {}", out.status);
    (
        String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Builds the transcript: comment lines as they are, each command line as `> line` followed by its
/// response. Responses are split at the empty line that ends each; a count that does not match the
/// commands shows up as `!!` lines, so the diff points at it.
fn transcript(script: &str, stdout: &str) -> String {
    let mut responses: Vec<&str> = stdout.split_inclusive("\n\n").collect();
    responses.reverse();
    let mut t = String::new();
    let mut quit = false;
    for line in script.lines() {
        match parse_line(line.as_bytes()) {
            Line::Blank if line.trim().is_empty() => {}
            Line::Blank | Line::Interrupt => {
                t.push_str(line);
                t.push('\n');
            }
            Line::Command(cmd) => {
                t.push_str("> ");
                t.push_str(line);
                t.push('\n');
                if quit {
                    t.push_str("(not answered: after quit)\n\n");
                    continue;
                }
                match responses.pop() {
                    Some(r) if r.ends_with("\n\n") => t.push_str(r),
                    Some(r) => t.push_str(&format!("!! unterminated response: {r:?}\n\n")),
                    None => t.push_str("!! no response\n\n"),
                }
                quit = cmd.name == "quit";
            }
        }
    }
    while let Some(r) = responses.pop() {
        t.push_str(&format!("!! extra output: {r:?}\n\n"));
    }
    t
}

/// A line diff (longest common subsequence), `-` expected, `+` actual, with line numbers.
fn diff(expected: &str, actual: &str) -> String {
    let (a, b): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), actual.lines().collect());
    let mut lcs = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i][j] = if a[i] == b[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    let (mut i, mut j, mut out) = (0, 0, String::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if i < a.len() && (j == b.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            out.push_str(&format!("-{:>4} {}\n", i + 1, a[i]));
            i += 1;
        } else {
            out.push_str(&format!("+{:>4} {}\n", j + 1, b[j]));
            j += 1;
        }
    }
    out
}

#[test]
fn golden_transcripts() {
    let bless = std::env::var("TENGEN_BLESS").as_deref() == Ok("1");
    let mut scripts: Vec<PathBuf> = std::fs::read_dir(scripts_dir())
        .expect("gtp-scripts/")
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "gtp"))
        .collect();
    scripts.sort();
    assert!(scripts.len() >= 10, "expected the golden scripts in gtp-scripts/, found {}", scripts.len());

    let mut failures = Vec::new();
    for path in &scripts {
        let name = path.file_stem().unwrap().to_string_lossy().into_owned();
        let script = std::fs::read_to_string(path).expect("reading script");
        let (stdout, stderr) = run_binary(&script);
        // Lizzie merges the streams: nothing on stderr may look like a response or an analysis line.
        for l in stderr.lines() {
            assert!(
                !["=", "?", "info", "play"].iter().any(|p| l.starts_with(p)),
                "{name}: stderr line looks like GTP output: {l:?}"
            );
        }
        let actual = transcript(&script, &stdout);
        let expected_path = path.with_extension("out");
        if bless {
            std::fs::write(&expected_path, &actual).expect("writing expected output");
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => {
                failures.push(format!("{name}: transcript differs\n{}", diff(&expected, &actual)))
            }
            Err(_) => {
                failures.push(format!("{name}: no {} (run with TENGEN_BLESS=1)", expected_path.display()))
            }
        }
    }
    // An expected file whose script is gone is stale.
    for entry in std::fs::read_dir(scripts_dir()).unwrap() {
        let p = entry.unwrap().path();
        if p.extension().is_some_and(|x| x == "out") && !p.with_extension("gtp").exists() {
            failures.push(format!("{}: no script for this expected output", p.display()));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} scripts failed:\n\n{}",
        failures.len(),
        scripts.len(),
        failures.join("\n")
    );
}

#[test]
fn the_transcript_builder_flags_missing_and_extra_responses() {
    let script = "# c\nname\n\nversion\n";
    assert_eq!(transcript(script, "= a\n\n= b\n\n"), "# c\n> name\n= a\n\n> version\n= b\n\n");
    assert!(transcript(script, "= a\n\n").contains("!! no response"));
    assert!(transcript(script, "= a\n\n= b\n\n= c\n\n").contains("!! extra output"));
    assert!(transcript(script, "= a\n\n= b\n").contains("!! unterminated"));
    assert!(transcript("quit\nname\n", "= \n\n").contains("(not answered: after quit)"));
    assert_eq!(diff("a\nb\nc\n", "a\nx\nc\n"), "-   2 b\n+   2 x\n");
}
