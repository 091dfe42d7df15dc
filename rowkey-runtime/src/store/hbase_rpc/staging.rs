//! Where a bulk load stages its HFiles ([`Staging`]): a directory the region servers read and
//! write at the same path (the local file system for one machine, a shared mount), or a
//! directory on HDFS, as on a real cluster, written through `hdfs-native` (a maintained HDFS
//! client in Rust, no JVM; the `hdfs` feature). Files are always written to a local directory
//! first (the staging directory itself, or a temporary one), then, for HDFS, copied up; the
//! region servers move them into the table.

use std::path::{Path, PathBuf};

use super::error;
use crate::store::NetError;

/// Where a bulk load stages its HFiles: strings starting with `hdfs://` name a directory on
/// HDFS (`hdfs://namenode:8020/tmp/rowkey-staging`; needs rowkey's `hdfs` feature), anything
/// else a directory of the local file system.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Staging {
    /// A directory the region servers read and write at the same path.
    Local(PathBuf),
    /// A directory on HDFS: `hdfs://namenode:port/path`.
    Hdfs(String),
}

impl From<&str> for Staging {
    fn from(s: &str) -> Self {
        if s.starts_with("hdfs://") {
            Staging::Hdfs(s.to_string())
        } else {
            Staging::Local(PathBuf::from(s))
        }
    }
}

impl From<String> for Staging {
    fn from(s: String) -> Self {
        Staging::from(s.as_str())
    }
}

impl From<PathBuf> for Staging {
    fn from(p: PathBuf) -> Self {
        Staging::Local(p)
    }
}

impl From<&Path> for Staging {
    fn from(p: &Path) -> Self {
        Staging::Local(p.to_path_buf())
    }
}

impl From<&PathBuf> for Staging {
    fn from(p: &PathBuf) -> Self {
        Staging::Local(p.clone())
    }
}

impl std::fmt::Display for Staging {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Staging::Local(p) => write!(f, "{}", p.display()),
            Staging::Hdfs(url) => f.write_str(url),
        }
    }
}

/// A Kerberized HDFS staging's login: the store's, which the HDFS client authenticates as and
/// asks the name node's delegation token with.
#[cfg(feature = "kerberos")]
pub(super) type Secured = std::sync::Arc<crate::store::net::kerberos::Login>;
/// Without Kerberos, no staging is secured.
#[cfg(not(feature = "kerberos"))]
pub(super) enum Secured {}

/// An open staging area for one load.
pub(super) enum Stage {
    Local(PathBuf),
    #[cfg(feature = "hdfs")]
    Hdfs(Box<hdfs::Hdfs>),
}

impl Stage {
    /// Makes the directory (open to everyone: the region servers act as their own user).
    /// Files on HDFS are written as `user` (the user HBase's calls name, which the region
    /// servers act as when they move the files: it must own them), or, with `None`, as the
    /// Kerberos ticket says.
    /// Calls to HDFS retry as `retry` says (attempts, backoff, each attempt's deadline).
    /// With `secured` (a Kerberized cluster), HDFS is reached as the store's Kerberos login,
    /// the directory and its files are the user's alone (`0700`, `0600`), and the name node
    /// gives a delegation token the region servers act with ([`Stage::fs_token`]).
    pub async fn open(
        staging: &Staging,
        user: Option<&str>,
        retry: &crate::store::RetryPolicy,
        secured: Option<&Secured>,
    ) -> Result<Stage, NetError> {
        match staging {
            Staging::Local(dir) => {
                let dir = std::path::absolute(dir)
                    .map_err(|e| error::local(format!("staging directory: {e}")))?;
                std::fs::create_dir_all(&dir)
                    .and_then(|()| open_to_all(&dir, 0o777))
                    .map_err(|e| {
                        error::local(format!("staging directory {}: {e}", dir.display()))
                    })?;
                Ok(Stage::Local(dir))
            }
            #[cfg(feature = "hdfs")]
            Staging::Hdfs(url) => Ok(Stage::Hdfs(Box::new(
                hdfs::Hdfs::open(url, user, retry, secured).await?,
            ))),
            #[cfg(not(feature = "hdfs"))]
            Staging::Hdfs(url) => {
                let _ = (user, retry, secured);
                Err(error::local(format!(
                    "staging on HDFS ({url}) needs rowkey's `hdfs` feature"
                )))
            }
        }
    }

    /// The local directory HFiles are written to.
    pub fn local_dir(&self) -> &Path {
        match self {
            Stage::Local(dir) => dir,
            #[cfg(feature = "hdfs")]
            Stage::Hdfs(h) => h.local_dir(),
        }
    }

    /// Stages the written file `local`: the path the region servers are given.
    pub async fn stage(&self, local: &Path) -> Result<String, NetError> {
        match self {
            Stage::Local(_) => {
                open_to_all(local, 0o666)
                    .map_err(|e| error::local(format!("{}: {e}", local.display())))?;
                Ok(format!("file://{}", local.display()))
            }
            #[cfg(feature = "hdfs")]
            Stage::Hdfs(h) => h.upload(local).await,
        }
    }

    /// Stages each of `files` in turn, their paths going to `staged`; stops at the first that
    /// fails (the ones staged before it are in `staged`, to be removed).
    pub async fn stage_all(
        &self,
        files: &[(PathBuf, u64)],
        staged: &mut Vec<String>,
    ) -> Result<(), NetError> {
        for (path, _) in files {
            staged.push(self.stage(path).await?);
        }
        Ok(())
    }

    /// Removes a file's local copy and its staged one (best effort: a loaded file was moved
    /// into the table already).
    pub async fn remove(&self, local: &Path, staged: Option<&str>) {
        let _ = std::fs::remove_file(local);
        #[cfg(feature = "hdfs")]
        if let (Stage::Hdfs(h), Some(staged)) = (self, staged) {
            h.remove(staged).await;
        }
        #[cfg(not(feature = "hdfs"))]
        let _ = staged;
    }

    /// The delegation token the region servers act with on the staged files (`None`: they act
    /// as HBase).
    pub fn fs_token(&self) -> Option<super::pb::DelegationToken> {
        match self {
            Stage::Local(_) => None,
            #[cfg(feature = "hdfs")]
            Stage::Hdfs(h) => h.fs_token(),
        }
    }

    /// Ends the load: the temporary local directory of an HDFS load goes, and its delegation
    /// token is cancelled.
    pub async fn close(self) {
        #[cfg(feature = "hdfs")]
        if let Stage::Hdfs(h) = self {
            let _ = std::fs::remove_dir_all(h.local_dir());
            (*h).cancel_token().await;
        }
    }
}

/// Gives everyone `mode` on `path`: the region servers read and move the staged files as their
/// own user (HBase's bulk load tool opens its output directory the same way on a cluster
/// without Kerberos).
pub(super) fn open_to_all(path: &Path, mode: u32) -> std::io::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
    }
    #[cfg(not(unix))]
    {
        let _ = (path, mode);
        Ok(())
    }
}

#[cfg(feature = "hdfs")]
mod hdfs {
    use std::path::{Path, PathBuf};

    use super::error;
    use crate::store::NetError;

    /// Bytes read from the local file per HDFS write.
    const CHUNK: usize = 4 << 20;

    /// A staging directory on HDFS, and the local one files are written to first.
    pub struct Hdfs {
        client: hdfs_native::Client,
        /// `hdfs://namenode:port`.
        base: String,
        /// The directory's path on HDFS.
        dir: String,
        local: PathBuf,
        /// The permissions of staged files: `0666` for region servers acting as HBase, `0600`
        /// on a Kerberized cluster, where they act as the user (with `token`).
        file_mode: u32,
        /// The name node's delegation token, on a Kerberized cluster.
        #[cfg(feature = "kerberos")]
        token: Option<(super::super::webhdfs::Token, super::Secured)>,
    }

    fn failed(what: &str, e: impl std::fmt::Display) -> NetError {
        error::local(format!("HDFS staging, {what}: {e}"))
    }

    impl Hdfs {
        pub async fn open(
            url: &str,
            user: Option<&str>,
            retry: &crate::store::RetryPolicy,
            secured: Option<&super::Secured>,
        ) -> Result<Hdfs, NetError> {
            let rest = url.strip_prefix("hdfs://").unwrap_or(url);
            let (authority, dir) = match rest.find('/') {
                Some(i) => (&rest[..i], &rest[i..]),
                None => (rest, "/"),
            };
            let base = format!("hdfs://{authority}");
            let dir = dir.trim_end_matches('/').to_string();
            if dir.is_empty() {
                return Err(failed(url, "name a directory, not the root"));
            }
            // The store's retry policy, not HDFS's own (15 attempts, sleeps growing to 15 s:
            // minutes before a dead name node is reported). Settings the cluster's
            // configuration files give (HADOOP_CONF_DIR: name services, HA) still apply.
            #[cfg_attr(not(feature = "kerberos"), allow(unused_mut))]
            let mut config = vec![
                (
                    "dfs.client.failover.max.attempts",
                    retry.max_attempts.saturating_sub(1).to_string(),
                ),
                (
                    "dfs.client.failover.sleep.base.millis",
                    retry.initial_backoff.as_millis().to_string(),
                ),
                (
                    "dfs.client.failover.sleep.max.millis",
                    retry.max_backoff.as_millis().to_string(),
                ),
                (
                    "dfs.client.socket-timeout",
                    retry.attempt_timeout.as_millis().to_string(),
                ),
            ];
            let mut builder = hdfs_native::ClientBuilder::new().with_url(base.clone());
            if let Some(user) = user {
                builder = builder.with_user(user);
            }
            #[cfg(feature = "kerberos")]
            if let Some(login) = secured {
                // The store's login: its principal, and the cache its tickets are in (a
                // keytab's private one). Blocking: it may ask the KDC.
                let l = login.clone();
                let (principal, cache) = tokio::task::spawn_blocking(move || {
                    Ok::<_, crate::store::net::kerberos::AuthError>((
                        l.principal_name()?,
                        l.cache_name()?,
                    ))
                })
                .await
                .map_err(|e| failed(url, e))?
                .map_err(|e| failed(&format!("logging in to {url}"), e))?;
                // Kerberos whatever HADOOP_CONF_DIR says (hdfs-native's settings given here
                // are the only ones: they join the retry settings above).
                config.push(("hadoop.security.authentication", "kerberos".into()));
                builder = builder.with_kerberos_principal(principal);
                if let Some(cache) = cache {
                    builder = builder.with_kerberos_cache(cache);
                }
            }
            #[cfg(not(feature = "kerberos"))]
            let _ = secured;
            let mode = if secured.is_some() { 0o700 } else { 0o777 };
            let client = builder
                .with_config(config)
                .build()
                .map_err(|e| failed(url, e))?;
            client
                .mkdirs(&dir, mode, true)
                .await
                .map_err(|e| failed(&format!("making {url}"), e))?;
            // mkdirs applies the name node's umask: without Kerberos, open it to the region
            // servers' user.
            client
                .set_permission(&dir, mode)
                .await
                .map_err(|e| failed(&format!("setting {url}'s permissions"), e))?;
            #[cfg(feature = "kerberos")]
            let token = match secured {
                Some(login) => {
                    use super::super::webhdfs;
                    let authority = base.trim_start_matches("hdfs://");
                    let web = webhdfs::web_address(None, authority)?;
                    let service = webhdfs::token_service(authority).await?;
                    let token = webhdfs::Token::fetch(
                        login,
                        &web,
                        login.service(),
                        service,
                        retry.attempt_timeout,
                    )
                    .await?;
                    Some((token, login.clone()))
                }
                None => None,
            };
            let local = std::env::temp_dir().join(format!(
                "rowkey-bulk-{}-{}",
                std::process::id(),
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos())
            ));
            std::fs::create_dir_all(&local)
                .map_err(|e| failed(&format!("local directory {}", local.display()), e))?;
            Ok(Hdfs {
                client,
                base,
                dir,
                local,
                file_mode: if secured.is_some() { 0o600 } else { 0o666 },
                #[cfg(feature = "kerberos")]
                token,
            })
        }

        pub fn local_dir(&self) -> &Path {
            &self.local
        }

        pub fn fs_token(&self) -> Option<crate::store::net::hbase_pb::DelegationToken> {
            #[cfg(feature = "kerberos")]
            return self.token.as_ref().map(|(t, _)| t.fs_token.clone());
            #[cfg(not(feature = "kerberos"))]
            None
        }

        pub async fn cancel_token(self) {
            #[cfg(feature = "kerberos")]
            if let Some((token, login)) = self.token {
                token
                    .cancel(&login, std::time::Duration::from_secs(10))
                    .await;
            }
        }

        /// Copies `local` into the directory; its full URL.
        pub async fn upload(&self, local: &Path) -> Result<String, NetError> {
            use tokio::io::AsyncReadExt;
            let name = local
                .file_name()
                .and_then(|n| n.to_str())
                .ok_or_else(|| failed("a file name", local.display()))?;
            let path = format!("{}/{name}", self.dir);
            let url = format!("{}{path}", self.base);
            let mut file = tokio::fs::File::open(local)
                .await
                .map_err(|e| failed(&local.display().to_string(), e))?;
            let options = hdfs_native::WriteOptions::default()
                .overwrite(true)
                .permission(self.file_mode);
            let mut writer = self
                .client
                .create(&path, options)
                .await
                .map_err(|e| failed(&format!("creating {url}"), e))?;
            let mut buf = vec![0u8; CHUNK];
            loop {
                let n = file
                    .read(&mut buf)
                    .await
                    .map_err(|e| failed(&local.display().to_string(), e))?;
                if n == 0 {
                    break;
                }
                writer
                    .write_bytes(bytes::Bytes::copy_from_slice(&buf[..n]))
                    .await
                    .map_err(|e| failed(&format!("writing {url}"), e))?;
            }
            writer
                .close()
                .await
                .map_err(|e| failed(&format!("closing {url}"), e))?;
            Ok(url)
        }

        pub async fn remove(&self, url: &str) {
            if let Some(path) = url.strip_prefix(&self.base) {
                let _ = self.client.delete(path, false).await;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hdfs_urls_and_paths_name_their_staging() {
        assert_eq!(
            Staging::from("hdfs://nn:8020/tmp/s"),
            Staging::Hdfs("hdfs://nn:8020/tmp/s".into())
        );
        assert_eq!(
            Staging::from("/tmp/s".to_string()),
            Staging::Local(PathBuf::from("/tmp/s"))
        );
        // A local directory named like a scheme stays local.
        assert_eq!(
            Staging::from(Path::new("hdfs:/x")),
            Staging::Local(PathBuf::from("hdfs:/x"))
        );
    }

    #[cfg(not(feature = "hdfs"))]
    #[tokio::test]
    async fn hdfs_without_the_feature_is_a_clear_error() {
        let err = Stage::open(
            &Staging::from("hdfs://nn:8020/s"),
            None,
            &crate::store::RetryPolicy::default(),
            None,
        )
        .await
        .err()
        .expect("refused");
        assert!(err.to_string().contains("`hdfs` feature"), "{err}");
    }

    #[test]
    fn a_local_staging_directory_is_made_open_to_all() {
        let dir = std::env::temp_dir().join(format!("rowkey-staging-test-{}", std::process::id()));
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let stage = rt
            .block_on(Stage::open(
                &Staging::from(&dir),
                None,
                &crate::store::RetryPolicy::default(),
                None,
            ))
            .unwrap();
        assert_eq!(stage.local_dir(), dir);
        assert!(stage.fs_token().is_none());
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&dir).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o777);
        }
        rt.block_on(stage.close());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
