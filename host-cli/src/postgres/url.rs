//! A PostgreSQL location as the user gives it (`--store postgres://user@host:port/dbname`), made
//! ready to connect: TLS as the URL asks, the password from the URL, `PGPASSWORD` or `~/.pgpass`,
//! and a shown form that never holds the password.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;
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
    password_in_url: bool,
    /// The URL gave no `application_name`: evodb names its sessions itself.
    names_sessions: bool,
}

/// The command this process runs, for the name of its sessions.
static COMMAND: OnceLock<String> = OnceLock::new();

/// Names this process's PostgreSQL sessions after `command`: `pg_stat_activity` shows
/// `evodb/<version> <command>` for each (a URL's own `application_name` wins). Set once, by
/// `main`, before any connection.
pub fn name_sessions_after(command: &str) {
    let _ = COMMAND.set(command.chars().filter(char::is_ascii_graphic).take(32).collect());
}

/// `evodb/<version> <command>` (or `evodb/<version> <label>` for `label`).
fn session_name(label: Option<&str>) -> String {
    match label.or(COMMAND.get().map(String::as_str)) {
        Some(label) => format!("evodb/{} {label}", env!("CARGO_PKG_VERSION")),
        None => format!("evodb/{}", env!("CARGO_PKG_VERSION")),
    }
}

impl std::fmt::Debug for PgUrl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.shown)
    }
}

/// The URL parameters evodb reads itself (the client library refuses unknown ones).
const OWN_PARAMS: [&str; 1] = ["sslrootcert"];

impl PgUrl {
    /// Parses `postgres://` or `postgresql://` URLs (libpq's form; the scheme in any case).
    /// `connect_timeout` bounds each connection, from the first packet to the login; a
    /// `connect_timeout` in the URL wins. No message holds the password.
    pub fn parse(text: &str, connect_timeout: Duration) -> Result<PgUrl, String> {
        let secrets = secrets_in(text);
        let hide = |message: String| {
            let hidden = secrets.iter().fold(message, |message, secret| message.replace(secret.as_str(), "***"));
            super::location::redact_passwords(&hidden)
        };
        let bad = |why: String| {
            format!(
                "`{}` is not a PostgreSQL URL ({}); pass postgres://user@host:port/dbname, \
                 e.g. postgres://evodb@localhost:5432/evodb",
                hide(super::location::shown_location(text)),
                hide(why)
            )
        };
        let Some(rest) = strip_scheme(text) else {
            return Err(bad("it must start with postgres:// or postgresql://".into()));
        };
        // The client library ends the user info at the first `@` anywhere: one after a `/` or
        // `?`, or a second one, would make a host or a user of what was meant otherwise.
        if let Some(at) = rest.find('@') {
            let host = rest[at + 1..].split(['/', '?']).next().unwrap_or_default();
            if rest[..at].contains(['/', '?']) || host.contains('@') {
                return Err(bad("an `@` that is not the one before the host must be written %40".into()));
            }
        }
        let (base, query) = rest.split_once('?').unwrap_or((rest, ""));
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
        let rebuilt = match passed.is_empty() {
            true => format!("postgres://{base}"),
            false => format!("postgres://{base}?{}", passed.join("&")),
        };
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
        let names_sessions = config.get_application_name().is_none();
        if names_sessions {
            // What `pg_stat_activity` shows a DBA for evodb's sessions: which evodb, doing what.
            config.application_name(&session_name(None));
        }
        if config.get_user().is_none() {
            let user = std::env::var("PGUSER")
                .or_else(|_| std::env::var("USER"))
                .map_err(|_| bad("it names no user, and neither PGUSER nor USER is set".into()))?;
            config.user(&user);
        }
        // Each part hidden on its own: a short password must not mangle the scheme.
        let endpoint = hide(endpoint(&config));
        let user = config.get_user().unwrap_or_default().to_string();
        let dbname = hide(config.get_dbname().unwrap_or(&user).to_string());
        let shown = format!("postgres://{}@{endpoint}/{dbname}", hide(user));
        let in_url = config.get_password().is_some();
        if !in_url && let Some(password) = password_from_environment(&config, &dbname) {
            config.password(password);
        }
        let secret = config.get_password().map(|p| String::from_utf8_lossy(p).into_owned()).filter(|p| !p.is_empty());
        Ok(PgUrl { config, root_cert, secret, shown, endpoint, password_in_url: in_url, names_sessions })
    }

    /// Whether the URL itself holds the password (rather than `PGPASSWORD` or a password file):
    /// then it shows in `ps` for as long as the process runs.
    pub fn password_in_url(&self) -> bool {
        self.password_in_url
    }

    /// A digest of the password this URL logs in with (`None`: none), for `evodb serve` to tell
    /// whether a client would log in as it does without either of them holding the other's
    /// password.
    pub fn credential(&self) -> Option<String> {
        use sha2::Digest;
        self.secret.as_ref().map(|secret| {
            let digest = sha2::Sha256::new().chain_update(b"evodb serve credential\0").chain_update(secret).finalize();
            digest.iter().map(|byte| format!("{byte:02x}")).collect()
        })
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
    /// data. Its sessions are named `evodb/<version> serve`.
    pub fn keep_alive(&mut self) {
        if self.names_sessions {
            self.config.application_name(&session_name(Some("serve")));
        }
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

/// What follows `postgres://` or `postgresql://` (the scheme in any case).
fn strip_scheme(text: &str) -> Option<&str> {
    let (scheme, rest) = text.split_once("://")?;
    ["postgres", "postgresql"].iter().any(|known| scheme.eq_ignore_ascii_case(known)).then_some(rest)
}

/// Whatever in `text` may be a password, raw and percent-decoded, longest first: the user
/// info's after its first `:` (up to the first `@`, where the client library ends it, and up to
/// the last, where a person may have meant it to), and every `password=` of the query.
fn secrets_in(text: &str) -> Vec<String> {
    let Some((_, rest)) = text.split_once("://") else { return Vec::new() };
    let mut raw = Vec::new();
    for at in [rest.find('@'), rest.rfind('@')].into_iter().flatten() {
        if let Some((_, password)) = rest[..at].split_once(':') {
            raw.push(password);
        }
    }
    if let Some((_, query)) = rest.split_once('?') {
        raw.extend(query.split('&').filter_map(|pair| pair.strip_prefix("password=")));
    }
    let mut secrets: Vec<String> =
        raw.iter().flat_map(|raw| [raw.to_string(), percent_decode(raw)]).filter(|s| !s.is_empty()).collect();
    secrets.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
    secrets.dedup();
    secrets
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
        .filter(|file| !file.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|home| Path::new(&home).join(".pgpass")))?;
    let text = read_password_file(&file)?;
    let host = match config.get_hosts().first() {
        Some(Host::Tcp(host)) => host.clone(),
        _ => "localhost".into(),
    };
    let port = config.get_ports().first().copied().unwrap_or(5432).to_string();
    let user = config.get_user().unwrap_or_default();
    pgpass_lookup(&text, [&host, &port, dbname, user])
}

/// The largest password file read (libpq reads line by line; a file this size is a mistake).
const PASSWORD_FILE_MAX: u64 = 1 << 20;

/// The password file's text, when libpq would read it: a regular file (a symlink to one is
/// followed, as libpq does) that neither its group nor others may access. Anything else is
/// ignored with libpq's warning: a FIFO would block the command, a readable file is a leak
/// the user should hear about. A missing file is ignored silently.
pub(crate) fn read_password_file(path: &Path) -> Option<String> {
    use std::io::Read;
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    let meta = std::fs::metadata(path).ok()?;
    let refused = |meta: &std::fs::Metadata| {
        if !meta.is_file() {
            Some(format!(
                "password file `{}` is not a plain file ({}); it is ignored",
                path.display(),
                evodb_safe_files::describe_file_type(meta.file_type())
            ))
        } else if meta.permissions().mode() & 0o077 != 0 {
            Some(format!(
                "password file `{}` has group or world access; it is ignored: permissions should be u=rw (0600) \
                 or less (chmod 600 {})",
                path.display(),
                path.display()
            ))
        } else {
            None
        }
    };
    if let Some(why) = refused(&meta) {
        warn_once(why);
        return None;
    }
    // Opened without blocking, and checked again, in case it was swapped for a FIFO meanwhile.
    let file =
        std::fs::OpenOptions::new().read(true).custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits()).open(path).ok()?;
    if let Some(why) = refused(&file.metadata().ok()?) {
        warn_once(why);
        return None;
    }
    let mut bytes = Vec::new();
    file.take(PASSWORD_FILE_MAX).read_to_end(&mut bytes).ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// `warning: …` on stderr, once per process for each message (a command may read the URL twice).
fn warn_once(message: String) {
    static SAID: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());
    let mut said = SAID.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if !said.contains(&message) {
        eprintln!("warning: {message}");
        said.push(message);
    }
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
        assert!(err.contains("`postgres://ann@h:notaport/d` is not a PostgreSQL URL"), "{err}");
        assert!(!err.contains("hunter2"), "{err}");
        assert!(PgUrl::parse("mysql://h/d", Duration::ZERO).unwrap_err().contains("postgres://"));
        let err = PgUrl::parse("postgres://h:x/d?password=s%40cret1&sslmode=nope", Duration::ZERO).unwrap_err();
        assert!(!err.contains("s@cret1") && !err.contains("s%40cret1"), "{err}");
    }

    #[test]
    fn the_scheme_is_read_in_any_case_and_sessions_name_evodb() {
        let url = PgUrl::parse("POSTGRESQL://ann:pw@db.example/runs", Duration::from_secs(3)).unwrap();
        assert_eq!(url.shown(), "postgres://ann@db.example:5432/runs");
        assert!(url.password_in_url());
        let name = url.config.get_application_name().unwrap();
        assert!(name.starts_with(&format!("evodb/{}", env!("CARGO_PKG_VERSION"))), "{name}");
        let mut served = url.clone();
        served.keep_alive();
        assert!(served.config.get_application_name().unwrap().ends_with(" serve"));
        let named = PgUrl::parse("postgres://a@h/d?application_name=mine", Duration::ZERO).unwrap();
        assert_eq!(named.config.get_application_name(), Some("mine"));
        let mut named = named;
        named.keep_alive();
        assert_eq!(named.config.get_application_name(), Some("mine"), "the URL's own name wins");
        assert_eq!(url.credential(), PgUrl::parse("postgres://b:pw@h/d", Duration::ZERO).unwrap().credential());
        assert_ne!(url.credential(), PgUrl::parse("postgres://b:pw2@h/d", Duration::ZERO).unwrap().credential());
    }

    #[test]
    fn pgpass_lines_match_like_libpq() {
        let text = "# comment\nother:5432:*:ann:wrong\nh:5432:*:ann:pa\\:ss\n*:*:*:*:fallback\n";
        assert_eq!(pgpass_lookup(text, ["h", "5432", "db", "ann"]).as_deref(), Some("pa:ss"));
        assert_eq!(pgpass_lookup(text, ["x", "1", "db", "bob"]).as_deref(), Some("fallback"));
        assert_eq!(pgpass_lookup("h:1:d:u\n", ["h", "1", "d", "u"]), None);
    }
}
