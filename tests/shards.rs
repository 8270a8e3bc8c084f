//! Runs in shards (`--shard K/N`) and their merged summary (`tengen summary`), through the binary:
//! the union of the shards is the run one process plays (the same games, SGF move for move, with one
//! thread, a seed and a playout limit), `tengen summary` refuses what it cannot merge honestly, and
//! the shards run under GNU parallel and as a Slurm job array (`scripts/slurm/`).
//!
//! The last two need GNU parallel and Slurm (Debian's `parallel`, `slurmctld`, `slurmd`,
//! `slurm-client`): without them they print a notice and pass, unless `TENGEN_REQUIRE_PARALLEL=1` or
//! `TENGEN_REQUIRE_SLURM=1` (CI sets both), where that is a failure. The Slurm test starts its own
//! single-node cluster in a temporary directory (its own ports, state and logs, `auth/none`), which
//! needs root, and stops it at the end.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant};

use tengen::selfplay::output::{read_results, ResultLine, RESULTS, SUMMARY};

const TENGEN: &str = env!("CARGO_BIN_EXE_tengen");

/// A fresh directory for one test (removed first, in case an earlier run left it).
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tengen-shards-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn tengen(args: &[&str]) -> Output {
    Command::new(TENGEN).args(args).output().expect("the tengen binary runs")
}

/// Runs tengen and insists on success; its stdout.
fn tengen_ok(args: &[&str]) -> String {
    let out = tengen(args);
    assert!(out.status.success(), "tengen {args:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("utf-8")
}

fn path(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 temporary path")
}

/// A run: `selfplay` or `match` and its options (everything but `--out`, `--shard`).
fn run_args(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// Every game under `dir` (a run directory, or one whose subdirectories are): its result line
/// without the timings (which differ between two runs of the same game) and its SGF without the
/// date, by game index. Panics on a game found twice.
fn games_under(dir: &Path) -> BTreeMap<u64, (ResultLine, String)> {
    let mut dirs = vec![dir.to_path_buf()];
    if !dir.join(RESULTS).exists() {
        dirs = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
    }
    let mut games = BTreeMap::new();
    for d in dirs {
        let results = read_results(&d.join(RESULTS)).expect("results.jsonl reads back");
        assert!(!results.torn_tail);
        for line in results.lines {
            let sgf = std::fs::read_to_string(d.join(&line.sgf)).expect("the game's SGF is there");
            let undated: String = sgf.split("DT[").enumerate().fold(String::new(), |mut s, (i, part)| {
                // Each part after the first starts with the date and its bracket.
                s.push_str(if i == 0 { part } else { &part[part.find(']').unwrap() + 1..] });
                s
            });
            let untimed = ResultLine { time_black: 0.0, time_white: 0.0, ..line };
            assert!(games.insert(untimed.game, (untimed, undated)).is_none(), "a game twice under {dir:?}");
        }
    }
    games
}

/// A summary without its line of times, which differ between two runs of the same games.
fn untimed(summary: &str) -> String {
    summary.lines().filter(|l| !l.starts_with("Time per move")).map(|l| format!("{l}\n")).collect()
}

/// Plays `line` in one process into `whole` and in `n` shards (one process each) into `sharded`,
/// and checks that they played the same games, and that `tengen summary` of the shards is the
/// whole run's summary.
fn check_shards_equal_the_whole(line: &str, n: u64, whole: &Path, sharded: &Path) {
    let args = run_args(line);
    tengen_ok(&[&args[..], &["--quiet", "--out", path(whole)]].concat());
    for k in 0..n {
        let shard = format!("{k}/{n}");
        let out = tengen_ok(&[&args[..], &["--quiet", "--out", path(sharded), "--shard", &shard]].concat());
        let dir = sharded.join(format!("shard-{k}-of-{n}"));
        assert_eq!(out, std::fs::read_to_string(dir.join(SUMMARY)).unwrap(), "a shard prints its summary");
        let indices: Vec<u64> = games_under(&dir).into_keys().collect();
        let games: u64 = line.split("--games ").nth(1).unwrap().split(' ').next().unwrap().parse().unwrap();
        assert_eq!(indices, (0..games).filter(|g| g % n == k).collect::<Vec<_>>(), "shard {shard}");
    }
    let (one, many) = (games_under(whole), games_under(sharded));
    assert_eq!(one.keys().collect::<Vec<_>>(), many.keys().collect::<Vec<_>>(), "the same game indices");
    for (game, (line, sgf)) in &one {
        assert_eq!(&many[game].0, line, "game {game}: the same result, opening, colours");
        assert_eq!(&many[game].1, sgf, "game {game}: the same SGF, move for move");
    }
    let whole_summary = std::fs::read_to_string(whole.join(SUMMARY)).unwrap();
    // The whole run's own directory summarizes to its summary.txt, byte for byte (times included).
    assert_eq!(tengen_ok(&["summary", path(whole)]), whole_summary);
    let merged = tengen_ok(&["summary", "--complete", path(sharded)]);
    assert_eq!(untimed(&merged), untimed(&whole_summary), "{merged}");
}

#[test]
fn shards_play_the_games_of_the_whole_run_in_every_variant() {
    for (name, line, n) in [
        ("go", "selfplay --games 7 --size 5 --playouts 16 --random-opening 2 --seed 5", 3),
        ("stones", "selfplay --games 4 --rules stones --size 5 --playouts 16 --random-opening 1 --seed 2", 2),
        (
            "stoical",
            "selfplay --games 4 --rules stoical --size 5 --playouts 16 --seed 9 --black --policy=light",
            2,
        ),
        ("handicap", "selfplay --games 4 --size 7 --handicap 2 --komi 0.5 --playouts 8 --seed 1", 4),
    ] {
        let (whole, sharded) = (scratch(&format!("{name}-whole")), scratch(&format!("{name}-sharded")));
        check_shards_equal_the_whole(line, n, &whole, &sharded);
        std::fs::remove_dir_all(whole).unwrap();
        std::fs::remove_dir_all(sharded).unwrap();
    }
}

#[test]
fn match_shards_against_another_tengen_process() {
    let (whole, sharded) = (scratch("match-whole"), scratch("match-sharded"));
    let opponent = format!("{TENGEN} gtp --playouts 8 --threads 1 --seed 1");
    let line = "match --games 4 --size 5 --playouts 16 --random-opening 2 --seed 4 --opponent";
    let args = [&run_args(line)[..], &[opponent.as_str()]].concat();
    tengen_ok(&[&args[..], &["--quiet", "--out", path(&whole)]].concat());
    for k in ["0/2", "1/2"] {
        tengen_ok(&[&args[..], &["--quiet", "--out", path(&sharded), "--shard", k]].concat());
    }
    let (one, many) = (games_under(&whole), games_under(&sharded));
    assert_eq!(one, many, "the same games, SGF move for move");
    let merged = tengen_ok(&["summary", "--complete", path(&sharded)]);
    let whole_summary = std::fs::read_to_string(whole.join(SUMMARY)).unwrap();
    assert_eq!(untimed(&merged), untimed(&whole_summary));
    assert!(merged.contains("B: tengen"), "the opponent's own name: {merged}");
    std::fs::remove_dir_all(whole).unwrap();
    std::fs::remove_dir_all(sharded).unwrap();
}

/// `tengen summary ARGS`: (success, stdout, stderr).
fn summary(args: &[&str]) -> (bool, String, String) {
    let out = tengen(&[&["summary"], args].concat());
    let text = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.success(), text(out.stdout), text(out.stderr))
}

#[test]
fn summary_lists_missing_games_and_refuses_duplicates_and_other_settings() {
    let dir = scratch("summary-errors");
    let line = "selfplay --games 6 --size 5 --playouts 8 --seed 3 --quiet --out";
    let shard = |k: &str, extra: &[&str]| {
        tengen_ok(&[&run_args(line)[..], &[path(&dir), "--shard", k], extra].concat());
    };
    shard("0/3", &[]);
    shard("2/3", &[]);
    // A missing shard: the summary of the games there, and on stderr which games and shard are missing.
    let (ok, out, err) = summary(&[path(&dir)]);
    assert!(ok, "{err}");
    assert!(out.contains("Games: 4\n"), "{out}");
    assert!(err.contains("2 of 6 games not played (yet): 1, 4"), "{err}");
    assert!(err.contains("no directory for shard 1/3"), "{err}");
    // --complete makes that a failure.
    let (ok, _, err) = summary(&["--complete", path(&dir)]);
    assert!(!ok && err.contains("not complete"), "{err}");
    // The missing shard played: complete.
    shard("1/3", &[]);
    let (ok, complete, err) = summary(&["--complete", path(&dir)]);
    assert!(ok && complete.contains("Games: 6\n") && err.is_empty(), "{complete}{err}");

    // A game missing inside a shard (a line lost from its results): listed, though its shard is there.
    let results = dir.join("shard-1-of-3").join(RESULTS);
    let text = std::fs::read_to_string(&results).unwrap();
    let kept: String =
        text.lines().filter(|l| !l.contains("\"game\":4,")).map(|l| format!("{l}\n")).collect();
    std::fs::write(&results, kept).unwrap();
    let (ok, out, err) = summary(&[path(&dir)]);
    assert!(ok && out.contains("Games: 5\n"), "{out}{err}");
    assert!(err.contains("1 of 6 games not played (yet): 4") && !err.contains("no directory"), "{err}");
    std::fs::write(&results, &text).unwrap();

    // The same games played twice (shards of another split, with the same settings): refused, and
    // nothing printed on stdout.
    let twice = scratch("summary-twice");
    tengen_ok(&[&run_args(line)[..], &[path(&twice), "--shard", "0/2"]].concat());
    let (ok, out, err) = summary(&[path(&dir), path(&twice)]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(err.contains("3 game(s) played in more than one directory"), "{err}");
    assert!(
        err.contains("game 0 in ") && err.contains("shard-0-of-3 and ") && err.contains("shard-0-of-2"),
        "{err}"
    );

    // Other settings: refused, naming the setting and both directories; nothing printed on stdout.
    let other = scratch("summary-other");
    tengen_ok(
        &[
            &["selfplay", "--games", "6", "--size", "5", "--playouts", "9", "--seed", "3", "--quiet"][..],
            &["--out", path(&other), "--shard", "1/3"],
        ]
        .concat(),
    );
    let (ok, out, err) = summary(&[path(&dir.join("shard-0-of-3")), path(&other)]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(err.contains("cannot merge runs with other settings: a is"), "{err}");
    assert!(err.contains("playouts=8") && err.contains("playouts=9") && err.contains(path(&other)), "{err}");

    // Not a run at all.
    let (ok, _, err) = summary(&[path(&dir.join("nowhere"))]);
    assert!(!ok && err.contains("cannot read"), "{err}");
    for d in [dir, twice, other] {
        std::fs::remove_dir_all(d).unwrap();
    }
}

#[test]
fn a_shard_resumes_on_its_own_and_a_run_extends_shard_by_shard() {
    let dir = scratch("resume");
    let line = |games: &str| {
        format!("selfplay --games {games} --size 5 --playouts 8 --random-opening 2 --seed 7 --quiet --out")
    };
    let play = |games: &str, shard: &str, resume: bool| {
        let l = line(games);
        let mut args = [&run_args(&l)[..], &[path(&dir), "--shard", shard]].concat();
        if resume {
            args.push("--resume");
        }
        tengen(&args)
    };
    assert!(play("4", "0/2", false).status.success());
    assert!(play("4", "1/2", false).status.success());
    // The same shard again needs --resume; with it, it has nothing left to play.
    let again = play("4", "1/2", false);
    assert!(!again.status.success() && String::from_utf8_lossy(&again.stderr).contains("--resume"));
    assert!(play("4", "1/2", true).status.success());
    // Extended to 8 games: each shard plays its own new games.
    assert!(play("8", "0/2", true).status.success());
    let (ok, _, err) = summary(&[path(&dir)]);
    assert!(ok && err.contains("2 of 8 games not played (yet): 5, 7"), "{err}");
    assert!(play("8", "1/2", true).status.success());
    let whole = scratch("resume-whole");
    tengen_ok(&[&run_args(&line("8"))[..], &[path(&whole)]].concat());
    assert_eq!(games_under(&dir), games_under(&whole));
    let (ok, merged, err) = summary(&["--complete", path(&dir)]);
    assert!(ok, "{err}");
    assert_eq!(untimed(&merged), untimed(&std::fs::read_to_string(whole.join(SUMMARY)).unwrap()));
    // A shard's directory resumed as if it were a whole run: refused, it would play every game.
    let l = line("8");
    let wrong = tengen(&[&run_args(&l)[..], &[path(&dir.join("shard-0-of-2")), "--resume"]].concat());
    assert!(!wrong.status.success());
    assert!(String::from_utf8_lossy(&wrong.stderr).contains("shard: \"0/2\" in the directory, null now"));
    std::fs::remove_dir_all(dir).unwrap();
    std::fs::remove_dir_all(whole).unwrap();
}

/// Waits for `child` to exit, polling until `limit`; kills it and fails after that.
fn wait_bounded(child: &mut Child, limit: Duration, what: &str) -> std::process::ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("try_wait") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what} did not finish within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn summary_watch_waits_for_the_last_shard() {
    let dir = scratch("watch");
    let line = "selfplay --games 4 --size 5 --playouts 8 --seed 1 --quiet --out";
    tengen_ok(&[&run_args(line)[..], &[path(&dir), "--shard", "0/2"]].concat());
    let mut watch = Command::new(TENGEN)
        .args(["summary", "--watch=0.05", path(&dir)])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Half the games are there: it cannot have finished (nor may it have failed).
    assert!(watch.try_wait().unwrap().is_none(), "--watch exited with half the games");
    tengen_ok(&[&run_args(line)[..], &[path(&dir), "--shard", "1/2"]].concat());
    let status = wait_bounded(&mut watch, Duration::from_secs(60), "tengen summary --watch");
    let out = watch.wait_with_output().unwrap();
    assert!(status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8(out.stdout).unwrap();
    assert_eq!(printed, summary(&[path(&dir)]).1);
    assert!(printed.contains("Games: 4\n"), "{printed}");
    std::fs::remove_dir_all(dir).unwrap();
}

/// Whether an optional tool may be skipped: prints a notice and says yes, unless the variable
/// `require` is 1, where a missing tool is a failure.
fn skip(require: &str, reason: &str) -> bool {
    if std::env::var(require).as_deref() == Ok("1") {
        panic!("{reason}, but {require}=1");
    }
    eprintln!("notice: {reason}; skipping (set {require}=1 to make that a failure)");
    true
}

fn script(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/slurm").join(name)
}

/// The run the cluster tests play, as one process plays it.
const CLUSTER_RUN: &str =
    "selfplay --games 8 --size 7 --playouts 8 --random-opening 2 --seed 3 --quiet --black --policy=light";

/// Checks a cluster's shards under `sharded` against the same run played by one process.
fn check_against_one_process(sharded: &Path, name: &str) {
    let whole = scratch(&format!("{name}-whole"));
    tengen_ok(&[&run_args(CLUSTER_RUN)[..], &["--out", path(&whole)]].concat());
    assert_eq!(games_under(sharded), games_under(&whole));
    let merged = tengen_ok(&["summary", "--complete", path(sharded)]);
    assert_eq!(untimed(&merged), untimed(&std::fs::read_to_string(whole.join(SUMMARY)).unwrap()));
    std::fs::remove_dir_all(whole).unwrap();
}

#[test]
fn gnu_parallel_runs_the_shards() {
    let version = Command::new("parallel").arg("--version").output();
    if !version.is_ok_and(|o| String::from_utf8_lossy(&o.stdout).starts_with("GNU parallel")) {
        skip("TENGEN_REQUIRE_PARALLEL", "GNU parallel not found (apt-get install parallel)");
        return;
    }
    let out = scratch("parallel");
    let status = Command::new(script("tengen-parallel.sh"))
        .args([TENGEN, path(&out), "4"])
        .args(run_args(CLUSTER_RUN))
        .env("PARALLEL", "-j 2")
        .stdout(Stdio::null())
        .status()
        .unwrap();
    assert!(status.success());
    check_against_one_process(&out, "parallel");
    std::fs::remove_dir_all(out).unwrap();
}

/// A single-node Slurm cluster of our own, stopped (with its jobs) when dropped.
struct Slurm {
    dir: PathBuf,
    conf: PathBuf,
    daemons: Vec<Child>,
    jobs: Vec<String>,
}

impl Slurm {
    /// A Slurm command run against this cluster.
    fn command(&self, program: &str) -> Command {
        let mut c = Command::new(program);
        c.env("SLURM_CONF", &self.conf);
        c
    }

    fn output(&self, program: &str, args: &[&str]) -> String {
        let out = self.command(program).args(args).output().unwrap_or_else(|e| panic!("{program}: {e}"));
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    fn logs(&self) -> String {
        ["slurmctld.log", "slurmd.log"]
            .iter()
            .map(|f| format!("--- {f}\n{}", std::fs::read_to_string(self.dir.join(f)).unwrap_or_default()))
            .collect()
    }

    /// Starts slurmctld and slurmd and waits (bounded) for the node to be idle; `Err` with the reason
    /// when Slurm cannot be started here.
    fn start(dir: &Path) -> Result<Slurm, String> {
        for program in ["slurmctld", "slurmd", "sbatch", "squeue", "scontrol", "sinfo"] {
            if find_program(program).is_none() {
                return Err(format!("{program} not found (apt-get install slurmctld slurmd slurm-client)"));
            }
        }
        // slurmd starts job steps as the job's user, which only root may do.
        let uid = Command::new("id")
            .arg("-u")
            .output()
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
        if uid.as_deref().ok() != Some("0") {
            return Err("the test's single-node cluster needs root (slurmd starts the jobs)".into());
        }
        std::fs::create_dir_all(dir.join("state")).unwrap();
        std::fs::create_dir_all(dir.join("spool")).unwrap();
        let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
            .map(|h| h.trim().to_string())
            .or_else(|_| {
                Command::new("hostname")
                    .output()
                    .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
            })
            .map_err(|e| format!("no host name: {e}"))?;
        let port = || std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
        let (ctld_port, d_port) = (port(), port());
        let d = dir.display();
        // No cgroups (proctrack/linuxproc, task/none), no munge (auth/none: one machine, one user),
        // no accounting database; everything in `dir`.
        let conf = format!(
            "ClusterName=tengentest\nSlurmctldHost={host}(127.0.0.1)\nSlurmUser=root\nSlurmdUser=root\n\
             SlurmctldPort={ctld_port}\nSlurmdPort={d_port}\nAuthType=auth/none\nCredType=cred/none\n\
             StateSaveLocation={d}/state\nSlurmdSpoolDir={d}/spool\n\
             SlurmctldPidFile={d}/slurmctld.pid\nSlurmdPidFile={d}/slurmd.pid\n\
             SlurmctldLogFile={d}/slurmctld.log\nSlurmdLogFile={d}/slurmd.log\n\
             ProctrackType=proctrack/linuxproc\nTaskPlugin=task/none\nJobAcctGatherType=jobacct_gather/none\n\
             AccountingStorageType=accounting_storage/none\nJobCompType=jobcomp/none\nMpiDefault=none\n\
             SchedulerType=sched/builtin\nSelectType=select/cons_tres\nSelectTypeParameters=CR_Core\n\
             ReturnToService=2\n\
             NodeName=tengen0 NodeHostname={host} NodeAddr=127.0.0.1 CPUs=2 RealMemory=1000 State=UNKNOWN\n\
             PartitionName=debug Nodes=tengen0 Default=YES MaxTime=INFINITE State=UP\n"
        );
        let conf_path = dir.join("slurm.conf");
        std::fs::write(&conf_path, conf).unwrap();
        let mut slurm =
            Slurm { dir: dir.to_path_buf(), conf: conf_path, daemons: Vec::new(), jobs: Vec::new() };
        for (program, args) in [("slurmctld", &["-D", "-i"][..]), ("slurmd", &["-D", "-N", "tengen0"][..])] {
            let log = std::fs::File::create(dir.join(format!("{program}.out"))).unwrap();
            let child = slurm
                .command(find_program(program).unwrap().to_str().unwrap())
                .args(args)
                .stdin(Stdio::null())
                .stdout(log.try_clone().unwrap())
                .stderr(log)
                .spawn()
                .map_err(|e| format!("{program} does not start: {e}"))?;
            slurm.daemons.push(child);
        }
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            if slurm.output("sinfo", &["-h", "-n", "tengen0", "-o", "%T"]).trim() == "idle" {
                return Ok(slurm);
            }
            for d in &mut slurm.daemons {
                if let Some(status) = d.try_wait().unwrap() {
                    return Err(format!("a Slurm daemon stopped ({status}):\n{}", slurm.logs()));
                }
            }
            if Instant::now() > deadline {
                return Err(format!("the Slurm node is not idle after 30 s:\n{}", slurm.logs()));
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

/// Everything the array tasks wrote to their logs.
fn task_logs(logs: &Path) -> String {
    std::fs::read_dir(logs)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap_or_default())
        .collect()
}

impl Slurm {
    /// Submits `tengen-array.sbatch` for `CLUSTER_RUN` into `out` with the sbatch options `array`
    /// and the environment `env`, waits for it (polling the queue, within two minutes), checks that
    /// every task completed with exit code 0, and returns how many there were.
    fn run_array(&mut self, array: &[&str], env: &[(&str, &str)], out: &Path, logs: &Path) -> usize {
        let submitted = self
            .command("sbatch")
            .args(array)
            .args(["--parsable", "--time=5", "--chdir", path(logs), "--output"])
            .arg(logs.join("tengen-%A_%a.out"))
            .arg(script("tengen-array.sbatch"))
            .args([TENGEN, path(out)])
            .args(run_args(CLUSTER_RUN))
            .envs(env.iter().copied())
            .output()
            .unwrap();
        let job = String::from_utf8_lossy(&submitted.stdout).trim().to_string();
        assert!(
            submitted.status.success() && !job.is_empty(),
            "sbatch: {}\n{}",
            String::from_utf8_lossy(&submitted.stderr),
            self.logs()
        );
        self.jobs.push(job.clone());
        let deadline = Instant::now() + Duration::from_secs(120);
        while !self.output("squeue", &["-h", "-j", &job]).trim().is_empty() {
            assert!(Instant::now() < deadline, "the job array did not finish in 120 s:\n{}", self.logs());
            std::thread::sleep(Duration::from_millis(200));
        }
        // One line per array task, kept by slurmctld for a while after the end (MinJobAge).
        let states = self.output("scontrol", &["show", "job", "-o", &job]);
        let tasks: Vec<&str> = states.lines().filter(|l| l.contains("ArrayTaskId=")).collect();
        for t in &tasks {
            assert!(
                t.contains("JobState=COMPLETED") && t.contains("ExitCode=0:0"),
                "{t}\n{}",
                task_logs(logs)
            );
        }
        tasks.len()
    }
}

impl Drop for Slurm {
    fn drop(&mut self) {
        // Jobs still running (a failed test) are cancelled and given a few seconds to end before
        // the daemons stop: a job step whose slurmd is gone would linger.
        for job in &self.jobs {
            let _ = self.command("scancel").arg(job).output();
        }
        let deadline = Instant::now() + Duration::from_secs(10);
        while !self.jobs.is_empty()
            && Instant::now() < deadline
            && !self.output("squeue", &["-h"]).trim().is_empty()
        {
            std::thread::sleep(Duration::from_millis(200));
        }
        // SIGTERM lets each daemon stop its helpers (slurmctld's slurmscriptd); SIGKILL after 10 s.
        for d in &mut self.daemons {
            let _ = Command::new("kill").args(["-TERM", &d.id().to_string()]).status();
            let deadline = Instant::now() + Duration::from_secs(10);
            while d.try_wait().is_ok_and(|s| s.is_none()) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(50));
            }
            let _ = d.kill();
            let _ = d.wait();
        }
    }
}

/// `program` on PATH or in the sbin directories (where Debian puts the Slurm daemons).
fn find_program(program: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&path)
        .chain(["/usr/sbin", "/sbin", "/usr/local/sbin"].map(PathBuf::from))
        .map(|d| d.join(program))
        .find(|p| p.is_file())
}

#[test]
fn a_slurm_job_array_plays_the_shards() {
    let dir = scratch("slurm");
    let mut slurm = match Slurm::start(&dir.join("cluster")) {
        Ok(s) => s,
        Err(reason) => {
            // Required, this panics and leaves the cluster's logs in `dir`.
            skip("TENGEN_REQUIRE_SLURM", &format!("Slurm cannot be started here ({reason})"));
            let _ = std::fs::remove_dir_all(&dir);
            return;
        }
    };
    let out = dir.join("run");
    let logs = dir.join("logs");
    std::fs::create_dir_all(&logs).unwrap();
    // Shards 0, 1 and 3 of 4 (the array's largest id plus one), as if shard 2 had failed; then
    // shard 2 alone, told the number of shards.
    let tasks = slurm.run_array(&["--array=0,1,3"], &[], &out, &logs);
    assert_eq!(tasks, 3);
    let (ok, _, err) = summary(&[path(&out)]);
    assert!(ok && err.contains("no directory for shard 2/4"), "{err}");
    assert_eq!(slurm.run_array(&["--array=2"], &[("TENGEN_SHARDS", "4")], &out, &logs), 1);
    let task_logs = task_logs(&logs);
    for k in 0..4 {
        assert!(task_logs.contains(&format!("tengen shard {k}/4 on ")), "{task_logs}");
    }
    check_against_one_process(&out, "slurm");
    drop(slurm);
    std::fs::remove_dir_all(dir).unwrap();
}
