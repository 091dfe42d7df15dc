//! [`HbaseSite`]: an `hbase-site.xml`, as HBase's own tools read it (the file itself, or the
//! directory `HBASE_CONF_DIR` names), turned into the configuration of either HBase store, so
//! that a service can be pointed at the file an operator already hands to HBase's shell.
//!
//! The keys rowkey reads are listed on [`HbaseSite`]; every other key is ignored, as HBase's
//! client ignores the server's. A key rowkey reads but cannot honour (a registry it does not
//! implement, a quality of protection it does not know, two server principals it cannot tell
//! apart) is an error naming the key, never silently dropped.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::store::NetError;

/// The properties of an `hbase-site.xml` (`<configuration><property><name>…</name><value>…
/// </value></property>…`), and where they came from.
///
/// ```no_run
/// # #[cfg(feature = "hbase-rpc")]
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// use rowkey::store::{HbaseRpcStore, HbaseSite};
///
/// // The file the HBase shell uses on this host (HBASE_CONF_DIR), or a path to one.
/// let site = HbaseSite::from_env()?;
/// let store = HbaseRpcStore::with_config(site.rpc_config("events", "d")?)?;
/// # Ok(())
/// # }
/// # #[cfg(not(feature = "hbase-rpc"))]
/// # fn main() {}
/// ```
///
/// Read for the native store ([`HbaseSite::rpc_config`]): `hbase.client.registry.impl` (the
/// ZooKeeper registry, HBase 2's default, or the RPC registries `MasterRegistry` and
/// `RpcConnectionRegistry`), `hbase.zookeeper.quorum`, `hbase.zookeeper.property.clientPort`,
/// `zookeeper.znode.parent`, `hbase.masters`, `hbase.client.bootstrap.servers`. For the
/// Thrift2 store ([`HbaseSite::thrift_config`]): `hbase.regionserver.thrift.ipaddress` (or
/// `hbase.regionserver.thrift.hostname`), `hbase.regionserver.thrift.port`,
/// `hbase.regionserver.thrift.framed`, `hbase.regionserver.thrift.http`,
/// `hbase.thrift.ssl.enabled`, `hbase.thrift.security.qop`, `hbase.thrift.kerberos.principal`,
/// `hbase.thrift.spnego.principal`. For both, with the `kerberos` feature:
/// `hbase.security.authentication`, `hbase.rpc.protection`,
/// `hbase.regionserver.kerberos.principal` and `hbase.master.kerberos.principal` (with
/// `_HOST`), `hbase.client.keytab.file` and `hbase.client.keytab.principal` (a keytab login;
/// without them, the ticket cache).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HbaseSite {
    properties: BTreeMap<String, String>,
    source: PathBuf,
}

/// A site configuration that cannot be used: the file, and what is wrong with it.
fn refused(source: &Path, message: impl std::fmt::Display) -> NetError {
    NetError::Connect {
        store: "hbase-site",
        message: format!("{}: {message}", source.display()),
    }
}

impl HbaseSite {
    /// Reads `path`: an `hbase-site.xml`, or a directory holding one (as `HBASE_CONF_DIR`).
    pub fn load(path: impl AsRef<Path>) -> Result<Self, NetError> {
        let mut source = path.as_ref().to_path_buf();
        if source.is_dir() {
            source = source.join("hbase-site.xml");
        }
        let text = std::fs::read_to_string(&source).map_err(|e| refused(&source, e))?;
        Self::parse(&text, source)
    }

    /// Reads `$HBASE_CONF_DIR/hbase-site.xml`, the file HBase's own tools read.
    pub fn from_env() -> Result<Self, NetError> {
        let dir = std::env::var_os("HBASE_CONF_DIR").ok_or_else(|| NetError::Connect {
            store: "hbase-site",
            message: "HBASE_CONF_DIR is not set: give the file with HbaseSite::load".into(),
        })?;
        Self::load(PathBuf::from(dir))
    }

    /// The properties in `xml`, read from `source` (for messages).
    pub fn parse(xml: &str, source: impl Into<PathBuf>) -> Result<Self, NetError> {
        use quick_xml::events::Event;
        let source = source.into();
        let mut reader = quick_xml::Reader::from_str(xml);
        let mut properties = BTreeMap::new();
        let (mut path, mut name, mut value) = (Vec::<String>::new(), None, None);
        // The text of the element being read: text, entity and character references, CDATA.
        let mut text = String::new();
        let bad = |e: &dyn std::fmt::Display| refused(&source, format!("a property's text: {e}"));
        loop {
            let event = reader.read_event().map_err(|e| {
                refused(
                    &source,
                    format!("not XML at byte {}: {e}", reader.buffer_position()),
                )
            })?;
            match event {
                Event::Start(e) => {
                    path.push(String::from_utf8_lossy(e.local_name().as_ref()).into_owned());
                    text.clear();
                    if path.len() == 2 && path[1] == "property" {
                        (name, value) = (None, None);
                    }
                }
                // `<value/>`: an empty value.
                Event::Empty(e) if path.len() == 2 && e.local_name().as_ref() == b"value" => {
                    value = Some(String::new());
                }
                Event::Text(t) => text.push_str(&t.decode().map_err(|e| bad(&e))?),
                Event::CData(t) => text.push_str(&String::from_utf8_lossy(&t)),
                Event::GeneralRef(r) => {
                    if let Some(c) = r.resolve_char_ref().map_err(|e| bad(&e))? {
                        text.push(c);
                    } else {
                        let entity = r.decode().map_err(|e| bad(&e))?;
                        match quick_xml::escape::resolve_predefined_entity(&entity) {
                            Some(s) => text.push_str(s),
                            None => return Err(bad(&format_args!("unknown entity &{entity};"))),
                        }
                    }
                }
                Event::End(_) => {
                    if path.len() == 3 {
                        match path[2].as_str() {
                            "name" => name = Some(text.trim().to_string()),
                            "value" => value = Some(text.trim().to_string()),
                            _ => {}
                        }
                    }
                    if path.len() == 2 && path[1] == "property" {
                        if let Some(n) = name.take() {
                            properties.insert(n, value.take().unwrap_or_default());
                        }
                    }
                    path.pop();
                    text.clear();
                }
                Event::Eof if path.is_empty() => break,
                Event::Eof => {
                    return Err(refused(
                        &source,
                        format!("the file ends inside <{}>: cut short?", path.join("><")),
                    ))
                }
                _ => {}
            }
        }
        if properties.is_empty() && !xml.contains("<configuration") {
            return Err(refused(
                &source,
                "not an hbase-site.xml: no <configuration> of <property> elements",
            ));
        }
        Ok(HbaseSite { properties, source })
    }

    /// A property's value (`None`: not set, or set empty).
    pub fn get(&self, key: &str) -> Option<&str> {
        self.properties
            .get(key)
            .map(String::as_str)
            .filter(|v| !v.is_empty())
    }

    /// Where the properties came from.
    pub fn source(&self) -> &Path {
        &self.source
    }

    fn refuse(&self, key: &str, why: impl std::fmt::Display) -> NetError {
        refused(&self.source, format!("{key}: {why}"))
    }

    #[cfg_attr(not(feature = "hbase"), allow(dead_code))]
    fn flag(&self, key: &str) -> Result<bool, NetError> {
        match self.get(key) {
            None => Ok(false),
            Some(v) if v.eq_ignore_ascii_case("true") => Ok(true),
            Some(v) if v.eq_ignore_ascii_case("false") => Ok(false),
            Some(v) => Err(self.refuse(key, format_args!("`{v}` is not true or false"))),
        }
    }

    /// The Kerberos login the file asks for (`None`: simple authentication). `server_key` is
    /// the servers' principal key of the store (`hbase.regionserver.kerberos.principal` for the
    /// native store).
    #[cfg(feature = "kerberos")]
    fn kerberos(
        &self,
        server_keys: &[&str],
        protection_key: &str,
    ) -> Result<Option<crate::store::Kerberos>, NetError> {
        use crate::store::{Kerberos, Protection};
        match self.get("hbase.security.authentication") {
            None => return Ok(None),
            Some(v) if v.eq_ignore_ascii_case("simple") => return Ok(None),
            Some(v) if v.eq_ignore_ascii_case("kerberos") => {}
            Some(v) => {
                return Err(self.refuse(
                    "hbase.security.authentication",
                    format_args!("`{v}` is neither simple nor kerberos"),
                ))
            }
        }
        let mut k = match (
            self.get("hbase.client.keytab.principal"),
            self.get("hbase.client.keytab.file"),
        ) {
            (Some(p), Some(f)) => Kerberos::keytab(p, f),
            (None, None) => Kerberos::ticket_cache(),
            (Some(_), None) => {
                return Err(self.refuse(
                    "hbase.client.keytab.principal",
                    "is set without hbase.client.keytab.file",
                ))
            }
            (None, Some(_)) => {
                return Err(self.refuse(
                    "hbase.client.keytab.file",
                    "is set without hbase.client.keytab.principal",
                ))
            }
        };
        let principals: Vec<(&str, &str)> = server_keys
            .iter()
            .filter_map(|key| self.get(key).map(|p| (*key, p)))
            .collect();
        if let Some((first_key, first)) = principals.first() {
            if let Some((key, other)) = principals.iter().find(|(_, p)| p != first) {
                return Err(self.refuse(
                    key,
                    format_args!(
                        "`{other}` differs from {first_key} `{first}`: rowkey authenticates to \
                         every server under one principal pattern"
                    ),
                ));
            }
            k = k.server_principal(first);
        }
        if let Some(list) = self.get(protection_key) {
            let mut accepted = Vec::new();
            for word in list.split(',').map(str::trim).filter(|w| !w.is_empty()) {
                accepted.push(match word.to_ascii_lowercase().as_str() {
                    "authentication" | "auth" => Protection::Authentication,
                    "integrity" | "auth-int" => Protection::Integrity,
                    "privacy" | "auth-conf" => Protection::Privacy,
                    _ => {
                        return Err(self.refuse(
                            protection_key,
                            format_args!(
                                "`{word}` is not a quality of protection (authentication, \
                                 integrity, privacy)"
                            ),
                        ))
                    }
                });
            }
            // Strongest first, as the servers offer them.
            accepted.sort_by_key(|p| std::cmp::Reverse(*p as u8));
            k = k.protection(&accepted);
        }
        Ok(Some(k))
    }

    #[cfg(not(feature = "kerberos"))]
    fn no_kerberos(&self) -> Result<(), NetError> {
        match self.get("hbase.security.authentication") {
            Some(v) if v.eq_ignore_ascii_case("kerberos") => Err(self.refuse(
                "hbase.security.authentication",
                "the cluster takes Kerberos: build rowkey with its `kerberos` feature",
            )),
            _ => Ok(()),
        }
    }

    /// The native store's configuration for table `table`, values in `family`: the cluster
    /// found as the file says (ZooKeeper, or the masters' registry), authenticated as it says.
    #[cfg(feature = "hbase-rpc")]
    pub fn rpc_config(
        &self,
        table: &str,
        family: &str,
    ) -> Result<crate::store::HbaseRpcConfig, NetError> {
        use crate::store::{HbaseRpcConfig, ZooKeeper};
        let registry = self.get("hbase.client.registry.impl");
        let quorum = self.get("hbase.zookeeper.quorum").map(|q| {
            let port = self
                .get("hbase.zookeeper.property.clientPort")
                .and_then(|p| p.parse().ok())
                .unwrap_or(2181);
            super::super::hbase_rpc::zk_quorum(q, port)
        });
        let masters = self
            .get("hbase.client.bootstrap.servers")
            .or_else(|| self.get("hbase.masters"));
        let use_zk = match registry.map(|r| r.rsplit('.').next().unwrap_or(r)) {
            None => quorum.is_some(),
            Some("ZKConnectionRegistry") => true,
            Some("MasterRegistry" | "RpcConnectionRegistry") => false,
            Some(other) => {
                return Err(self.refuse(
                    "hbase.client.registry.impl",
                    format_args!(
                        "`{other}` is not a registry rowkey implements (ZKConnectionRegistry, \
                         MasterRegistry, RpcConnectionRegistry)"
                    ),
                ))
            }
        };
        #[allow(unused_mut)]
        let mut cfg = if use_zk {
            let quorum = quorum.ok_or_else(|| {
                self.refuse(
                    "hbase.zookeeper.quorum",
                    "is not set, and the ZooKeeper registry needs it",
                )
            })?;
            let mut zk = ZooKeeper::new(&quorum);
            if let Some(parent) = self.get("zookeeper.znode.parent") {
                zk = zk.parent(parent);
            }
            HbaseRpcConfig::new("", table, family).zookeeper(zk)
        } else {
            let masters = masters.ok_or_else(|| {
                self.refuse(
                    "hbase.masters",
                    "is not set (nor hbase.client.bootstrap.servers), and the RPC registry needs \
                     the masters' addresses",
                )
            })?;
            HbaseRpcConfig::new(
                &super::super::hbase_rpc::zk_quorum(masters, 16000),
                table,
                family,
            )
        };
        if let Some(tls) = self.rpc_tls()? {
            cfg = cfg.tls(tls);
        }
        if let Some(secs) = self.get("hbase.client.bootstrap.refresh_interval_secs") {
            let secs: i64 = secs.parse().map_err(|_| {
                self.refuse(
                    "hbase.client.bootstrap.refresh_interval_secs",
                    format_args!("`{secs}` is not a number of seconds"),
                )
            })?;
            // HBase's refresher does not run for an interval of 0 or less.
            cfg = cfg.bootstrap_refresh(
                u64::try_from(secs)
                    .ok()
                    .filter(|s| *s > 0)
                    .map(std::time::Duration::from_secs),
            );
        }
        #[cfg(feature = "kerberos")]
        if let Some(k) = self.kerberos(
            &[
                "hbase.regionserver.kerberos.principal",
                "hbase.master.kerberos.principal",
            ],
            "hbase.rpc.protection",
        )? {
            cfg = cfg.kerberos(k);
        }
        #[cfg(not(feature = "kerberos"))]
        self.no_kerberos()?;
        Ok(cfg)
    }

    /// TLS on RPC as HBase 2.6's client reads it (`hbase.client.netty.tls.enabled`): the
    /// servers' CA from the trust store (`hbase.rpc.tls.truststore.location`; without one, the
    /// system's roots), and the client's certificate and key from the key store
    /// (`hbase.rpc.tls.keystore.location`) for a cluster that requires them. Both are read
    /// when the file is: PEM stores only (a JKS or PKCS #12 store is refused, saying how to
    /// convert it), the key unencrypted. The server's host name is always checked (rowkey has no
    /// `hbase.rpc.tls.host-verification` off; [`crate::store::Tls::domain`] names another).
    #[cfg(feature = "hbase-rpc")]
    fn rpc_tls(&self) -> Result<Option<crate::store::Tls>, NetError> {
        use crate::store::{ClientIdentity, Tls};
        if !self.flag("hbase.client.netty.tls.enabled")? {
            return Ok(None);
        }
        let store = |kind: &str| -> Result<Option<(String, Vec<u8>)>, NetError> {
            let location = format!("hbase.rpc.tls.{kind}.location");
            let Some(path) = self.get(&location) else {
                return Ok(None);
            };
            let type_key = format!("hbase.rpc.tls.{kind}.type");
            let pem = match self.get(&type_key) {
                Some(t) => t.eq_ignore_ascii_case("PEM"),
                // HBase infers the type from the file's extension.
                None => [".pem", ".crt", ".cer", ".key"]
                    .iter()
                    .any(|ext| path.to_ascii_lowercase().ends_with(ext)),
            };
            if !pem {
                return Err(self.refuse(
                    &location,
                    format_args!(
                        "`{path}` is not a PEM store ({type_key}): rowkey reads PEM only; \
                         convert a PKCS #12 store with `openssl pkcs12 -in STORE -nodes -out \
                         store.pem` (a JKS one first with `keytool -importkeystore \
                         -deststoretype PKCS12`)"
                    ),
                ));
            }
            let bytes = std::fs::read(path)
                .map_err(|e| self.refuse(&location, format_args!("cannot read `{path}`: {e}")))?;
            Ok(Some((location, bytes)))
        };
        let mut tls = match store("truststore")? {
            Some((_, ca)) => Tls::ca_pem(ca),
            None => Tls::system(),
        };
        if let Some((location, pem)) = store("keystore")? {
            // HBase's PEM key store: the private key and the certificate chain in one file.
            tls = tls.identity(ClientIdentity::from_pem(pem.clone(), pem));
            tls.validate().map_err(|e| self.refuse(&location, e))?;
        } else {
            tls.validate()
                .map_err(|e| self.refuse("hbase.rpc.tls.truststore.location", e))?;
        }
        Ok(Some(tls))
    }

    /// The Thrift2 store's configuration for table `table`, values in `family`: the gateway
    /// the file describes (its address, transport, TLS and SASL), as the gateway's own
    /// `hbase-site.xml` configures it.
    #[cfg(feature = "hbase")]
    pub fn thrift_config(
        &self,
        table: &str,
        family: &str,
    ) -> Result<crate::store::HbaseConfig, NetError> {
        let host = self
            .get("hbase.regionserver.thrift.hostname")
            .or_else(|| self.get("hbase.regionserver.thrift.ipaddress"))
            .filter(|h| *h != "0.0.0.0")
            .ok_or_else(|| {
                self.refuse(
                    "hbase.regionserver.thrift.ipaddress",
                    "is not set (nor hbase.regionserver.thrift.hostname): the file does not say \
                     where the Thrift2 gateway is; give its address with HbaseConfig::new",
                )
            })?;
        let port: u16 = match self.get("hbase.regionserver.thrift.port") {
            None => 9090,
            Some(p) => p.parse().map_err(|_| {
                self.refuse(
                    "hbase.regionserver.thrift.port",
                    format_args!("`{p}` is not a port"),
                )
            })?,
        };
        let http = self.flag("hbase.regionserver.thrift.http")?;
        let tls = self.flag("hbase.thrift.ssl.enabled")?;
        let address =
            match (http, tls) {
                (true, true) => format!("https://{host}:{port}/"),
                (true, false) => format!("http://{host}:{port}/"),
                (false, false) => format!("{host}:{port}"),
                (false, true) => return Err(self.refuse(
                    "hbase.thrift.ssl.enabled",
                    "TLS without hbase.regionserver.thrift.http: a Thrift2 gateway takes TLS in \
                     HTTP mode only",
                )),
            };
        #[allow(unused_mut)]
        let mut cfg = crate::store::HbaseConfig::new(&address, table, family)
            .framed(self.flag("hbase.regionserver.thrift.framed")?);
        #[cfg(feature = "kerberos")]
        {
            let sasl = self.get("hbase.thrift.security.qop").is_some();
            let keys: &[&str] = if http {
                &[]
            } else {
                &["hbase.thrift.kerberos.principal"]
            };
            if let Some(mut k) = self.kerberos(keys, "hbase.thrift.security.qop")? {
                if http {
                    if let Some(p) = self.get("hbase.thrift.spnego.principal") {
                        // `HTTP/host@REALM`: its service part names the SPNEGO service.
                        let service = p.split(['/', '@']).next().unwrap_or("HTTP");
                        k = k.http_service(service);
                    }
                }
                if sasl || http {
                    cfg = cfg.kerberos(k);
                }
            }
        }
        #[cfg(not(feature = "kerberos"))]
        self.no_kerberos()?;
        Ok(cfg)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site(props: &[(&str, &str)]) -> HbaseSite {
        let body: String = props
            .iter()
            .map(|(k, v)| {
                format!(
                    "  <property>\n    <name>{k}</name>\n    <value>{v}</value>\n  </property>\n"
                )
            })
            .collect();
        let xml = format!("<?xml version=\"1.0\"?>\n<configuration>\n{body}</configuration>\n");
        HbaseSite::parse(&xml, "test-site.xml").unwrap()
    }

    #[test]
    fn properties_are_read_as_hbase_writes_them() {
        let xml = r#"<?xml version="1.0"?>
<?xml-stylesheet type="text/xsl" href="configuration.xsl"?>
<!-- a comment -->
<configuration>
  <property><name>hbase.zookeeper.quorum</name><value> zk1,zk2 </value>
    <description>two &amp; more</description></property>
  <property><name>zookeeper.znode.parent</name><value>/hbase-unsecure</value></property>
  <property><name>empty</name><value/></property>
  <property><name>escaped</name><value>a&lt;b</value></property>
</configuration>"#;
        let s = HbaseSite::parse(xml, "x.xml").unwrap();
        assert_eq!(s.get("hbase.zookeeper.quorum"), Some("zk1,zk2"));
        assert_eq!(s.get("zookeeper.znode.parent"), Some("/hbase-unsecure"));
        assert_eq!(s.get("empty"), None);
        assert_eq!(s.get("escaped"), Some("a<b"));
        assert!(HbaseSite::parse("<configuration><property>", "bad.xml").is_err());
        let e = HbaseSite::parse("{\"json\": 1}", "f.json").unwrap_err();
        assert!(e.to_string().contains("not an hbase-site.xml"), "{e}");
    }

    #[cfg(feature = "hbase-rpc")]
    #[test]
    fn the_native_store_is_configured_as_the_file_says() {
        let zk = site(&[
            ("hbase.zookeeper.quorum", "zk1,zk2:2182"),
            ("hbase.zookeeper.property.clientPort", "2281"),
            ("zookeeper.znode.parent", "/hbase-unsecure"),
        ])
        .rpc_config("t", "d")
        .unwrap();
        let q = zk.zookeeper.unwrap();
        assert_eq!(q.quorum, "zk1:2281,zk2:2182");
        assert_eq!(q.parent, "/hbase-unsecure");
        let masters = site(&[
            (
                "hbase.client.registry.impl",
                "org.apache.hadoop.hbase.client.RpcConnectionRegistry",
            ),
            ("hbase.masters", "m1,m2:16001"),
            ("hbase.zookeeper.quorum", "zk1"),
        ])
        .rpc_config("t", "d")
        .unwrap();
        assert!(masters.zookeeper.is_none());
        assert_eq!(masters.bootstrap, ["m1:16000", "m2:16001"]);
        assert_eq!(
            masters.bootstrap_refresh,
            Some(std::time::Duration::from_secs(300))
        );
        let every = |v: &str| {
            site(&[
                ("hbase.masters", "m1"),
                ("hbase.client.bootstrap.refresh_interval_secs", v),
            ])
            .rpc_config("t", "d")
            .map(|c| c.bootstrap_refresh)
        };
        assert_eq!(
            every("30").unwrap(),
            Some(std::time::Duration::from_secs(30))
        );
        assert_eq!(every("0").unwrap(), None);
        assert!(every("soon")
            .unwrap_err()
            .to_string()
            .contains("refresh_interval_secs"));
        for (props, key) in [
            (
                vec![("hbase.client.registry.impl", "com.example.Custom")],
                "hbase.client.registry.impl",
            ),
            (vec![], "hbase.masters"),
            (
                vec![("hbase.client.registry.impl", "ZKConnectionRegistry")],
                "hbase.zookeeper.quorum",
            ),
        ] {
            let e = site(&props).rpc_config("t", "d").unwrap_err();
            assert!(e.to_string().contains(key), "{e}");
        }
    }

    #[cfg(feature = "hbase-rpc")]
    #[test]
    fn tls_stores_are_read_as_pem_or_refused_saying_how_to_convert() {
        let base = [("hbase.zookeeper.quorum", "zk1")];
        let with = |more: &[(&str, &str)]| {
            let mut props = base.to_vec();
            props.extend_from_slice(more);
            site(&props).rpc_config("t", "d")
        };
        // TLS off (or not said): no TLS, whatever the stores.
        let off = with(&[("hbase.rpc.tls.truststore.location", "/nowhere.jks")]).unwrap();
        assert!(off.tls.is_none());
        // On without stores: the system's roots, no client certificate.
        let on = with(&[("hbase.client.netty.tls.enabled", "true")]).unwrap();
        let tls = on.tls.unwrap();
        assert!(tls.system_roots && tls.identity.is_none());
        let refusal = |more: &[(&str, &str)]| {
            let mut props = vec![("hbase.client.netty.tls.enabled", "true")];
            props.extend_from_slice(more);
            with(&props).unwrap_err().to_string()
        };
        let e = refusal(&[("hbase.rpc.tls.truststore.location", "/etc/hbase/trust.jks")]);
        assert!(
            e.contains("hbase.rpc.tls.truststore.location") && e.contains("openssl pkcs12"),
            "{e}"
        );
        let e = refusal(&[
            ("hbase.rpc.tls.keystore.location", "/etc/hbase/key.pem"),
            ("hbase.rpc.tls.keystore.type", "PKCS12"),
        ]);
        assert!(e.contains("not a PEM store"), "{e}");
        let e = refusal(&[("hbase.rpc.tls.truststore.location", "/no/such/ca.pem")]);
        assert!(e.contains("cannot read `/no/such/ca.pem`"), "{e}");
        let dir = std::env::temp_dir().join(format!("rowkey-site-tls-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let encrypted = dir.join("key.pem");
        std::fs::write(
            &encrypted,
            "-----BEGIN ENCRYPTED PRIVATE KEY-----\nMIIB\n-----END ENCRYPTED PRIVATE KEY-----\n",
        )
        .unwrap();
        let e = refusal(&[(
            "hbase.rpc.tls.keystore.location",
            encrypted.to_str().unwrap(),
        )]);
        assert!(
            e.contains("hbase.rpc.tls.keystore.location") && e.contains("no certificate"),
            "{e}"
        );
        assert!(!e.contains("MIIB"), "the key's bytes are quoted: {e}");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[cfg(all(feature = "hbase-rpc", feature = "kerberos"))]
    #[test]
    fn kerberos_is_configured_as_the_file_says() {
        use crate::store::Protection;
        let cfg = site(&[
            ("hbase.zookeeper.quorum", "zk1"),
            ("hbase.security.authentication", "kerberos"),
            ("hbase.rpc.protection", "integrity,privacy"),
            (
                "hbase.regionserver.kerberos.principal",
                "hbase/_HOST@EXAMPLE.COM",
            ),
            ("hbase.master.kerberos.principal", "hbase/_HOST@EXAMPLE.COM"),
            ("hbase.client.keytab.file", "/etc/etl.keytab"),
            ("hbase.client.keytab.principal", "etl@EXAMPLE.COM"),
        ])
        .rpc_config("t", "d")
        .unwrap();
        let k = cfg.kerberos.unwrap();
        assert_eq!(k.principal.as_deref(), Some("etl@EXAMPLE.COM"));
        assert_eq!(
            k.server_principal.as_deref(),
            Some("hbase/_HOST@EXAMPLE.COM")
        );
        assert_eq!(k.protection, [Protection::Privacy, Protection::Integrity]);
        for (key, value) in [
            ("hbase.rpc.protection", "secret"),
            ("hbase.master.kerberos.principal", "other/_HOST@EXAMPLE.COM"),
            ("hbase.security.authentication", "tokens"),
        ] {
            let mut props = vec![
                ("hbase.zookeeper.quorum", "zk1"),
                ("hbase.security.authentication", "kerberos"),
                (
                    "hbase.regionserver.kerberos.principal",
                    "hbase/_HOST@EXAMPLE.COM",
                ),
            ];
            props.retain(|(k, _)| *k != key);
            props.push((key, value));
            let e = site(&props).rpc_config("t", "d").unwrap_err();
            assert!(e.to_string().contains(key), "{key}: {e}");
        }
    }

    #[cfg(feature = "hbase")]
    #[test]
    fn the_thrift2_store_is_configured_as_the_gateway_file_says() {
        let plain = site(&[
            ("hbase.regionserver.thrift.ipaddress", "10.1.2.3"),
            ("hbase.regionserver.thrift.framed", "true"),
        ])
        .thrift_config("t", "d")
        .unwrap();
        assert_eq!(plain.address, "10.1.2.3:9090");
        assert!(plain.framed);
        let e = site(&[]).thrift_config("t", "d").unwrap_err();
        assert!(
            e.to_string()
                .contains("hbase.regionserver.thrift.ipaddress"),
            "{e}"
        );
        let e = site(&[
            ("hbase.regionserver.thrift.ipaddress", "h"),
            ("hbase.thrift.ssl.enabled", "true"),
        ])
        .thrift_config("t", "d")
        .unwrap_err();
        assert!(e.to_string().contains("hbase.thrift.ssl.enabled"), "{e}");
    }
}
