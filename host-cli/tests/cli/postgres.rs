//! A throwaway PostgreSQL cluster for the tests: `initdb` into a temp dir, `pg_ctl` on a free
//! loopback port (as the `postgres` user when the tests run as root, since the server refuses
//! root), stopped and removed on drop. Without PostgreSQL installed the suites that need it say
//! so and skip, unless `EVODB_REQUIRE_POSTGRES=1` (tests/run.sh sets it) makes that a failure.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The role that logs in with a password (every other role is trusted on loopback).
pub const PASSWORD_USER: &str = "secretive";
pub const PASSWORD: &str = "pw-7d1c0ffee";

pub struct Cluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
    pub port: u16,
    /// Whether the server syncs its writes to disk: off for the tests, on for benchmarks that
    /// compare it with the directory store (which does).
    durable: bool,
}

impl Cluster {
    /// A running cluster, or `None` (with a note) when PostgreSQL is not installed and not required.
    pub fn start() -> Option<Cluster> {
        Cluster::start_with(false)
    }

    /// The same, syncing to disk as a production server does.
    pub fn start_durable() -> Option<Cluster> {
        Cluster::start_with(true)
    }

    fn start_with(durable: bool) -> Option<Cluster> {
        let Some(bin) = server_bin() else {
            assert!(
                std::env::var("EVODB_REQUIRE_POSTGRES").is_err(),
                "PostgreSQL is required (EVODB_REQUIRE_POSTGRES) but initdb was not found: apt-get install postgresql"
            );
            eprintln!("skipped: PostgreSQL is not installed (apt-get install postgresql)");
            return None;
        };
        let dir = tempfile::Builder::new().prefix("evodb-pg-").tempdir().expect("a temp dir");
        if is_root() {
            chown_to_postgres(dir.path());
        }
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
        let cluster = Cluster { dir, bin, port, durable };
        let data = cluster.data();
        cluster.run("initdb", &["-D", data.to_str().unwrap(), "-A", "trust", "-U", "evodb", "--no-sync"]);
        std::fs::write(
            data.join("pg_hba.conf"),
            format!(
                "local all all trust\nhost all {PASSWORD_USER} 127.0.0.1/32 scram-sha-256\nhost all all 127.0.0.1/32 trust\n"
            ),
        )
        .expect("pg_hba.conf is written");
        cluster.pg_ctl("start");
        let mut admin = cluster.client();
        admin
            .batch_execute(&format!("CREATE ROLE {PASSWORD_USER} LOGIN PASSWORD '{PASSWORD}' SUPERUSER"))
            .expect("the password role is created");
        Some(cluster)
    }

    /// `postgres://evodb@127.0.0.1:PORT/postgres`: the trusted superuser's URL.
    pub fn url(&self) -> String {
        format!("postgres://evodb@127.0.0.1:{}/postgres", self.port)
    }

    pub fn client(&self) -> postgres::Client {
        postgres::Client::connect(&self.url(), postgres::NoTls).expect("the test connects")
    }

    /// `pg_ctl restart`, fast: what a server restart does to clients mid-operation.
    pub fn restart(&self) {
        self.pg_ctl("restart");
    }

    fn data(&self) -> PathBuf {
        self.dir.path().join("data")
    }

    fn pg_ctl(&self, action: &str) {
        let options = format!(
            "-c listen_addresses=127.0.0.1 -p {} -c unix_socket_directories={} -c fsync={}",
            self.port,
            self.dir.path().display(),
            if self.durable { "on" } else { "off" }
        );
        let log = self.dir.path().join("log");
        self.run(
            "pg_ctl",
            &[
                "-D",
                self.data().to_str().unwrap(),
                "-o",
                &options,
                "-l",
                log.to_str().unwrap(),
                "-m",
                "fast",
                "-w",
                action,
            ],
        );
    }

    fn run(&self, program: &str, args: &[&str]) {
        let program = self.bin.join(program);
        let mut command = if is_root() {
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&program);
            c
        } else {
            Command::new(&program)
        };
        let output = command.args(args).stdin(Stdio::null()).output().expect("the PostgreSQL tool runs");
        assert!(
            output.status.success(),
            "{} {args:?} failed: {}",
            program.display(),
            String::from_utf8_lossy(&output.stderr)
        );
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let data = self.data();
        let program = self.bin.join("pg_ctl");
        let args = ["-D", data.to_str().unwrap(), "-m", "immediate", "-w", "stop"];
        let _ = if is_root() {
            Command::new("runuser").args(["-u", "postgres", "--"]).arg(&program).args(args).output()
        } else {
            Command::new(&program).args(args).output()
        };
    }
}

/// The directory holding `initdb` and `pg_ctl`: on PATH, else Debian's newest
/// /usr/lib/postgresql/N/bin.
fn server_bin() -> Option<PathBuf> {
    let on_path = std::env::var_os("PATH").and_then(|path| {
        std::env::split_paths(&path).find(|dir| dir.join("initdb").is_file() && dir.join("pg_ctl").is_file())
    });
    on_path.or_else(|| {
        let mut versions: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
            .ok()?
            .flatten()
            .map(|entry| entry.path().join("bin"))
            .filter(|bin| bin.join("initdb").is_file())
            .collect();
        versions.sort_by_key(|bin| bin.parent().and_then(|v| v.file_name()?.to_str()?.parse::<u32>().ok()));
        versions.pop()
    })
}

fn is_root() -> bool {
    nix::unistd::Uid::effective().is_root()
}

fn chown_to_postgres(dir: &Path) {
    let user =
        nix::unistd::User::from_name("postgres").ok().flatten().expect("a `postgres` user (Debian's package makes it)");
    nix::unistd::chown(dir, Some(user.uid), Some(user.gid)).expect("the temp dir is handed to postgres");
}

/// Debian's `pgbouncer` in front of a cluster, in transaction mode (a server connection is a
/// client's only for one transaction, as in most fleets' poolers), on a free loopback port;
/// stopped on drop.
pub struct Bouncer {
    dir: tempfile::TempDir,
    child: std::process::Child,
    pub port: u16,
}

impl Bouncer {
    /// A pgbouncer pooling at most `pool_size` server connections to `cluster`'s `postgres`
    /// database, or `None` (with a note) when pgbouncer is not installed and not required
    /// (`EVODB_REQUIRE_POSTGRES`).
    pub fn start(cluster: &Cluster, pool_size: u32) -> Option<Bouncer> {
        let Some(program) =
            ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"].into_iter().map(PathBuf::from).find(|p| p.is_file())
        else {
            assert!(
                std::env::var("EVODB_REQUIRE_POSTGRES").is_err(),
                "pgbouncer is required (EVODB_REQUIRE_POSTGRES) but was not found: apt-get install pgbouncer"
            );
            eprintln!("skipped: pgbouncer is not installed (apt-get install pgbouncer)");
            return None;
        };
        let dir = tempfile::Builder::new().prefix("evodb-pgbouncer-").tempdir().expect("a temp dir");
        let port = TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).expect("a free port").port();
        let path = |name: &str| dir.path().join(name).display().to_string();
        std::fs::write(dir.path().join("users.txt"), "\"evodb\" \"\"\n").unwrap();
        std::fs::write(
            dir.path().join("pgbouncer.ini"),
            format!(
                "[databases]\npostgres = host=127.0.0.1 port={} dbname=postgres\n\n[pgbouncer]\n\
                 listen_addr = 127.0.0.1\nlisten_port = {port}\nunix_socket_dir =\nauth_type = trust\n\
                 auth_file = {}\npool_mode = transaction\ndefault_pool_size = {pool_size}\nmax_client_conn = 200\n\
                 logfile = {}\npidfile = {}\n",
                cluster.port,
                path("users.txt"),
                path("pgbouncer.log"),
                path("pgbouncer.pid")
            ),
        )
        .unwrap();
        // pgbouncer refuses to run as root: as the cluster does, it runs as `postgres`.
        let mut command = if is_root() {
            chown_to_postgres(dir.path());
            for file in ["users.txt", "pgbouncer.ini"] {
                chown_to_postgres(&dir.path().join(file));
            }
            let mut c = Command::new("runuser");
            c.args(["-u", "postgres", "--"]).arg(&program);
            c
        } else {
            Command::new(&program)
        };
        let child = command
            .arg(dir.path().join("pgbouncer.ini"))
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("pgbouncer starts");
        let bouncer = Bouncer { dir, child, port };
        // Listening once it answers a login.
        for _ in 0..200 {
            if postgres::Client::connect(&bouncer.url(), postgres::NoTls).is_ok() {
                return Some(bouncer);
            }
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        panic!(
            "pgbouncer did not start: {}",
            std::fs::read_to_string(bouncer.dir.path().join("pgbouncer.log")).unwrap_or_default()
        );
    }

    /// `postgres://evodb@127.0.0.1:PORT/postgres` through pgbouncer.
    pub fn url(&self) -> String {
        format!("postgres://evodb@127.0.0.1:{}/postgres", self.port)
    }

    /// What pgbouncer logged.
    pub fn log(&self) -> String {
        std::fs::read_to_string(self.dir.path().join("pgbouncer.log")).unwrap_or_default()
    }
}

impl Drop for Bouncer {
    fn drop(&mut self) {
        // pgbouncer itself (its pid file), then runuser when it stands between.
        let pid_file = std::fs::read_to_string(self.dir.path().join("pgbouncer.pid")).unwrap_or_default();
        let pids = pid_file.trim().parse::<i32>().ok().into_iter().chain(i32::try_from(self.child.id()).ok());
        for pid in pids {
            let _ = nix::sys::signal::kill(nix::unistd::Pid::from_raw(pid), nix::sys::signal::Signal::SIGTERM);
        }
        let _ = self.child.wait();
    }
}
