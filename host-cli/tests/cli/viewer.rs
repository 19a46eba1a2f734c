//! A running `evodb view` and plain HTTP requests to it.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};

use super::command;

/// A running `evodb view`, killed on drop.
pub struct Viewer {
    child: Child,
    pub base: String,
}

impl Drop for Viewer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn view(args: &[&str]) -> Viewer {
    let mut view = command();
    view.arg("view").args(args).args(["--port", "0"]);
    view_with(view)
}

/// `evodb view` started by `command` (e.g. under a shell that lowers a limit first).
pub fn view_with(mut command: std::process::Command) -> Viewer {
    let mut child = command.stdout(Stdio::piped()).spawn().unwrap();
    let mut url = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut url).unwrap();
    let base = url.trim().split('?').next().unwrap().trim_end_matches('/').to_string();
    assert!(base.starts_with("http://127.0.0.1:"), "{url}");
    Viewer { child, base }
}

impl Viewer {
    /// The server's process id (for its memory, threads and CPU time in /proc).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// `127.0.0.1:<port>`.
    pub fn address(&self) -> &str {
        self.base.trim_start_matches("http://")
    }

    pub fn port(&self) -> u16 {
        self.base.rsplit(':').next().unwrap().parse().unwrap()
    }
}

/// One request; returns the status code, the content type and the body.
pub fn get(viewer: &Viewer, method: &str, path: &str) -> (u16, String, Vec<u8>) {
    let (status, head, body) = request(viewer, method, path);
    let content_type = header(&head, "Content-Type").unwrap_or_default();
    (status, content_type, body)
}

/// The value of header `name` in a response's header block.
pub fn header(head: &str, name: &str) -> Option<String> {
    head.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(": ")).map(str::to_string)
}

/// One request; returns the status code, the whole header block and the body.
pub fn request(viewer: &Viewer, method: &str, path: &str) -> (u16, String, Vec<u8>) {
    let address = viewer.base.trim_start_matches("http://");
    let mut stream = TcpStream::connect(address).unwrap();
    write!(stream, "{method} {path} HTTP/1.1\r\nHost: {address}\r\n\r\n").unwrap();
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let split = response.windows(4).position(|w| w == b"\r\n\r\n").expect("a header block");
    let head = String::from_utf8_lossy(&response[..split]).into_owned();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    (status, head, response[split + 4..].to_vec())
}
