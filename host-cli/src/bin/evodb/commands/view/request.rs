//! What `evodb view` makes of a request before it reads anything: whom it is addressed to (the
//! `Host:` check that stops DNS rebinding), its method, its path, and `?from=`. Pure: hyper has
//! parsed the request line and the headers; this decides, and says why when it refuses.

use hyper::header::{HOST, HeaderMap};
use hyper::{Method, Uri};

/// What a request asks for.
#[derive(Debug, PartialEq, Eq)]
pub enum Route {
    /// A file of the embedded site, by its path under `www/` (`index.html` for `/`).
    Site(String),
    /// One of the run's files.
    Run(RunFile),
    /// A well-formed path the server has nothing at.
    Missing(String),
}

#[derive(Debug, PartialEq, Eq, Clone, Copy)]
pub enum RunFile {
    /// `database.json`.
    Database,
    /// `history.ndjson`: all of its whole lines, or with `?from=<byte>`, those after that byte.
    History(Option<u64>),
}

/// Why a request is not answered: its status and a one-line message for the body.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    pub status: u16,
    pub message: String,
}

fn refuse(status: u16, message: impl Into<String>) -> Refusal {
    Refusal { status, message: message.into() }
}

/// A request for this server (`port` is the one it serves): where it is addressed first — a page
/// on another origin that rebinds its name to 127.0.0.1 is refused whatever it asks — then its
/// method, path and query.
pub fn route(method: &Method, uri: &Uri, headers: &HeaderMap, port: u16) -> Result<Route, Refusal> {
    addressed_here(uri, headers, port)?;
    if method != Method::GET && method != Method::HEAD {
        return Err(refuse(405, "the playground is read-only: GET or HEAD only"));
    }
    let path = uri.path();
    let segments = segments(path)?;
    match segments.as_slice() {
        [] => Ok(Route::Site("index.html".into())),
        ["run", "database.json"] => Ok(Route::Run(RunFile::Database)),
        ["run", "history.ndjson"] => Ok(Route::Run(RunFile::History(from_param(uri.query())?))),
        // The page's own Chromium tests are embedded with `www/` but are not part of the site.
        ["run" | "tests", ..] => Ok(Route::Missing(path.into())),
        _ if path.ends_with('/') => Ok(Route::Missing(path.into())),
        _ => Ok(Route::Site(segments.join("/"))),
    }
}

/// The loopback names a page on this machine's server is opened under.
const LOOPBACK: [&str; 3] = ["127.0.0.1", "localhost", "[::1]"];

/// The request's `Host:` header — exactly one — and, for an absolute-form target
/// (`GET http://host/… HTTP/1.1`), its authority too, must name the loopback: `127.0.0.1`,
/// `localhost` or `[::1]`, bare or with the port served. (An authority-form target, CONNECT's, has
/// no scheme: its method is refused next.)
fn addressed_here(uri: &Uri, headers: &HeaderMap, port: u16) -> Result<(), Refusal> {
    let misdirected = || {
        refuse(
            421,
            format!(
                "evodb view answers only requests for 127.0.0.1, localhost or [::1] (port {port}): \
                 this one names another host, as a page rebinding its name to this machine would"
            ),
        )
    };
    let mut hosts = headers.get_all(HOST).iter();
    let (Some(host), None) = (hosts.next(), hosts.next()) else {
        return Err(refuse(400, "a request needs exactly one Host header (127.0.0.1, localhost or [::1])"));
    };
    if !loopback_host(host.as_bytes(), port) {
        return Err(misdirected());
    }
    if let Some(scheme) = uri.scheme_str()
        && (scheme != "http" || !uri.authority().is_some_and(|a| loopback_host(a.as_str().as_bytes(), port)))
    {
        return Err(misdirected());
    }
    Ok(())
}

/// Whether `host` is one of the loopback names, bare or with `:port` (the port as digits, exactly
/// as a browser writes it: no sign, no leading zero). `localhost` in any case; no other spelling
/// of the addresses (`127.1`, `[0:0::1]`, a trailing dot) and no user info.
pub fn loopback_host(host: &[u8], port: u16) -> bool {
    let Ok(host) = std::str::from_utf8(host) else { return false };
    let name = match host.rsplit_once(':') {
        // `[::1]`'s own colons are inside its brackets.
        Some((name, digits)) if !digits.contains(']') => {
            if digits != port.to_string() {
                return false;
            }
            name
        }
        _ => host,
    };
    LOOPBACK.iter().any(|loopback| loopback.eq_ignore_ascii_case(name))
}

/// The path's segments: `/` is none. Only what names a file of the site or the run is accepted —
/// letters, digits, `-`, `_` and `.` — so no `..`, no `.`, no `//`, no percent-encoding and no
/// backslash can reach a lookup (a trailing `/` is kept as an empty last segment: not found).
fn segments(path: &str) -> Result<Vec<&str>, Refusal> {
    let Some(rest) = path.strip_prefix('/') else {
        return Err(refuse(400, "the request target must be a path starting with `/`"));
    };
    if rest.is_empty() {
        return Ok(Vec::new());
    }
    let parts: Vec<&str> = rest.split('/').collect();
    for (i, part) in parts.iter().enumerate() {
        let last = i + 1 == parts.len();
        if *part == "." || *part == ".." {
            return Err(refuse(
                400,
                "no `.` or `..` in paths: the server has only the playground and the run's two files",
            ));
        }
        if part.is_empty() && !last {
            return Err(refuse(400, "no empty segment (`//`) in paths"));
        }
        if let Some(c) = part.chars().find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))) {
            return Err(refuse(
                400,
                format!(
                    "`{}` in a path: paths are letters, digits, `-`, `_`, `.` and `/` only (none is percent-encoded)",
                    c.escape_default()
                ),
            ));
        }
    }
    Ok(parts)
}

/// The longest decimal `u64` (20 digits).
const MAX_FROM_DIGITS: usize = 20;

/// `from=<byte>` in the query: absent, or exactly once, as plain decimal digits fitting a `u64`.
/// Other parameters are ignored (a cache-buster, say); no percent-decoding — the page writes the
/// number as digits.
pub fn from_param(query: Option<&str>) -> Result<Option<u64>, Refusal> {
    let mut found = None;
    for pair in query.unwrap_or("").split('&') {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        if key != "from" {
            continue;
        }
        if found.is_some() {
            return Err(refuse(400, "`from` is given more than once; pass one byte offset"));
        }
        let digits = !value.is_empty() && value.len() <= MAX_FROM_DIGITS && value.bytes().all(|b| b.is_ascii_digit());
        let parsed = if digits { value.parse::<u64>().ok() } else { None };
        let Some(from) = parsed else {
            let shown: String = value.chars().take(40).collect::<String>().escape_default().to_string();
            return Err(refuse(
                400,
                format!(
                    "`from={shown}` is not a byte offset: pass the decimal number of bytes already read \
                     (0 to 18446744073709551615), e.g. history.ndjson?from=0"
                ),
            ));
        };
        found = Some(from);
    }
    Ok(found)
}

/// Where to cut `window`, the bytes of a history from offset `from - 1` on (from `0` when `from`
/// is `0`), so that only whole lines starting at or after `from` are sent: `(start, end)` within
/// `window`, and the offset to ask from next (the byte after the last line sent).
///
/// A `from` inside a line (the byte before it is not a newline) starts at the next whole line,
/// never sending the torn end of that one: the page asks from the length of what it fetched,
/// which a history read mid-append leaves inside its last line. A last line still being written
/// waits for the next poll.
pub fn whole_lines(window: &[u8], from: u64) -> (usize, usize, u64) {
    let start = if from == 0 {
        0
    } else if window.first() == Some(&b'\n') {
        1
    } else {
        match window.iter().skip(1).position(|&b| b == b'\n') {
            Some(i) => i + 2,
            // Still inside that line: ask again from the same byte.
            None => return (window.len(), window.len(), from),
        }
    };
    let end = window[start..].iter().rposition(|&b| b == b'\n').map_or(start, |i| start + i + 1);
    (start, end, from.saturating_sub(1) + end as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const PORT: u16 = 8787;

    fn ask(method: &str, target: &str, hosts: &[&str]) -> Result<Route, Refusal> {
        let mut headers = HeaderMap::new();
        for host in hosts {
            headers.append(HOST, host.parse().unwrap());
        }
        route(&method.parse().unwrap(), &target.parse().unwrap(), &headers, PORT)
    }

    fn status(result: &Result<Route, Refusal>) -> u16 {
        result.as_ref().map_or_else(|r| r.status, |_| 200)
    }

    #[test]
    fn loopback_hosts_with_or_without_the_port_are_answered() {
        for host in ["127.0.0.1", "127.0.0.1:8787", "localhost", "LocalHost:8787", "[::1]", "[::1]:8787"] {
            assert_eq!(ask("GET", "/", &[host]), Ok(Route::Site("index.html".into())), "{host}");
        }
    }

    #[test]
    fn any_other_host_is_misdirected() {
        for host in [
            "evil.example",
            "evil.example:8787",
            "127.0.0.1:8788",
            "127.0.0.1:08787",
            "127.0.0.1:+8787",
            "127.0.0.1:",
            "localhost.",
            "localhost.:8787",
            "127.1",
            "2130706433",
            "0.0.0.0",
            "[::1]:",
            "[0:0:0:0:0:0:0:1]",
            "::1",
            "user@127.0.0.1",
            "127.0.0.1.evil.example",
            "localhost:8787:8787",
            "",
        ] {
            assert_eq!(status(&ask("GET", "/", &[host])), 421, "{host:?}");
        }
        assert_eq!(status(&ask("GET", "/", &[])), 400);
        assert_eq!(status(&ask("GET", "/", &["127.0.0.1", "127.0.0.1"])), 400);
        // Absolute-form targets: the authority must be the loopback too.
        assert_eq!(status(&ask("GET", "http://evil.example/run/database.json", &["127.0.0.1"])), 421);
        assert_eq!(status(&ask("GET", "https://127.0.0.1:8787/", &["127.0.0.1"])), 421);
        assert_eq!(
            ask("GET", "http://localhost:8787/run/database.json", &["localhost:8787"]),
            Ok(Route::Run(RunFile::Database))
        );
    }

    #[test]
    fn paths_name_files_only() {
        let ok = |target: &str| ask("GET", target, &["127.0.0.1"]);
        assert_eq!(ok("/js/main.js"), Ok(Route::Site("js/main.js".into())));
        assert_eq!(ok("/run/history.ndjson?from=12"), Ok(Route::Run(RunFile::History(Some(12)))));
        assert_eq!(ok("/run/database.json?from=x"), Ok(Route::Run(RunFile::Database)), "from is only history's");
        assert_eq!(ok("/run/config.toml"), Ok(Route::Missing("/run/config.toml".into())));
        assert_eq!(ok("/run/"), Ok(Route::Missing("/run/".into())));
        assert_eq!(ok("/js/"), Ok(Route::Missing("/js/".into())));
        assert_eq!(ok("/tests/helpers.mjs"), Ok(Route::Missing("/tests/helpers.mjs".into())));
        for bad in [
            "/../database.json",
            "/run/../../etc/passwd",
            "/./index.html",
            "/js//main.js",
            "/run/%2e%2e/x",
            "/a%2fb",
            "/a\\b",
        ] {
            let Ok(target) = bad.parse::<Uri>() else { continue };
            let result =
                route(&Method::GET, &target, &[(HOST, "127.0.0.1".parse().unwrap())].into_iter().collect(), PORT);
            assert_eq!(status(&result), 400, "{bad}");
        }
        assert_eq!(status(&ask("POST", "/", &["127.0.0.1"])), 405);
        assert_eq!(status(&ask("OPTIONS", "/", &["127.0.0.1"])), 405);
        assert_eq!(status(&ask("POST", "/", &["evil.example"])), 421, "the host is checked first");
    }

    #[test]
    fn from_is_digits_once() {
        assert_eq!(from_param(None), Ok(None));
        assert_eq!(from_param(Some("x=1&from=7&y")), Ok(Some(7)));
        assert_eq!(from_param(Some("from=18446744073709551615")), Ok(Some(u64::MAX)));
        for bad in [
            "from",
            "from=",
            "from=-1",
            "from=+1",
            "from=1e3",
            "from=0x10",
            "from=%31",
            "from= 1",
            "from=1&from=2",
            "from=18446744073709551616",
        ] {
            let refusal = from_param(Some(bad)).unwrap_err();
            assert_eq!(refusal.status, 400, "{bad}");
        }
        assert!(from_param(Some("from=abc")).unwrap_err().message.contains("`from=abc` is not a byte offset"));
    }

    #[test]
    fn whole_lines_never_start_inside_a_line() {
        let text = b"ab\ncd\nef";
        let cut = |from: u64| {
            let window = &text[usize::try_from(from.saturating_sub(1)).unwrap()..];
            let (s, e, next) = whole_lines(window, from);
            (String::from_utf8(window[s..e].to_vec()).unwrap(), next)
        };
        assert_eq!(cut(0), ("ab\ncd\n".into(), 6));
        assert_eq!(cut(1), ("cd\n".into(), 6));
        assert_eq!(cut(3), ("cd\n".into(), 6));
        assert_eq!(cut(4), (String::new(), 6), "the rest of `cd` is skipped, `ef` waits");
        assert_eq!(cut(6), (String::new(), 6));
        assert_eq!(cut(7), (String::new(), 7));
        assert_eq!(cut(8), (String::new(), 8));
    }

    /// A model of the rule: the loopback names (any case for `localhost`), bare or `:8787`.
    fn allowed(host: &str) -> bool {
        let name = host.strip_suffix(":8787").unwrap_or(host);
        LOOPBACK.iter().any(|l| l.eq_ignore_ascii_case(name))
    }

    /// Hosts near the loopback forms: a loopback name or another, a port or none, noise around.
    fn near_loopback() -> impl Strategy<Value = String> {
        let name = prop_oneof![
            Just("127.0.0.1".to_string()),
            Just("localhost".to_string()),
            Just("LOCALHOST".to_string()),
            Just("[::1]".to_string()),
            Just("::1".to_string()),
            Just("127.0.0.2".to_string()),
            "[a-z0-9.-]{1,20}",
        ];
        let port = prop_oneof![Just(String::new()), Just(":8787".into()), Just(":".into()), "[:0-9+]{1,7}"];
        let noise = prop_oneof![Just(String::new()), "[ -~]{1,3}"];
        (noise.clone(), name, port, noise).prop_map(|(a, n, p, b)| format!("{a}{n}{p}{b}"))
    }

    proptest! {
        /// No Host but the loopback forms is answered, whatever the method or target.
        #[test]
        fn only_loopback_hosts_are_answered(host in prop_oneof![near_loopback(), "[ -~]{0,30}"], path in "/[a-z./]{0,12}") {
            let Ok(value) = host.parse::<hyper::header::HeaderValue>() else { return Ok(()) };
            let Ok(target) = path.parse::<Uri>() else { return Ok(()) };
            let headers: HeaderMap = [(HOST, value.clone())].into_iter().collect();
            let result = route(&Method::GET, &target, &headers, PORT);
            // hyper's header values are trimmed of surrounding spaces by its parser, as here.
            let host = value.to_str().unwrap_or("");
            if allowed(host) {
                prop_assert_ne!(status(&result), 421);
            } else {
                prop_assert_eq!(status(&result), 421);
            }
            prop_assert_eq!(loopback_host(host.as_bytes(), PORT), allowed(host));
        }

        /// Any query: `from` is a `u64` in plain digits or the request is refused with 400, naming it.
        #[test]
        fn from_is_plain_digits_or_refused(query in "[a-z0-9=&%+.-]{0,30}") {
            match from_param(Some(&query)) {
                Ok(Some(from)) => {
                    let pair = format!("from={from}");
                    prop_assert!(query.split('&').any(|p| p == pair));
                }
                Ok(None) => prop_assert!(!query.split('&').any(|p| p.split('=').next() == Some("from"))),
                Err(refusal) => {
                    prop_assert_eq!(refusal.status, 400);
                    prop_assert!(refusal.message.contains("from"));
                }
            }
        }

        /// Whatever `from`, what is sent is whole lines — starting where a line starts, at or after
        /// `from`, ending with a newline — the first whole line after `from` is not skipped, and
        /// `next` is where the next poll picks up.
        #[test]
        fn no_from_yields_a_torn_line(lines in prop::collection::vec("[a-z{}\":,]{0,8}", 0..6), tail in "[a-z]{0,5}", from in 0u64..60) {
            let text = format!("{}{tail}", lines.iter().map(|l| format!("{l}\n")).collect::<String>());
            let bytes = text.as_bytes();
            let from = from % (bytes.len() as u64 + 1);
            let window = &bytes[usize::try_from(from.saturating_sub(1)).unwrap()..];
            let (s, e, next) = whole_lines(window, from);
            let base = from.saturating_sub(1) as usize;
            let (start, end) = (base + s, base + e);
            let body = &bytes[start..end];
            if !body.is_empty() {
                prop_assert!(start >= from as usize);
                prop_assert!(start == 0 || bytes[start - 1] == b'\n', "starts inside a line");
                prop_assert!(body.ends_with(b"\n"), "ends inside a line");
            }
            // The first line starting at or after `from` is the one sent, when it is whole.
            let first = (from as usize..=bytes.len()).find(|&i| i == 0 || bytes[i - 1] == b'\n');
            if let Some(first) = first.filter(|&f| bytes[f..].contains(&b'\n')) {
                prop_assert_eq!(start, first);
                prop_assert_eq!(next, end as u64);
            } else {
                prop_assert!(body.is_empty());
                prop_assert!(next >= from && next <= bytes.len() as u64);
            }
            // Following on from `next` never re-sends or skips a whole line.
            let last_newline = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            if !body.is_empty() {
                prop_assert_eq!(end, last_newline);
            }
        }
    }
}
