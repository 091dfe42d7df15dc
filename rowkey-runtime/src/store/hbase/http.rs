//! The Thrift2 gateway's HTTP transport (a gateway with `hbase.regionserver.thrift.http`):
//! each call a `POST` of the unframed Thrift message, the reply the response's body, over one
//! kept-alive HTTP/1.1 connection per pooled [`Conn`](super::conn::Conn); TLS for `https://`
//! addresses (the gateway's `hbase.thrift.ssl.enabled`).
//!
//! A Kerberized HTTP gateway authenticates every request from its `Authorization: Negotiate`
//! header (SPNEGO, RFC 4559) and has no session: each request carries a new authenticator, and
//! the gateway's answer token is checked (mutual authentication). HTTP has no SASL layer: the
//! messages are protected by TLS or not at all, whatever `hbase.thrift.security.qop` says.

use http_body_util::BodyExt;
use hyper::body::Bytes;
use tokio::net::TcpStream;

use super::error::TransportError;
use crate::store::net::proxy::{Tunnel, TunnelError};
use crate::store::net::tls::{HandshakeError, TlsClient};

/// The most of an error response's body read for its message.
const ERROR_BODY: usize = 64 << 10;

/// Where an HTTP gateway is: `http://host:port/path` or `https://...`, parsed once.
pub(crate) struct Endpoint {
    /// `host:port`, to connect to and for the `Host` header.
    authority: String,
    /// The host alone (no brackets), for the certificate and the SPNEGO principal.
    pub(crate) host: String,
    /// The path (and query) POSTed to.
    path: String,
    /// TLS, for `https://`.
    tls: Option<TlsClient>,
    /// The HTTP proxy each connection tunnels through.
    proxy: Option<Tunnel>,
    /// The `doAs` header's value: the user the gateway acts as.
    do_as: Option<hyper::header::HeaderValue>,
}

impl std::fmt::Debug for Endpoint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.url())
    }
}

impl Endpoint {
    /// Parses `address` (`http://` or `https://`); `tls` is the trust for `https://` (`None`:
    /// the system's roots) and is refused with `http://`. The message of an error never
    /// repeats a user name or password the address holds.
    pub(crate) fn parse(
        address: &str,
        tls: Option<&crate::store::Tls>,
    ) -> Result<Endpoint, String> {
        let uri: hyper::Uri = address.parse().map_err(|e| {
            format!("the gateway's address is not a URL ({e}); expected http://host:port/")
        })?;
        let secure = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            _ => return Err("the gateway's URL must start with http:// or https://".into()),
        };
        let authority = uri.authority().ok_or("the gateway's URL names no host")?;
        if authority.as_str().contains('@') {
            return Err(
                "the gateway's URL holds a user name or password: HTTP gateways authenticate \
                 with Kerberos (HbaseConfig::kerberos), not in the URL"
                    .into(),
            );
        }
        let host = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_string();
        if host.is_empty() {
            return Err("the gateway's URL names no host".into());
        }
        let port = authority
            .port_u16()
            .unwrap_or(if secure { 443 } else { 80 });
        let path = uri
            .path_and_query()
            .map(|p| p.as_str())
            .filter(|p| !p.is_empty())
            .unwrap_or("/")
            .to_string();
        let tls =
            match (secure, tls) {
                (true, tls) => Some(TlsClient::new(&tls.cloned().unwrap_or_default())?),
                (false, Some(_)) => return Err(
                    "TLS is configured (HbaseConfig::tls) but the gateway's URL is http://: use \
                     https://"
                        .into(),
                ),
                (false, None) => None,
            };
        Ok(Endpoint {
            authority: format!("{}:{port}", authority.host()),
            host,
            path,
            tls,
            proxy: None,
            do_as: None,
        })
    }

    /// Tunnels every connection through `proxy` (checked here).
    pub(crate) fn through(
        mut self,
        proxy: Option<&crate::store::HttpProxy>,
    ) -> Result<Endpoint, String> {
        self.proxy = proxy.map(|p| p.parse()).transpose()?;
        Ok(self)
    }

    /// Sends `doAs: user` with every call; a name a header cannot carry is refused.
    pub(crate) fn acting_as(mut self, user: Option<&str>) -> Result<Endpoint, String> {
        self.do_as = match user {
            None => None,
            Some("") => return Err("HbaseConfig::do_as names no user".into()),
            Some(user) => Some(
                hyper::header::HeaderValue::from_str(user)
                    .ok()
                    .filter(|_| user.bytes().all(|b| b.is_ascii_graphic()))
                    .ok_or_else(|| {
                        format!(
                            "HbaseConfig::do_as: {user:?} cannot be sent as a header (a user \
                             name of printable ASCII without spaces)"
                        )
                    })?,
            ),
        };
        Ok(self)
    }

    /// The URL, as parsed (for messages).
    pub(crate) fn url(&self) -> String {
        let scheme = if self.tls.is_some() { "https" } else { "http" };
        format!("{scheme}://{}{}", self.authority, self.path)
    }
}

/// One HTTP/1.1 connection to the gateway.
pub(super) struct HttpConn {
    sender: hyper::client::conn::http1::SendRequest<http_body_util::Full<Bytes>>,
    /// The gateway said `Connection: close`, or the connection failed.
    closed: bool,
    /// Whether a response has come on this connection.
    answered: bool,
}

/// What a response said besides its body.
pub(super) struct Answer {
    /// The token of a `WWW-Authenticate: Negotiate` header, decoded.
    #[cfg_attr(not(feature = "kerberos"), allow(dead_code))]
    pub(super) negotiate: Option<Vec<u8>>,
}

impl HttpConn {
    /// Connects (and completes TLS for `https://`); the caller bounds the time.
    pub(super) async fn open(endpoint: &Endpoint) -> Result<HttpConn, TransportError> {
        use hyper_util::rt::TokioIo;
        let sender = match &endpoint.proxy {
            None => {
                let stream = TcpStream::connect(&endpoint.authority).await?;
                stream.set_nodelay(true)?;
                match &endpoint.tls {
                    Some(tls) => {
                        handshake(TokioIo::new(secure(tls, stream, endpoint).await?)).await?
                    }
                    None => handshake(TokioIo::new(stream)).await?,
                }
            }
            Some(proxy) => {
                let tunnel = proxy
                    .open(&endpoint.authority)
                    .await
                    .map_err(tunnel_error)?;
                match &endpoint.tls {
                    Some(tls) => {
                        handshake(TokioIo::new(secure(tls, tunnel, endpoint).await?)).await?
                    }
                    None => handshake(TokioIo::new(tunnel)).await?,
                }
            }
        };
        Ok(HttpConn {
            sender,
            closed: false,
            answered: false,
        })
    }

    /// Whether the connection can carry another call.
    pub(super) fn reusable(&self) -> bool {
        !self.closed && !self.sender.is_closed()
    }

    /// POSTs `body` with `authorization` (an `Authorization` header's value) and puts a
    /// successful response's body in `input`; any other status is an error saying what the
    /// gateway said.
    pub(super) async fn post(
        &mut self,
        endpoint: &Endpoint,
        body: &[u8],
        authorization: Option<String>,
        input: &mut Vec<u8>,
        max: usize,
    ) -> Result<Answer, TransportError> {
        self.closed = true; // until the response is read whole
        let authenticated = authorization.is_some();
        let mut request = hyper::Request::post(endpoint.path.as_str())
            .header(hyper::header::HOST, endpoint.authority.as_str())
            .header(hyper::header::CONTENT_TYPE, "application/x-thrift")
            .header(hyper::header::ACCEPT, "application/x-thrift")
            .header(hyper::header::USER_AGENT, "rowkey");
        if let Some(value) = authorization {
            request = request.header(hyper::header::AUTHORIZATION, value);
        }
        if let Some(user) = &endpoint.do_as {
            request = request.header("doAs", user.clone());
        }
        let request = request
            .body(http_body_util::Full::new(Bytes::copy_from_slice(body)))
            .map_err(|e| TransportError::Protocol(format!("the request cannot be built: {e}")))?;
        self.sender.ready().await.map_err(io)?;
        let response = match self.sender.send_request(request).await {
            Ok(r) => r,
            // A Thrift2 gateway on a socket closes a connection whose first bytes are HTTP.
            Err(e) if e.is_incomplete_message() && !self.answered => {
                return Err(TransportError::Io(std::io::Error::other(format!(
                    "{}: the connection closed without an answer to its first request (is the \
                     gateway in HTTP mode, hbase.regionserver.thrift.http? one that is not \
                     takes host:port, without http://)",
                    endpoint.url()
                ))))
            }
            Err(e) => return Err(io(e)),
        };
        self.answered = true;
        let status = response.status();
        let negotiate = negotiate_token(response.headers())?;
        let keep = !response
            .headers()
            .get_all(hyper::header::CONNECTION)
            .iter()
            .any(|v| v.as_bytes().eq_ignore_ascii_case(b"close"));
        let thrift = response
            .headers()
            .get(hyper::header::CONTENT_TYPE)
            .is_some_and(|v| v.as_bytes().starts_with(b"application/x-thrift"));
        let mut body = response.into_body();
        let limit = if status.is_success() && thrift {
            max
        } else {
            ERROR_BODY
        };
        while let Some(frame) = body.frame().await {
            let frame = frame.map_err(io)?;
            if let Ok(data) = frame.into_data() {
                if input.len() + data.len() > limit {
                    if limit == ERROR_BODY {
                        input.extend_from_slice(&data[..limit - input.len()]);
                        break;
                    }
                    return Err(TransportError::Protocol(format!(
                        "a reply over {} MiB",
                        max >> 20
                    )));
                }
                input.extend_from_slice(&data);
            }
        }
        if status.is_success() && thrift {
            self.closed = !keep;
            return Ok(Answer { negotiate });
        }
        let said = message(input);
        let code = status.as_u16();
        Err(match code {
            200..=299 => TransportError::Protocol(format!(
                "{} answered HTTP {code} without a Thrift reply (is it a Thrift2 gateway in \
                 HTTP mode?){said}",
                endpoint.url()
            )),
            401 => TransportError::Auth {
                message: if !authenticated {
                    format!(
                        "{} asks for Kerberos (SPNEGO) authentication (HTTP 401): configure \
                         HbaseConfig::kerberos{said}",
                        endpoint.url()
                    )
                } else {
                    format!(
                        "{} refused the Kerberos authentication (HTTP 401){said}",
                        endpoint.url()
                    )
                },
                transient: false,
            },
            403 => TransportError::Auth {
                message: format!("{} forbids the request (HTTP 403){said}", endpoint.url()),
                transient: false,
            },
            404 => TransportError::Http {
                status: code,
                message: format!(
                    "{} has no gateway at this path (HTTP 404){said}",
                    endpoint.url()
                ),
                transient: false,
            },
            // nginx's answer, over a completed handshake, to a client whose certificate it
            // requires (`ssl_verify_client on`) and did not get, or did not trust.
            400 if said.contains("SSL certificate") => {
                TransportError::Http {
                    status: code,
                    message: format!(
                    "{} answered HTTP 400{said}: the server in front of the gateway requires a \
                     client certificate (mutual TLS) {}",
                    endpoint.url(),
                    if endpoint.tls.as_ref().is_some_and(TlsClient::presents_identity) {
                        "and refused this client's (Tls::identity): present one from a CA it \
                         trusts"
                    } else {
                        "and this client presented none: configure Tls::identity"
                    }
                ),
                    transient: false,
                }
            }
            500 if endpoint.do_as.is_some() => TransportError::Http {
                status: code,
                message: format!(
                    "{} answered HTTP 500{said} to a call acting as {:?} (HbaseConfig::do_as): \
                     a gateway answers so when the authenticated user may not impersonate that \
                     user (hadoop.proxyuser.<user>.hosts, .users, .groups) or proxy users are \
                     off (hbase.thrift.support.proxyuser); its log says which",
                    endpoint.url(),
                    endpoint
                        .do_as
                        .as_ref()
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or("")
                ),
                transient: false,
            },
            _ => TransportError::Http {
                status: code,
                message: format!("{} answered HTTP {code}{said}", endpoint.url()),
                // A proxy or an overloaded gateway in front of a healthy cluster.
                transient: matches!(code, 502..=504),
            },
        })
    }
}

/// TLS over `stream` to the gateway; a certificate problem is not retried.
async fn secure<S>(
    tls: &TlsClient,
    stream: S,
    endpoint: &Endpoint,
) -> Result<tokio_rustls::client::TlsStream<S>, TransportError>
where
    S: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin,
{
    tls.handshake(stream, &endpoint.host, &endpoint.url())
        .await
        .map_err(|e| match e {
            HandshakeError::Untrusted(m) => TransportError::Connect(m),
            HandshakeError::Failed(m) => TransportError::Io(std::io::Error::other(m)),
        })
}

/// A proxy's refusal as the transport's: credentials asked for or refused are not retried, nor
/// a tunnel refused (403); an unreachable proxy, or its 502-504, are.
fn tunnel_error(e: TunnelError) -> TransportError {
    match e {
        TunnelError::Io(m) => TransportError::Io(std::io::Error::other(m)),
        TunnelError::Auth(message) => TransportError::Auth {
            message,
            transient: false,
        },
        TunnelError::Refused {
            status,
            message,
            transient,
        } => TransportError::Http {
            status,
            message,
            transient,
        },
    }
}

/// An HTTP/1.1 handshake over `io`, its connection driven on the runtime.
async fn handshake<T>(
    stream: T,
) -> Result<hyper::client::conn::http1::SendRequest<http_body_util::Full<Bytes>>, TransportError>
where
    T: hyper::rt::Read + hyper::rt::Write + Unpin + Send + 'static,
{
    let (sender, connection) = hyper::client::conn::http1::handshake(stream)
        .await
        .map_err(io)?;
    tokio::spawn(async move {
        // Ends when the connection closes or its sender is dropped; a failure shows up in the
        // call that was on it.
        let _ = connection.await;
    });
    Ok(sender)
}

/// A hyper failure: the connection failed or closed under the call.
fn io(e: hyper::Error) -> TransportError {
    TransportError::Io(std::io::Error::other(crate::store::net::error_chain(&e)))
}

/// The token of a `WWW-Authenticate: Negotiate <base64>` header, if any.
fn negotiate_token(headers: &hyper::HeaderMap) -> Result<Option<Vec<u8>>, TransportError> {
    crate::store::net::negotiate_token(headers).map_err(TransportError::Protocol)
}

/// What an error response says, for a message: `: ` and the HTML page's title (Jetty's error
/// pages put the servlet's message there), else the text's first line; empty when nothing.
fn message(body: &[u8]) -> String {
    let text = String::from_utf8_lossy(body);
    let lower = text.to_ascii_lowercase();
    let said = match (lower.find("<title>"), lower.find("</title>")) {
        (Some(a), Some(b)) if a + 7 <= b => text[a + 7..b].trim().to_string(),
        _ => text
            .lines()
            .map(str::trim)
            .find(|l| !l.is_empty())
            .unwrap_or("")
            .to_string(),
    };
    let said: String = said.chars().take(500).collect();
    if said.is_empty() {
        String::new()
    } else {
        format!(": {said}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn urls_are_parsed_and_their_mistakes_named() {
        let e = Endpoint::parse("http://gw.example:9090", None).unwrap();
        assert_eq!(
            (e.authority.as_str(), e.host.as_str(), e.path.as_str()),
            ("gw.example:9090", "gw.example", "/")
        );
        assert_eq!(e.url(), "http://gw.example:9090/");
        let e = Endpoint::parse("https://[::1]/thrift?x=1", None).unwrap();
        assert_eq!(
            (e.authority.as_str(), e.host.as_str(), e.path.as_str()),
            ("[::1]:443", "::1", "/thrift?x=1")
        );
        let refused = |a: &str, tls: Option<&crate::store::Tls>| {
            Endpoint::parse(a, tls).map(|_| ()).unwrap_err()
        };
        assert!(refused("ftp://gw:1/", None).contains("http:// or https://"));
        assert!(refused("gw:9090", None).contains("http:// or https://"));
        let secret = refused("https://etl:hunter2@gw:9090/", None);
        assert!(secret.contains("user name or password"), "{secret}");
        assert!(!secret.contains("hunter2"), "{secret}");
        assert!(
            refused("http://gw:9090/", Some(&crate::store::Tls::system())).contains("https://")
        );
        assert!(
            refused("https://gw:1/", Some(&crate::store::Tls::ca_pem("no pem")))
                .contains("no certificate")
        );
    }

    #[test]
    fn error_pages_are_read_for_their_message() {
        assert_eq!(
            message(b"<html><head><title>Error 401 Authentication Error: GSSException</title>"),
            ": Error 401 Authentication Error: GSSException"
        );
        assert_eq!(message(b"\n  upstream down\nmore"), ": upstream down");
        assert_eq!(message(b""), "");
        let mut h = hyper::HeaderMap::new();
        h.append(
            hyper::header::WWW_AUTHENTICATE,
            "Basic realm=x".parse().unwrap(),
        );
        assert_eq!(negotiate_token(&h).unwrap(), None);
        h.append(
            hyper::header::WWW_AUTHENTICATE,
            "Negotiate".parse().unwrap(),
        );
        assert_eq!(negotiate_token(&h).unwrap(), None);
        h.append(
            hyper::header::WWW_AUTHENTICATE,
            "negotiate oYE=".parse().unwrap(),
        );
        assert_eq!(negotiate_token(&h).unwrap(), Some(vec![0xa1, 0x81]));
    }
}
