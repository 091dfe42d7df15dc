//! Kerberos for secured HBase clusters: the configuration users give ([`Kerberos`],
//! [`Protection`]), the login it stands for, and a SASL `GSSAPI` client (RFC 4752) that both
//! HBase stores drive over their own framing (HBase's RPC: a 4-byte status and length per
//! server message; Thrift's SASL transport: a status byte and a 4-byte length), then the
//! security layer it negotiates ([`Layer`]: messages signed, or signed and sealed); and SPNEGO
//! for HTTP (RFC 4559, [`Negotiation`]): a Thrift2 gateway in HTTP mode authenticates every
//! request from its `Authorization: Negotiate` header.
//!
//! The Kerberos work itself is MIT Kerberos' (or Heimdal's), through `libgssapi`: tickets from
//! the user's ticket cache, or from a keytab into a per-store in-memory cache (fetched again
//! from the keytab at half their lifetime, and at once if they are found expired). Nothing here holds or prints a key or a ticket:
//! errors carry GSSAPI's own messages, which name principals and files, never secrets.

use std::ffi::CString;
use std::fmt;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use libgssapi::context::{ClientCtx, CtxFlags, SecurityContext};
use libgssapi::credential::Cred;
use libgssapi::name::Name;
use libgssapi::oid::{
    Oid, GSS_MECH_KRB5, GSS_MECH_SPNEGO, GSS_NT_HOSTBASED_SERVICE, GSS_NT_KRB5_PRINCIPAL,
};

/// How a secured HBase cluster is authenticated to: Kerberos through SASL `GSSAPI`, as HBase's
/// own clients do with `hbase.security.authentication=kerberos`.
///
/// The client's tickets come from the user's ticket cache (after `kinit`; `KRB5CCNAME` names
/// it) by default, or from a keytab ([`Kerberos::keytab`]), which is what a service should use:
/// tickets are fetched again from the keytab at half their lifetime (and at once if they are
/// found expired), for as long as the store lives.
/// The Kerberos configuration (`/etc/krb5.conf`, or the file `KRB5_CONFIG` names) says where
/// the KDC is.
///
/// ```
/// # use rowkey::store::{Kerberos, Protection};
/// let kerberos = Kerberos::keytab("etl@EXAMPLE.COM", "/etc/security/keytabs/etl.keytab")
///     .protection(&[Protection::Privacy]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Kerberos {
    /// The client principal (`user@REALM`). With a keytab: whose key to log in with
    /// (required). Without: which principal's tickets to use from the cache collection (`None`:
    /// the default cache's).
    pub principal: Option<String>,
    /// A keytab to log in from (`None`: a ticket cache).
    pub keytab: Option<PathBuf>,
    /// The ticket cache to use, such as `FILE:/run/etl/krb5cc` (`None`: the default cache,
    /// `KRB5CCNAME` or the library's). Ignored with a keytab, whose tickets go to a private
    /// in-memory cache.
    pub cache: Option<String>,
    /// The servers' service name: `hbase` unless the cluster's principals use another
    /// (`hbase.regionserver.kerberos.principal` is `SERVICE/_HOST@REALM`).
    pub service: String,
    /// The servers' principal when host-based naming (`SERVICE@host`, the host the cluster
    /// advertises, canonicalized by the Kerberos library) does not find it: HBase's pattern,
    /// with `_HOST` standing for each server's host name, such as `hbase/_HOST@EXAMPLE.COM`.
    pub server_principal: Option<String>,
    /// The service name of an HTTP gateway's SPNEGO principal (a Thrift2 gateway with
    /// `hbase.regionserver.thrift.http`; its `hbase.thrift.spnego.principal` is
    /// `SERVICE/host@REALM`): `HTTP` unless it uses another. `server_principal` does not apply
    /// to it.
    pub http_service: String,
    /// The qualities of protection this client accepts, in order of preference: the first the
    /// server also offers is used (HBase's `hbase.rpc.protection`; a Thrift2 gateway's
    /// `hbase.thrift.security.qop`). By default all three, strongest first, so the client
    /// takes the strongest the cluster allows.
    pub protection: Vec<Protection>,
}

/// A SASL quality of protection: what happens to every message after authentication.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Protection {
    /// Authentication only; messages as they are (`auth`, HBase's `authentication`).
    Authentication,
    /// Messages signed: tampering is detected (`auth-int`, HBase's `integrity`).
    Integrity,
    /// Messages signed and encrypted (`auth-conf`, HBase's `privacy`).
    Privacy,
}

impl Protection {
    /// The bit RFC 4752's security-layer negotiation uses for it.
    fn bit(self) -> u8 {
        match self {
            Protection::Authentication => 1,
            Protection::Integrity => 2,
            Protection::Privacy => 4,
        }
    }

    /// HBase's name for it (`hbase.rpc.protection`).
    pub fn hbase_name(self) -> &'static str {
        match self {
            Protection::Authentication => "authentication",
            Protection::Integrity => "integrity",
            Protection::Privacy => "privacy",
        }
    }
}

impl fmt::Display for Protection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.hbase_name())
    }
}

impl Kerberos {
    /// Tickets from the user's ticket cache (`kinit` first).
    pub fn ticket_cache() -> Self {
        Kerberos {
            principal: None,
            keytab: None,
            cache: None,
            service: "hbase".into(),
            server_principal: None,
            http_service: "HTTP".into(),
            protection: vec![
                Protection::Privacy,
                Protection::Integrity,
                Protection::Authentication,
            ],
        }
    }

    /// Logs in as `principal` with the key in `keytab`, and again from it as tickets expire.
    pub fn keytab(principal: &str, keytab: impl Into<PathBuf>) -> Self {
        Kerberos {
            principal: Some(principal.into()),
            keytab: Some(keytab.into()),
            ..Kerberos::ticket_cache()
        }
    }

    /// Tickets from the cache named `cache` ([`Kerberos::cache`]), such as `FILE:/path`.
    pub fn cache(mut self, cache: &str) -> Self {
        self.cache = Some(cache.into());
        self
    }

    /// Which principal's tickets to use from the cache collection ([`Kerberos::principal`]).
    pub fn principal(mut self, principal: &str) -> Self {
        self.principal = Some(principal.into());
        self
    }

    /// The servers' service name ([`Kerberos::service`]).
    pub fn service(mut self, service: &str) -> Self {
        self.service = service.into();
        self
    }

    /// An HTTP gateway's service name ([`Kerberos::http_service`]).
    pub fn http_service(mut self, service: &str) -> Self {
        self.http_service = service.into();
        self
    }

    /// The servers' principal pattern ([`Kerberos::server_principal`]).
    pub fn server_principal(mut self, pattern: &str) -> Self {
        self.server_principal = Some(pattern.into());
        self
    }

    /// The qualities of protection accepted, preferred first ([`Kerberos::protection`]).
    pub fn protection(mut self, accepted: &[Protection]) -> Self {
        self.protection = accepted.to_vec();
        self
    }

    /// The configuration's mistakes, before any connection.
    pub(crate) fn validate(&self) -> Result<(), String> {
        if self.keytab.is_some() && self.principal.is_none() {
            return Err("Kerberos: a keytab needs the principal to log in as".into());
        }
        if self.protection.is_empty() {
            return Err("Kerberos: no quality of protection accepted".into());
        }
        if self.service.is_empty() || self.http_service.is_empty() {
            return Err("Kerberos: an empty service name".into());
        }
        Ok(())
    }
}

/// Why authentication failed. The message is GSSAPI's or the server's, with what was being
/// done; no secret is ever in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct AuthError {
    /// What failed and why.
    pub(crate) message: String,
    /// Whether trying again may succeed (the KDC could not be reached).
    pub(crate) transient: bool,
}

impl AuthError {
    pub(crate) fn new(message: impl Into<String>) -> Self {
        AuthError {
            message: message.into(),
            transient: false,
        }
    }

    fn gss(doing: &str, e: libgssapi::error::Error) -> Self {
        // MIT's KRB5_KDC_UNREACH ("Cannot contact any KDC for realm ..."): the KDC may come
        // back.
        const KDC_UNREACHABLE: u32 = (-1_765_328_228_i32) as u32;
        // GSSAPI's generic failure says only that the mechanism's (minor) message matters.
        let text = e.to_string();
        let text = text.trim();
        let text = text
            .strip_prefix("Unspecified GSS failure.  Minor code may provide more information (")
            .and_then(|t| t.strip_suffix(')'))
            .unwrap_or(text);
        AuthError {
            message: format!("Kerberos: {doing}: {text}"),
            transient: e.minor == KDC_UNREACHABLE,
        }
    }
}

/// Why a keytab login failed, in the KDC's words where the KDC refused it ("Client '...' not
/// found in Kerberos database", "Password incorrect", "Preauthentication failed"). Only when
/// MIT found nothing to log in with (its words are then about the empty ticket cache the
/// keytab's tickets would have gone to) does the message say the keytab holds no key.
fn login_refused(doing: &str, principal: &str, e: libgssapi::error::Error) -> AuthError {
    // MIT's "No credentials cache found", "Matching credential not found" and "No key table
    // entry found": what it says when the keytab gave it nothing to log in with.
    const NOTHING_TO_LOG_IN_WITH: [i32; 3] = [-1_765_328_189, -1_765_328_243, -1_765_328_203];
    let mut a = AuthError::gss(doing, e);
    if a.transient {
        return a;
    }
    if NOTHING_TO_LOG_IN_WITH.contains(&(e.minor as i32)) {
        a.message = format!(
            "Kerberos: {doing}: the keytab holds no key for {principal} (or cannot be read)"
        );
    } else if let Some(reason) = minor_text(e.minor) {
        // MIT's "Preauthentication failed" (the KDC's word) and "Decrypt integrity check
        // failed" (the client's, when the KDC's answer does not open with the keytab's key).
        const WRONG_KEY: [i32; 2] = [-1_765_328_360, -1_765_328_353];
        a.message = if WRONG_KEY.contains(&(e.minor as i32)) {
            format!(
                "Kerberos: {doing}: the keytab's key for {principal} is not the one the KDC \
                 has (a wrong password, or an older key version): {reason}"
            )
        } else {
            format!("Kerberos: {doing}: {reason}")
        };
    }
    a
}

/// The Kerberos library's text for a minor (mechanism) status code, alone.
#[allow(unsafe_code)]
fn minor_text(minor: u32) -> Option<String> {
    use libgssapi_sys as sys;
    if minor == 0 {
        return None;
    }
    let mut parts = Vec::new();
    let mut context: u32 = 0;
    loop {
        let mut status: u32 = 0;
        let mut buf = sys::gss_buffer_desc {
            length: 0,
            value: std::ptr::null_mut(),
        };
        // SAFETY: every pointer is valid for the call; on success the library fills `buf`,
        // which is released below.
        let major = unsafe {
            sys::gss_display_status(
                &mut status,
                minor,
                sys::GSS_C_MECH_CODE as i32,
                std::ptr::null_mut(),
                &mut context,
                &mut buf,
            )
        };
        if major != 0 {
            break;
        }
        if !buf.value.is_null() {
            // SAFETY: the library wrote `length` bytes at `value`.
            let bytes = unsafe { std::slice::from_raw_parts(buf.value as *const u8, buf.length) };
            parts.push(String::from_utf8_lossy(bytes).trim().to_string());
            let mut release = 0;
            // SAFETY: `buf` came from gss_display_status and is released once.
            unsafe { sys::gss_release_buffer(&mut release, &mut buf) };
        }
        if context == 0 {
            break;
        }
    }
    let text = parts.join(" ");
    (!text.is_empty()).then_some(text)
}

impl fmt::Display for AuthError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// A store's Kerberos login: the configuration, and the credential acquired from it, shared
/// by every connection the store opens. A keytab's credential is acquired again, into a new
/// in-memory ticket cache, once half its tickets' lifetime has passed (as Java's
/// `UserGroupInformation` renews a keytab login), so that a store outlives its tickets: MIT's
/// own refresh from a `client_keytab` did not happen once the first tickets expired.
pub(crate) struct Login {
    kerberos: Kerberos,
    cred: Mutex<Option<Held>>,
}

/// A credential, and when it is to be acquired again (`None`: never, a ticket cache's: the
/// user renews those with `kinit`).
struct Held {
    cred: Cred,
    renew_at: Option<std::time::Instant>,
    /// The ticket cache the credential's tickets are in (`None`: the default one).
    #[cfg_attr(not(feature = "hbase-rpc"), allow(dead_code))]
    cache: Option<String>,
}

/// When a keytab login's tickets are fetched again: half their lifetime after they were (MIT's
/// and Java's choice), and at the latest this long after, if the library cannot say.
const RENEW_UNKNOWN: std::time::Duration = std::time::Duration::from_secs(3600);

impl fmt::Debug for Login {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Login")
            .field("kerberos", &self.kerberos)
            .finish_non_exhaustive()
    }
}

/// MIT's KRB5KRB_AP_ERR_TKT_EXPIRED ("Ticket expired").
const TICKET_EXPIRED: i32 = -1_765_328_352;

/// MIT's KRB5KDC_ERR_NEVER_VALID ("Requested effective lifetime is negative or too short"):
/// the KDC's answer to a service ticket asked with a ticket-granting ticket in its last
/// moments (a service ticket never outlives it). Seen by CI's renewal test with 6 s tickets.
const NEVER_VALID: i32 = -1_765_328_373;

/// Whether a ticket was refused for its age: expired, or too near its end for a service ticket.
fn expired(e: &libgssapi::error::Error) -> bool {
    [TICKET_EXPIRED, NEVER_VALID].contains(&(e.minor as i32))
}

/// Tells the in-memory ticket caches of several stores in one process apart.
static CACHES: AtomicU64 = AtomicU64::new(0);

impl Login {
    pub(crate) fn new(kerberos: Kerberos) -> Self {
        Login {
            kerberos,
            cred: Mutex::new(None),
        }
    }

    /// The credential to initiate with (`None`: the default ticket cache's, looked up by the
    /// library at each connection, so a renewed `kinit` is seen).
    fn cred(&self) -> Result<Option<Cred>, AuthError> {
        let mut slot = self.cred.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(held) = slot.as_ref() {
            let due = held
                .renew_at
                .is_some_and(|at| std::time::Instant::now() >= at);
            if !due {
                return Ok(Some(held.cred.clone()));
            }
            tracing::debug!(target: "rowkey::store", "Kerberos: fetching new tickets from the keytab");
            super::metrics::kerberos_renewed();
        }
        let k = &self.kerberos;
        let mut cache = k.cache.clone();
        let cred = match (&k.principal, &k.keytab, &k.cache) {
            (None, None, None) => return Ok(None),
            (Some(principal), Some(keytab), _) => {
                let doing = format!(
                    "logging in as {principal} from the keytab {}",
                    keytab.display()
                );
                if !keytab.is_file() {
                    return Err(AuthError::new(format!("Kerberos: {doing}: no such file")));
                }
                let memory = format!(
                    "MEMORY:rowkey-{}-{}",
                    std::process::id(),
                    CACHES.fetch_add(1, Ordering::Relaxed)
                );
                cache = Some(memory.clone());
                let store = [
                    ("client_keytab", keytab.display().to_string()),
                    ("ccache", memory),
                ];
                acquire_from(Some(principal), &store)
                    .map_err(|e| login_refused(&doing, principal, e))?
            }
            (principal, _, Some(cache)) => {
                let doing = match principal {
                    Some(p) => format!("tickets for {p} in the cache {cache}"),
                    None => format!("tickets in the cache {cache}"),
                };
                acquire_from(principal.as_deref(), &[("ccache", cache.clone())])
                    .map_err(|e| AuthError::gss(&doing, e))?
            }
            (Some(principal), None, None) => {
                let doing = format!("tickets for {principal} in the cache collection");
                acquire_from(Some(principal), &[]).map_err(|e| AuthError::gss(&doing, e))?
            }
            (None, Some(_), None) => {
                return Err(AuthError::new(
                    "Kerberos: a keytab needs the principal to log in as",
                ))
            }
        };
        let renew_at = k.keytab.as_ref().map(|_| {
            let lifetime = cred.lifetime().unwrap_or(RENEW_UNKNOWN * 2);
            std::time::Instant::now() + (lifetime / 2).min(RENEW_UNKNOWN)
        });
        *slot = Some(Held {
            cred: cred.clone(),
            renew_at,
            cache,
        });
        Ok(Some(cred))
    }

    /// The ticket cache this login's tickets are in (fetched from the keytab first if they are
    /// due), for a library that authenticates with the default credential only (ZooKeeper's
    /// SASL): the keytab login's in-memory cache, the configured cache, or `None` (the default
    /// cache). Blocks: it may ask the KDC for tickets.
    #[cfg_attr(not(feature = "hbase-rpc"), allow(dead_code))]
    pub(crate) fn cache_name(&self) -> Result<Option<String>, AuthError> {
        self.cred()?;
        let slot = self.cred.lock().unwrap_or_else(|p| p.into_inner());
        Ok(slot
            .as_ref()
            .and_then(|held| held.cache.clone())
            .or_else(|| self.kerberos.cache.clone()))
    }

    /// The login's principal as configured (`None`: the default cache's).
    #[cfg_attr(not(feature = "hbase-rpc"), allow(dead_code))]
    pub(crate) fn principal(&self) -> Option<&str> {
        self.kerberos.principal.as_deref()
    }

    /// The login's principal: as configured, else the one its tickets are for (asked of the
    /// credential). Blocks: it may ask the KDC for tickets.
    #[cfg_attr(not(feature = "hdfs"), allow(dead_code))]
    pub(crate) fn principal_name(&self) -> Result<String, AuthError> {
        if let Some(p) = &self.kerberos.principal {
            return Ok(p.clone());
        }
        let cred = match self.cred()? {
            Some(cred) => cred,
            None => Cred::acquire(None, None, libgssapi::credential::CredUsage::Initiate, None)
                .map_err(|e| AuthError::gss("tickets in the default cache", e))?,
        };
        cred.name()
            .map(|n| n.to_string())
            .map_err(|e| AuthError::gss("the principal of the login's tickets", e))
    }

    /// The servers' service name (`hbase` unless configured otherwise).
    #[cfg_attr(not(feature = "hdfs"), allow(dead_code))]
    pub(crate) fn service(&self) -> &str {
        &self.kerberos.service
    }

    /// Forgets a keytab's credential, so that the next connection logs in again (its tickets
    /// were refused as expired). A ticket cache's credential is kept: only `kinit` renews it.
    fn renew_now(&self) -> bool {
        if self.kerberos.keytab.is_none() {
            return false;
        }
        let mut slot = self.cred.lock().unwrap_or_else(|p| p.into_inner());
        let renewing = slot.take().is_some();
        if renewing {
            super::metrics::kerberos_renewed();
        }
        renewing
    }

    /// [`Login::start`] off the async runtime's threads (it may wait for the KDC).
    pub(crate) async fn start_async(
        self: &std::sync::Arc<Self>,
        host: &str,
    ) -> Result<(SaslClient, Vec<u8>), AuthError> {
        let (login, host) = (self.clone(), host.to_string());
        tokio::task::spawn_blocking(move || login.start(&host))
            .await
            .map_err(|e| AuthError::new(format!("Kerberos: the login task failed: {e}")))?
    }

    /// Starts authenticating to the server at `host` (the name the cluster advertises):
    /// the client and its first token. Blocks: it may ask the KDC for tickets.
    pub(crate) fn start(&self, host: &str) -> Result<(SaslClient, Vec<u8>), AuthError> {
        let (target, shown) = match &self.kerberos.server_principal {
            Some(pattern) => {
                let p = pattern.replace("_HOST", &host.to_ascii_lowercase());
                (
                    Name::new(p.as_bytes(), Some(GSS_NT_KRB5_PRINCIPAL)),
                    p.clone(),
                )
            }
            None => host_based(&self.kerberos.service, host),
        };
        let flags = CtxFlags::GSS_C_MUTUAL_FLAG
            | CtxFlags::GSS_C_SEQUENCE_FLAG
            | CtxFlags::GSS_C_REPLAY_FLAG
            | CtxFlags::GSS_C_INTEG_FLAG
            | CtxFlags::GSS_C_CONF_FLAG;
        let (ctx, token) = self.initiate(target, &shown, flags, &GSS_MECH_KRB5)?;
        Ok((
            SaslClient {
                ctx,
                accept: self.kerberos.protection.clone(),
                stage: Stage::Context,
                server: shown,
                chosen: None,
                peer_max: 0,
            },
            token,
        ))
    }

    /// A context with the server named `target` (shown as `shown`), and its first token.
    fn initiate(
        &self,
        target: Result<Name, libgssapi::error::Error>,
        shown: &str,
        flags: CtxFlags,
        mech: &'static Oid,
    ) -> Result<(ClientCtx, Vec<u8>), AuthError> {
        let target = target.map_err(|e| AuthError::gss(&format!("server name {shown}"), e))?;
        let first = |cred: Option<Cred>, mech: &'static Oid| {
            let mut ctx = ClientCtx::new(cred, target.duplicate()?, flags, Some(*mech));
            let token = ctx
                .step(None, None)?
                .map(|b| b.to_vec())
                .unwrap_or_default();
            Ok::<_, libgssapi::error::Error>((ctx, token))
        };
        // A failure under SPNEGO carries no Kerberos code: MIT's GSSAPI hands out a stand-in
        // minor code for each (mechanism, code) pair, and SPNEGO's are never Kerberos's. So the
        // failure is asked again of Kerberos itself (the same credential and server, one more
        // request to the KDC, on failures only), whose codes say whether the tickets expired
        // or the KDC was unreachable.
        let attempt = |cred: Option<Cred>| {
            first(cred.clone(), mech).map_err(|e| {
                if *mech == GSS_MECH_KRB5 {
                    return e;
                }
                first(cred, &GSS_MECH_KRB5).err().unwrap_or(e)
            })
        };
        let refused = |e| AuthError::gss(&format!("a ticket for {shown}"), e);
        match attempt(self.cred()?) {
            Ok(started) => Ok(started),
            // A keytab's tickets expired before their renewal (a clock that jumped, a KDC that
            // shortened them), or are too near their end for a service ticket: log in again
            // once.
            Err(e) if expired(&e) && self.renew_now() => attempt(self.cred()?).map_err(refused),
            Err(e) => Err(refused(e)),
        }
    }

    /// Whether this login gets a ticket for `service/host` (a host-based name, canonicalized
    /// as for any server): to say why a library that did its own Kerberos (ZooKeeper's SASL)
    /// could not authenticate, in the library's words. Blocks: it may ask the KDC.
    #[cfg_attr(not(feature = "hbase-rpc"), allow(dead_code))]
    pub(crate) fn check_service(&self, service: &str, host: &str) -> Result<(), AuthError> {
        let (target, shown) = host_based(service, host);
        self.initiate(target, &shown, CtxFlags::GSS_C_MUTUAL_FLAG, &GSS_MECH_KRB5)
            .map(|_| ())
    }

    #[cfg_attr(not(any(feature = "hbase-http", feature = "hdfs")), allow(dead_code))]
    /// [`Login::negotiate`] off the async runtime's threads (it may wait for the KDC).
    pub(crate) async fn negotiate_async(
        self: &std::sync::Arc<Self>,
        host: &str,
    ) -> Result<(Negotiation, Vec<u8>), AuthError> {
        let (login, host) = (self.clone(), host.to_string());
        tokio::task::spawn_blocking(move || login.negotiate(&host))
            .await
            .map_err(|e| AuthError::new(format!("Kerberos: the login task failed: {e}")))?
    }

    /// Starts the SPNEGO authentication of one HTTP request to the server at `host`, as
    /// `http_service`: the token for its `Authorization: Negotiate` header, and the context
    /// that checks the server's answer. Each call makes a new authenticator (servers keep a
    /// replay cache); the service ticket is fetched once and reused while it is valid. Blocks:
    /// it may ask the KDC for tickets.
    #[cfg_attr(not(any(feature = "hbase-http", feature = "hdfs")), allow(dead_code))]
    pub(crate) fn negotiate(&self, host: &str) -> Result<(Negotiation, Vec<u8>), AuthError> {
        let (target, shown) = host_based(&self.kerberos.http_service, host);
        let (ctx, token) = self.initiate(
            target,
            &shown,
            CtxFlags::GSS_C_MUTUAL_FLAG,
            &GSS_MECH_SPNEGO,
        )?;
        Ok((Negotiation { ctx, server: shown }, token))
    }
}

/// `service@host` as a host-based service name, and as a principal's first part for messages.
fn host_based(service: &str, host: &str) -> (Result<Name, libgssapi::error::Error>, String) {
    let s = format!("{service}@{host}");
    (
        Name::new(s.as_bytes(), Some(GSS_NT_HOSTBASED_SERVICE)),
        format!("{service}/{host}"),
    )
}

/// One HTTP request's SPNEGO authentication, waiting for the server's answer: the token in its
/// `WWW-Authenticate: Negotiate` header proves the server holds the service's key (mutual
/// authentication).
#[cfg_attr(not(any(feature = "hbase-http", feature = "hdfs")), allow(dead_code))]
pub(crate) struct Negotiation {
    ctx: ClientCtx,
    server: String,
}

#[cfg_attr(not(any(feature = "hbase-http", feature = "hdfs")), allow(dead_code))]
impl Negotiation {
    /// The service principal the token is for (`HTTP/host`), for messages.
    #[cfg_attr(not(feature = "hbase-http"), allow(dead_code))]
    pub(crate) fn server(&self) -> &str {
        &self.server
    }

    /// Checks the server's answer token (`None`: the response carried none). An answer that
    /// does not complete the context is refused: the response did not come from the service.
    pub(crate) fn finish(mut self, answer: Option<&[u8]>) -> Result<(), AuthError> {
        let Some(answer) = answer else {
            return Err(AuthError::new(format!(
                "Kerberos: {} answered without proving its identity (no Negotiate token in \
                 WWW-Authenticate)",
                self.server
            )));
        };
        self.ctx
            .step(Some(answer), None)
            .map_err(|e| AuthError::gss(&format!("checking the answer of {}", self.server), e))?;
        if !self.ctx.is_complete() {
            return Err(AuthError::new(format!(
                "Kerberos: {}'s answer did not complete the SPNEGO exchange",
                self.server
            )));
        }
        Ok(())
    }
}

/// A credential to initiate with, for `principal` (`None`: the store's default), from the
/// credential store `elements` names (MIT's `client_keytab`, `ccache`; none: the default),
/// through `gss_acquire_cred_from`, which libgssapi does not wrap. With `client_keytab`, the
/// tickets are fetched from the keytab now; [`Login`] acquires again to renew them.
#[allow(unsafe_code)]
fn acquire_from(
    principal: Option<&str>,
    elements: &[(&str, String)],
) -> Result<Cred, libgssapi::error::Error> {
    use libgssapi_sys as sys;
    // Configuration strings with a NUL byte cannot be passed on; GSSAPI calls them bad names.
    let bad_name = || gss_error(sys::_GSS_S_BAD_NAME, 0);
    let owned: Vec<(CString, CString)> = elements
        .iter()
        .map(|(k, v)| Ok((CString::new(*k)?, CString::new(v.as_str())?)))
        .collect::<Result<_, std::ffi::NulError>>()
        .map_err(|_| bad_name())?;
    let mut raw: Vec<sys::gss_key_value_element_desc> = owned
        .iter()
        .map(|(k, v)| sys::gss_key_value_element_desc {
            key: k.as_ptr(),
            value: v.as_ptr(),
        })
        .collect();
    let store = sys::gss_key_value_set_desc {
        count: raw.len() as u32,
        elements: raw.as_mut_ptr(),
    };
    let mut minor: u32 = 0;
    let mut name: sys::gss_name_t = std::ptr::null_mut();
    if let Some(principal) = principal {
        let mut buf = sys::gss_buffer_desc {
            length: principal.len(),
            value: principal.as_ptr() as *mut std::ffi::c_void,
        };
        let mut oid = krb5_principal_oid();
        // SAFETY: `buf` points into `principal` and `oid` at a static, both alive for the
        // call (the library copies them); on success it writes a new name handle to `name`.
        let major = unsafe { sys::gss_import_name(&mut minor, &mut buf, &mut oid, &mut name) };
        if major != 0 {
            return Err(gss_error(major, minor));
        }
    }
    let mut cred: sys::gss_cred_id_t = std::ptr::null_mut();
    // SAFETY: every pointer is valid for the call (the store's strings are owned above, `name`
    // is null or a handle from gss_import_name); on success the library writes a new
    // credential handle to `cred`.
    let major = unsafe {
        sys::gss_acquire_cred_from(
            &mut minor,
            name,
            0,
            std::ptr::null_mut(),
            sys::GSS_C_INITIATE as i32,
            if raw.is_empty() {
                std::ptr::null()
            } else {
                &store
            },
            &mut cred,
            std::ptr::null_mut(),
            std::ptr::null_mut(),
        )
    };
    if !name.is_null() {
        let mut release_minor = 0;
        // SAFETY: `name` came from gss_import_name and is released once.
        unsafe { sys::gss_release_name(&mut release_minor, &mut name) };
    }
    if major != 0 {
        return Err(gss_error(major, minor));
    }
    // SAFETY: `cred` is a new handle that only the returned `Cred` owns.
    Ok(unsafe { Cred::from_c(cred) })
}

/// Makes `cache` (`None`: the library's default) the ticket cache GSSAPI's default credential
/// comes from, on the calling thread only (`gss_krb5_ccache_name`, MIT's and Heimdal's, which
/// libgssapi-sys does not bind): how a library that acquires the default credential itself
/// (rsasl, under ZooKeeper's SASL) is given a keytab login's private cache without changing
/// the process's `KRB5CCNAME`.
#[allow(unsafe_code)]
#[cfg_attr(not(feature = "hbase-rpc"), allow(dead_code))]
pub(crate) fn use_cache_on_this_thread(cache: Option<&str>) -> Result<(), AuthError> {
    extern "C" {
        fn gss_krb5_ccache_name(
            minor_status: *mut u32,
            name: *const std::ffi::c_char,
            out_name: *mut *const std::ffi::c_char,
        ) -> u32;
    }
    let name = cache
        .map(CString::new)
        .transpose()
        .map_err(|_| AuthError::new("Kerberos: a ticket cache name with a NUL byte"))?;
    let mut minor = 0;
    // SAFETY: `name` is null or a NUL-terminated string alive for the call (the library copies
    // it); a null `out_name` asks for no previous name.
    let major = unsafe {
        gss_krb5_ccache_name(
            &mut minor,
            name.as_ref().map_or(std::ptr::null(), |n| n.as_ptr()),
            std::ptr::null_mut(),
        )
    };
    if major != 0 {
        return Err(AuthError::gss(
            "choosing the ticket cache for ZooKeeper",
            gss_error(major, minor),
        ));
    }
    Ok(())
}

/// GSS_KRB5_NT_PRINCIPAL_NAME (1.2.840.113554.1.2.2.1) as the C library takes it.
fn krb5_principal_oid() -> libgssapi_sys::gss_OID_desc {
    static BER: &[u8] = b"\x2a\x86\x48\x86\xf7\x12\x01\x02\x02\x01";
    libgssapi_sys::gss_OID_desc {
        length: BER.len() as u32,
        elements: BER.as_ptr() as *mut std::ffi::c_void,
    }
}

fn gss_error(major: u32, minor: u32) -> libgssapi::error::Error {
    libgssapi::error::Error {
        major: libgssapi::error::MajorFlags::from_bits_retain(major),
        minor,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stage {
    /// Exchanging Kerberos tokens until the context is established.
    Context,
    /// Established: the server's next message offers the security layers.
    Layers,
    /// The layer is chosen and sent: authenticated.
    Done,
}

/// The client side of one SASL `GSSAPI` exchange (RFC 4752), framing left to the caller: feed
/// each server message to [`SaslClient::evaluate`] and send what it returns, until
/// [`SaslClient::is_complete`].
pub(crate) struct SaslClient {
    ctx: ClientCtx,
    accept: Vec<Protection>,
    stage: Stage,
    server: String,
    chosen: Option<Protection>,
    peer_max: u32,
}

impl SaslClient {
    /// Whether the client has sent its last message.
    pub(crate) fn is_complete(&self) -> bool {
        self.stage == Stage::Done
    }

    /// The client's answer to a server message.
    pub(crate) fn evaluate(&mut self, challenge: &[u8]) -> Result<Vec<u8>, AuthError> {
        match self.stage {
            Stage::Context => {
                let out = self
                    .ctx
                    .step(Some(challenge), None)
                    .map_err(|e| AuthError::gss(&format!("authenticating {}", self.server), e))?;
                if self.ctx.is_complete() {
                    self.stage = Stage::Layers;
                }
                // Once established, an empty answer asks for the layers on offer.
                Ok(out.map(|b| b.to_vec()).unwrap_or_default())
            }
            Stage::Layers => {
                let offer = self.ctx.unwrap(challenge).map_err(|e| {
                    AuthError::gss(&format!("the security layers {} offers", self.server), e)
                })?;
                if offer.len() != 4 {
                    return Err(AuthError::new(format!(
                        "Kerberos: {} offered security layers in {} bytes (4 expected)",
                        self.server,
                        offer.len()
                    )));
                }
                let mask = offer[0];
                let chosen = self
                    .accept
                    .iter()
                    .copied()
                    .find(|p| mask & p.bit() != 0)
                    .ok_or_else(|| {
                        AuthError::new(format!(
                            "Kerberos: no quality of protection in common: {} offers {}, this \
                             client accepts {} (Kerberos::protection)",
                            self.server,
                            names(mask),
                            self.accept
                                .iter()
                                .map(|p| p.hbase_name())
                                .collect::<Vec<_>>()
                                .join(", ")
                        ))
                    })?;
                self.peer_max = u32::from_be_bytes([0, offer[1], offer[2], offer[3]]);
                // Our largest receive buffer: none without a layer (RFC 4752), else the most
                // the 3 bytes say (replies are unwrapped whole, whatever their size).
                let ours: u32 = if chosen == Protection::Authentication {
                    0
                } else {
                    0x00ff_ffff
                };
                let b = ours.to_be_bytes();
                let answer = [chosen.bit(), b[1], b[2], b[3]];
                let wrapped = self
                    .ctx
                    .wrap(false, &answer)
                    .map_err(|e| AuthError::gss("choosing the security layer", e))?;
                self.chosen = Some(chosen);
                self.stage = Stage::Done;
                Ok(wrapped.to_vec())
            }
            Stage::Done => Err(AuthError::new(format!(
                "Kerberos: {} sent a message after authentication completed",
                self.server
            ))),
        }
    }

    /// The negotiated protection.
    pub(crate) fn protection(&self) -> Option<Protection> {
        self.chosen
    }

    /// The authenticated client principal (`user@REALM`).
    pub(crate) fn client_name(&mut self) -> Result<String, AuthError> {
        let name = self
            .ctx
            .source_name()
            .map_err(|e| AuthError::gss("the client's principal", e))?;
        Ok(name.to_string())
    }

    /// The security layer for what follows: `None` for authentication only.
    pub(crate) fn into_layer(self) -> Option<Layer> {
        let encrypt = match self.chosen? {
            Protection::Authentication => return None,
            Protection::Integrity => false,
            Protection::Privacy => true,
        };
        // Plain text per wrapped message: under the server's buffer, with room for the
        // token's header and checksum (under 100 bytes for Kerberos' enctypes).
        let max_plain = match self.peer_max {
            0 => 64 << 10,
            n => (n as usize).saturating_sub(256).max(1024),
        };
        Some(Layer {
            ctx: Mutex::new(self.ctx),
            encrypt,
            max_plain,
        })
    }
}

/// The names of the layers in an offer's bit mask.
fn names(mask: u8) -> String {
    let all = [
        Protection::Authentication,
        Protection::Integrity,
        Protection::Privacy,
    ];
    let v: Vec<_> = all
        .iter()
        .filter(|p| mask & p.bit() != 0)
        .map(|p| p.hbase_name())
        .collect();
    if v.is_empty() {
        "none".into()
    } else {
        v.join(", ")
    }
}

/// A negotiated security layer: every message is wrapped (signed, or signed and sealed) before
/// it is sent and unwrapped when it arrives, each with a 4-byte length before it on the wire.
pub(crate) struct Layer {
    ctx: Mutex<ClientCtx>,
    encrypt: bool,
    max_plain: usize,
}

impl Layer {
    /// Appends `plain`, wrapped, to `out`: length-prefixed messages of at most
    /// [`Layer::max_plain`] plain bytes each.
    pub(crate) fn wrap_into(&self, plain: &[u8], out: &mut Vec<u8>) -> Result<(), AuthError> {
        let mut ctx = self.ctx.lock().unwrap_or_else(|p| p.into_inner());
        for chunk in plain.chunks(self.max_plain) {
            let sealed = ctx
                .wrap(self.encrypt, chunk)
                .map_err(|e| AuthError::gss("wrapping a message", e))?;
            out.extend_from_slice(&(sealed.len() as u32).to_be_bytes());
            out.extend_from_slice(&sealed);
        }
        Ok(())
    }

    /// One received message, unwrapped.
    pub(crate) fn unwrap(&self, sealed: &[u8]) -> Result<Vec<u8>, AuthError> {
        let mut ctx = self.ctx.lock().unwrap_or_else(|p| p.into_inner());
        ctx.unwrap(sealed)
            .map(|b| b.to_vec())
            .map_err(|e| AuthError::gss("unwrapping a message (tampered with, or out of order)", e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configuration_mistakes_are_named() {
        let mut k = Kerberos::keytab("a@B", "/x");
        k.principal = None;
        assert!(k.validate().unwrap_err().contains("principal"));
        assert!(Kerberos::ticket_cache()
            .protection(&[])
            .validate()
            .unwrap_err()
            .contains("protection"));
        assert!(Kerberos::ticket_cache().validate().is_ok());
    }

    #[test]
    fn a_missing_keytab_is_named_without_contacting_anyone() {
        let login = Login::new(Kerberos::keytab("a@B", "/nonexistent/rowkey.keytab"));
        let e = login.start("localhost").err().unwrap();
        assert!(e.message.contains("/nonexistent/rowkey.keytab"), "{e}");
        assert!(e.message.contains("no such file"), "{e}");
        assert!(!e.transient);
    }

    #[test]
    fn offers_are_named() {
        assert_eq!(names(7), "authentication, integrity, privacy");
        assert_eq!(names(4), "privacy");
        assert_eq!(names(0), "none");
    }
}
