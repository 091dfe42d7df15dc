//! What stands in for Google in front of the Bigtable emulator, all on loopback and speaking
//! the real protocols: a per-run CA and server certificate (made with the `openssl` CLI),
//! service-account key files (RSA, PKCS#8, as the console issues them), a TLS-terminating
//! gRPC proxy that lets a request through to the emulator only with a live `authorization:
//! Bearer` token (else a trailers-only `UNAUTHENTICATED`, as Google answers), an OAuth2 token
//! endpoint over HTTPS that checks the JWT's RS256 signature, issuer and audience before
//! issuing tokens that live seconds, and a metadata server over plain HTTP.
#![allow(dead_code)] // each test uses part of it

use std::collections::{HashMap, HashSet};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::{Duration, Instant};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use bytes::Bytes;
use http_body_util::combinators::BoxBody;
use http_body_util::{BodyExt, Empty, Full};
use hyper::body::Incoming;
use hyper::{Request, Response};
use hyper_util::rt::{TokioExecutor, TokioIo};
use rustls_pki_types::pem::PemObject;
use rustls_pki_types::{CertificateDer, PrivateKeyDer};

type Body = BoxBody<Bytes, hyper::Error>;

/// The scopes a token may be asked for.
pub const DATA_SCOPE: &str = "https://www.googleapis.com/auth/bigtable.data";
pub const ADMIN_SCOPE: &str = "https://www.googleapis.com/auth/bigtable.admin.table";

/// The per-run certificates and keys, made once per test binary.
pub struct Pki {
    pub dir: PathBuf,
    /// The CA's certificate, PEM.
    pub ca_pem: Vec<u8>,
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
    /// The registered service account's key: email, PKCS#8 PEM, RSAPublicKey DER.
    pub account: (String, String, Vec<u8>),
    /// A key the token endpoint does not know (same email, another key).
    pub stranger: (String, String),
}

fn openssl(dir: &Path, args: &[&str]) {
    let out = Command::new("openssl")
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the openssl CLI (Debian: openssl) makes the per-run certificates");
    assert!(
        out.status.success(),
        "openssl {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// The PKI, made on first use.
pub fn pki() -> &'static Pki {
    static PKI: OnceLock<Pki> = OnceLock::new();
    PKI.get_or_init(|| {
        // Under cargo's scratch directory for integration tests, not /tmp: the PKI lives as
        // long as the test process (a static), so nothing would remove it from /tmp.
        let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("google-fakes-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        openssl(
            &dir,
            &[
                "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "2", "-subj", "/CN=rowkey test CA",
                "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ],
        );
        openssl(
            &dir,
            &[
                "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
                "-keyout", "server.key", "-out", "server.csr", "-subj", "/CN=localhost",
            ],
        );
        std::fs::write(
            dir.join("server.ext"),
            "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\nkeyUsage=digitalSignature\nextendedKeyUsage=serverAuth\n",
        )
        .unwrap();
        openssl(
            &dir,
            &[
                "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
                "-CAcreateserial", "-out", "server.pem", "-days", "2", "-extfile", "server.ext",
            ],
        );
        for name in ["account.key", "stranger.key"] {
            openssl(
                &dir,
                &["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048", "-out", name],
            );
        }
        let read = |name: &str| std::fs::read(dir.join(name)).unwrap();
        let account_pem = String::from_utf8(read("account.key")).unwrap();
        let der = rustls_pki_types::PrivatePkcs8KeyDer::from_pem_slice(account_pem.as_bytes())
            .unwrap();
        let public = ring::signature::RsaKeyPair::from_pkcs8(der.secret_pkcs8_der())
            .unwrap()
            .public()
            .as_ref()
            .to_vec();
        let email = "rowkey-test@rowkey-test.iam.gserviceaccount.com".to_string();
        Pki {
            ca_pem: read("ca.pem"),
            chain: CertificateDer::pem_slice_iter(&read("server.pem"))
                .map(Result::unwrap)
                .collect(),
            key: PrivateKeyDer::from_pem_slice(&read("server.key")).unwrap(),
            account: (email.clone(), account_pem, public),
            stranger: (email, String::from_utf8(read("stranger.key")).unwrap()),
            dir,
        }
    })
}

impl Pki {
    fn server_config(&self, alpn: &[&[u8]]) -> Arc<rustls::ServerConfig> {
        let mut config = rustls::ServerConfig::builder_with_provider(Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(self.chain.clone(), self.key.clone_key())
        .unwrap();
        config.alpn_protocols = alpn.iter().map(|p| p.to_vec()).collect();
        Arc::new(config)
    }

    /// A service-account key file for `email` with `key_pem`, naming `token_uri`.
    pub fn key_file(&self, name: &str, email: &str, key_pem: &str, token_uri: &str) -> PathBuf {
        let json = serde_json::json!({
            "type": "service_account",
            "project_id": "rowkey-test",
            "private_key_id": "0123456789abcdef",
            "private_key": key_pem,
            "client_email": email,
            "client_id": "1",
            "token_uri": token_uri,
        });
        let path = self.dir.join(name);
        std::fs::write(&path, json.to_string()).unwrap();
        path
    }
}

/// The token authority: what it issued, what it revoked, and what the proxy saw.
#[derive(Default)]
pub struct Issuer {
    /// Seconds each token lives.
    pub lifetime_s: AtomicU64,
    tokens: Mutex<HashMap<String, Instant>>,
    next: AtomicUsize,
    /// Refuse every key from now on (a disabled account).
    pub disabled: AtomicBool,
    /// Tokens issued, per scope (data, admin).
    pub issued_data: AtomicUsize,
    pub issued_admin: AtomicUsize,
    /// Requests the proxy let through, and those it answered UNAUTHENTICATED.
    pub authorized: AtomicUsize,
    pub refused: AtomicUsize,
    /// The tokens the proxy saw, distinct.
    seen: Mutex<HashSet<String>>,
    /// After this many authorized requests (0: never), the proxy revokes every token, and
    /// with `cut_disables` disables the account too.
    pub cut_after: AtomicUsize,
    pub cut_disables: AtomicBool,
}

impl Issuer {
    fn issue(&self, scopes: &str) -> (String, u64) {
        let n = self.next.fetch_add(1, Ordering::Relaxed);
        let token = format!("ya29.rowkey-test-{n}-{:x}", rand_u64());
        let lifetime = self.lifetime_s.load(Ordering::Relaxed);
        self.tokens.lock().unwrap().insert(
            token.clone(),
            Instant::now() + Duration::from_secs(lifetime),
        );
        if scopes.contains(ADMIN_SCOPE) {
            self.issued_admin.fetch_add(1, Ordering::Relaxed);
        } else {
            self.issued_data.fetch_add(1, Ordering::Relaxed);
        }
        (token, lifetime)
    }

    /// A token of this issuer for a [`TokenSource`](rowkey::store::TokenSource).
    pub fn issue_token(&self, scopes: &[&str]) -> rowkey::store::AccessToken {
        let (token, lifetime) = self.issue(&scopes.join(" "));
        rowkey::store::AccessToken::expires_in(token, Duration::from_secs(lifetime))
    }

    fn live(&self, token: &str) -> bool {
        self.tokens
            .lock()
            .unwrap()
            .get(token)
            .is_some_and(|exp| Instant::now() < *exp)
    }

    /// Revokes every token issued so far.
    pub fn revoke_all(&self) {
        self.tokens.lock().unwrap().clear();
    }

    /// Distinct tokens the proxy was shown.
    pub fn tokens_seen(&self) -> usize {
        self.seen.lock().unwrap().len()
    }

    /// Whether `text` holds any token issued.
    pub fn leaks_a_token(&self, text: &str) -> bool {
        text.contains("ya29.rowkey-test-")
    }
}

fn rand_u64() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(Instant::now().elapsed().as_nanos());
    h.finish()
}

/// The fakes of one test: its issuer and its three servers, on a runtime of their own.
pub struct Google {
    pub issuer: Arc<Issuer>,
    /// `https://localhost:PORT`: the proxy in front of the emulator.
    pub endpoint: String,
    /// `https://localhost:PORT/token`.
    pub token_uri: String,
    /// `127.0.0.1:PORT`: the metadata server.
    pub metadata_host: String,
    /// The registered account's key file, naming `token_uri`.
    pub key_file: PathBuf,
    /// A key file for the same account with a key the endpoint does not know.
    pub stranger_key_file: PathBuf,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Drop for Google {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

/// Starts a proxy in front of `emulator`, a token endpoint and a metadata server, issuing
/// tokens that live `lifetime_s` seconds.
pub fn start(emulator: &str, lifetime_s: u64) -> Google {
    let pki = pki();
    let issuer = Arc::new(Issuer {
        lifetime_s: AtomicU64::new(lifetime_s),
        ..Issuer::default()
    });
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    // Bound here, served on the fakes' runtime (a test may call this inside a runtime of its
    // own, where blocking on another is not allowed).
    let bind = || {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.set_nonblocking(true).unwrap();
        l
    };
    let (proxy, token, metadata) = (bind(), bind(), bind());
    let port = |l: &std::net::TcpListener| l.local_addr().unwrap().port();
    let token_uri = format!("https://localhost:{}/token", port(&token));
    let metadata_host = format!("127.0.0.1:{}", port(&metadata));
    let endpoint = format!("https://localhost:{}", port(&proxy));

    let upstream = hyper_util::client::legacy::Client::builder(TokioExecutor::new())
        .http2_only(true)
        .build_http::<Incoming>();
    let emulator = emulator.to_string();
    let state = issuer.clone();
    runtime.spawn(serve_tls(
        proxy,
        pki.server_config(&[b"h2"]),
        true,
        move |req| {
            let (state, upstream, emulator) = (state.clone(), upstream.clone(), emulator.clone());
            async move { proxy_call(req, &state, &upstream, &emulator).await }
        },
    ));
    let state = issuer.clone();
    let audience = token_uri.clone();
    runtime.spawn(serve_tls(
        token,
        pki.server_config(&[b"http/1.1"]),
        false,
        move |req| {
            let (state, audience) = (state.clone(), audience.clone());
            async move { token_call(req, &state, &audience).await }
        },
    ));
    let state = issuer.clone();
    runtime.spawn(async move {
        let metadata = tokio::net::TcpListener::from_std(metadata).unwrap();
        loop {
            let Ok((tcp, _)) = metadata.accept().await else {
                return;
            };
            let state = state.clone();
            tokio::spawn(async move {
                let service = hyper::service::service_fn(move |req| {
                    let state = state.clone();
                    async move { Ok::<_, Infallible>(metadata_call(req, &state)) }
                });
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(TokioIo::new(tcp), service)
                    .await;
            });
        }
    });
    let (email, key, _) = &pki.account;
    let n = rand_u64();
    Google {
        key_file: pki.key_file(&format!("account-{n:x}.json"), email, key, &token_uri),
        stranger_key_file: pki.key_file(
            &format!("stranger-{n:x}.json"),
            &pki.stranger.0,
            &pki.stranger.1,
            &token_uri,
        ),
        issuer,
        endpoint,
        token_uri,
        metadata_host,
        runtime: Some(runtime),
    }
}

/// Accepts TLS connections on `listener` and serves HTTP/2 (`h2`) or HTTP/1.1 on each with
/// `handle`.
async fn serve_tls<F, Fut>(
    listener: std::net::TcpListener,
    config: Arc<rustls::ServerConfig>,
    h2: bool,
    handle: F,
) where
    F: Fn(Request<Incoming>) -> Fut + Clone + Send + Sync + 'static,
    Fut: std::future::Future<Output = Response<Body>> + Send + 'static,
{
    let listener = tokio::net::TcpListener::from_std(listener).unwrap();
    let acceptor = tokio_rustls::TlsAcceptor::from(config);
    loop {
        let Ok((tcp, _)) = listener.accept().await else {
            return;
        };
        let (acceptor, handle) = (acceptor.clone(), handle.clone());
        tokio::spawn(async move {
            // A client that refuses the certificate ends the handshake: nothing to serve.
            let Ok(tls) = acceptor.accept(tcp).await else {
                return;
            };
            let service = hyper::service::service_fn(move |req| {
                let handle = handle.clone();
                async move { Ok::<_, Infallible>(handle(req).await) }
            });
            let io = TokioIo::new(tls);
            if h2 {
                let _ = hyper::server::conn::http2::Builder::new(TokioExecutor::new())
                    .serve_connection(io, service)
                    .await;
            } else {
                let _ = hyper::server::conn::http1::Builder::new()
                    .serve_connection(io, service)
                    .await;
            }
        });
    }
}

fn empty() -> Body {
    Empty::<Bytes>::new()
        .map_err(|never| match never {})
        .boxed()
}

fn full(bytes: impl Into<Bytes>) -> Body {
    Full::new(bytes.into())
        .map_err(|never| match never {})
        .boxed()
}

/// The gRPC proxy: a live bearer token, or UNAUTHENTICATED (trailers-only, as Google's front
/// end answers); the request then goes to the emulator as it came.
async fn proxy_call(
    mut req: Request<Incoming>,
    issuer: &Issuer,
    upstream: &hyper_util::client::legacy::Client<
        hyper_util::client::legacy::connect::HttpConnector,
        Incoming,
    >,
    emulator: &str,
) -> Response<Body> {
    let token = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .map(str::to_string);
    let live = token.as_deref().is_some_and(|t| issuer.live(t));
    if !live {
        issuer.refused.fetch_add(1, Ordering::Relaxed);
        let why = if token.is_some() {
            "Request had invalid authentication credentials. Expected OAuth 2 access token"
        } else {
            "Request is missing required authentication credential"
        };
        return Response::builder()
            .header("content-type", "application/grpc")
            .header("grpc-status", "16")
            .header("grpc-message", why)
            .body(empty())
            .unwrap();
    }
    issuer
        .seen
        .lock()
        .unwrap()
        .insert(token.unwrap_or_default());
    let n = issuer.authorized.fetch_add(1, Ordering::Relaxed) + 1;
    if n == issuer.cut_after.load(Ordering::Relaxed) {
        if issuer.cut_disables.load(Ordering::Relaxed) {
            issuer.disabled.store(true, Ordering::Relaxed);
        }
        issuer.revoke_all();
    }
    let path = req
        .uri()
        .path_and_query()
        .map_or("/", |p| p.as_str())
        .to_string();
    *req.uri_mut() = format!("http://{emulator}{path}").parse().unwrap();
    req.headers_mut().remove("authorization");
    match upstream.request(req).await {
        Ok(response) => response.map(|b| b.boxed()),
        Err(e) => Response::builder()
            .header("content-type", "application/grpc")
            .header("grpc-status", "14")
            .header("grpc-message", format!("proxy: {e}"))
            .body(empty())
            .unwrap(),
    }
}

fn json_response(status: u16, body: serde_json::Value) -> Response<Body> {
    Response::builder()
        .status(status)
        .header("content-type", "application/json")
        .body(full(body.to_string()))
        .unwrap()
}

fn refuse(description: &str) -> Response<Body> {
    json_response(
        400,
        serde_json::json!({"error": "invalid_grant", "error_description": description}),
    )
}

/// The token endpoint: RFC 7523's JWT bearer grant, checked as Google checks it (signature by
/// the account's registered key, audience this endpoint, an hour at most).
async fn token_call(req: Request<Incoming>, issuer: &Issuer, audience: &str) -> Response<Body> {
    if req.method() != hyper::Method::POST || req.uri().path() != "/token" {
        return json_response(404, serde_json::json!({"error": "not_found"}));
    }
    let Ok(body) = req.into_body().collect().await else {
        return json_response(400, serde_json::json!({"error": "invalid_request"}));
    };
    let body = String::from_utf8_lossy(&body.to_bytes()).into_owned();
    let form: HashMap<&str, &str> = body
        .split('&')
        .filter_map(|pair| pair.split_once('='))
        .collect();
    if form.get("grant_type") != Some(&"urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer") {
        return json_response(
            400,
            serde_json::json!({"error": "unsupported_grant_type", "error_description": "Invalid grant_type"}),
        );
    }
    let Some(assertion) = form.get("assertion") else {
        return refuse("No assertion");
    };
    let parts: Vec<&str> = assertion.split('.').collect();
    let [head, claims, signature] = parts[..] else {
        return refuse("Invalid JWT");
    };
    let decode = |s: &str| URL_SAFE_NO_PAD.decode(s).ok();
    let Some(claims_json) =
        decode(claims).and_then(|c| serde_json::from_slice::<serde_json::Value>(&c).ok())
    else {
        return refuse("Invalid JWT: claims");
    };
    let (email, _, public) = &pki().account;
    if claims_json["iss"].as_str() != Some(email.as_str()) {
        return refuse("Invalid grant: account not found");
    }
    let signed = format!("{head}.{claims}");
    let verified = decode(signature).is_some_and(|sig| {
        ring::signature::UnparsedPublicKey::new(
            &ring::signature::RSA_PKCS1_2048_8192_SHA256,
            public,
        )
        .verify(signed.as_bytes(), &sig)
        .is_ok()
    });
    if !verified {
        return refuse("Invalid JWT Signature.");
    }
    if claims_json["aud"].as_str() != Some(audience) {
        return refuse("Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.");
    }
    let (iat, exp) = (claims_json["iat"].as_u64(), claims_json["exp"].as_u64());
    if !matches!((iat, exp), (Some(i), Some(e)) if e > i && e - i <= 3600) {
        return refuse("Invalid JWT: Token must be a short-lived token (60 minutes)");
    }
    if issuer.disabled.load(Ordering::Relaxed) {
        return refuse("Account disabled");
    }
    let scope = claims_json["scope"].as_str().unwrap_or_default();
    if !scope.contains(DATA_SCOPE) && !scope.contains(ADMIN_SCOPE) {
        return json_response(400, serde_json::json!({"error": "invalid_scope"}));
    }
    let (token, lifetime) = issuer.issue(scope);
    json_response(
        200,
        serde_json::json!({"access_token": token, "expires_in": lifetime, "token_type": "Bearer"}),
    )
}

/// The metadata server's token path (only with `Metadata-Flavor: Google`, as on a VM).
fn metadata_call(req: Request<Incoming>, issuer: &Issuer) -> Response<Body> {
    if req.uri().path() != "/computeMetadata/v1/instance/service-accounts/default/token" {
        return json_response(404, serde_json::json!({"error": "not_found"}));
    }
    if req.headers().get("metadata-flavor").map(|v| v.as_bytes()) != Some(b"Google") {
        return json_response(
            403,
            serde_json::json!({"error": "Missing Metadata-Flavor:Google header"}),
        );
    }
    let scopes = req
        .uri()
        .query()
        .and_then(|q| q.split('&').find_map(|p| p.strip_prefix("scopes=")))
        .unwrap_or(DATA_SCOPE)
        .replace(',', " ");
    let (token, lifetime) = issuer.issue(&scopes);
    json_response(
        200,
        serde_json::json!({"access_token": token, "expires_in": lifetime, "token_type": "Bearer"}),
    )
}

/// The address a listener of these fakes is bound to, for a test's messages.
pub fn addr_of(url: &str) -> SocketAddr {
    url.trim_start_matches("https://")
        .trim_start_matches("http://")
        .replace("localhost", "127.0.0.1")
        .split('/')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}
