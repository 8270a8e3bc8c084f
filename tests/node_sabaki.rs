//! tengen driven by Sabaki's own GTP library: runs `tests/node/sabaki_client.js` (npm `@sabaki/gtp`)
//! against the real binary. Skips with a notice when Node or the installed package is missing
//! (`cd tests/node && npm ci`), unless `TENGEN_REQUIRE_NODE=1` (CI), where that is a failure.

use std::path::{Path, PathBuf};
use std::process::Command;

fn node_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests").join("node")
}

/// `Some(reason)` when the Node test cannot run here.
fn missing() -> Option<String> {
    let node = Command::new("node").arg("--version").output();
    if !matches!(node, Ok(ref o) if o.status.success()) {
        return Some("node not found on PATH (apt-get install nodejs npm)".into());
    }
    let package = node_dir().join("node_modules").join("@sabaki").join("gtp").join("package.json");
    if !package.exists() {
        return Some(format!("{} missing (cd tests/node && npm ci)", package.display()));
    }
    None
}

#[test]
fn sabaki_drives_tengen() {
    if let Some(reason) = missing() {
        if std::env::var("TENGEN_REQUIRE_NODE").as_deref() == Ok("1") {
            panic!("the Sabaki client test cannot run but TENGEN_REQUIRE_NODE=1: {reason}");
        }
        eprintln!("notice: skipping the Sabaki client test: {reason}");
        return;
    }
    let out = Command::new("node")
        .arg("sabaki_client.js")
        .arg(env!("CARGO_BIN_EXE_tengen"))
        .current_dir(node_dir())
        .output()
        .expect("running node");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    eprintln!("{stdout}{stderr}");
    assert!(out.status.success(), "the Sabaki client test failed ({}):\n{stdout}\n{stderr}", out.status);
    assert!(stdout.contains("sabaki client test: all passed"), "{stdout}");
}
