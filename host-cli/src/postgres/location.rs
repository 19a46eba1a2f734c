//! What a `<dbPath>` (or `--store`, or `EVODB_STORE`) names by its form alone, before anything
//! is opened or created: a PostgreSQL URL, or a directory. Anything else that looks like a URL
//! (`scheme://…`, RFC 3986's scheme) is refused, so a mistyped URL never becomes a directory
//! holding its password. And the one way a location is shown in a message: without its password.

/// A location's form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// `postgres://…` or `postgresql://…`, the scheme in any case.
    Postgres,
    /// A directory path.
    Directory,
}

/// The schemes of a PostgreSQL URL, as libpq accepts them.
const POSTGRES_SCHEMES: [&str; 2] = ["postgres", "postgresql"];

/// The form of `text`, or the usage error for a location that is neither a directory nor a
/// PostgreSQL URL: any other `scheme://`, a `postgres:` without `//`, a URL that is not UTF-8.
/// `what` names where the text came from (`<dbPath>`, `--store`, `EVODB_STORE`). The message
/// never holds the password.
pub fn form(text: &[u8], what: &str) -> Result<Form, String> {
    let Some((scheme, after)) = scheme_prefix(text) else { return Ok(Form::Directory) };
    let lower = scheme.to_ascii_lowercase();
    let shown = shown_location(&String::from_utf8_lossy(text));
    let postgres = POSTGRES_SCHEMES.contains(&lower.as_str());
    if postgres && after.starts_with(b"//") {
        if std::str::from_utf8(text).is_err() {
            return Err(format!("{what} `{shown}` is not UTF-8 text; a PostgreSQL URL must be"));
        }
        return Ok(Form::Postgres);
    }
    if postgres {
        return Err(format!(
            "{what} `{shown}` is not a PostgreSQL URL: write {lower}://user@host:port/dbname, with `//` after \
             `{lower}:` (for a directory with `:` in its name, write it as ./{lower}:…)"
        ));
    }
    if !after.starts_with(b"//") {
        // `name:rest`: a directory with a colon in its name, as it always was.
        return Ok(Form::Directory);
    }
    let hint = if resembles_postgres(&lower) { " (did you mean postgres://?)" } else { "" };
    let directory = match what {
        "<dbPath>" => format!(", or a directory (for one with `://` in its name, write ./{scheme}:…)"),
        _ => String::new(),
    };
    Err(format!(
        "{what} `{shown}` is not a PostgreSQL URL{hint}: evodb keeps a run in a directory or in PostgreSQL, and \
         PostgreSQL's URLs start with postgres:// or postgresql:// (in any case), not `{scheme}://`; pass \
         postgres://user@host:port/dbname{directory}"
    ))
}

/// `scheme` and what follows its `:`, when `text` starts with an RFC 3986 scheme (a letter,
/// then letters, digits, `+`, `-`, `.`) and a colon.
fn scheme_prefix(text: &[u8]) -> Option<(&str, &[u8])> {
    let first = *text.first()?;
    if !first.is_ascii_alphabetic() {
        return None;
    }
    let len = text.iter().position(|&b| !(b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.')))?;
    if text[len] != b':' {
        return None;
    }
    let scheme = std::str::from_utf8(&text[..len]).ok()?;
    Some((scheme, &text[len + 1..]))
}

/// A scheme one or two typing slips from `postgres`/`postgresql` (or `pg…`, `psql`).
fn resembles_postgres(scheme: &str) -> bool {
    scheme.starts_with("postg")
        || scheme.starts_with("pg")
        || scheme == "psql"
        || POSTGRES_SCHEMES.iter().any(|known| edit_distance(scheme, known) <= 2)
}

fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let substitution = diagonal + usize::from(ca != cb);
            diagonal = row[j + 1];
            row[j + 1] = substitution.min(row[j] + 1).min(row[j + 1] + 1);
        }
    }
    row[b.len()]
}

/// A location as messages show it: a URL without its password or query (`scheme://user@host/
/// path?…`), a path with anything that looks like `user:password@` in it hidden.
pub fn shown_location(text: &str) -> String {
    // The whole text is the location: a password may hold anything, quotes and spaces included.
    match scheme_prefix(text.as_bytes()) {
        Some((_, after)) if after.starts_with(b"//") => shown_url(text),
        _ => redact_passwords(text),
    }
}

/// A URL (`scheme://…`) shown without what may be secret. The credentials are taken to run to the
/// last `@` (a password may hold `@`, `/`, `?`, `#`); of them, only a user name without any of
/// `/?#=&%` is shown. A `password=` in the query is hidden. Anything else is shown as it is.
fn shown_url(url: &str) -> String {
    let Some(colon) = url.find("://") else { return redact_passwords(url) };
    let (scheme, rest) = (&url[..colon], &url[colon + 3..]);
    let (credentials, after) = match rest.rfind('@') {
        Some(at) => (Some(&rest[..at]), &rest[at + 1..]),
        None => (None, rest),
    };
    let user = credentials.map(|credentials| {
        let user = credentials.split(':').next().unwrap_or_default();
        match user.contains(['/', '?', '#', '=', '&', '%']) || user.is_empty() {
            true => "…".to_string(),
            false => user.to_string(),
        }
    });
    let after = hide_password_parameters(after);
    match user {
        Some(user) => format!("{scheme}://{user}@{after}"),
        None => format!("{scheme}://{after}"),
    }
}

/// `password=…` (any case) in a URL's query with its value hidden.
fn hide_password_parameters(text: &str) -> String {
    let Some(query_at) = text.find('?') else { return text.to_string() };
    let (address, query) = text.split_at(query_at + 1);
    let pairs: Vec<String> = query
        .split('&')
        .map(|pair| match pair.split_once('=') {
            Some((key, _)) if key.to_ascii_lowercase().contains("password") => format!("{key}=***"),
            _ => pair.to_string(),
        })
        .collect();
    format!("{address}{}", pairs.join("&"))
}

/// The URL starting at or after byte `from` of `text`: `(start, end)`, where it starts with a
/// scheme and `://` and ends at whitespace or a quote.
fn url_at(text: &str, from: usize) -> Option<(usize, usize)> {
    let found = from + text[from..].find("://")?;
    let bytes = text.as_bytes();
    let mut start = found;
    while start > 0 && (bytes[start - 1].is_ascii_alphanumeric() || matches!(bytes[start - 1], b'+' | b'-' | b'.')) {
        start -= 1;
    }
    // The scheme begins with a letter: skip leading digits and signs.
    start = start.max(from);
    while start < found && !bytes[start].is_ascii_alphabetic() {
        start += 1;
    }
    let end = text[found..].find(is_token_end).map_or(text.len(), |at| found + at);
    Some((start, end))
}

fn is_token_end(c: char) -> bool {
    c.is_whitespace() || matches!(c, '`' | '"' | '\'' | '<' | '>')
}

/// `text` with every password it may hold hidden: each URL shown as [`shown_location`] shows
/// it, and in any other word, what lies between its first `:` and its last `@` (`u:pw@host`).
/// The last line of defence for what evodb prints on stderr: no message should hold a password
/// in the first place. Words end at whitespace and quotes, so a password holding those (which a
/// URL should percent-encode) may escape it; [`shown_location`] takes a whole location instead.
pub fn redact_passwords(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    while let Some((start, end)) = url_at(text, at) {
        out.push_str(&redact_words(&text[at..start]));
        out.push_str(&shown_url(&text[start..end]));
        at = end;
    }
    out.push_str(&redact_words(&text[at..]));
    out
}

/// Each word of `text` holding `:` and later `@`, with what lies between hidden.
fn redact_words(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut word_start = 0;
    for (i, c) in text.char_indices().chain(std::iter::once((text.len(), ' '))) {
        if i == text.len() || is_token_end(c) {
            out.push_str(&redact_word(&text[word_start..i]));
            if i < text.len() {
                out.push(c);
            }
            word_start = i + c.len_utf8();
        }
    }
    out
}

/// `user:password@host` in a word, its password hidden: from the first `:` of the part before
/// the last `@` (after its last `/` when that part holds a `:`, so `dir/u:pw@h` keeps `dir/u`).
fn redact_word(word: &str) -> String {
    let Some(at) = word.rfind('@') else { return word.to_string() };
    let before = &word[..at];
    let segment_start = before.rfind('/').map_or(0, |slash| slash + 1);
    let colon = match before[segment_start..].find(':') {
        Some(colon) => segment_start + colon,
        None => match before.find(':') {
            Some(colon) => colon,
            None => return word.to_string(),
        },
    };
    format!("{}:***{}", &word[..colon], &word[at..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn forms() {
        for text in ["postgres://u@h/d", "POSTGRES://u:PW@host/evo", "PostgreSQL://h", "postgresql://"] {
            assert_eq!(form(text.as_bytes(), "<dbPath>"), Ok(Form::Postgres), "{text}");
        }
        for text in ["runs/exp-1", "./mysql://x", "a:b", "/tmp/x", "1abc://x", "", "c:\\x", "-x://y"] {
            assert_eq!(form(text.as_bytes(), "<dbPath>"), Ok(Form::Directory), "{text}");
        }
        for text in ["mysql://u:PW@h/x", "postgress://u:PW@h/x", "s3://b/k", "file:///tmp/x", "postgres:/u:PW@h"] {
            let err = form(text.as_bytes(), "<dbPath>").unwrap_err();
            assert!(!err.contains("PW"), "{err}");
            assert!(err.contains("postgres://"), "{err}");
        }
        assert!(form(b"postgress://h", "x").unwrap_err().contains("did you mean postgres://"));
        assert!(!form(b"https://h", "x").unwrap_err().contains("did you mean"));
        assert!(form(b"postgres://h/\xff", "x").unwrap_err().contains("UTF-8"));
    }

    #[test]
    fn shown_without_the_password() {
        let cases = [
            ("mysql://u:PW@h/x?password=PW2&sslmode=require", "mysql://u@h/x?password=***&sslmode=require"),
            ("postgres://h/d?PassWord=PW", "postgres://h/d?PassWord=***"),
            ("postgres:/u:PW@host/evo", "postgres:/u:***@host/evo"),
            ("u:p/w@h", "u:***@h"),
            ("postgress://u:p@ss/w?rd@h:5/d", "postgress://u@h:5/d"),
            ("s3://bucket/key", "s3://bucket/key"),
            ("x://:PW@h", "x://…@h"),
            ("runs/u:PW@host/evo", "runs/u:***@host/evo"),
            ("runs/exp", "runs/exp"),
        ];
        for (text, shown) in cases {
            assert_eq!(shown_location(text), shown, "{text}");
        }
        assert_eq!(
            redact_passwords("both `mysql://u:PW@h/x` and `postgres://a:PW@b/c` given; see a:PW@b"),
            "both `mysql://u@h/x` and `postgres://a@b/c` given; see a:***@b"
        );
        assert_eq!(redact_passwords("no url here: exit 5"), "no url here: exit 5");
        assert_eq!(redact_passwords("://x 9://y"), "://x 9://y");
        let said = "(did you mean postgres://?): `mysql://` is not";
        assert_eq!(redact_passwords(said), said);
    }
}
