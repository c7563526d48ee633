//! A sharded sweep on a real Slurm: a one-node cluster (munged, slurmctld
//! and slurmd in the foreground, as children of this test, with their own
//! key, socket, configuration and state in a temporary folder) runs the
//! script `sweep --slurm 4` writes, and the merged CSV is the single run's.

use crate::common;

use crate::common::{Need, Source};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

const FNN: &str = env!("CARGO_BIN_EXE_fnn-tui");
const RANGE: [&str; 6] = ["--pcs", "3..12", "--nics", "2..3", "--generations", "50"];
/// A safety net for a cluster that never runs the jobs, not a measure.
const PATIENCE: Duration = Duration::from_secs(900);

/// The daemons, stopped (TERM, then KILL) and reaped on every path.
struct Daemons(Vec<(&'static str, Child)>);

impl Drop for Daemons {
    fn drop(&mut self) {
        for (_, child) in self.0.iter_mut().rev() {
            // SAFETY: kill has no memory preconditions; the pid is our child's, not yet reaped.
            unsafe { libc::kill(child.id() as i32, libc::SIGTERM) };
            let start = Instant::now();
            while matches!(child.try_wait(), Ok(None)) && start.elapsed() < Duration::from_secs(10) {
                std::thread::sleep(Duration::from_millis(100));
            }
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

impl Daemons {
    fn start(&mut self, name: &'static str, cmd: &mut Command) {
        let child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {name}: {e}"));
        self.0.push((name, child));
    }

    /// A daemon that has already exited, as a failure naming it.
    fn check(&mut self, dir: &Path) {
        for (name, child) in &mut self.0 {
            if let Ok(Some(status)) = child.try_wait() {
                panic!("{name} exited ({status}); logs:\n{}", logs(dir));
            }
        }
    }
}

fn logs(dir: &Path) -> String {
    let mut out = String::new();
    for name in ["munged.log", "slurmctld.log", "slurmd.log"] {
        let text = std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        let tail: Vec<&str> = text.lines().rev().take(15).collect();
        out += &format!(
            "--- {name}\n{}\n",
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        );
    }
    out
}

/// A port nothing listens on now, for the daemons.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn slurm_conf(dir: &Path) -> String {
    let d = dir.display();
    let (ctld, slurmd) = (free_port(), free_port());
    format!(
        "ClusterName=fnntest
SlurmctldHost=localhost
SlurmctldPort={ctld}
SlurmdPort={slurmd}
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket={d}/munge.sock
NodeName=localhost CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
StateSaveLocation={d}/state
SlurmdSpoolDir={d}/spool
SlurmctldPidFile={d}/slurmctld.pid
SlurmdPidFile={d}/slurmd.pid
SlurmctldLogFile={d}/slurmctld.log
SlurmdLogFile={d}/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
MpiDefault=none
ReturnToService=2
JobCompType=jobcomp/none
AccountingStorageType=accounting_storage/none
MailProg=/bin/true
PlugStackConfig={d}/plugstack.conf
"
    )
}

/// Starts munged, slurmctld and slurmd on `dir`.
fn cluster(dir: &Path) -> Daemons {
    use std::os::unix::fs::PermissionsExt;
    let key: Vec<u8> = (0..1024).map(|_| rand::random::<u8>()).collect();
    fnn_tui::fs::write_in_place(dir.join("munge.key"), key).unwrap();
    std::fs::set_permissions(dir.join("munge.key"), std::fs::Permissions::from_mode(0o400)).unwrap();
    for sub in ["state", "spool"] {
        fnn_tui::fs::make_dirs(dir.join(sub)).unwrap();
    }
    fnn_tui::fs::write_in_place(dir.join("plugstack.conf"), "").unwrap();
    fnn_tui::fs::write_in_place(dir.join("slurm.conf"), slurm_conf(dir)).unwrap();
    let mut d = Daemons(Vec::new());
    let path = |name: &str| dir.join(name).display().to_string();
    d.start(
        "munged",
        Command::new(common::program("munged").unwrap()).args([
            "-F",
            "--force",
            &format!("--key-file={}", path("munge.key")),
            &format!("--socket={}", path("munge.sock")),
            &format!("--pid-file={}", path("munged.pid")),
            &format!("--log-file={}", path("munged.log")),
            &format!("--seed-file={}", path("munged.seed")),
        ]),
    );
    let start = Instant::now();
    while !dir.join("munge.sock").exists() && start.elapsed() < Duration::from_secs(30) {
        d.check(dir);
        std::thread::sleep(Duration::from_millis(100));
    }
    let conf = path("slurm.conf");
    d.start(
        "slurmctld",
        Command::new(common::program("slurmctld").unwrap()).args(["-D", "-i", "-f", &conf]),
    );
    d.start(
        "slurmd",
        Command::new(common::program("slurmd").unwrap()).args(["-D", "-N", "localhost", "-f", &conf]),
    );
    d
}

/// The node, when Slurm has taken it out of service (drained, down or
/// failed, e.g. for a full disk): its state and the reason `sinfo -R` gives.
fn out_of_service(dir: &Path) -> Option<String> {
    let sinfo = |args: &[&str]| {
        let out = Command::new("sinfo")
            .args(args)
            .env("SLURM_CONF", dir.join("slurm.conf"))
            .output()
            .ok()?;
        Some(String::from_utf8_lossy(&out.stdout).trim().to_string())
    };
    let states = sinfo(&["-h", "-N", "-o", "%N %T"])?;
    let bad = states.lines().find(|l| {
        let state = l.split_whitespace().nth(1).unwrap_or("").to_lowercase();
        ["drain", "down", "fail"].iter().any(|s| state.starts_with(s))
    })?;
    let reasons = sinfo(&["-R"]).unwrap_or_default();
    Some(format!("the node is out of service ({bad}); sinfo -R:\n{reasons}"))
}

/// Watches the node so the test fails at once, naming the reason, when
/// the node has been out of service for a few seconds (a node that starts
/// down and registers comes back at once: ReturnToService=2), rather than
/// waiting for jobs that cannot run.
struct NodeWatch {
    since: Option<Instant>,
}

impl NodeWatch {
    /// Why the jobs cannot run, once the node has stayed out of service.
    fn check(&mut self, dir: &Path) -> Option<String> {
        let Some(why) = out_of_service(dir) else {
            self.since = None;
            return None;
        };
        let since = *self.since.get_or_insert_with(Instant::now);
        (since.elapsed() > Duration::from_secs(5)).then_some(why)
    }
}

fn rows(path: &Path) -> Vec<fnn_tui::sweep::Point> {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut pts = fnn_tui::sweep::parse_csv(&text, "sweep.csv").unwrap();
    pts.iter_mut().for_each(|p| p.seconds = 0.0);
    pts
}

fn needs() -> Vec<Need> {
    let mut v = vec![Need::Root, Need::Program("munged", Source::Apt("munge"))];
    for p in ["slurmctld", "slurmd"] {
        v.push(Need::Program(p, Source::Apt("slurm-wlm")));
    }
    for p in ["sbatch", "squeue", "sinfo"] {
        v.push(Need::Program(p, Source::Apt("slurm-wlm")));
    }
    v
}

#[test]
fn a_sharded_sweep_runs_on_slurm_and_merges_to_the_single_run() {
    if !common::machine_has("a_sharded_sweep_runs_on_slurm_and_merges_to_the_single_run", &needs()) {
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().to_path_buf();
    let (one, sharded): (PathBuf, PathBuf) = (dir.join("one"), dir.join("sharded"));
    let single = Command::new(FNN)
        .arg("sweep")
        .args(RANGE)
        .arg("--quiet")
        .arg("--out")
        .arg(&one)
        .status()
        .unwrap();
    assert!(single.success());
    let made = Command::new(FNN)
        .arg("sweep")
        .args(RANGE)
        .args(["--threads", "1", "--slurm", "4", "--quiet", "--out"])
        .arg(&sharded)
        .status()
        .unwrap();
    assert!(made.success());
    let mut daemons = cluster(&dir);
    let started = Instant::now();
    // --wait: the merge's sbatch returns when the merge has ended.
    let mut submit = Command::new("bash")
        .arg(sharded.join("sweep-slurm.sh"))
        .arg("--wait")
        .env("SLURM_CONF", dir.join("slurm.conf"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut node = NodeWatch { since: None };
    let mut last_look = Instant::now();
    let status = loop {
        if let Some(s) = submit.try_wait().unwrap() {
            break s;
        }
        daemons.check(&dir);
        if last_look.elapsed() > Duration::from_secs(1) {
            last_look = Instant::now();
            if let Some(why) = node.check(&dir) {
                let _ = submit.kill();
                let _ = submit.wait();
                panic!(
                    "{why}\nfree the node (e.g. disk space) and run the test again; logs:\n{}",
                    logs(&dir)
                );
            }
        }
        if started.elapsed() > PATIENCE {
            let _ = submit.kill();
            let _ = submit.wait();
            panic!("the jobs did not end; logs:\n{}", logs(&dir));
        }
        std::thread::sleep(Duration::from_millis(250));
    };
    let out = submit.wait_with_output().unwrap();
    let job_logs: String = std::fs::read_dir(&sharded)
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().starts_with("slurm-"))
        .map(|e| {
            format!(
                "--- {:?}\n{}",
                e.file_name(),
                std::fs::read_to_string(e.path()).unwrap_or_default()
            )
        })
        .collect();
    assert!(
        status.success(),
        "submit failed: {}\n{job_logs}\n{}",
        String::from_utf8_lossy(&out.stderr),
        logs(&dir)
    );
    eprintln!(
        "slurm: the array and the merge took {:.1} s",
        started.elapsed().as_secs_f64()
    );
    let shards = (1..=4)
        .filter(|i| sharded.join(format!("shard-{i}-of-4.csv")).exists())
        .count();
    assert_eq!(shards, 4, "{job_logs}");
    assert_eq!(
        rows(&sharded.join("sweep.csv")),
        rows(&one.join("sweep.csv")),
        "{job_logs}"
    );
    drop(daemons);
}
