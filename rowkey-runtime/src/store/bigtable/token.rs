//! The store's access tokens: fetched from the [`Credentials`] (the service-account JWT
//! exchange, the metadata server, a [`TokenSource`], gcp_auth for the rest of the
//! application-default chain), cached per scope, refreshed ahead of expiry, and dropped when
//! the server refuses one (`Auth::refused`).
//!
//! Nothing here ever formats a token, a JWT or a private key: errors name the endpoint, the
//! account and what the endpoint answered.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use bytes::Bytes;
use http_body_util::{BodyExt, Full};
use tonic::metadata::{Ascii, MetadataValue};

use super::credentials::{AccessToken, Credentials, ServiceAccountKey, TokenError, TokenSource};
use super::error;
use crate::store::net::error_chain as chain;
use crate::store::net::tls::{certificate_problem, Tls};
use crate::store::NetError;

/// The longest a token is refreshed ahead of its expiry (Google's clients: 3 min 45 s).
const MAX_AHEAD: Duration = Duration::from_secs(225);
const JWT_GRANT: &str = "urn%3Aietf%3Aparams%3Aoauth%3Agrant-type%3Ajwt-bearer";
/// The most of an error page quoted in an error.
const QUOTE: usize = 200;

/// Which of the store's two tokens.
#[derive(Clone, Copy, Debug)]
pub(super) enum Scope {
    /// Reads and writes.
    Data = 0,
    /// Table administration.
    Admin = 1,
}

impl Scope {
    fn url(self) -> &'static str {
        match self {
            Scope::Data => super::DATA_SCOPE,
            Scope::Admin => super::ADMIN_SCOPE,
        }
    }
}

/// A store's tokens: one per scope, each fetched by one task at a time.
pub(super) struct Auth {
    fetcher: Fetcher,
    slots: [Slot; 2],
    timeout: Duration,
}

#[derive(Default)]
struct Slot {
    cached: Mutex<Option<Cached>>,
    fetching: tokio::sync::Mutex<()>,
}

struct Cached {
    header: MetadataValue<Ascii>,
    fetched: Instant,
    /// When to fetch the next one (`None`: until refused).
    refresh_at: Option<Instant>,
    /// When this one stops working, if known.
    expires: Option<Instant>,
}

enum Fetcher {
    ServiceAccount(ServiceAccountKey, Http),
    Metadata(String, Http),
    Source(Arc<dyn TokenSource>),
    Gcp(Arc<dyn gcp_auth::TokenProvider>),
}

type Http = hyper_util::client::legacy::Client<
    hyper_rustls::HttpsConnector<hyper_util::client::legacy::connect::HttpConnector>,
    Full<Bytes>,
>;

impl Auth {
    /// The tokens `credentials` give (`None` for [`Credentials::None`]); HTTPS to token
    /// endpoints trusts the system's roots and `tls`'s CAs. Reads key files and, for the
    /// application-default chain without a key file, asks gcp_auth within `timeout`.
    pub(super) async fn new(
        credentials: &Credentials,
        tls: &Tls,
        timeout: Duration,
    ) -> Result<Option<Auth>, NetError> {
        let fetcher = match credentials {
            Credentials::None => return Ok(None),
            Credentials::ServiceAccount(key) => Fetcher::ServiceAccount(key.clone(), http(tls)?),
            Credentials::MetadataServer { host } => Fetcher::Metadata(host.clone(), http(tls)?),
            Credentials::Source(source) => Fetcher::Source(source.clone()),
            Credentials::ApplicationDefault => match key_file_from_env()? {
                Some(key) => Fetcher::ServiceAccount(key, http(tls)?),
                None => {
                    let provider = tokio::time::timeout(timeout, gcp_auth::provider())
                        .await
                        .map_err(|_| {
                            auth(
                                format!("no application-default credentials within {timeout:?}"),
                                true,
                            )
                        })?
                        .map_err(|e| {
                            auth(format!("application-default credentials: {e}"), false)
                        })?;
                    Fetcher::Gcp(provider)
                }
            },
        };
        Ok(Some(Auth {
            fetcher,
            slots: Default::default(),
            timeout,
        }))
    }

    /// The `authorization` header for `scope`: the cached token while it is fresh, else a new
    /// one. While one task fetches, the others keep using the old token if it still works.
    pub(super) async fn header(&self, scope: Scope) -> Result<MetadataValue<Ascii>, NetError> {
        let slot = &self.slots[scope as usize];
        if let Some(h) = slot.get(|c| c.fresh()) {
            return Ok(h);
        }
        let _guard = match slot.fetching.try_lock() {
            Ok(guard) => guard,
            Err(_) => {
                if let Some(h) = slot.get(|c| c.usable()) {
                    return Ok(h);
                }
                slot.fetching.lock().await
            }
        };
        if let Some(h) = slot.get(|c| c.fresh()) {
            return Ok(h);
        }
        let started = Instant::now();
        let token = tokio::time::timeout(self.timeout, self.fetcher.fetch(&[scope.url()]))
            .await
            .map_err(|_| {
                auth(
                    format!(
                        "{} gave no access token within {:?}",
                        self.fetcher, self.timeout
                    ),
                    true,
                )
            })?
            .map_err(|e| auth(e.message, e.transient))?;
        let cached = Cached::new(&token, started)?;
        tracing::debug!(
            target: "rowkey::store",
            store = error::STORE,
            source = %self.fetcher,
            valid_for_s = token.expiry().and_then(|e| e.duration_since(SystemTime::now()).ok()).map(|d| d.as_secs()),
            "access token fetched"
        );
        let header = cached.header.clone();
        *slot.cached.lock().unwrap_or_else(|p| p.into_inner()) = Some(cached);
        Ok(header)
    }

    /// The server refused a token sent after `sent`: drops every cached token fetched before
    /// then, so that the next call fetches a new one (a token fetched since is kept: another
    /// call already replaced the refused one).
    pub(super) fn refused(&self, sent: Instant) {
        for slot in &self.slots {
            let mut cached = slot.cached.lock().unwrap_or_else(|p| p.into_inner());
            if cached.as_ref().is_some_and(|c| c.fetched <= sent) {
                *cached = None;
            }
        }
    }
}

impl Slot {
    fn get(&self, ok: impl Fn(&Cached) -> bool) -> Option<MetadataValue<Ascii>> {
        let cached = self.cached.lock().unwrap_or_else(|p| p.into_inner());
        cached.as_ref().filter(|c| ok(c)).map(|c| c.header.clone())
    }
}

impl Cached {
    fn new(token: &AccessToken, started: Instant) -> Result<Self, NetError> {
        let mut header =
            MetadataValue::try_from(format!("Bearer {}", token.secret())).map_err(|_| {
                auth(
                    "the access token holds characters a header cannot carry".into(),
                    false,
                )
            })?;
        header.set_sensitive(true);
        let now = Instant::now();
        let expires = token.expiry().map(|at| {
            now + at
                .duration_since(SystemTime::now())
                .unwrap_or(Duration::ZERO)
        });
        let refresh_at = expires.map(|e| {
            let lifetime = e.saturating_duration_since(now);
            e - (lifetime / 4).min(MAX_AHEAD)
        });
        Ok(Cached {
            header,
            fetched: started,
            refresh_at,
            expires,
        })
    }

    fn fresh(&self) -> bool {
        self.refresh_at.is_none_or(|at| Instant::now() < at)
    }

    fn usable(&self) -> bool {
        self.expires.is_none_or(|at| Instant::now() < at)
    }
}

impl std::fmt::Display for Fetcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fetcher::ServiceAccount(key, _) => {
                write!(
                    f,
                    "the token endpoint {} (service account {})",
                    key.token_uri, key.client_email
                )
            }
            Fetcher::Metadata(host, _) => write!(f, "the metadata server at {host}"),
            Fetcher::Source(_) => f.write_str("the token source"),
            Fetcher::Gcp(_) => f.write_str("the application-default credentials"),
        }
    }
}

impl Fetcher {
    async fn fetch(&self, scopes: &[&str]) -> Result<AccessToken, TokenError> {
        match self {
            Fetcher::ServiceAccount(key, http) => {
                let body = format!("grant_type={JWT_GRANT}&assertion={}", jwt(key, scopes)?);
                let request = hyper::Request::post(&key.token_uri)
                    .header("content-type", "application/x-www-form-urlencoded")
                    .body(Full::from(body));
                exchange(http, request, self).await
            }
            Fetcher::Metadata(host, http) => {
                let request = hyper::Request::get(format!(
                    "http://{host}/computeMetadata/v1/instance/service-accounts/default/token?scopes={}",
                    scopes.join(",")
                ))
                .header("metadata-flavor", "Google")
                .body(Full::default());
                exchange(http, request, self).await
            }
            Fetcher::Source(source) => source.token(scopes).await.map_err(|e| TokenError {
                message: format!("the token source: {}", e.message),
                transient: e.transient,
            }),
            Fetcher::Gcp(provider) => {
                let token = provider.token(scopes).await.map_err(|e| {
                    TokenError::transient(format!("application-default credentials: {e}"))
                })?;
                let expiry = u64::try_from(token.expires_at().timestamp())
                    .ok()
                    .map(|s| UNIX_EPOCH + Duration::from_secs(s));
                Ok(match expiry {
                    Some(at) => AccessToken::expires_at(token.as_str(), at),
                    None => AccessToken::without_expiry(token.as_str()),
                })
            }
        }
    }
}

/// The signed assertion of RFC 7523 for `key`: RS256, valid an hour, audience the endpoint.
fn jwt(key: &ServiceAccountKey, scopes: &[&str]) -> Result<String, TokenError> {
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_err(|_| TokenError::permanent("the system clock is before 1970"))?
        .as_secs();
    let mut head = serde_json::json!({"alg": "RS256", "typ": "JWT"});
    if let Some(id) = &key.private_key_id {
        head["kid"] = id.as_str().into();
    }
    let claims = serde_json::json!({
        "iss": key.client_email,
        "scope": scopes.join(" "),
        "aud": key.token_uri,
        "iat": now,
        "exp": now + 3600,
    });
    let mut out = URL_SAFE_NO_PAD.encode(head.to_string());
    out.push('.');
    out.push_str(&URL_SAFE_NO_PAD.encode(claims.to_string()));
    let pair = ring::signature::RsaKeyPair::from_pkcs8(&key.private_key)
        .map_err(|e| TokenError::permanent(format!("the service-account key cannot sign ({e})")))?;
    let mut signature = vec![0; pair.public().modulus_len()];
    pair.sign(
        &ring::signature::RSA_PKCS1_SHA256,
        &ring::rand::SystemRandom::new(),
        out.as_bytes(),
        &mut signature,
    )
    .map_err(|_| TokenError::permanent("signing the token request failed"))?;
    out.push('.');
    out.push_str(&URL_SAFE_NO_PAD.encode(signature));
    Ok(out)
}

/// Sends a token request and reads an OAuth2 answer (`access_token`, `expires_in`), or says
/// what the endpoint refused and why.
async fn exchange(
    http: &Http,
    request: Result<hyper::Request<Full<Bytes>>, hyper::http::Error>,
    from: &Fetcher,
) -> Result<AccessToken, TokenError> {
    let request =
        request.map_err(|e| TokenError::permanent(format!("{from}: invalid address: {e}")))?;
    let response = http.request(request).await.map_err(|e| {
        let text = chain(&e);
        match certificate_problem(&text) {
            Some(tls) => TokenError::permanent(format!("{from}: {tls}")),
            None => TokenError::transient(format!("cannot reach {from}: {text}")),
        }
    })?;
    let status = response.status();
    let body = response
        .into_body()
        .collect()
        .await
        .map_err(|e| TokenError::transient(format!("{from}: the answer broke off: {}", chain(&e))))?
        .to_bytes();
    let json: Option<serde_json::Value> = serde_json::from_slice(&body).ok();
    let text = |name: &str| {
        json.as_ref()
            .and_then(|j| j.get(name))
            .and_then(serde_json::Value::as_str)
    };
    if !status.is_success() {
        let why = match (text("error"), text("error_description")) {
            (Some(e), Some(d)) => format!("{e}: {d}"),
            (Some(e), None) => e.to_string(),
            _ => String::from_utf8_lossy(&body[..body.len().min(QUOTE)]).into_owned(),
        };
        let message = format!("{from} refused: {why} (HTTP {})", status.as_u16());
        let transient = status.is_server_error() || status.as_u16() == 429;
        return Err(TokenError { message, transient });
    }
    let token = text("access_token")
        .ok_or_else(|| TokenError::permanent(format!("{from} answered without an access_token")))?;
    let lifetime = json
        .as_ref()
        .and_then(|j| j.get("expires_in"))
        .and_then(serde_json::Value::as_u64);
    Ok(match lifetime {
        Some(s) => AccessToken::expires_in(token, Duration::from_secs(s)),
        None => AccessToken::without_expiry(token),
    })
}

/// An HTTP(S) client trusting the system's roots and `tls`'s CAs (token endpoints are
/// Google's even when Bigtable is behind a private endpoint).
fn http(tls: &Tls) -> Result<Http, NetError> {
    let mut trust = tls.clone();
    trust.system_roots = true;
    let config = Arc::unwrap_or_clone(
        trust
            .rustls_client()
            .map_err(|e| error::connect(format!("TLS for token requests: {e}")))?,
    );
    let connector = hyper_rustls::HttpsConnectorBuilder::new()
        .with_tls_config(config)
        .https_or_http()
        .enable_http1()
        .build();
    Ok(
        hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new())
            .build(connector),
    )
}

/// `GOOGLE_APPLICATION_CREDENTIALS`'s key, when it names a service-account key file (other
/// kinds of credential file are gcp_auth's).
fn key_file_from_env() -> Result<Option<ServiceAccountKey>, NetError> {
    let Some(path) = std::env::var_os("GOOGLE_APPLICATION_CREDENTIALS") else {
        return Ok(None);
    };
    let json = std::fs::read(&path).map_err(|e| {
        auth(
            format!(
                "cannot read GOOGLE_APPLICATION_CREDENTIALS ({}): {e}",
                std::path::Path::new(&path).display()
            ),
            false,
        )
    })?;
    let is_key = serde_json::from_slice::<serde_json::Value>(&json)
        .ok()
        .is_some_and(|v| v.get("type").and_then(|t| t.as_str()) == Some("service_account"));
    if !is_key {
        return Ok(None);
    }
    ServiceAccountKey::from_json(&json).map(Some).map_err(|e| {
        auth(
            format!("GOOGLE_APPLICATION_CREDENTIALS: {}", e.message),
            false,
        )
    })
}

fn auth(message: String, transient: bool) -> NetError {
    NetError::Auth {
        store: error::STORE,
        message,
        transient,
    }
}
