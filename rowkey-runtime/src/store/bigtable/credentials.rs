//! Where a Bigtable store gets its OAuth2 access tokens: [`Credentials`] (a service-account key
//! file, the metadata server, a [`TokenSource`] of your own, Google's application-default
//! chain, or none), the tokens themselves ([`AccessToken`], whose `Debug` never shows the
//! secret) and a source's failures ([`TokenError`]).
//!
//! The store asks its source for a token only when it needs a new one: at the first call,
//! shortly before the cached token expires (a quarter of its lifetime before, at most 225 s, as
//! Google's clients do), and once after the server refused it with `UNAUTHENTICATED`. The
//! exchanges themselves are in `token.rs`.

use std::fmt;
use std::future::Future;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, SystemTime};

/// Google's token endpoint, for key files that do not name one.
const GOOGLE_TOKEN_URI: &str = "https://oauth2.googleapis.com/token";
/// The metadata server's host on Google Cloud.
const METADATA_HOST: &str = "metadata.google.internal";

/// An OAuth2 access token and when it expires. Its `Debug` shows the expiry, not the token.
#[derive(Clone)]
pub struct AccessToken {
    secret: String,
    expires_at: Option<SystemTime>,
}

impl AccessToken {
    /// A token valid for `lifetime` from now (`expires_in` of an OAuth2 answer).
    pub fn expires_in(secret: impl Into<String>, lifetime: Duration) -> Self {
        AccessToken {
            secret: secret.into(),
            expires_at: SystemTime::now().checked_add(lifetime),
        }
    }

    /// A token valid until `expires_at`.
    pub fn expires_at(secret: impl Into<String>, expires_at: SystemTime) -> Self {
        AccessToken {
            secret: secret.into(),
            expires_at: Some(expires_at),
        }
    }

    /// A token with no known expiry: used until the server refuses it.
    pub fn without_expiry(secret: impl Into<String>) -> Self {
        AccessToken {
            secret: secret.into(),
            expires_at: None,
        }
    }

    /// The token itself (what goes after `Bearer `).
    pub fn secret(&self) -> &str {
        &self.secret
    }

    /// When it expires, if known.
    pub fn expiry(&self) -> Option<SystemTime> {
        self.expires_at
    }
}

impl fmt::Debug for AccessToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("AccessToken")
            .field("secret", &"<redacted>")
            .field("expires_at", &self.expires_at)
            .finish()
    }
}

/// Why a [`TokenSource`] gave no token: a message without secrets, and whether asking again
/// may succeed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TokenError {
    /// What went wrong (shown in the store's error).
    pub message: String,
    /// Whether asking again may succeed (a network failure, a server error).
    pub transient: bool,
}

impl TokenError {
    /// A failure that asking again will not mend (a refused key).
    pub fn permanent(message: impl Into<String>) -> Self {
        TokenError {
            message: message.into(),
            transient: false,
        }
    }

    /// A failure that may pass (the endpoint unreachable or busy).
    pub fn transient(message: impl Into<String>) -> Self {
        TokenError {
            message: message.into(),
            transient: true,
        }
    }
}

impl fmt::Display for TokenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for TokenError {}

/// The future a [`TokenSource`] returns.
pub type TokenFuture<'a> =
    Pin<Box<dyn Future<Output = Result<AccessToken, TokenError>> + Send + 'a>>;

/// Access tokens from anywhere (a secret manager, workload identity federation, a sidecar).
/// The store calls [`TokenSource::token`] only when it needs a new token and caches the answer
/// until shortly before its expiry, so a source need not cache.
pub trait TokenSource: Send + Sync + 'static {
    /// A new token for `scopes` (Bigtable's data scope, or its table-admin scope).
    fn token<'a>(&'a self, scopes: &'a [&'a str]) -> TokenFuture<'a>;
}

/// Where a Bigtable store gets its access tokens ([`BigtableConfig::credentials`]).
///
/// [`BigtableConfig::credentials`]: super::BigtableConfig::credentials
#[derive(Clone, Default)]
#[non_exhaustive]
pub enum Credentials {
    /// Google's application-default chain: the service-account key file named by
    /// `GOOGLE_APPLICATION_CREDENTIALS`, else gcloud's user credentials, else the metadata
    /// server (the last two through `gcp_auth`).
    #[default]
    ApplicationDefault,
    /// A service-account key: a signed JWT exchanged at the key's `token_uri`.
    ServiceAccount(ServiceAccountKey),
    /// The metadata server of a Google Cloud VM, GKE pod or Cloud Run service, at `host`
    /// (`metadata.google.internal`, or `GCE_METADATA_HOST`).
    MetadataServer {
        /// `host[:port]`, reached over plain HTTP as Google documents.
        host: String,
    },
    /// Tokens from a source of your own.
    Source(Arc<dyn TokenSource>),
    /// No token (the emulator, or an endpoint that authenticates otherwise).
    None,
}

impl Credentials {
    /// The service-account key file at `path` (the JSON the console downloads).
    pub fn service_account_file(path: impl AsRef<Path>) -> Result<Self, TokenError> {
        ServiceAccountKey::from_file(path).map(Credentials::ServiceAccount)
    }

    /// The metadata server at `GCE_METADATA_HOST`, or `metadata.google.internal`.
    pub fn metadata_server() -> Self {
        Credentials::MetadataServer {
            host: std::env::var("GCE_METADATA_HOST").unwrap_or_else(|_| METADATA_HOST.into()),
        }
    }

    /// Tokens from `source`.
    pub fn source(source: impl TokenSource) -> Self {
        Credentials::Source(Arc::new(source))
    }
}

impl fmt::Debug for Credentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Credentials::ApplicationDefault => f.write_str("ApplicationDefault"),
            Credentials::ServiceAccount(key) => f.debug_tuple("ServiceAccount").field(key).finish(),
            Credentials::MetadataServer { host } => f
                .debug_struct("MetadataServer")
                .field("host", host)
                .finish(),
            Credentials::Source(_) => f.write_str("Source(..)"),
            Credentials::None => f.write_str("None"),
        }
    }
}

/// A service account's key, from the JSON key file. Its `Debug` shows the account and the
/// token endpoint, never the private key.
#[derive(Clone)]
pub struct ServiceAccountKey {
    pub(super) client_email: String,
    pub(super) private_key_id: Option<String>,
    pub(super) token_uri: String,
    /// PKCS#8 DER, checked to be an RSA key when the file was read.
    pub(super) private_key: Arc<[u8]>,
}

impl ServiceAccountKey {
    /// Reads and checks the key file at `path`.
    pub fn from_file(path: impl AsRef<Path>) -> Result<Self, TokenError> {
        let path = path.as_ref();
        let json = std::fs::read(path).map_err(|e| {
            TokenError::permanent(format!(
                "cannot read the service-account key file {}: {e}",
                path.display()
            ))
        })?;
        Self::from_json(&json).map_err(|e| {
            TokenError::permanent(format!(
                "service-account key file {}: {}",
                path.display(),
                e.message
            ))
        })
    }

    /// Reads and checks a key file's JSON.
    pub fn from_json(json: &[u8]) -> Result<Self, TokenError> {
        use rustls_pki_types::pem::PemObject;
        let bad = |m: &str| TokenError::permanent(m.to_string());
        let v: serde_json::Value =
            serde_json::from_slice(json).map_err(|e| bad(&format!("not JSON: {e}")))?;
        let field = |name: &str| v.get(name).and_then(serde_json::Value::as_str);
        match field("type") {
            Some("service_account") => {}
            Some(other) => {
                return Err(bad(&format!(
                    "a `{other}` credential, not a service-account key"
                )))
            }
            None => {
                return Err(bad(
                    "no `type` (a service-account key says `service_account`)",
                ))
            }
        }
        let client_email = field("client_email")
            .ok_or_else(|| bad("no `client_email`"))?
            .to_string();
        let pem = field("private_key").ok_or_else(|| bad("no `private_key`"))?;
        // Never quote the key: only what is wrong with it.
        let der = rustls_pki_types::PrivatePkcs8KeyDer::from_pem_slice(pem.as_bytes())
            .map_err(|_| bad("`private_key` is not a PKCS#8 PEM private key"))?;
        ring::signature::RsaKeyPair::from_pkcs8(der.secret_pkcs8_der())
            .map_err(|e| bad(&format!("`private_key` is not a usable RSA key ({e})")))?;
        Ok(ServiceAccountKey {
            client_email,
            private_key_id: field("private_key_id").map(str::to_string),
            token_uri: field("token_uri").unwrap_or(GOOGLE_TOKEN_URI).to_string(),
            private_key: der.secret_pkcs8_der().into(),
        })
    }

    /// The service account (`client_email`).
    pub fn client_email(&self) -> &str {
        &self.client_email
    }

    /// Where tokens are exchanged (`token_uri`).
    pub fn token_uri(&self) -> &str {
        &self.token_uri
    }
}

impl fmt::Debug for ServiceAccountKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ServiceAccountKey")
            .field("client_email", &self.client_email)
            .field("token_uri", &self.token_uri)
            .field("private_key", &"<redacted>")
            .finish()
    }
}
