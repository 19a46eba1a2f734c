//! A connection to the run's server: within the URL's connect timeout, over TLS when the URL asks.

use std::sync::{Arc, mpsc};
use std::time::Duration;

use postgres::{Client, NoTls};

use super::PgUrl;
use super::failure::describe;
use crate::error::HostError;

/// A connection, from the first packet to the login, within the URL's connect timeout (per
/// host). The client library bounds only the TCP handshake with it, so a server that accepts the
/// connection and never answers would hang the command: the connection is made on a thread of its
/// own, given up at the bound. (That thread ends when the peer closes; in a one-command process
/// it ends with the process.)
pub(super) fn connect(url: &PgUrl) -> Result<Client, HostError> {
    let per_host = url.config.get_connect_timeout().copied().unwrap_or(Duration::from_secs(10));
    let hosts = u32::try_from(url.config.get_hosts().len().max(1)).unwrap_or(u32::MAX);
    let bound = per_host.saturating_mul(hosts);
    let tls = if url.wants_tls() { Some(tls(url)?) } else { None };
    let config = url.config.clone();
    let (answer, answered) = mpsc::channel();
    std::thread::Builder::new()
        .name("evodb-postgres-connect".into())
        .spawn(move || {
            let connected = match tls {
                Some(tls) => config.connect(tls),
                None => config.connect(NoTls),
            };
            let _ = answer.send(connected);
        })
        .map_err(|e| HostError::Io(format!("cannot start connecting to PostgreSQL: {e}")))?;
    let failed = |why: String| {
        HostError::Io(url.redact(&format!(
            "cannot connect to PostgreSQL at {} ({why}); check that the server is running and reachable and the \
             URL's user, database and password (a slow network may need a longer --connectTimeout); nothing was \
             saved",
            url.endpoint(),
        )))
    };
    match answered.recv_timeout(bound) {
        Ok(Ok(client)) => Ok(client),
        Ok(Err(e)) => Err(failed(describe(&e))),
        Err(_) => Err(failed(format!(
            "no answer within --connectTimeout {} s: something there accepts connections but does not log in as a \
             PostgreSQL server does",
            bound.as_secs_f64()
        ))),
    }
}

/// rustls, verifying the server against the web's roots and the URL's `sslrootcert`.
pub(super) fn tls(url: &PgUrl) -> Result<tokio_postgres_rustls::MakeRustlsConnect, HostError> {
    use rustls::pki_types::CertificateDer;
    use rustls::pki_types::pem::PemObject;
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    if let Some(path) = &url.root_cert {
        let bad = |e: String| {
            HostError::Io(format!(
                "cannot read sslrootcert `{}` ({e}); pass a PEM file of CA certificates",
                path.display()
            ))
        };
        for cert in CertificateDer::pem_file_iter(path).map_err(|e| bad(e.to_string()))? {
            roots.add(cert.map_err(|e| bad(e.to_string()))?).map_err(|e| bad(e.to_string()))?;
        }
    }
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| HostError::Io(format!("cannot set up TLS: {e}")))?
        .with_root_certificates(roots)
        .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}
