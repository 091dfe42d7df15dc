//! [`Tls`]: how a networked store checks the server it connects to over TLS: which root
//! certificates it trusts (the system's, a CA of your own, or both), which name the
//! server's certificate must carry, and the client certificate it presents where the server
//! asks for one (mutual TLS, [`ClientIdentity`]).

use std::fmt;
use std::path::Path;

/// Which servers a TLS connection trusts. [`Tls::default`] (the system's root certificates,
/// the endpoint's host name) is right for Google's public endpoints; a private endpoint or a
/// TLS-terminating proxy with certificates from a CA of its own needs [`Tls::ca_pem`] or
/// [`Tls::ca_file`].
///
/// A certificate from a CA not trusted here, or one that does not name the host, fails the
/// connection with an error saying so; it is never retried.
#[derive(Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Tls {
    /// Trust the operating system's root certificates (`true` by default; a CA of your own
    /// replaces them unless [`Tls::and_system_roots`] keeps them).
    pub system_roots: bool,
    /// Further trusted CA certificates, PEM (each entry may hold several).
    pub ca_pem: Vec<Vec<u8>>,
    /// The name the server's certificate must carry, when it is not the endpoint's host (an
    /// endpoint given by IP address, a proxy); also sent as SNI.
    pub domain: Option<String>,
    /// The certificate and key this client presents when the server asks for one (mutual
    /// TLS: HBase's `hbase.server.netty.tls.client.auth.mode` `NEED`, a gateway behind a
    /// proxy that verifies clients, Google's mTLS endpoints); `None` presents none.
    pub identity: Option<ClientIdentity>,
}

impl Default for Tls {
    fn default() -> Self {
        Tls {
            system_roots: true,
            ca_pem: Vec::new(),
            domain: None,
            identity: None,
        }
    }
}

/// A client certificate chain and its private key, PEM, for mutual TLS ([`Tls::identity`]).
///
/// The key is a secret: `Debug` prints the certificate's size and never the key, and no error
/// quotes it. Keys in PKCS #8, PKCS #1 (RSA) and SEC1 (EC) form are taken; an encrypted key
/// (`ENCRYPTED PRIVATE KEY`) is refused with a message saying to decrypt it first, as HBase's
/// PEM key store with an empty password expects too.
#[derive(Clone, PartialEq, Eq)]
pub struct ClientIdentity {
    certificate_pem: Vec<u8>,
    key_pem: Vec<u8>,
}

impl fmt::Debug for ClientIdentity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientIdentity")
            .field("certificates", &self.certificates().map_or(0, |c| c.len()))
            .field("key", &"<redacted>")
            .finish()
    }
}

impl ClientIdentity {
    /// The certificate chain (the client's certificate first) and the private key, each PEM;
    /// both may be the same bytes (a PEM file holding the key and the chain, as HBase's PEM key
    /// store does). Checked when the store connects.
    pub fn from_pem(certificate_pem: impl Into<Vec<u8>>, key_pem: impl Into<Vec<u8>>) -> Self {
        ClientIdentity {
            certificate_pem: certificate_pem.into(),
            key_pem: key_pem.into(),
        }
    }

    /// The chain and the key from PEM files (`certificate` and `key` may name the same file).
    pub fn from_files(
        certificate: impl AsRef<Path>,
        key: impl AsRef<Path>,
    ) -> std::io::Result<Self> {
        let read = |path: &Path, what: &str| {
            std::fs::read(path).map_err(|e| {
                std::io::Error::new(
                    e.kind(),
                    format!("cannot read the client {what} file {}: {e}", path.display()),
                )
            })
        };
        Ok(ClientIdentity::from_pem(
            read(certificate.as_ref(), "certificate")?,
            read(key.as_ref(), "key")?,
        ))
    }

    /// The certificate chain, PEM, as given.
    pub fn certificate_pem(&self) -> &[u8] {
        &self.certificate_pem
    }

    /// The chain, DER; an error names what is wrong without quoting the PEM.
    fn certificates(&self) -> Result<Vec<rustls_pki_types::CertificateDer<'static>>, String> {
        use rustls_pki_types::pem::PemObject;
        let certs = rustls_pki_types::CertificateDer::pem_slice_iter(&self.certificate_pem)
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| format!("the client certificate PEM is malformed: {e}"))?;
        if certs.is_empty() {
            return Err("the client certificate PEM holds no certificate".into());
        }
        Ok(certs)
    }

    /// The private key, DER; an error names what is wrong without quoting the key.
    fn key(&self) -> Result<rustls_pki_types::PrivateKeyDer<'static>, String> {
        use rustls_pki_types::pem::PemObject;
        if self
            .key_pem
            .windows(b"ENCRYPTED PRIVATE KEY".len())
            .any(|w| w == b"ENCRYPTED PRIVATE KEY")
        {
            return Err(
                "the client key is encrypted: rowkey takes an unencrypted PEM key \
                        (`openssl pkcs8 -in key.pem -out plain.pem` decrypts it); keep the file \
                        readable by this user only"
                    .into(),
            );
        }
        rustls_pki_types::PrivateKeyDer::from_pem_slice(&self.key_pem).map_err(|e| match e {
            rustls_pki_types::pem::Error::NoItemsFound => {
                "the client key PEM holds no private key (PKCS #8, PKCS #1 or SEC1)".to_string()
            }
            other => format!("the client key PEM is malformed: {other}"),
        })
    }
}

impl fmt::Debug for Tls {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Tls")
            .field("system_roots", &self.system_roots)
            .field("ca_certificates", &self.ca_certificates().len())
            .field("domain", &self.domain)
            .field("identity", &self.identity)
            .finish()
    }
}

impl Tls {
    /// The system's root certificates only (the default).
    pub fn system() -> Self {
        Tls::default()
    }

    /// Only the CA certificate(s) in `pem`; checked when the store connects (a PEM without a
    /// certificate is an error then).
    pub fn ca_pem(pem: impl Into<Vec<u8>>) -> Self {
        Tls {
            system_roots: false,
            ca_pem: vec![pem.into()],
            domain: None,
            identity: None,
        }
    }

    /// Only the CA certificate(s) in the PEM file at `path`.
    pub fn ca_file(path: impl AsRef<Path>) -> std::io::Result<Self> {
        let path = path.as_ref();
        let pem = std::fs::read(path).map_err(|e| {
            std::io::Error::new(
                e.kind(),
                format!("cannot read the CA file {}: {e}", path.display()),
            )
        })?;
        Ok(Tls::ca_pem(pem))
    }

    /// Keeps trusting the system's root certificates beside the CA(s) given.
    pub fn and_system_roots(mut self) -> Self {
        self.system_roots = true;
        self
    }

    /// The name the server's certificate must carry ([`Tls::domain`]).
    pub fn domain(mut self, name: &str) -> Self {
        self.domain = Some(name.into());
        self
    }

    /// Presents `identity` when the server asks for a client certificate ([`Tls::identity`]).
    pub fn identity(mut self, identity: ClientIdentity) -> Self {
        self.identity = Some(identity);
        self
    }

    /// The certificates of `ca_pem`, DER.
    fn ca_certificates(&self) -> Vec<rustls_pki_types::CertificateDer<'static>> {
        use rustls_pki_types::pem::PemObject;
        self.ca_pem
            .iter()
            .flat_map(|pem| {
                rustls_pki_types::CertificateDer::pem_slice_iter(pem)
                    .filter_map(Result::ok)
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    /// Refuses a configuration that trusts nothing, or a CA PEM without a certificate.
    pub(crate) fn validate(&self) -> Result<(), String> {
        use rustls_pki_types::pem::PemObject;
        for pem in &self.ca_pem {
            let certs: Vec<_> = rustls_pki_types::CertificateDer::pem_slice_iter(pem).collect();
            if certs.is_empty() {
                return Err("the CA PEM holds no certificate".into());
            }
            if let Some(Err(e)) = certs.into_iter().find(Result::is_err) {
                return Err(format!("the CA PEM is malformed: {e}"));
            }
        }
        if !self.system_roots && self.ca_pem.is_empty() {
            return Err("TLS trusts no certificate: neither the system's roots nor a CA".into());
        }
        if let Some(identity) = &self.identity {
            identity.certificates()?;
            identity.key()?;
        }
        Ok(())
    }

    /// The trusted roots as rustls wants them (for HTTPS calls outside tonic).
    pub(crate) fn root_store(&self) -> Result<rustls::RootCertStore, String> {
        self.validate()?;
        let mut roots = rustls::RootCertStore::empty();
        if self.system_roots {
            let found = rustls_native_certs::load_native_certs();
            let (added, _) = roots.add_parsable_certificates(found.certs);
            if added == 0 && self.ca_pem.is_empty() {
                return Err(format!(
                    "no system root certificate could be loaded ({} error(s))",
                    found.errors.len()
                ));
            }
        }
        for cert in self.ca_certificates() {
            roots
                .add(cert)
                .map_err(|e| format!("the CA certificate cannot be used: {e}"))?;
        }
        Ok(roots)
    }

    /// A rustls client configuration with this trust (ring's provider, TLS 1.2 and 1.3).
    pub(crate) fn rustls_client(&self) -> Result<std::sync::Arc<rustls::ClientConfig>, String> {
        let roots = self.root_store()?;
        let config = rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_root_certificates(roots);
        let config = match &self.identity {
            None => config.with_no_client_auth(),
            Some(identity) => config
                .with_client_auth_cert(identity.certificates()?, identity.key()?)
                .map_err(|e| format!("the client certificate cannot be used: {e}"))?,
        };
        Ok(std::sync::Arc::new(config))
    }

    /// The name to check the certificate of a server known as `host` against:
    /// [`Tls::domain`], else `host` (a DNS name or an IP address).
    #[cfg(any(feature = "hbase-rpc", feature = "hbase-http"))]
    pub(crate) fn server_name(
        &self,
        host: &str,
    ) -> Result<rustls_pki_types::ServerName<'static>, String> {
        let name = self.domain.as_deref().unwrap_or(host);
        rustls_pki_types::ServerName::try_from(name.to_string())
            .map_err(|e| format!("`{name}` cannot be checked against a certificate: {e}"))
    }

    /// The same trust for tonic's channels.
    #[cfg(feature = "bigtable")]
    pub(crate) fn tonic(&self) -> Result<tonic::transport::ClientTlsConfig, String> {
        self.validate()?;
        let mut config = tonic::transport::ClientTlsConfig::new();
        if self.system_roots {
            config = config.with_native_roots();
        }
        for pem in &self.ca_pem {
            config = config.ca_certificate(tonic::transport::Certificate::from_pem(pem));
        }
        if let Some(domain) = &self.domain {
            config = config.domain_name(domain.clone());
        }
        if let Some(identity) = &self.identity {
            config = config.identity(tonic::transport::Identity::from_pem(
                &identity.certificate_pem,
                &identity.key_pem,
            ));
        }
        Ok(config)
    }
}

/// TLS over a TCP connection with a [`Tls`]'s trust (the HBase stores' connections; tonic
/// makes Bigtable's itself).
#[cfg(any(feature = "hbase-rpc", feature = "hbase-http"))]
#[derive(Clone)]
pub(crate) struct TlsClient {
    connector: tokio_rustls::TlsConnector,
    tls: Tls,
}

/// Why a TLS handshake failed.
#[cfg(any(feature = "hbase-rpc", feature = "hbase-http"))]
pub(crate) enum HandshakeError {
    /// The server's certificate is not trusted (an unknown CA, another host's name), or the
    /// host cannot be checked against one: not worth retrying. The message names the fix.
    Untrusted(String),
    /// Anything else (the connection closed, the server does not speak TLS).
    Failed(String),
}

#[cfg(any(feature = "hbase-rpc", feature = "hbase-http"))]
impl TlsClient {
    /// A client with `tls`'s trust; fails when it trusts nothing usable.
    pub(crate) fn new(tls: &Tls) -> Result<Self, String> {
        Ok(TlsClient {
            connector: tokio_rustls::TlsConnector::from(tls.rustls_client()?),
            tls: tls.clone(),
        })
    }

    /// Whether this client presents a certificate ([`Tls::identity`]).
    pub(crate) fn presents_identity(&self) -> bool {
        self.tls.identity.is_some()
    }

    /// Connects TLS over `stream` to the server known as `host` (`addr` for messages).
    pub(crate) async fn handshake<S>(
        &self,
        stream: S,
        host: &str,
        addr: &str,
    ) -> Result<tokio_rustls::client::TlsStream<S>, HandshakeError>
    where
        S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
    {
        let name = self
            .tls
            .server_name(host)
            .map_err(HandshakeError::Untrusted)?;
        self.connector.connect(name, stream).await.map_err(|e| {
            let text = super::error_chain(&e);
            match handshake_problem(&text, self.presents_identity()) {
                Some(problem) => HandshakeError::Untrusted(format!("{addr}: {problem}")),
                None => HandshakeError::Failed(format!(
                    "{addr}: TLS handshake failed: {text} (is TLS enabled on the server?)"
                )),
            }
        })
    }
}

/// What a TLS alert from the server says of this client's certificate: refused, or (where
/// `presented` is false, or the alert says so) required and missing. `None` for other alerts.
fn client_refusal(message: &str, presented: bool) -> Option<&'static str> {
    const REFUSED: [&str; 8] = [
        "alert: BadCertificate",
        "alert: UnknownCA",
        "alert: CertificateUnknown",
        "alert: UnsupportedCertificate",
        "alert: CertificateExpired",
        "alert: CertificateRevoked",
        "alert: AccessDenied",
        "alert: HandshakeFailure",
    ];
    let required = message.contains("alert: CertificateRequired");
    let refused = REFUSED.iter().any(|alert| message.contains(alert));
    if required || (refused && !presented) {
        Some("the server requires a client certificate (mutual TLS) and this client presented none: configure Tls::identity with a certificate and key from a CA the server trusts")
    } else if refused && message.contains("alert: HandshakeFailure") {
        Some("the server ended the handshake (HandshakeFailure): it may refuse this client's certificate (Tls::identity) or share no cipher suite with rustls")
    } else if refused {
        Some("the server refused this client's certificate (Tls::identity): present one from a CA the server trusts, valid now, for client authentication")
    } else {
        None
    }
}

/// [`certificate_problem`], knowing whether this client presented a certificate: a server
/// that refuses a handshake without one says so with the same alert (JDK servers send
/// `bad_certificate`) as one that refuses the certificate presented.
#[cfg_attr(
    not(any(feature = "hbase-rpc", feature = "hbase-http")),
    allow(dead_code)
)]
pub(crate) fn handshake_problem(message: &str, presented: bool) -> Option<String> {
    match client_refusal(message, presented) {
        Some(what) if !presented => {
            let detail = message
                .find("received fatal alert")
                .map_or(message, |at| &message[at..]);
            Some(format!("TLS: {what} ({detail})"))
        }
        _ => certificate_problem(message),
    }
}

/// Says what a TLS failure means in words a user acts on, from rustls's error text anywhere in
/// `message` (tonic and hyper nest it in their own); `None` when it is not a certificate
/// problem.
pub(crate) fn certificate_problem(message: &str) -> Option<String> {
    // An alert is the server's word on this client's certificate; rustls's own checks of the
    // server's say "invalid peer certificate".
    let what = if message.contains("received fatal alert") {
        client_refusal(message, true)?
    } else if message.contains("UnknownIssuer") {
        "the server's certificate is not signed by a trusted CA (UnknownIssuer): configure Tls::ca_pem or Tls::ca_file with the CA that issued it"
    } else if message.contains("NotValidForName") || message.contains("not valid for name") {
        "the server's certificate does not name the host connected to: connect by a name it carries, or set Tls::domain"
    } else if message.contains("Expired") && message.contains("certificate") {
        "the server's certificate has expired"
    } else if message.contains("invalid peer certificate") {
        "the server's certificate was refused"
    } else {
        return None;
    };
    let detail = ["invalid peer certificate", "received fatal alert"]
        .iter()
        .find_map(|marker| message.find(marker))
        .map(|at| &message[at..])
        .unwrap_or(message);
    Some(format!("TLS: {what} ({detail})"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ca_without_certificates_is_refused_and_nothing_trusted_is_refused() {
        assert!(Tls::default().validate().is_ok());
        let err = Tls::ca_pem("not a pem").validate().unwrap_err();
        assert!(err.contains("holds no certificate"), "{err}");
        let none = Tls {
            system_roots: false,
            ..Tls::default()
        };
        assert!(none
            .validate()
            .unwrap_err()
            .contains("trusts no certificate"));
        let debug = format!("{:?}", Tls::ca_pem("x").domain("h"));
        assert!(
            debug.contains("ca_certificates: 0") && debug.contains("\"h\""),
            "{debug}"
        );
    }

    #[test]
    fn client_identities_never_show_their_key_and_bad_ones_are_named() {
        let key = "-----BEGIN PRIVATE KEY-----\nU0VDUkVU\n-----END PRIVATE KEY-----\n";
        let id = ClientIdentity::from_pem("no certificate here", key);
        let debug = format!("{:?}", Tls::system().identity(id.clone()));
        assert!(
            debug.contains("<redacted>") && !debug.contains("U0VDUkVU"),
            "{debug}"
        );
        let e = Tls::system().identity(id).validate().unwrap_err();
        assert!(e.contains("holds no certificate"), "{e}");
        let encrypted = ClientIdentity::from_pem(
            "",
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\nU0VDUkVU\n-----END ENCRYPTED PRIVATE KEY-----\n",
        );
        let e = encrypted.key().unwrap_err();
        assert!(e.contains("encrypted") && !e.contains("U0VDUkVU"), "{e}");
        let e = ClientIdentity::from_pem("", "nothing").key().unwrap_err();
        assert!(e.contains("holds no private key"), "{e}");
        let e = ClientIdentity::from_files("/no/such.crt", "/no/such.key").unwrap_err();
        assert!(
            e.to_string()
                .contains("client certificate file /no/such.crt"),
            "{e}"
        );
    }

    #[test]
    fn certificate_problems_are_named() {
        let m = certificate_problem("transport error: invalid peer certificate: UnknownIssuer")
            .unwrap();
        assert!(
            m.contains("Tls::ca_pem") && m.contains("UnknownIssuer"),
            "{m}"
        );
        let m = certificate_problem("invalid peer certificate: NotValidForName").unwrap();
        assert!(m.contains("Tls::domain"), "{m}");
        let m = certificate_problem(
            "invalid peer certificate: certificate not valid for name \"a\"; certificate is only valid for DnsName(\"b\")",
        )
        .unwrap();
        assert!(
            m.contains("Tls::domain") && m.contains("only valid for"),
            "{m}"
        );
        let m = certificate_problem("io error: received fatal alert: CertificateRequired").unwrap();
        assert!(
            m.contains("Tls::identity") && m.contains("received fatal alert"),
            "{m}"
        );
        let m = certificate_problem("received fatal alert: BadCertificate").unwrap();
        assert!(m.contains("refused this client's certificate"), "{m}");
        let m = handshake_problem("received fatal alert: BadCertificate", false).unwrap();
        assert!(m.contains("presented none"), "{m}");
        let m = handshake_problem("invalid peer certificate: UnknownIssuer", false).unwrap();
        assert!(m.contains("Tls::ca_pem"), "{m}");
        assert!(certificate_problem("connection refused").is_none());
    }
}
