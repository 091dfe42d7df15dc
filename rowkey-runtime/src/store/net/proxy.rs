//! [`HttpProxy`]: an HTTP proxy that a store's connections go through, each a `CONNECT`
//! tunnel (RFC 9110 §9.3.6) to the server, inside which TLS and HTTP run as without it.
//!
//! The `CONNECT` exchange is hyper's own client (a request, then the connection upgraded to the
//! tunnel): every status the proxy answers is kept for the message, which hyper-util's
//! `Tunnel` connector reduces to "unsuccessful".

use std::fmt;

use http_body_util::Empty;
use hyper::body::Bytes;
use hyper_util::rt::TokioIo;

/// An HTTP proxy, given as `http://host:port` (`http://user:password@host:port` for one that
/// asks for Basic credentials). Every connection the store opens is a `CONNECT` tunnel through
/// it, so the proxy sees the server's name and port and, for an `https://` server, nothing
/// else: TLS runs end to end inside the tunnel. The proxy must allow `CONNECT` to the server's
/// port (squid, for one, allows 443 only unless told).
///
/// The URL is checked when the store connects. The credentials are a secret: `Debug` shows
/// `<redacted>`, and no error repeats them.
#[derive(Clone, PartialEq, Eq)]
pub struct HttpProxy {
    url: String,
    /// A `Proxy-Authorization` value found beside the URL (the environment's).
    basic: Option<hyper::header::HeaderValue>,
}

impl fmt::Debug for HttpProxy {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.parse() {
            Ok(p) => f
                .debug_struct("HttpProxy")
                .field("address", &p.authority)
                .field(
                    "credentials",
                    &p.authorization.as_ref().map(|_| "<redacted>"),
                )
                .finish(),
            Err(_) => f.write_str("HttpProxy(<not a proxy URL>)"),
        }
    }
}

/// A proxy's address and credentials, checked.
#[derive(Clone)]
pub(crate) struct Tunnel {
    /// `host:port`.
    authority: String,
    /// `Basic …`, for `Proxy-Authorization`.
    authorization: Option<hyper::header::HeaderValue>,
}

/// Why a tunnel could not be made.
pub(crate) enum TunnelError {
    /// The proxy cannot be reached, or the exchange broke off: worth another attempt.
    Io(String),
    /// The proxy asks for credentials (407), or refused the ones given.
    Auth(String),
    /// The proxy answered another status; `transient` for 502, 503 and 504 (the server
    /// unreachable from the proxy, the proxy overloaded).
    Refused {
        /// The status.
        status: u16,
        /// What to tell the user.
        message: String,
        /// Whether another attempt may succeed.
        transient: bool,
    },
}

impl HttpProxy {
    /// The proxy at `url`: `http://host:port`, with `user:password@` before the host for Basic
    /// credentials (percent-encoded where they hold `@`, `:` or `/`). Checked when the store
    /// connects.
    pub fn new(url: &str) -> Self {
        HttpProxy {
            url: url.into(),
            basic: None,
        }
    }

    /// The proxy the environment names for `target` (a server's URL, `https://` or
    /// `http://`), as curl and most HTTP clients read it: `HTTPS_PROXY` or `HTTP_PROXY` (or
    /// `ALL_PROXY`, any of them in lower case too) unless `NO_PROXY` lists the target's host;
    /// `None` when none applies.
    pub fn from_env(target: &str) -> Option<Self> {
        let uri: hyper::Uri = target.parse().ok()?;
        let intercept = hyper_util::client::proxy::matcher::Matcher::from_env().intercept(&uri)?;
        let proxy = intercept.uri();
        let url = format!(
            "{}://{}",
            proxy.scheme_str().unwrap_or("http"),
            proxy.authority().map_or(String::new(), |a| format!(
                "{}:{}",
                a.host(),
                a.port_u16().unwrap_or(80)
            ))
        );
        let basic = intercept.basic_auth().cloned().or_else(|| {
            let (user, password) = intercept.raw_auth()?;
            basic_value(user, password).ok()
        });
        Some(HttpProxy { url, basic })
    }

    /// The address and credentials; an error never repeats the URL (it may hold a password).
    pub(crate) fn parse(&self) -> Result<Tunnel, String> {
        let uri: hyper::Uri = self.url.parse().map_err(|_| {
            "the proxy's address is not a URL; expected http://host:port".to_string()
        })?;
        match uri.scheme_str() {
            Some("http") => {}
            Some("https") => {
                return Err(
                    "an https:// proxy (TLS to the proxy itself) is not supported: give the \
                     proxy's http:// address (a tunnel to an https:// server is TLS end to end)"
                        .into(),
                )
            }
            _ => return Err("the proxy's URL must start with http://".into()),
        }
        let authority = uri.authority().ok_or("the proxy's URL names no host")?;
        let host = authority.host();
        if host.is_empty() {
            return Err("the proxy's URL names no host".into());
        }
        let port = authority.port_u16().unwrap_or(80);
        let authorization = match authority.as_str().rsplit_once('@') {
            None => self.basic.clone(),
            Some((userinfo, _)) => {
                let (user, password) = userinfo.split_once(':').unwrap_or((userinfo, ""));
                Some(basic_value(
                    &percent_decode(user)?,
                    &percent_decode(password)?,
                )?)
            }
        };
        Ok(Tunnel {
            authority: format!("{host}:{port}"),
            authorization,
        })
    }
}

impl Tunnel {
    /// The proxy's `host:port`.
    #[cfg(test)]
    fn address(&self) -> &str {
        &self.authority
    }

    /// Opens a tunnel to `target` (`host:port`) through the proxy; the caller bounds the time.
    pub(crate) async fn open(
        &self,
        target: &str,
    ) -> Result<TokioIo<hyper::upgrade::Upgraded>, TunnelError> {
        let proxy = &self.authority;
        let stream = tokio::net::TcpStream::connect(proxy)
            .await
            .map_err(|e| TunnelError::Io(format!("the proxy {proxy}: {e}")))?;
        stream
            .set_nodelay(true)
            .map_err(|e| TunnelError::Io(format!("the proxy {proxy}: {e}")))?;
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake::<_, Empty<Bytes>>(TokioIo::new(stream))
                .await
                .map_err(|e| TunnelError::Io(format!("the proxy {proxy}: {e}")))?;
        tokio::spawn(async move {
            let _ = connection.with_upgrades().await;
        });
        let mut request = hyper::Request::connect(target).header(hyper::header::HOST, target);
        if let Some(value) = &self.authorization {
            request = request.header(hyper::header::PROXY_AUTHORIZATION, value.clone());
        }
        let request = request
            .body(Empty::new())
            .map_err(|e| TunnelError::Io(format!("a CONNECT to {target} cannot be built: {e}")))?;
        let response = sender
            .send_request(request)
            .await
            .map_err(|e| TunnelError::Io(format!("the proxy {proxy}: {e}")))?;
        let status = response.status();
        let code = status.as_u16();
        let reason = status.canonical_reason().unwrap_or("");
        match code {
            200..=299 => hyper::upgrade::on(response)
                .await
                .map(TokioIo::new)
                .map_err(|e| TunnelError::Io(format!("the proxy {proxy}: {e}"))),
            // 407, or 401 from a proxy that says so to CONNECT (tinyproxy): a CONNECT carries
            // no credentials but the proxy's.
            401 | 407 => Err(TunnelError::Auth(if self.authorization.is_none() {
                format!(
                    "the proxy {proxy} asks for credentials (HTTP {code} {reason}): give them in \
                     its URL, http://user:password@host:port"
                )
            } else {
                format!("the proxy {proxy} refused the credentials given (HTTP {code} {reason})")
            })),
            _ => Err(TunnelError::Refused {
                status: code,
                message: format!(
                    "the proxy {proxy} refused a tunnel to {target} (HTTP {code} {reason}){}",
                    match code {
                        403 => ": it may not allow CONNECT to this port",
                        502..=504 => ": it cannot reach the server, or is overloaded",
                        _ => "",
                    }
                ),
                transient: matches!(code, 502..=504),
            }),
        }
    }
}

/// `Basic base64(user:password)`, marked sensitive (never logged by hyper).
fn basic_value(user: &str, password: &str) -> Result<hyper::header::HeaderValue, String> {
    use base64::Engine as _;
    let mut value = hyper::header::HeaderValue::try_from(format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{user}:{password}"))
    ))
    .map_err(|_| "the proxy's credentials cannot be sent in a header".to_string())?;
    value.set_sensitive(true);
    Ok(value)
}

/// Decodes `%XX` escapes in a URL's user or password.
fn percent_decode(s: &str) -> Result<String, String> {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
                .ok_or("the proxy's credentials hold a % that is not %XX")?;
            out.push(hex);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| "the proxy's credentials are not UTF-8".to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proxy_urls_are_checked_and_credentials_never_shown() {
        let p = HttpProxy::new("http://etl:s%40cret@proxy.example:3128");
        let t = p.parse().unwrap();
        assert_eq!(t.address(), "proxy.example:3128");
        use base64::Engine as _;
        let sent = t.authorization.unwrap();
        let decoded = base64::engine::general_purpose::STANDARD
            .decode(&sent.as_bytes()[6..])
            .unwrap();
        assert_eq!(decoded, b"etl:s@cret");
        let debug = format!("{p:?}");
        assert!(
            debug.contains("proxy.example:3128") && debug.contains("<redacted>"),
            "{debug}"
        );
        assert!(!debug.contains("cret"), "{debug}");
        assert_eq!(
            HttpProxy::new("http://proxy").parse().unwrap().address(),
            "proxy:80"
        );
        for (url, said) in [
            ("https://proxy:3128", "not supported"),
            ("socks5://proxy:1080", "must start with http://"),
            ("http://u:p%zz@proxy:1", "%XX"),
            ("not a url at all", "not a URL"),
        ] {
            let e = HttpProxy::new(url).parse().err().unwrap();
            assert!(e.contains(said), "{url}: {e}");
            assert!(!e.contains("p%zz"), "{e}");
        }
    }
}
