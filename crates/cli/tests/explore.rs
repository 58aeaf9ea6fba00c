//! `bloomproof explore`: a `--host` that is not loopback is refused (exit 2,
//! one clear line) unless `--allow-remote` says so; the default listens on
//! 127.0.0.1 and answers only requests that name it.

#![cfg(feature = "explore")]
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Command, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_bloomproof");

#[test]
fn a_remote_host_without_allow_remote_exits_2() {
    for host in ["0.0.0.0", "::", "192.0.2.1"] {
        let out = Command::new(BIN)
            .args(["explore", "--host", host, "--port", "0"])
            .stdin(Stdio::null())
            .output()
            .unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{host}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(
            stderr.contains("not a loopback address") && stderr.contains("--allow-remote"),
            "{stderr}"
        );
        assert!(out.stdout.is_empty());
    }
}

#[test]
fn the_flag_is_documented() {
    let out = Command::new(BIN)
        .args(["explore", "--help"])
        .output()
        .unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    assert!(help.contains("--allow-remote"), "{help}");
    assert!(help.contains("loopback"), "{help}");
}

/// Kills the server when the test ends, whatever happens.
struct Server(std::process::Child);

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[test]
fn the_default_server_refuses_another_host_name() {
    let mut server = Server(
        Command::new(BIN)
            .args(["explore", "--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap(),
    );
    let mut first = String::new();
    BufReader::new(server.0.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    let url = first.trim().strip_prefix("bloomproof explorer: ").unwrap();
    let addr = url
        .strip_prefix("http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap()
        .to_owned();
    assert!(addr.starts_with("127.0.0.1:"), "{first}");
    let ask = |host: &str| {
        let mut stream = std::net::TcpStream::connect(&addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .unwrap();
        write!(
            stream,
            "GET / HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"
        )
        .unwrap();
        let mut reply = String::new();
        stream.read_to_string(&mut reply).unwrap();
        reply
    };
    assert!(ask(&addr).starts_with("HTTP/1.1 200"));
    assert!(ask("localhost").starts_with("HTTP/1.1 200"));
    let refused = ask("evil.example");
    assert!(refused.starts_with("HTTP/1.1 421"), "{refused}");
    assert!(refused.contains("DNS rebinding"), "{refused}");
}

#[test]
fn export_writes_the_static_page_and_refuses_a_full_folder() {
    let dir = std::env::temp_dir().join(format!("bloomproof-cli-export-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(BIN)
        .args(["explore", "--export"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for file in [
        "index.html",
        "assets/app.js",
        "assets/js/session.mjs",
        "bloomproof-explorer.html",
    ] {
        assert!(dir.join(file).is_file(), "{file}");
    }
    let standalone = std::fs::read_to_string(dir.join("bloomproof-explorer.html")).unwrap();
    assert!(standalone.contains("const __module_session = (() => {"));
    let again = Command::new(BIN)
        .args(["explore", "--export"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(again.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&again.stderr).contains("--force"));
    let forced = Command::new(BIN)
        .args(["explore", "--force", "--export"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(forced.status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
