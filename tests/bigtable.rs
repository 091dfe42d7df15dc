//! The Bigtable store against the emulator on loopback: typed writes, gets, deletes, batch
//! writes and scans, and a salted table whose merged scan returns exactly the keys a brute-force
//! filter selects, in order. Uses `BIGTABLE_EMULATOR_HOST` when set (CI starts one); otherwise
//! starts its own `cbtemulator` on a free port. Without an emulator it fails under CI and says
//! so elsewhere: it never passes silently.
#![cfg(feature = "bigtable")]

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use rowkey::store::{BigtableStore, Store, Table};
use rowkey::RowKey;

/// An emulator this test started; killed when dropped.
struct Emulator(Child);

impl Drop for Emulator {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn cbtemulator() -> Option<std::path::PathBuf> {
    let known =
        std::path::Path::new("/usr/lib/google-cloud-sdk/platform/bigtable-emulator/cbtemulator");
    if known.exists() {
        return Some(known.into());
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).collect::<Vec<_>>())
        .map(|d| d.join("cbtemulator"))
        .find(|p| p.exists())
}

/// The emulator's address, and the process if this test started it.
fn emulator() -> Option<(String, Option<Emulator>)> {
    if let Ok(host) = std::env::var("BIGTABLE_EMULATOR_HOST") {
        return Some((host, None));
    }
    let bin = cbtemulator()?;
    let port = TcpListener::bind("127.0.0.1:0")
        .ok()?
        .local_addr()
        .ok()?
        .port();
    let child = Command::new(bin)
        .args(["-host", "127.0.0.1", "-port", &port.to_string()])
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
}

#[derive(RowKey, Debug, Clone, PartialEq)]
struct Reading {
    #[salt(buckets = 4)]
    sensor: u32,
    #[reverse_ts]
    ts: u64,
    kind: String,
}

#[test]
fn bigtable_emulator_round_trip() {
    let Some((host, _guard)) = emulator() else {
        assert!(std::env::var_os("CI").is_none(), "no Bigtable emulator: install google-cloud-cli-bigtable-emulator or set BIGTABLE_EMULATOR_HOST");
        eprintln!("SKIPPED: no Bigtable emulator found (set BIGTABLE_EMULATOR_HOST or install cbtemulator)");
        return;
    };
    let table_id = format!("readings_{}", std::process::id());
    let store = BigtableStore::connect_emulator(&host, "p", "i", &table_id, "d").unwrap();
    store
        .create_table_on_emulator(&Reading::split_points(4))
        .unwrap();
    let table = Table::<_, Reading>::new(store);

    let rows: Vec<Reading> = (0..12u32)
        .flat_map(|sensor| {
            [3u64, 1, 2].map(|t| Reading {
                sensor,
                ts: 1_000 + t,
                kind: if t % 2 == 0 { "a" } else { "b" }.into(),
            })
        })
        .collect();
    let values: Vec<String> = rows
        .iter()
        .map(|r| format!("v{}-{}", r.sensor, r.ts))
        .collect();
    table
        .put_batch(rows.iter().zip(values.iter().map(String::as_bytes)))
        .unwrap();

    // get / put overwrites / delete
    let k = &rows[4];
    assert_eq!(table.get(k).unwrap().as_deref(), Some(values[4].as_bytes()));
    table.put(k, b"newer").unwrap();
    assert_eq!(table.get(k).unwrap().as_deref(), Some(&b"newer"[..]));
    table.delete(k).unwrap();
    assert_eq!(table.get(k).unwrap(), None);
    table.put(k, b"back").unwrap();

    // The whole salted table: 4 bucket ranges merged into logical order.
    let mut expected = rows.clone();
    expected.sort_by(|a, b| {
        a.sensor
            .cmp(&b.sensor)
            .then(b.ts.cmp(&a.ts))
            .then(a.kind.cmp(&b.kind))
    });
    let all: Vec<Reading> = table
        .scan(&Reading::scan().ranges())
        .map(|r| r.unwrap().0)
        .collect();
    assert_eq!(all, expected);

    // A range over the salted field (fans out) and one sensor's time window (one range).
    let got: Vec<Reading> = table
        .scan(&Reading::scan().sensor(2..=5).ranges())
        .map(|r| r.unwrap().0)
        .collect();
    let want: Vec<Reading> = expected
        .iter()
        .filter(|r| (2..=5).contains(&r.sensor))
        .cloned()
        .collect();
    assert_eq!(got, want);
    let ranges = Reading::scan().sensor(7).ts(1_001..1_003).ranges();
    assert_eq!(ranges.len(), 1);
    let ts: Vec<u64> = table.scan(&ranges).map(|r| r.unwrap().0.ts).collect();
    assert_eq!(ts, [1_002, 1_001]);
    assert!(table
        .store()
        .scan_rev(ranges.iter().next().unwrap())
        .is_none());
}
