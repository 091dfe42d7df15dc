//! HDFS delegation tokens for bulk loads on a Kerberized cluster, as HBase's `BulkLoadHFiles`
//! passes one (`BulkLoadHFileRequest.fs_token`): with it, the region servers act on the staged
//! files as the store's user (whose files they are) instead of as HBase, so the staging
//! directory stays the user's own.
//!
//! The token is asked of the name node's web endpoint (WebHDFS, `GETDELEGATIONTOKEN`, with
//! SPNEGO as the store's Kerberos login), the route Hadoop's own `hdfs fetchdt --webservice`
//! takes: the HDFS client rowkey stages through (hdfs-native) does not ask for tokens. It is
//! labelled as an RPC token (`HDFS_DELEGATION_TOKEN`, the name node's RPC address as its
//! service, which is what HDFS's client in the region server looks it up by), and cancelled
//! when the load ends.

use std::sync::Arc;

use http_body_util::BodyExt;

use super::error;
use super::pb;
use crate::store::net::kerberos::Login;
use crate::store::NetError;

/// The most of a response read.
const MAX_BODY: usize = 1 << 20;

/// A delegation token the name node issued, until [`Token::cancel`].
pub(super) struct Token {
    /// What the region servers are given.
    pub(super) fs_token: pb::DelegationToken,
    /// The token as WebHDFS encodes it (`urlString`), to cancel it.
    url_string: String,
    web: String,
}

/// The name node's web address for the file system at `authority` (`host:port` or a name
/// service): `configured` if given, else `dfs.namenode.http-address` from
/// `$HADOOP_CONF_DIR/hdfs-site.xml` (`dfs.namenode.https-address` under `dfs.http.policy`
/// `HTTPS_ONLY`), else port 9870 (Hadoop 3's default) of the name node's host.
pub(super) fn web_address(configured: Option<&str>, authority: &str) -> Result<String, NetError> {
    if let Some(web) = configured {
        return Ok(web.trim_end_matches('/').to_string());
    }
    if let Some(dir) = std::env::var_os("HADOOP_CONF_DIR") {
        let file = std::path::Path::new(&dir).join("hdfs-site.xml");
        if file.is_file() {
            let site = crate::store::HbaseSite::load(&file)?;
            if site.get("dfs.http.policy") == Some("HTTPS_ONLY") {
                if let Some(a) = site.get("dfs.namenode.https-address") {
                    return Ok(format!("https://{a}"));
                }
            }
            if let Some(a) = site.get("dfs.namenode.http-address") {
                return Ok(format!("http://{a}"));
            }
        }
    }
    let host = authority
        .rsplit_once(':')
        .map_or(authority, |(host, _)| host);
    Ok(format!("http://{host}:9870"))
}

/// The service an RPC delegation token for `authority` is looked up by (Hadoop's
/// `SecurityUtil.buildTokenService` with `hadoop.security.token.service.use_ip`): the name
/// node's `ip:port`, or `ha-hdfs:NAMESERVICE` for a name service (no port).
pub(super) async fn token_service(authority: &str) -> Result<String, NetError> {
    let Some((host, port)) = authority.rsplit_once(':') else {
        return Ok(format!("ha-hdfs:{authority}"));
    };
    let port: u16 = port
        .parse()
        .map_err(|_| failed(format!("the name node's port in {authority}")))?;
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let addr = tokio::net::lookup_host((host, port))
        .await
        .map_err(|e| failed(format!("resolving the name node {host}: {e}")))?
        .min_by_key(|a| a.is_ipv6())
        .ok_or_else(|| failed(format!("the name node {host} has no address")))?;
    Ok(match addr {
        std::net::SocketAddr::V4(a) => format!("{}:{}", a.ip(), a.port()),
        std::net::SocketAddr::V6(a) => format!("[{}]:{}", a.ip(), a.port()),
    })
}

fn failed(message: String) -> NetError {
    error::local(format!("HDFS delegation token: {message}"))
}

impl Token {
    /// Asks the name node at `web` (`http://host:port`) for a token for `service`, renewable
    /// by `renewer`, as `login`.
    pub(super) async fn fetch(
        login: &Arc<Login>,
        web: &str,
        renewer: &str,
        service: String,
        timeout: std::time::Duration,
    ) -> Result<Token, NetError> {
        let query = format!("op=GETDELEGATIONTOKEN&renewer={}", encode(renewer));
        let body = tokio::time::timeout(timeout, call(login, web, "GET", &query))
            .await
            .map_err(|_| failed(format!("{web} did not answer within {timeout:?}")))??;
        let json: serde_json::Value = serde_json::from_slice(&body)
            .map_err(|e| failed(format!("{web} answered with no JSON ({e})")))?;
        let url_string = json
            .pointer("/Token/urlString")
            .and_then(|v| v.as_str())
            .ok_or_else(|| failed(format!("{web} answered without Token.urlString")))?
            .to_string();
        let (identifier, password) = decode_token(&url_string)
            .map_err(|e| failed(format!("the token {web} gave does not decode: {e}")))?;
        Ok(Token {
            fs_token: pb::DelegationToken {
                identifier: Some(identifier.into()),
                password: Some(password.into()),
                kind: Some("HDFS_DELEGATION_TOKEN".into()),
                service: Some(service),
            },
            url_string,
            web: web.to_string(),
        })
    }

    /// Cancels the token (best effort: an uncancelled token expires on its own, a day after
    /// its last renewal by default).
    pub(super) async fn cancel(self, login: &Arc<Login>, timeout: std::time::Duration) {
        let query = format!("op=CANCELDELEGATIONTOKEN&token={}", self.url_string);
        let cancelled = tokio::time::timeout(timeout, call(login, &self.web, "PUT", &query)).await;
        if !matches!(cancelled, Ok(Ok(_))) {
            tracing::debug!(target: "rowkey::store", "HDFS delegation token not cancelled");
        }
    }
}

/// One WebHDFS call at `/webhdfs/v1/?{query}`, authenticated with SPNEGO; the body of a
/// successful answer. The name node's answer token is checked (mutual authentication).
async fn call(
    login: &Arc<Login>,
    web: &str,
    method: &str,
    query: &str,
) -> Result<Vec<u8>, NetError> {
    use hyper_util::rt::TokioIo;
    let authority = web
        .strip_prefix("http://")
        .ok_or_else(|| {
            failed(format!(
                "{web}: only http:// name node addresses are supported"
            ))
        })?
        .trim_end_matches('/');
    let host = authority
        .rsplit_once(':')
        .map_or(authority, |(host, _)| host)
        .trim_start_matches('[')
        .trim_end_matches(']');
    let (negotiation, token) = login
        .negotiate_async(host)
        .await
        .map_err(|e| failed(format!("SPNEGO to {web}: {e}")))?;
    let stream = tokio::net::TcpStream::connect(authority)
        .await
        .map_err(|e| failed(format!("connecting to {web}: {e}")))?;
    let (mut sender, conn) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .map_err(|e| failed(format!("{web}: {e}")))?;
    let driver = tokio::spawn(conn);
    let authorization = {
        use base64::Engine as _;
        format!(
            "Negotiate {}",
            base64::engine::general_purpose::STANDARD.encode(token)
        )
    };
    let request = hyper::Request::builder()
        .method(method)
        .uri(format!("/webhdfs/v1/?{query}"))
        .header(hyper::header::HOST, authority)
        .header(hyper::header::AUTHORIZATION, authorization)
        .header(hyper::header::USER_AGENT, "rowkey")
        .body(http_body_util::Empty::<bytes::Bytes>::new())
        .map_err(|e| failed(format!("the request cannot be built: {e}")))?;
    let response = sender
        .send_request(request)
        .await
        .map_err(|e| failed(format!("{web}: {e}")))?;
    let status = response.status();
    let answer = crate::store::net::negotiate_token(response.headers())
        .map_err(|e| failed(format!("{web}: {e}")))?;
    let mut body = Vec::new();
    let mut frames = response.into_body();
    while let Some(frame) = frames.frame().await {
        let frame = frame.map_err(|e| failed(format!("{web}: {e}")))?;
        if let Ok(data) = frame.into_data() {
            if body.len() + data.len() > MAX_BODY {
                return Err(failed(format!("{web}: an answer over 1 MiB")));
            }
            body.extend_from_slice(&data);
        }
    }
    driver.abort();
    if !status.is_success() {
        // WebHDFS says why in JSON (RemoteException.message).
        let said = serde_json::from_slice::<serde_json::Value>(&body)
            .ok()
            .and_then(|v| {
                v.pointer("/RemoteException/message")
                    .and_then(|m| m.as_str())
                    .map(str::to_string)
            })
            .unwrap_or_else(|| String::from_utf8_lossy(&body[..body.len().min(200)]).into_owned());
        return Err(failed(format!(
            "{web} answered HTTP {}: {said}",
            status.as_u16()
        )));
    }
    negotiation
        .finish(answer.as_deref())
        .map_err(|e| failed(e.to_string()))?;
    Ok(body)
}

/// A query value, percent-encoded.
fn encode(value: &str) -> String {
    value
        .bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The identifier and password of a token in Hadoop's URL-safe encoding (`Token.encodeToUrlString`:
/// base64url of the `Writable`: a variable-length size and the identifier, the same for the
/// password, then the kind and the service as `Text`).
fn decode_token(url_string: &str) -> Result<(Vec<u8>, Vec<u8>), String> {
    use base64::Engine as _;
    let raw = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(url_string.trim_end_matches('='))
        .map_err(|e| format!("not base64url: {e}"))?;
    let mut rest = raw.as_slice();
    let identifier = bytes_field(&mut rest, "identifier")?;
    let password = bytes_field(&mut rest, "password")?;
    // The kind and the service follow; the token is relabelled, so they are only checked to
    // be there.
    bytes_field(&mut rest, "kind")?;
    bytes_field(&mut rest, "service")?;
    Ok((identifier, password))
}

/// A size in Hadoop's `WritableUtils.writeVInt` encoding, then that many bytes.
fn bytes_field(rest: &mut &[u8], what: &str) -> Result<Vec<u8>, String> {
    let len = vint(rest).ok_or_else(|| format!("the {what}'s size is cut short"))?;
    let len = usize::try_from(len).map_err(|_| format!("the {what}'s size is negative"))?;
    if rest.len() < len {
        return Err(format!("the {what} is cut short"));
    }
    let (field, tail) = rest.split_at(len);
    *rest = tail;
    Ok(field.to_vec())
}

/// Hadoop's variable-length integer: one byte for -112..=127, else a first byte giving the
/// sign and the count (1 to 8) of big-endian bytes that follow.
fn vint(rest: &mut &[u8]) -> Option<i64> {
    let (&first, tail) = rest.split_first()?;
    *rest = tail;
    let first = first as i8;
    if first >= -112 {
        return Some(i64::from(first));
    }
    let negative = first < -120;
    let count = if negative {
        -(i32::from(first) + 120)
    } else {
        -(i32::from(first) + 112)
    } as usize;
    if rest.len() < count || count > 8 {
        return None;
    }
    let mut value: i64 = 0;
    for &b in &rest[..count] {
        value = (value << 8) | i64::from(b);
    }
    *rest = &rest[count..];
    Some(if negative { !value } else { value })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hadoop's encoding of the sizes the tokens use, and a whole token.
    #[test]
    fn tokens_decode_from_hadoops_url_string() {
        for (bytes, want) in [
            (vec![0x05], 5),
            (vec![0x7f], 127),
            (vec![0x8f, 0x80], 128),
            (vec![0x8e, 0x01, 0x00], 256),
            (vec![0x90], -112),
        ] {
            let mut rest = bytes.as_slice();
            assert_eq!(vint(&mut rest), Some(want), "{bytes:02x?}");
            assert!(rest.is_empty());
        }
        // identifier "id", password "pw" (2 bytes each), kind "K", service "1.2.3.4:8020".
        let mut raw = vec![2, b'i', b'd', 2, b'p', b'w', 1, b'K', 12];
        raw.extend_from_slice(b"1.2.3.4:8020");
        use base64::Engine as _;
        let url = base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(&raw);
        assert_eq!(
            decode_token(&url).unwrap(),
            (b"id".to_vec(), b"pw".to_vec())
        );
        assert!(decode_token(&url[..url.len() - 4])
            .unwrap_err()
            .contains("service"));
        assert_eq!(encode("hbase/x@R"), "hbase%2Fx%40R");
    }
}
