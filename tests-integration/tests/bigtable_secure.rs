//! The Bigtable store over TLS with OAuth2 tokens, end to end on loopback: the emulator behind
//! a TLS-terminating gRPC proxy (a per-run CA) that lets a request through only with a live
//! bearer token, a token endpoint checking the service-account JWT and issuing tokens that
//! live seconds, and a metadata server (`tests/google_fakes`).
//!
//! - the conformance suite through the proxy with a service-account key file, tokens expiring
//!   several times during the run and refreshed ahead of expiry (none refused);
//! - the async store in a tokio runtime through the proxy, with metadata-server tokens;
//! - tokens revoked mid-scan (a new one fetched, the scan goes on: every row once, in order),
//!   the account disabled mid-scan (an authentication error after an exact prefix) and
//!   mid-batch (every row not listed as failed is there);
//! - refusals that say what is wrong, with no secret in any message or `Debug`: a key the
//!   endpoint does not know, no credentials, a token source failing, a certificate from an
//!   unknown CA or for another host, a token over plain text, a token endpoint down.
//!
//! Needs the emulator (`tests/store_suite/emulator.rs`) and the `openssl` CLI.
#![cfg(feature = "bigtable")]

mod google_fakes;
mod store_suite;

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use google_fakes::{pki, start, Google, Issuer};
use rowkey::store::{
    AccessToken, AsyncBigtableStore, AsyncStore, BigtableConfig, BigtableStore, Credentials,
    NetError, RetryPolicy, Store, Tls, TokenError, TokenFuture, TokenSource,
};
use rowkey::RowKey;
use store_suite::emulator::host;
use store_suite::net::*;

/// A table through `google`'s proxy, trusting the per-run CA.
fn config(google: &Google, table: &str, credentials: Credentials) -> BigtableConfig {
    BigtableConfig::new("p", "i", table, "d")
        .endpoint(&google.endpoint)
        .tls(Tls::ca_pem(pki().ca_pem.clone()))
        .credentials(credentials)
}

fn key_file(google: &Google) -> Credentials {
    Credentials::service_account_file(&google.key_file).unwrap()
}

/// The same table straight on the emulator (plain text, no credentials): the truth to check
/// against.
fn direct(emulator: &str, table: &str) -> BigtableStore {
    BigtableStore::with_config(BigtableConfig::new("p", "i", table, "d").emulator(emulator))
        .unwrap()
}

#[test]
fn the_conformance_suite_passes_through_the_tls_proxy_with_tokens_refreshed_mid_run() {
    let Some(emulator) = host() else { return };
    let google = start(emulator, 2);
    // Twice, on two tables (the suite takes ~2 s here): tokens expire during each run.
    let started = Instant::now();
    for round in 0..2 {
        let table = unique(&format!("secure_suite_{round}"));
        let store = BigtableStore::with_config(config(&google, &table, key_file(&google))).unwrap();
        store
            .create_table(&<store_suite::Reading as RowKey>::split_points(4))
            .unwrap();
        store_suite::exercise(store);
    }
    let took = started.elapsed();
    let issuer = &google.issuer;
    let data = issuer.issued_data.load(Ordering::Relaxed);
    eprintln!(
        "conformance through the proxy: {took:?}, {data} data tokens, {} admin, {} requests, {} refused",
        issuer.issued_admin.load(Ordering::Relaxed),
        issuer.authorized.load(Ordering::Relaxed),
        issuer.refused.load(Ordering::Relaxed),
    );
    // Tokens live 2 s and are replaced 0.5 s before they expire: one per 1.5 s of the run, per
    // store.
    let lifetimes = took.as_secs_f64() / 1.5;
    assert!(
        data as f64 >= lifetimes.floor(),
        "{data} data tokens in {took:?}"
    );
    assert!(
        data >= 2,
        "the run outlived no token ({took:?}): make it longer"
    );
    let admin = issuer.issued_admin.load(Ordering::Relaxed);
    assert_eq!(
        issuer.tokens_seen(),
        data + admin,
        "every token fetched was used"
    );
    assert_eq!(
        issuer.refused.load(Ordering::Relaxed),
        0,
        "a request went out with an expired token"
    );
    assert_eq!(issuer.issued_admin.load(Ordering::Relaxed), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_async_store_reads_and_writes_with_metadata_server_tokens_inside_a_runtime() {
    let Some(emulator) = host() else { return };
    let google = start(emulator, 2);
    let credentials = Credentials::MetadataServer {
        host: google.metadata_host.clone(),
    };
    let store = AsyncBigtableStore::connect(config(&google, &unique("secure_async"), credentials))
        .await
        .unwrap();
    store.create_table(&Event::split_points(4)).await.unwrap();
    let started = Instant::now();
    exercise_async_table(store.clone(), 20_000).await;
    // Past a token's lifetime, the store still reads.
    tokio::time::sleep(Duration::from_millis(2100)).await;
    store.put(b"late", b"v").await.unwrap();
    assert_eq!(
        store.get(b"late").await.unwrap().as_deref(),
        Some(&b"v"[..])
    );
    let issuer = &google.issuer;
    eprintln!(
        "async through the proxy: {:?}, {} data tokens, {} refused",
        started.elapsed(),
        issuer.issued_data.load(Ordering::Relaxed),
        issuer.refused.load(Ordering::Relaxed)
    );
    assert!(issuer.issued_data.load(Ordering::Relaxed) >= 2);
    assert_eq!(issuer.refused.load(Ordering::Relaxed), 0);
}

/// 60,000 rows in 2,000-row pages; the scan's consumer waits on `at` rows, then `then` runs.
fn scan_with(
    google: &Google,
    emulator: &str,
    name: &str,
    at: usize,
    then: impl FnOnce(&Issuer),
) -> (Vec<Vec<u8>>, Option<NetError>) {
    let table = unique(name);
    let truth = direct(emulator, &table);
    truth.create_table(&[]).unwrap();
    truth.write_batch(&numbered_rows(60_000, 3)).unwrap();
    let mut cfg = config(google, &table, key_file(google));
    cfg.options = cfg.options.page_rows(2_000);
    let store = BigtableStore::with_config(cfg).unwrap();
    let mut keys = Vec::new();
    let mut then = Some(then);
    let mut failure = None;
    for row in store.scan(&rowkey::KeyRange::new(b"row", None)) {
        match row {
            Ok((key, _)) => keys.push(key.to_vec()),
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
        if keys.len() == at {
            (then.take().unwrap())(&google.issuer);
        }
    }
    (keys, failure)
}

fn expected(n: usize) -> Vec<Vec<u8>> {
    (0..n).map(|i| format!("row{i:08}").into_bytes()).collect()
}

#[test]
fn tokens_revoked_mid_scan_are_replaced_and_the_scan_goes_on() {
    let Some(emulator) = host() else { return };
    let google = start(emulator, 600);
    let (keys, failure) = scan_with(&google, emulator, "revoked", 10_000, Issuer::revoke_all);
    assert!(failure.is_none(), "{failure:?}");
    assert!(
        keys == expected(60_000),
        "{} rows, not every row once in order",
        keys.len()
    );
    let issuer = &google.issuer;
    assert!(
        issuer.refused.load(Ordering::Relaxed) >= 1,
        "the revoke came too late"
    );
    assert_eq!(issuer.issued_data.load(Ordering::Relaxed), 2);
}

#[test]
fn an_account_disabled_mid_scan_ends_it_with_an_authentication_error_after_an_exact_prefix() {
    let Some(emulator) = host() else { return };
    let google = start(emulator, 600);
    let (keys, failure) = scan_with(&google, emulator, "disabled", 10_000, |issuer| {
        issuer.disabled.store(true, Ordering::Relaxed);
        issuer.revoke_all();
    });
    let e = failure.expect("the scan ended without an error");
    let text = e.to_string();
    assert!(matches!(e, NetError::Auth { .. }), "{e:?}");
    assert!(!e.is_transient());
    assert!(
        text.contains("refused: invalid_grant: Account disabled (HTTP 400)")
            && text.contains("rowkey-test@rowkey-test.iam.gserviceaccount.com")
            && text.contains(&google.token_uri),
        "{text}"
    );
    assert!(!google.issuer.leaks_a_token(&text) && !google.issuer.leaks_a_token(&format!("{e:?}")));
    assert!(
        keys.len() >= 10_000 && keys.len() < 60_000,
        "{}",
        keys.len()
    );
    assert!(keys == expected(keys.len()), "not an exact prefix");
}

#[test]
fn a_batch_cut_by_a_disabled_account_lists_every_row_not_written() {
    let Some(emulator) = host() else { return };
    let google = start(emulator, 600);
    let table = unique("batch_cut");
    let truth = direct(emulator, &table);
    truth.create_table(&[]).unwrap();
    let mut cfg = config(&google, &table, key_file(&google));
    cfg.options = cfg.options.batches(1_000, 4 << 20, 4);
    let store = BigtableStore::with_config(cfg).unwrap();
    store.put(b"first", b"v").unwrap(); // the schema check and the first token
                                        // The 12th request the proxy lets through (the 11th MutateRows) revokes every token and
                                        // disables the account: the parts in flight finish, the rest fail.
    google.issuer.cut_after.store(
        google.issuer.authorized.load(Ordering::Relaxed) + 11,
        Ordering::Relaxed,
    );
    google.issuer.cut_disables.store(true, Ordering::Relaxed);
    let rows = numbered_rows(40_000, 9);
    let err = store.write_batch(&rows).unwrap_err();
    assert!(matches!(err.source, NetError::Auth { .. }), "{err}");
    assert!(err.to_string().contains("Account disabled"), "{err}");
    let failed: std::collections::HashSet<&[u8]> = err.failed.iter().map(|k| k.as_ref()).collect();
    let mut written = 0;
    for (key, value) in &rows {
        if !failed.contains(key.as_ref()) {
            assert_eq!(
                truth.get(key).unwrap().as_ref(),
                Some(value),
                "reported written, missing"
            );
            written += 1;
        }
    }
    eprintln!(
        "batch cut by the account: {written} rows written, {} listed failed",
        failed.len()
    );
    assert!(written >= 10_000 && !failed.is_empty(), "{written} written");
}

/// A token source of the test's own: the issuer's tokens, or a failure.
struct FromIssuer(Arc<Issuer>, bool);

impl TokenSource for FromIssuer {
    fn token<'a>(&'a self, scopes: &'a [&'a str]) -> TokenFuture<'a> {
        Box::pin(async move {
            if self.1 {
                return Err(TokenError::permanent("the vault is sealed"));
            }
            Ok(self.0.issue_token(scopes))
        })
    }
}

#[test]
fn a_token_source_of_your_own_is_asked_when_a_token_is_needed() {
    let Some(emulator) = host() else { return };
    let google = start(emulator, 1);
    let source = Credentials::source(FromIssuer(google.issuer.clone(), false));
    let store = BigtableStore::with_config(config(&google, &unique("source"), source)).unwrap();
    store.create_table(&[]).unwrap();
    store.put(b"k", b"v").unwrap();
    std::thread::sleep(Duration::from_millis(1100));
    assert_eq!(store.get(b"k").unwrap().as_deref(), Some(&b"v"[..]));
    assert_eq!(google.issuer.issued_data.load(Ordering::Relaxed), 2);

    let sealed = Credentials::source(FromIssuer(google.issuer.clone(), true));
    let cfg = config(&google, &unique("sealed"), sealed)
        .retry(RetryPolicy::no_retries(Duration::from_secs(5)));
    let err = BigtableStore::with_config(cfg)
        .unwrap()
        .get(b"k")
        .unwrap_err();
    assert!(
        matches!(
            err,
            NetError::Auth {
                transient: false,
                ..
            }
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "bigtable: authentication failed: the token source: the vault is sealed"
    );
}

#[test]
fn refusals_say_what_is_wrong_and_hold_no_secret() {
    let Some(emulator) = host() else { return };
    let google = start(emulator, 600);
    let quick = RetryPolicy::no_retries(Duration::from_secs(5));
    let fails = |cfg: BigtableConfig| {
        let started = Instant::now();
        let err = match BigtableStore::with_config(cfg.retry(quick.clone())) {
            Ok(store) => store.get(b"k").unwrap_err(),
            Err(e) => e,
        };
        assert!(
            started.elapsed() < Duration::from_secs(4),
            "{err} took {:?}",
            started.elapsed()
        );
        let (text, debug) = (err.to_string(), format!("{err:?}"));
        for shown in [&text, &debug] {
            assert!(!google.issuer.leaks_a_token(shown), "{shown}");
            assert!(
                !shown.contains("PRIVATE KEY") && !shown.contains("MII"),
                "{shown}"
            );
        }
        err
    };

    // A key the token endpoint does not know.
    let stranger = Credentials::service_account_file(&google.stranger_key_file).unwrap();
    let err = fails(config(&google, "t", stranger.clone()));
    assert_eq!(
        err.to_string(),
        format!(
            "bigtable: authentication failed: the token endpoint {} (service account rowkey-test@rowkey-test.iam.gserviceaccount.com) refused: invalid_grant: Invalid JWT Signature. (HTTP 400)",
            google.token_uri
        )
    );
    assert!(!err.is_transient());
    // No credentials at an endpoint that wants them.
    let err = fails(config(&google, "t", Credentials::None));
    assert!(matches!(err, NetError::Auth { .. }), "{err:?}");
    assert!(
        err.to_string().contains("the server refused the access token (UNAUTHENTICATED): Request is missing required authentication credential"),
        "{err}"
    );
    // Certificates from a CA the client does not trust (the system's roots only): the token
    // endpoint's, then (without credentials) the proxy's.
    let err = fails(config(&google, "t", key_file(&google)).tls(Tls::system()));
    assert!(
        matches!(
            err,
            NetError::Auth {
                transient: false,
                ..
            }
        ),
        "{err:?}"
    );
    assert!(
        err.to_string()
            .contains(&format!("the token endpoint {}", google.token_uri))
            && err.to_string().contains("UnknownIssuer"),
        "{err}"
    );
    let err = fails(config(&google, "t", Credentials::None).tls(Tls::system()));
    assert!(matches!(err, NetError::Connect { .. }), "{err:?}");
    assert!(
        err.to_string().contains("UnknownIssuer") && err.to_string().contains("Tls::ca_pem"),
        "{err}"
    );
    // A certificate for another host.
    let other = Tls::ca_pem(pki().ca_pem.clone()).domain("bigtable.elsewhere.test");
    let err = fails(config(&google, "t", key_file(&google)).tls(other));
    assert!(
        err.to_string()
            .contains("not valid for name \"bigtable.elsewhere.test\"")
            && err.to_string().contains("Tls::domain"),
        "{err}"
    );
    // A token would travel in plain text.
    let plain = config(&google, "t", key_file(&google)).endpoint(&format!("http://{emulator}"));
    let err = fails(plain);
    assert!(
        err.to_string()
            .contains("plain text: access tokens go only over https://"),
        "{err}"
    );
    // The token endpoint down: transient, and says where.
    let pk = &pki().account;
    let gone = pki().key_file("gone.json", &pk.0, &pk.1, "https://127.0.0.1:9/token");
    let err = fails(config(
        &google,
        "t",
        Credentials::service_account_file(&gone).unwrap(),
    ));
    assert!(err.is_transient(), "{err:?}");
    assert!(
        err.to_string()
            .contains("cannot reach the token endpoint https://127.0.0.1:9/token"),
        "{err}"
    );
    // Not a key file; and what Debug shows of keys, tokens and configurations.
    let not_key = pki().dir.join("not-a-key.json");
    std::fs::write(&not_key, r#"{"type":"service_account","client_email":"a@b","private_key":"-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"}"#).unwrap();
    let err = Credentials::service_account_file(&not_key).unwrap_err();
    assert!(
        err.message
            .contains("`private_key` is not a usable RSA key"),
        "{err}"
    );
    let debug = format!("{:?} {stranger:?}", config(&google, "t", key_file(&google)));
    assert!(
        !debug.contains("MII") && debug.contains("<redacted>"),
        "{debug}"
    );
    let token = AccessToken::expires_in("ya29.rowkey-test-secret", Duration::from_secs(5));
    let shown = format!("{token:?}");
    assert!(
        !shown.contains("rowkey-test-secret") && shown.contains("<redacted>"),
        "{shown}"
    );
}
