//! A PostgreSQL location as the user gives it (`--store postgres://user@host:port/dbname`), made
//! ready to connect: TLS as the URL asks, the password from the URL, `PGPASSWORD` or `~/.pgpass`,
//! and a shown form that never holds the password.

use std::path::{Path, PathBuf};
use std::time::Duration;

use postgres::config::{Host, SslMode};

/// Where a run is stored and how to reach it.
#[derive(Clone)]
pub struct PgUrl {
    pub(crate) config: postgres::Config,
    /// TLS is verified against these roots besides the web's (`sslrootcert=PATH`).
    pub(crate) root_cert: Option<PathBuf>,
    /// The password, kept only to scrub it from any message that might echo it.
    pub(crate) secret: Option<String>,
    shown: String,
    endpoint: String,
}

impl std::fmt::Debug for PgUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

/// The URL parameters evodb reads itself (the client library refuses unknown ones).
const OWN_PARAMS: [&str; 1] = ["sslrootcert"];

impl PgUrl {
    /// Parses `postgres://` or `postgresql://` URLs (libpq's form). `connect_timeout` bounds
    /// each connection attempt; a `connect_timeout` in the URL wins.
    pub fn parse(text: &str, connect_timeout: Duration) -> Result<PgUrl, String> {
        let bad = |why: String| {
            format!(
                "--store is not a PostgreSQL URL ({why}); pass postgres://user@host:port/dbname, \
                 e.g. postgres://evodb@localhost:5432/evodb"
            )
        };
        if !(text.starts_with("postgres://") || text.starts_with("postgresql://")) {
            return Err(bad("it must start with postgres://".into()));
        }
        let (base, query) = text.split_once('?').unwrap_or((text, ""));
        let mut passed = Vec::new();
        let mut root_cert = None;
        let mut verify = false;
        for pair in query.split('&').filter(|p| !p.is_empty()) {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            match key {
                "sslrootcert" => root_cert = Some(PathBuf::from(percent_decode(value))),
                // libpq's verifying modes: TLS is always verified here, so they mean `require`.
                "sslmode" if matches!(value, "verify-ca" | "verify-full") => {
                    verify = true;
                    passed.push("sslmode=require".to_string());
                }
                _ if OWN_PARAMS.contains(&key) => {}
                _ => passed.push(pair.to_string()),
            }
        }
        let rebuilt = if passed.is_empty() { base.to_string() } else { format!("{base}?{}", passed.join("&")) };
        let mut config: postgres::Config = rebuilt.parse().map_err(|e| bad(format!("{e}")))?;
        if verify {
            config.ssl_mode(SslMode::Require);
        }
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(connect_timeout);
        }
        if config.get_hosts().is_empty() {
            config.host("localhost");
        }
        if config.get_user().is_none() {
            let user = std::env::var("PGUSER")
                .or_else(|_| std::env::var("USER"))
                .map_err(|_| bad("it names no user, and neither PGUSER nor USER is set".into()))?;
            config.user(&user);
        }
        let endpoint = endpoint(&config);
        let user = config.get_user().unwrap_or_default().to_string();
        let dbname = config.get_dbname().unwrap_or(&user).to_string();
        let shown = format!("postgres://{user}@{endpoint}/{dbname}");
        if config.get_password().is_none()
            && let Some(password) = password_from_environment(&config, &dbname)
        {
            config.password(password);
        }
        let secret = config.get_password().map(|p| String::from_utf8_lossy(p).into_owned()).filter(|p| !p.is_empty());
        Ok(PgUrl { config, root_cert, secret, shown, endpoint })
    }

    /// `postgres://user@host:port/dbname`: the location without its password, for messages.
    pub fn shown(&self) -> &str {
        &self.shown
    }

    /// `host:port`, for connection errors.
    pub fn endpoint(&self) -> &str {
        &self.endpoint
    }

    /// Keeps a connection held open between operations (`evodb serve`) from hanging on a
    /// peer that vanished: TCP keepalives after 30 s idle, and a minute's bound on unacknowledged
    /// data.
    pub fn keep_alive(&mut self) {
        self.config
            .keepalives(true)
            .keepalives_idle(std::time::Duration::from_secs(30))
            .keepalives_interval(std::time::Duration::from_secs(10))
            .keepalives_retries(3)
            .tcp_user_timeout(std::time::Duration::from_secs(60));
    }

    /// What names this server and database apart from any other, whatever the password: the
    /// shown URL, and whether it asks for TLS.
    pub fn identity(&self) -> String {
        format!("{} tls={}", self.shown, self.wants_tls())
    }

    pub(crate) fn wants_tls(&self) -> bool {
        self.config.get_ssl_mode() == SslMode::Require
    }

    /// `text` with the password, wherever it appears, replaced by `***`.
    pub fn redact(&self, text: &str) -> String {
        match &self.secret {
            Some(secret) => text.replace(secret.as_str(), "***"),
            None => text.to_string(),
        }
    }
}

fn endpoint(config: &postgres::Config) -> String {
    let port = config.get_ports().first().copied().unwrap_or(5432);
    match config.get_hosts().first() {
        Some(Host::Tcp(host)) => format!("{host}:{port}"),
        Some(Host::Unix(dir)) => format!("{}/.s.PGSQL.{port}", dir.display()),
        None => format!("localhost:{port}"),
    }
}

/// `PGPASSWORD`, else the first matching line of the password file (`PGPASSFILE`, default
/// `~/.pgpass`), as libpq reads them.
fn password_from_environment(config: &postgres::Config, dbname: &str) -> Option<String> {
    if let Ok(password) = std::env::var("PGPASSWORD") {
        return Some(password);
    }
    let file = std::env::var_os("PGPASSFILE")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".pgpass")))?;
    let text = std::fs::read_to_string(file).ok()?;
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(host)) => host.clone(),
        _ => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432).to_string();
    let user = config.get_user().unwrap_or_default();
    pgpass_lookup(&text, [&host, &port, dbname, user])
}

/// libpq's `.pgpass`: `hostname:port:database:username:password` per line, `*` matches
/// anything, `\:` and `\\` are escapes, `#` starts a comment line.
pub(crate) fn pgpass_lookup(text: &str, wanted: [&str; 4]) -> Option<String> {
    text.lines().filter(|line| !line.starts_with('#')).find_map(|line| {
        let fields = split_pgpass_line(line);
        let [host, port, db, user, password] = fields.as_slice() else { return None };
        let matches = [host, port, db, user].iter().zip(wanted).all(|(field, want)| *field == "*" || *field == want);
        matches.then(|| password.clone())
    })
}

fn split_pgpass_line(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => fields.last_mut().expect("one field").extend(chars.next()),
            ':' if fields.len() < 5 => fields.push(String::new()),
            _ => fields.last_mut().expect("one field").push(c),
        }
    }
    fields
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes.get(i + 1..i + 3).and_then(|h| std::str::from_utf8(h).ok());
        match (bytes[i], hex.and_then(|h| u8::from_str_radix(h, 16).ok())) {
            (b'%', Some(byte)) => {
                out.push(byte);
                i += 3;
            }
            (byte, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shown_form_and_every_message_hide_the_password() {
        let url = PgUrl::parse("postgres://ann:s3cr%3At@db.example:6543/runs?sslmode=disable", Duration::from_secs(3))
            .unwrap();
        assert_eq!(url.shown(), "postgres://ann@db.example:6543/runs");
        assert_eq!(url.endpoint(), "db.example:6543");
        assert_eq!(url.redact("auth failed for s3cr:t"), "auth failed for ***");
        assert_eq!(url.config.get_connect_timeout(), Some(&Duration::from_secs(3)));
        assert!(!url.wants_tls());
        let verify = PgUrl::parse("postgres://a@h/d?sslmode=verify-full&sslrootcert=%2Ftmp%2Fca.pem", Duration::ZERO);
        let verify = verify.unwrap();
        assert!(verify.wants_tls());
        assert_eq!(verify.root_cert.as_deref(), Some(Path::new("/tmp/ca.pem")));
    }

    #[test]
    fn a_bad_url_is_named_without_echoing_it() {
        let err = PgUrl::parse("postgres://ann:hunter2@h:notaport/d", Duration::ZERO).unwrap_err();
        assert!(err.contains("--store is not a PostgreSQL URL"), "{err}");
        assert!(!err.contains("hunter2"), "{err}");
        assert!(PgUrl::parse("mysql://h/d", Duration::ZERO).unwrap_err().contains("postgres://"));
    }

    #[test]
    fn pgpass_lines_match_like_libpq() {
        let text = "# comment\nother:5432:*:ann:wrong\nh:5432:*:ann:pa\\:ss\n*:*:*:*:fallback\n";
        assert_eq!(pgpass_lookup(text, ["h", "5432", "db", "ann"]).as_deref(), Some("pa:ss"));
        assert_eq!(pgpass_lookup(text, ["x", "1", "db", "bob"]).as_deref(), Some("fallback"));
        assert_eq!(pgpass_lookup("h:1:d:u\n", ["h", "1", "d", "u"]), None);
    }
}
