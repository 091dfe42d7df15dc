//! The Bigtable emulator the Bigtable tests run against: `BIGTABLE_EMULATOR_HOST` when set
//! (`.ci/run` starts one), else a `cbtemulator` this test binary starts on a free port and ends
//! with the process.
#![allow(dead_code)] // each test binary uses part of it

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// An emulator this test binary started; killed when the process ends.
struct Emulator(Child);

impl Drop for Emulator {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn cbtemulator() -> Option<std::path::PathBuf> {
    let known = [
        "/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator",
        "target/ci/cbtemulator",
    ];
    if let Some(k) = known.iter().map(std::path::Path::new).find(|p| p.exists()) {
        return Some(k.into());
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join("cbtemulator"))
        .find(|p| p.exists())
}

/// The emulator's address: `BIGTABLE_EMULATOR_HOST`, or one started once for this binary.
pub fn emulator() -> Option<&'static str> {
    static HOST: OnceLock<Option<(String, Option<Emulator>)>> = OnceLock::new();
    let found = HOST.get_or_init(|| {
        if let Ok(host) = std::env::var("BIGTABLE_EMULATOR_HOST") {
            return Some((host, None));
        }
        let bin = cbtemulator()?;
        let port = TcpListener::bind("127.0.0.1:0")
            .ok()?
            .local_addr()
            .ok()?
            .port();
        // A static is never dropped, so a watchdog shell ends the emulator with this process.
        let script = format!(
            "\"$0\" -host 127.0.0.1 -port {port} & e=$!; while kill -0 {} 2>/dev/null; do sleep 1; done; kill $e",
            std::process::id()
        );
        let child = Command::new("sh")
            .args(["-c", &script])
            .arg(bin)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .ok()?;
        let guard = Emulator(child);
        let host = format!("127.0.0.1:{port}");
        let deadline = Instant::now() + Duration::from_secs(10);
        while std::net::TcpStream::connect(&host).is_err() {
            if Instant::now() > deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        Some((host, Some(guard)))
    });
    found.as_ref().map(|(h, _)| h.as_str())
}

pub fn host() -> Option<&'static str> {
    let host = emulator();
    if host.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "no Bigtable emulator: install cbtemulator or set BIGTABLE_EMULATOR_HOST"
        );
        eprintln!(
            "SKIPPED: no Bigtable emulator (set BIGTABLE_EMULATOR_HOST or install cbtemulator)"
        );
    }
    host
}
