package dev.rowkey.hbase;

import java.io.IOException;
import java.io.InputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Properties;
import java.util.stream.Stream;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.HBaseTestingUtility;
import org.apache.hadoop.hbase.StartMiniClusterOption;
import org.apache.hadoop.hbase.thrift2.ThriftServer;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authorize.ProxyUsers;

/**
 * A local HBase for rowkey: an in-JVM mini cluster (one master, {@code --region-servers}
 * region servers, ZooKeeper) on the local filesystem, and HBase's Thrift2 gateway on a
 * loopback port.
 *
 * <p>When both are up it prints one line, {@code READY thrift=PORT zk=HOST:PORT ...}, and
 * writes the same line to {@code --ready-file} (written whole, then renamed into place). It
 * stops cleanly, and exits, when its standard input closes (its parent went away or closed the
 * pipe) or on SIGTERM; the data directory given with {@code --dir} is then removed.
 *
 * <p>With {@code --secure} and {@code --acl} HBase checks permissions (AccessController), the
 * client principal {@code rowkey} a superuser; on any Kerberized cluster {@code rowkey} may act
 * as {@code alice} (only) through the HTTP gateways' doAs ({@code proxy_user} on the READY
 * line).
 *
 * <p>With {@code --secure} the cluster is Kerberized: a KDC on loopback (Hadoop's
 * {@code MiniKdc}) with a per-run realm, the service principal {@code hbase/localhost} and a
 * client principal {@code rowkey} with keytabs in the data directory; RPC takes SASL (GSSAPI)
 * only, with the qualities of protection {@code --rpc-protection} lists (HBase's
 * {@code hbase.rpc.protection}; by default all three, so that a client may pick any), and the
 * Thrift2 gateway takes SASL (quality of protection {@code auth}) on the thread-pool server;
 * {@code --privacy-port P} starts a second SASL gateway that takes {@code auth-conf} only,
 * {@code --integrity-port P} one that takes {@code auth-int} only. The
 * READY line then also names the KDC's {@code krb5.conf}, the realm, and the client's
 * principal and keytab.
 *
 * <p>With {@code --tls} RPC also takes TLS (HBase 2.6's Netty TLS), with a CA and a server
 * certificate for {@code localhost} and {@code 127.0.0.1} made for this run (by the
 * {@code openssl} CLI, in the data directory); plain connections stay accepted
 * ({@code hbase.server.netty.tls.supportplaintext}), so the servers talk to each other as
 * before. The READY line names the CA's PEM as {@code tls_ca}, and a client certificate the
 * CA signed ({@code tls_client_cert}, {@code tls_client_key}) and a self-signed one no server
 * trusts ({@code tls_stranger_cert}, {@code tls_stranger_key}). {@code --tls-client-auth MODE}
 * (NONE, the default, OPTIONAL or NEED) sets {@code hbase.server.netty.tls.client.auth.mode}:
 * with NEED a TLS client must present a certificate the CA signed (mutual TLS).
 *
 * <p>{@code --http-port P} starts a gateway in HTTP mode (each call a POST), which on a
 * Kerberized cluster takes SPNEGO with the principal {@code HTTP/localhost};
 * {@code --https-port P} one that also takes TLS with this run's certificate (made as for
 * {@code --tls}, named {@code tls_ca}). The READY line names them {@code http_thrift} and
 * {@code https_thrift}.
 */
public final class LocalHBase {
  private LocalHBase() {}

  public static void main(String[] args) throws Exception {
    int thriftPort = 9090;
    int regionServers = 3;
    boolean framed = false;
    int framedPort = -1;
    Path readyFile = null;
    Path dataDir = null;
    long scannerLeaseMs = -1;
    boolean secure = false;
    String rpcProtection = "privacy,integrity,authentication";
    int privacyPort = -1;
    int integrityPort = -1;
    boolean tls = false;
    boolean acl = false;
    String tlsClientAuth = "NONE";
    int httpPort = -1;
    int httpsPort = -1;
    boolean phoenix = false;
    boolean hdfs = false;
    int phoenixPort = 0;
    for (int i = 0; i < args.length; i++) {
      switch (args[i]) {
        case "--port": thriftPort = Integer.parseInt(args[++i]); break;
        case "--no-thrift": thriftPort = -1; break;
        case "--region-servers": regionServers = Integer.parseInt(args[++i]); break;
        case "--framed": framed = true; break;
        case "--framed-port": framedPort = Integer.parseInt(args[++i]); break;
        case "--ready-file": readyFile = Path.of(args[++i]); break;
        case "--dir": dataDir = Path.of(args[++i]); break;
        case "--scanner-lease-ms": scannerLeaseMs = Long.parseLong(args[++i]); break;
        case "--secure": secure = true; break;
        case "--rpc-protection": rpcProtection = args[++i]; break;
        case "--privacy-port": privacyPort = Integer.parseInt(args[++i]); break;
        case "--integrity-port": integrityPort = Integer.parseInt(args[++i]); break;
        case "--tls": tls = true; break;
        case "--tls-client-auth": tlsClientAuth = args[++i]; break;
        case "--acl": acl = true; break;
        case "--hdfs": hdfs = true; break;
        case "--http-port": httpPort = Integer.parseInt(args[++i]); break;
        case "--https-port": httpsPort = Integer.parseInt(args[++i]); break;
        case "--phoenix": phoenix = true; break;
        case "--phoenix-port": phoenix = true; phoenixPort = Integer.parseInt(args[++i]); break;
        default:
          System.err.println("unknown argument " + args[i]
              + "; usage: LocalHBase [--port P | --no-thrift] [--region-servers N] [--framed]"
              + " [--framed-port P2] [--ready-file F] [--dir D] [--scanner-lease-ms MS] [--secure]"
              + " [--rpc-protection LIST] [--privacy-port P3] [--integrity-port P6] [--tls]"
              + " [--tls-client-auth NONE|OPTIONAL|NEED] [--acl]"
              + " [--http-port P4]"
              + " [--https-port P5] [--phoenix] [--phoenix-port P7] [--hdfs]");
          System.exit(2);
      }
    }
    if (thriftPort < 0
        && (framedPort > 0 || privacyPort > 0 || integrityPort > 0 || httpPort > 0 || httpsPort > 0)) {
      System.err.println("--no-thrift starts no Thrift2 gateway: leave out --framed-port,"
          + " --privacy-port, --integrity-port, --http-port and --https-port");
      System.exit(2);
    }
    if (!java.util.Set.of("NONE", "OPTIONAL", "NEED").contains(tlsClientAuth)) {
      System.err.println("--tls-client-auth takes NONE, OPTIONAL or NEED, not " + tlsClientAuth);
      System.exit(2);
    }
    long t0 = System.nanoTime();
    Configuration conf = HBaseConfiguration.create();
    // The local filesystem has no hflush/hsync; HBase refuses it for WALs unless told.
    conf.setBoolean("hbase.unsafe.stream.capability.enforce", false);
    conf.set("hbase.wal.provider", "filesystem");
    if (dataDir != null) {
      Files.createDirectories(dataDir);
      // HBaseTestingUtility takes its data directory from this system property.
      System.setProperty("test.build.data.basedirectory", dataDir.toAbsolutePath().toString());
    }
    // No web UIs: nothing listens but what the tests use.
    conf.setInt("hbase.master.info.port", -1);
    conf.setInt("hbase.regionserver.info.port", -1);
    conf.setInt("hbase.thrift.info.port", -1);
    // Region counters (the main job reads them) refresh every second, not every 5.
    conf.setInt("hbase.regionserver.metrics.period", 1000);
    conf.setInt("hbase.regionserver.msginterval", 1000);
    // An aborted region server (the control port's `abort-rs`) must not exit the JVM when its
    // abort outlasts the timeout: the other servers live in the same process.
    conf.set("hbase.regionserver.abort.timeout.task", NoExitOnAbortTimeout.class.getName());
    // How long a scanner may sit idle before its region server (and a Thrift2 gateway, which
    // keeps its scanners as long) drops it: HBase's 60 s unless told, shorter in CI so that
    // tests can outwait it.
    if (scannerLeaseMs > 0) {
      conf.setLong("hbase.client.scanner.timeout.period", scannerLeaseMs);
    }
    long lease = conf.getLong("hbase.client.scanner.timeout.period", 60_000);
    // Small heaps for three region servers in one JVM.
    conf.setFloat("hfile.block.cache.size", 0.1f);
    // No memstore chunk pool (MSLAB): each region with unflushed data holds a 2 MiB chunk of
    // it, and the test suite's hundreds of small pre-split regions ran the 2 GiB heap out of
    // memory (OutOfMemoryError in MemStoreLABImpl, the whole cluster down).
    conf.setBoolean("hbase.hregion.memstore.mslab.enabled", false);
    conf.setFloat("hbase.regionserver.global.memstore.size", 0.3f);

    String kerberos = "";
    Path tlsDir = null;
    if (secure) {
      kerberos = kerberize(conf, dataDir != null ? dataDir : Files.createTempDirectory("rowkey-kdc"),
          rpcProtection, acl);
    }

    if (tls || httpsPort > 0) {
      tlsDir = (dataDir != null ? dataDir : Files.createTempDirectory("rowkey-tls")).resolve("tls");
      makeCertificates(tlsDir);
      kerberos += " tls_ca=" + tlsDir.resolve("ca.pem").toAbsolutePath()
          + " tls_client_cert=" + tlsDir.resolve("client.crt").toAbsolutePath()
          + " tls_client_key=" + tlsDir.resolve("client.key").toAbsolutePath()
          + " tls_stranger_cert=" + tlsDir.resolve("stranger.crt").toAbsolutePath()
          + " tls_stranger_key=" + tlsDir.resolve("stranger.key").toAbsolutePath();
    }
    if (tls) {
      rpcTls(conf, tlsDir, tlsClientAuth);
      kerberos += " tls_client_auth=" + tlsClientAuth;
    }

    if (phoenix) {
      PhoenixSql.configure(conf);
    }

    HBaseTestingUtility util = new HBaseTestingUtility(conf);
    // --hdfs: HBase's root directory on a mini HDFS (one name node, one data node, in this
    // JVM), as on a real cluster: bulk loads stage their files there and the region servers
    // move them into the table.
    String hdfsField = "";
    if (hdfs) {
      var dfs = util.startMiniDFSCluster(1);
      dfs.getFileSystem().setPermission(new org.apache.hadoop.fs.Path("/"),
          new org.apache.hadoop.fs.permission.FsPermission((short) 0777));
      hdfsField = " hdfs=" + dfs.getFileSystem().getUri();
      // On a Kerberized cluster, the Hadoop client configuration a company hands its HDFS
      // clients (core-site.xml, hdfs-site.xml): Kerberos, the data transfer's SASL, the name
      // node's principal and its web address (WebHDFS, where delegation tokens are asked for).
      if (secure) {
        Path hadoopConf = (dataDir != null ? dataDir : Files.createTempDirectory("rowkey-hadoop"))
            .resolve("hadoop-conf");
        Files.createDirectories(hadoopConf);
        Configuration dfsConf = dfs.getConfiguration(0);
        Files.writeString(hadoopConf.resolve("core-site.xml"), siteXml(new String[][] {
            {"fs.defaultFS", dfs.getFileSystem().getUri().toString()},
            {"hadoop.security.authentication", "kerberos"},
        }), StandardCharsets.UTF_8);
        Files.writeString(hadoopConf.resolve("hdfs-site.xml"), siteXml(new String[][] {
            {"dfs.data.transfer.protection", dfsConf.get("dfs.data.transfer.protection")},
            {"dfs.namenode.kerberos.principal", dfsConf.get("dfs.namenode.kerberos.principal")},
            {"dfs.http.policy", "HTTP_ONLY"},
            {"dfs.namenode.http-address", "127.0.0.1:" + dfs.getNameNode().getHttpAddress().getPort()},
        }), StandardCharsets.UTF_8);
        hdfsField += " hadoop_conf=" + hadoopConf.toAbsolutePath();
      }
    }
    util.startMiniZKCluster();
    util.startMiniHBaseCluster(StartMiniClusterOption.builder()
        .numMasters(1).numRegionServers(regionServers).createRootDir(true).createWALDir(true)
        .build());
    Configuration clusterConf = util.getConfiguration();

    // --no-thrift: no gateway at all (HBase 3.0, for which Maven serves no hbase-thrift).
    int port = thriftPort >= 0 ? startGateway(clusterConf, thriftPort, framed) : -1;
    // A second gateway with the other transport, for clients that must work with both.
    int secondPort = framedPort > 0 ? startGateway(clusterConf, framedPort, true) : -1;
    // On a Kerberized cluster, a second SASL gateway that takes privacy (auth-conf) only.
    int privatePort = -1;
    if (secure && privacyPort > 0) {
      Configuration privateConf = new Configuration(clusterConf);
      privateConf.set("hbase.thrift.security.qop", "auth-conf");
      privatePort = startGateway(privateConf, privacyPort, false);
    }
    // And one that takes integrity (auth-int) only.
    if (secure && integrityPort > 0) {
      Configuration integrityConf = new Configuration(clusterConf);
      integrityConf.set("hbase.thrift.security.qop", "auth-int");
      startGateway(integrityConf, integrityPort, false);
    }

    // Gateways in HTTP mode (hbase.regionserver.thrift.http): each call a POST. On a
    // Kerberized cluster they take SPNEGO (HTTP/localhost); --https-port's also TLS.
    if (httpPort > 0) {
      startGateway(httpConf(clusterConf), httpPort, false);
    }
    if (httpsPort > 0) {
      Configuration httpsConf = httpConf(clusterConf);
      httpsConf.setBoolean("hbase.thrift.ssl.enabled", true);
      httpsConf.set("hbase.thrift.ssl.keystore.store", tlsDir.resolve("server.p12").toString());
      httpsConf.set("hbase.thrift.ssl.keystore.password", "rowkey");
      httpsConf.set("hbase.thrift.ssl.keystore.keypassword", "rowkey");
      httpsConf.set("hbase.thrift.ssl.keystore.type", "pkcs12");
      startGateway(httpsConf, httpsPort, false);
    }

    int controlPort = startControl(util);

    // Phoenix's SYSTEM tables and its SQL line server (PhoenixSql), once the cluster is up.
    String phoenixFields = "";
    if (phoenix) {
      int sqlPort = PhoenixSql.start(clusterConf.get("hbase.zookeeper.quorum"),
          clusterConf.getInt("hbase.zookeeper.property.clientPort", 2181), phoenixPort);
      String phoenixVersion = Class.forName("org.apache.phoenix.jdbc.PhoenixDriver")
          .getPackage().getImplementationVersion();
      phoenixFields = " phoenix_sql=" + sqlPort + " phoenix_version=" + phoenixVersion
          + " phoenix_jdbc=jdbc:phoenix:"
          + clusterConf.get("hbase.zookeeper.quorum") + ":"
          + clusterConf.get("hbase.zookeeper.property.clientPort");
    }

    String zk = clusterConf.get("hbase.zookeeper.quorum") + ":"
        + clusterConf.get("hbase.zookeeper.property.clientPort");
    long ms = (System.nanoTime() - t0) / 1_000_000;
    Runtime rt = Runtime.getRuntime();
    long heapMb = (rt.totalMemory() - rt.freeMemory()) >> 20;
    // Where HBase's own RPC is served: the master, which answers the connection registry
    // (ClientMetaService), for clients that need no gateway and no ZooKeeper.
    org.apache.hadoop.hbase.ServerName master =
        util.getMiniHBaseCluster().getMaster().getServerName();
    String line = "READY thrift=" + (port >= 0 ? Integer.toString(port) : "none") + " zk=" + zk
        + " master=" + master.getHostname() + ":" + master.getPort()
        + (secondPort > 0 ? " framed_thrift=" + secondPort : "")
        + (privatePort > 0 ? " privacy_thrift=" + privatePort : "")
        + (secure && integrityPort > 0 ? " integrity_thrift=" + integrityPort : "")
        + (httpPort > 0 ? " http_thrift=" + httpPort : "")
        + (httpsPort > 0 ? " https_thrift=" + httpsPort : "") + " control=" + controlPort
        + " transport=" + (framed ? "framed" : "buffered") + " region_servers=" + regionServers
        + " scanner_lease_ms=" + lease + kerberos + phoenixFields + hdfsField
        + " hbase_version=" + org.apache.hadoop.hbase.util.VersionInfo.getVersion()
        + " start_ms=" + ms + " heap_used_mb=" + heapMb + " rss_mb=" + rssMb() + " pid="
        + ManagementFactory.getRuntimeMXBean().getPid();
    System.out.println(line);
    System.out.flush();
    if (readyFile != null) {
      Path tmp = readyFile.resolveSibling(readyFile.getFileName() + ".tmp");
      Files.writeString(tmp, line + "\n", StandardCharsets.UTF_8);
      Files.move(tmp, readyFile, StandardCopyOption.REPLACE_EXISTING,
          StandardCopyOption.ATOMIC_MOVE);
    }

    Object stop = new Object();
    Thread stdinWatch = new Thread(() -> {
      try {
        InputStream in = System.in;
        byte[] buf = new byte[256];
        while (in.read(buf) >= 0) {
          // Anything written is ignored; only the end of the stream matters.
        }
      } catch (IOException e) {
        // A broken pipe means the parent is gone, as EOF does.
      }
      synchronized (stop) {
        stop.notifyAll();
      }
    }, "stdin-watch");
    stdinWatch.setDaemon(true);
    stdinWatch.start();
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      synchronized (stop) {
        stop.notifyAll();
      }
    }));
    synchronized (stop) {
      stop.wait();
    }
    System.out.println("STOPPING");
    System.out.flush();
    // Stop in the background and exit after a bounded wait: a hung shutdown must not outlive
    // the parent.
    Thread down = new Thread(() -> {
      try {
        util.shutdownMiniHBaseCluster();
        util.shutdownMiniZKCluster();
      } catch (Throwable e) {
        System.err.println("shutdown: " + e);
      }
    }, "shutdown");
    down.setDaemon(true);
    down.start();
    down.join(30_000);
    // The data directory is this run's alone: leave no tables behind (a run leaves ~60 MB).
    if (dataDir != null) {
      try (Stream<Path> files = Files.walk(dataDir)) {
        files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      } catch (Exception e) {
        System.err.println("could not remove " + dataDir + ": " + e);
      }
    }
    Runtime.getRuntime().halt(0);
  }

  /**
   * Starts a KDC on loopback with this run's principals and keytabs under {@code dir/kdc}, and
   * makes {@code conf} (and this JVM's login) Kerberos-only; returns the READY line's fields.
   */
  private static String kerberize(Configuration conf, Path dir, String rpcProtection, boolean acl)
      throws Exception {
    Path kdcDir = dir.resolve("kdc");
    Files.createDirectories(kdcDir);
    Properties kdcConf = MiniKdc.createConf();
    kdcConf.setProperty(MiniKdc.KDC_BIND_ADDRESS, "127.0.0.1");
    MiniKdc kdc = new MiniKdc(kdcConf, kdcDir.toFile());
    kdc.start();
    String realm = kdc.getRealm();
    Path serviceKeytab = kdcDir.resolve("hbase.keytab");
    Path clientKeytab = kdcDir.resolve("rowkey.keytab");
    kdc.createPrincipal(serviceKeytab.toFile(), "hbase/localhost", "HTTP/localhost",
        "zookeeper/localhost");
    kdc.createPrincipal(clientKeytab.toFile(), "rowkey");
    // The JVM's own Kerberos (the servers, the gateway) reads the KDC's krb5.conf.
    System.setProperty("java.security.krb5.conf", kdc.getKrb5conf().getAbsolutePath());
    String service = "hbase/localhost@" + realm;
    // ZooKeeper takes SASL (Kerberos) as a secured cluster's does: its server logs in as
    // zookeeper/localhost (JAAS section `Server`), and HBase's own ZooKeeper client as
    // hbase/localhost (`Client`), so HBase creates its znodes with `sasl:hbase` ACLs. Clients
    // without SASL are still served (HBase leaves master, meta-region-server and hbaseid
    // world-readable); the control port's `sasl-znodes` makes copies only `sasl:rowkey` reads.
    // Identities are the principals' short names (no host, no realm), as HBase's book advises.
    String zkPrincipal = "zookeeper/localhost@" + realm;
    Path jaas = kdcDir.resolve("jaas.conf");
    Files.writeString(jaas, jaasSection("Server", zkPrincipal, serviceKeytab)
        + jaasSection("Client", service, serviceKeytab), StandardCharsets.UTF_8);
    System.setProperty("java.security.auth.login.config", jaas.toAbsolutePath().toString());
    System.setProperty("zookeeper.authProvider.1",
        "org.apache.zookeeper.server.auth.SASLAuthenticationProvider");
    // The names ZooKeeper 3.5 reads, and 3.6's and later's.
    for (String prefix : new String[] {"", "zookeeper."}) {
      System.setProperty(prefix + "kerberos.removeHostFromPrincipal", "true");
      System.setProperty(prefix + "kerberos.removeRealmFromPrincipal", "true");
    }
    conf.set("hadoop.security.authentication", "kerberos");
    conf.set("hbase.security.authentication", "kerberos");
    // --acl: HBase's permissions (AccessController), the client principal a superuser, so that
    // a call made as another user through doAs is refused for want of them.
    conf.setBoolean("hbase.security.authorization", acl);
    if (acl) {
      String controller = "org.apache.hadoop.hbase.security.access.AccessController";
      conf.set("hbase.coprocessor.master.classes", controller);
      conf.set("hbase.coprocessor.region.classes",
          "org.apache.hadoop.hbase.security.token.TokenProvider," + controller);
      conf.set("hbase.coprocessor.regionserver.classes", controller);
      conf.set("hbase.superuser", "hbase,rowkey");
    }
    // HDFS, when --hdfs starts one, is Kerberized too, with the same principal (one login per
    // JVM): SASL on RPC and on data transfer (block access tokens; no privileged ports, which
    // `ignore.secure.ports.for.testing` lets a data node go without), SPNEGO on its web
    // endpoints (WebHDFS, which hands out delegation tokens).
    conf.set("dfs.namenode.kerberos.principal", service);
    conf.set("dfs.namenode.keytab.file", serviceKeytab.toString());
    conf.set("dfs.datanode.kerberos.principal", service);
    conf.set("dfs.datanode.keytab.file", serviceKeytab.toString());
    conf.set("dfs.web.authentication.kerberos.principal", "HTTP/localhost@" + realm);
    conf.set("dfs.web.authentication.kerberos.keytab", serviceKeytab.toString());
    // SPNEGO on the web endpoints as Hadoop's HTTP authentication guide configures it (Hadoop
    // 3.3's WebHDFS filter alone took anonymous requests here).
    conf.set("hadoop.http.filter.initializers",
        "org.apache.hadoop.security.AuthenticationFilterInitializer");
    conf.set("hadoop.http.authentication.type", "kerberos");
    conf.set("hadoop.http.authentication.kerberos.principal", "HTTP/localhost@" + realm);
    conf.set("hadoop.http.authentication.kerberos.keytab", serviceKeytab.toString());
    conf.setBoolean("hadoop.http.authentication.simple.anonymous.allowed", false);
    conf.set("dfs.namenode.kerberos.internal.spnego.principal", "HTTP/localhost@" + realm);
    conf.setBoolean("dfs.block.access.token.enable", true);
    conf.set("dfs.data.transfer.protection", "authentication");
    conf.set("dfs.http.policy", "HTTP_ONLY");
    conf.setBoolean("ignore.secure.ports.for.testing", true);
    // Who did what on HDFS, for the control port's `hdfs-renames` (the name node's audit log,
    // kept in memory).
    conf.set("dfs.namenode.audit.loggers", Audit.class.getName());
    conf.set("hbase.master.kerberos.principal", service);
    conf.set("hbase.master.keytab.file", serviceKeytab.toString());
    conf.set("hbase.regionserver.kerberos.principal", service);
    conf.set("hbase.regionserver.keytab.file", serviceKeytab.toString());
    // The gateway acts for each caller as a proxy user.
    conf.set("hadoop.proxyuser.hbase.hosts", "*");
    conf.set("hadoop.proxyuser.hbase.groups", "*");
    // The client principal may act as alice (only) through an HTTP gateway's doAs.
    conf.set("hadoop.proxyuser.rowkey.hosts", "*");
    conf.set("hadoop.proxyuser.rowkey.users", "alice");
    // The qualities of protection RPC accepts (the client picks one of them).
    conf.set("hbase.rpc.protection", rpcProtection);
    conf.set("hbase.thrift.security.qop", "auth");
    conf.set("hbase.thrift.kerberos.principal", service);
    conf.set("hbase.thrift.keytab.file", serviceKeytab.toString());
    // An HTTP gateway's SPNEGO principal (the usual HTTP/host), in the same keytab.
    conf.set("hbase.thrift.spnego.principal", "HTTP/localhost@" + realm);
    conf.set("hbase.thrift.spnego.keytab.file", serviceKeytab.toString());
    ProxyUsers.refreshSuperUserGroupsConfiguration(conf);
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation.loginUserFromKeytab(service, serviceKeytab.toString());
    return " realm=" + realm + " krb5_conf=" + kdc.getKrb5conf().getAbsolutePath()
        + " kdc=127.0.0.1:" + kdc.getPort() + " client_principal=rowkey@" + realm
        + " client_keytab=" + clientKeytab.toAbsolutePath() + " service_principal=" + service
        + " rpc_protection=" + rpcProtection + " acl=" + acl + " proxy_user=alice"
        + " zk_principal=" + zkPrincipal;
  }

  /**
   * The mini HDFS's audit log, kept in memory: each rename that succeeded, with the user it
   * ran as and how that user authenticated ({@code rowkey (auth:TOKEN)}: through a delegation
   * token). The control port's {@code hdfs-renames} reads it.
   */
  public static final class Audit implements org.apache.hadoop.hdfs.server.namenode.AuditLogger {
    static final java.util.concurrent.ConcurrentLinkedDeque<String> RENAMES =
        new java.util.concurrent.ConcurrentLinkedDeque<>();

    @Override
    public void initialize(Configuration conf) {}

    @Override
    public void logAuditEvent(boolean succeeded, String user, java.net.InetAddress addr,
        String cmd, String src, String dst, org.apache.hadoop.fs.FileStatus stat) {
      if (succeeded && cmd.startsWith("rename")) {
        RENAMES.add(src + " " + dst + " " + user.replace(' ', '_'));
        while (RENAMES.size() > 100_000) {
          RENAMES.poll();
        }
      }
    }
  }

  /** A Hadoop configuration file holding {@code pairs} (name, value). */
  private static String siteXml(String[][] pairs) {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    for (String[] p : pairs) {
      xml.append("  <property><name>").append(p[0]).append("</name><value>").append(p[1])
          .append("</value></property>\n");
    }
    return xml.append("</configuration>\n").toString();
  }

  /** A JAAS login section {@code name} that logs in as {@code principal} from {@code keytab}. */
  private static String jaasSection(String name, String principal, Path keytab) {
    return name + " {\n  com.sun.security.auth.module.Krb5LoginModule required\n"
        + "  useKeyTab=true\n  storeKey=true\n  useTicketCache=false\n"
        + "  keyTab=\"" + keytab.toAbsolutePath() + "\"\n"
        + "  principal=\"" + principal + "\";\n};\n";
  }

  /**
   * Makes a CA and a server certificate for {@code localhost} and {@code 127.0.0.1} for this
   * run in {@code tlsDir}: PEM for RPC, PKCS #12 for an HTTPS gateway.
   */
  private static void makeCertificates(Path tlsDir) throws Exception {
    Files.createDirectories(tlsDir);
    Files.writeString(tlsDir.resolve("server.ext"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
            + "keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n");
    openssl(tlsDir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "ca.key",
        "-out", "ca.pem", "-days", "2", "-subj", "/CN=rowkey hbase-local CA",
        "-addext", "basicConstraints=critical,CA:TRUE",
        "-addext", "keyUsage=critical,keyCertSign,cRLSign");
    openssl(tlsDir, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "server.key",
        "-out", "server.csr", "-subj", "/CN=localhost");
    openssl(tlsDir, "x509", "-req", "-in", "server.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "server.crt", "-days", "2", "-extfile", "server.ext");
    // HBase's PEM key store: the private key and the certificate chain in one file.
    Files.writeString(tlsDir.resolve("server.pem"),
        Files.readString(tlsDir.resolve("server.key")) + Files.readString(tlsDir.resolve("server.crt")));
    // A client certificate the CA signed, for mutual TLS (HBase checks a client's certificate
    // against the host it connects from too, hence the names), and a self-signed one.
    Files.writeString(tlsDir.resolve("client.ext"),
        "subjectAltName=DNS:localhost,IP:127.0.0.1\nbasicConstraints=CA:FALSE\n"
            + "keyUsage=digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n");
    openssl(tlsDir, "req", "-newkey", "rsa:2048", "-nodes", "-keyout", "client.key",
        "-out", "client.csr", "-subj", "/CN=rowkey-client");
    openssl(tlsDir, "x509", "-req", "-in", "client.csr", "-CA", "ca.pem", "-CAkey", "ca.key",
        "-CAcreateserial", "-out", "client.crt", "-days", "2", "-extfile", "client.ext");
    openssl(tlsDir, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", "stranger.key",
        "-out", "stranger.crt", "-days", "2", "-subj", "/CN=rowkey-stranger",
        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
        "-addext", "extendedKeyUsage=clientAuth");
    // An HTTPS gateway's key store (Jetty's): the same key and certificate as PKCS #12.
    openssl(tlsDir, "pkcs12", "-export", "-in", "server.crt", "-inkey", "server.key",
        "-name", "server", "-out", "server.p12", "-passout", "pass:rowkey");
  }

  /** Turns on TLS for RPC in {@code conf} (plain connections still accepted). */
  private static void rpcTls(Configuration conf, Path tlsDir, String clientAuth) {
    conf.set("hbase.rpc.server.impl", "org.apache.hadoop.hbase.ipc.NettyRpcServer");
    conf.setBoolean("hbase.server.netty.tls.enabled", true);
    conf.setBoolean("hbase.server.netty.tls.supportplaintext", true);
    conf.set("hbase.server.netty.tls.client.auth.mode", clientAuth);
    conf.set("hbase.rpc.tls.keystore.type", "PEM");
    conf.set("hbase.rpc.tls.keystore.location", tlsDir.resolve("server.pem").toString());
    conf.set("hbase.rpc.tls.keystore.password", "");
    conf.set("hbase.rpc.tls.truststore.type", "PEM");
    conf.set("hbase.rpc.tls.truststore.location", tlsDir.resolve("ca.pem").toString());
    conf.set("hbase.rpc.tls.truststore.password", "");
  }

  private static void openssl(Path dir, String... args) throws Exception {
    String[] command = new String[args.length + 1];
    command[0] = "openssl";
    System.arraycopy(args, 0, command, 1, args.length);
    Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
        .start();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    if (p.waitFor() != 0) {
      throw new IllegalStateException("openssl " + String.join(" ", args) + ": " + out);
    }
  }

  /**
   * A gateway's configuration for HTTP transport. On a Kerberized cluster its servlet asks for
   * SPNEGO on every request whatever the quality of protection says (HTTP has no SASL layer;
   * HBase only refuses {@code auth-conf} without TLS), so it is left at {@code auth}.
   */
  private static Configuration httpConf(Configuration clusterConf) {
    Configuration conf = new Configuration(clusterConf);
    conf.setBoolean("hbase.regionserver.thrift.http", true);
    // Proxy users (the doAs header) on a Kerberized cluster's HTTP gateways.
    if ("kerberos".equals(clusterConf.get("hbase.security.authentication"))) {
      conf.setBoolean("hbase.thrift.support.proxyuser", true);
    }
    return conf;
  }

  /** Starts a Thrift2 gateway on 127.0.0.1:port and waits until it accepts connections. */
  private static int startGateway(Configuration clusterConf, int port, boolean framed)
      throws Exception {
    Configuration conf = new Configuration(clusterConf);
    conf.set("hbase.regionserver.thrift.ipaddress", "127.0.0.1");
    conf.setInt("hbase.regionserver.thrift.port", port);
    conf.setBoolean("hbase.regionserver.thrift.framed", framed);
    conf.setInt("hbase.regionserver.thrift.framed.max_frame_size_in_mb", 64);
    conf.setInt("hbase.thrift.info.port", -1);
    // The thread-pool server gives each connection a worker for the connection's life and
    // grows past its core (16 by default) only when 1,000 connections are queued: the 17th
    // concurrent connection waits, unanswered, until another closes. The tests hold many
    // pooled connections at once (one binary's tests run in parallel), so a test's new
    // connection could wait out its deadline behind them (seen once: thrift2_refusals_say_why
    // got no answer within 10 s). Enough core workers for every test at once.
    conf.setInt("hbase.thrift.minWorkerThreads", 256);
    ThriftServer thrift = new ThriftServer(conf);
    Thread serving = new Thread(() -> {
      try {
        thrift.run(new String[] {"-p", Integer.toString(port), "--infoport", "-1"});
      } catch (Throwable e) {
        System.err.println("thrift2 gateway on port " + port + " failed: " + e);
        e.printStackTrace();
        Runtime.getRuntime().halt(1);
      }
    }, "thrift2-" + port);
    serving.setDaemon(true);
    serving.start();
    waitForPort(port, 60_000);
    return port;
  }

  /**
   * A loopback control port for fault injection in tests, one command per line, one reply line:
   * {@code abort-rs} aborts the live region server holding the most regions (a crash: its
   * memstores are lost and its regions are recovered from the WAL elsewhere), replying
   * {@code OK host:port}; {@code start-rs} starts a new region server and waits for it;
   * {@code servers} replies with the live region servers; {@code start-master} starts a backup
   * master ({@code OK host:port}); {@code abort-master} aborts the active one and returns once
   * a backup has taken over ({@code OK old new}); {@code protect-znode PATH} makes znodes
   * only a digest identity may read; on a Kerberized cluster, {@code sasl-znodes PATH} copies
   * HBase's records under PATH for {@code sasl:rowkey} alone, and (with {@code --hdfs})
   * {@code hdfs-renames TEXT} lists who renamed which files on HDFS.
   */
  private static int startControl(HBaseTestingUtility util) throws IOException {
    java.net.ServerSocket server = new java.net.ServerSocket(0, 16,
        java.net.InetAddress.getLoopbackAddress());
    Thread t = new Thread(() -> {
      while (true) {
        try (java.net.Socket s = server.accept();
            java.io.BufferedReader in = new java.io.BufferedReader(
                new java.io.InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
            java.io.PrintWriter out = new java.io.PrintWriter(
                new java.io.OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8), true)) {
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            out.println(control(util, line.trim()));
          }
        } catch (Throwable e) {
          System.err.println("control: " + e);
        }
      }
    }, "control");
    t.setDaemon(true);
    t.start();
    return server.getLocalPort();
  }

  /** The cluster's ZooKeeper quorum, {@code host:port}. */
  private static String quorum(HBaseTestingUtility util) {
    var conf = util.getConfiguration();
    return conf.get("hbase.zookeeper.quorum") + ":"
        + conf.get("hbase.zookeeper.property.clientPort");
  }

  /**
   * A session with the cluster's ZooKeeper once it reaches {@code state} (connected, or
   * authenticated with SASL), or null (the session closed) if it did not within 30 s.
   */
  private static org.apache.zookeeper.ZooKeeper zkSession(HBaseTestingUtility util,
      org.apache.zookeeper.Watcher.Event.KeeperState state) throws Exception {
    var reached = new java.util.concurrent.CountDownLatch(1);
    var zk = new org.apache.zookeeper.ZooKeeper(quorum(util), 30_000, e -> {
      if (e.getState() == state) {
        reached.countDown();
      }
    });
    if (!reached.await(30, java.util.concurrent.TimeUnit.SECONDS)) {
      zk.close();
      return null;
    }
    return zk;
  }

  private static String control(HBaseTestingUtility util, String command) {
    try {
      org.apache.hadoop.hbase.MiniHBaseCluster cluster = util.getMiniHBaseCluster();
      java.util.List<org.apache.hadoop.hbase.util.JVMClusterUtil.RegionServerThread> live =
          cluster.getLiveRegionServerThreads();
      // `flush TABLE` and `major-compact TABLE`: synchronous, so a test sees what a flush and a
      // major compaction leave (TTL, versions and deleted cells applied to the store files).
      if (command.startsWith("flush ")) {
        util.flush(org.apache.hadoop.hbase.TableName.valueOf(command.substring(6).trim()));
        return "OK";
      }
      if (command.startsWith("major-compact ")) {
        util.compact(
            org.apache.hadoop.hbase.TableName.valueOf(command.substring(14).trim()), true);
        return "OK";
      }
      // `settle`: waits (at most a minute) until no region server has a compaction queued,
      // then collects the garbage of this JVM, which every region server shares; replies with
      // the heap in use, in MiB. Benchmarks settle the cluster between clients, so the next
      // one does not pay for what the last one left behind.
      if (command.trim().equals("settle")) {
        long deadline = System.currentTimeMillis() + 60_000;
        for (var rs : live) {
          var server = rs.getRegionServer();
          while (server.getCompactSplitThread().getCompactionQueueSize() > 0
              && System.currentTimeMillis() < deadline) {
            Thread.sleep(100);
          }
        }
        System.gc();
        Runtime rt = Runtime.getRuntime();
        return "OK " + ((rt.totalMemory() - rt.freeMemory()) >> 20);
      }
      // `protect-znode PATH`: PATH and the records HBase keeps under its parent (master,
      // meta-region-server, hbaseid), readable only with a digest identity this JVM holds: a
      // secured ZooKeeper's view for a client without SASL, on the cluster's own quorum.
      if (command.startsWith("protect-znode ")) {
        String path = command.substring(14).trim();
        try (var zk = zkSession(util,
            org.apache.zookeeper.Watcher.Event.KeeperState.SyncConnected)) {
          if (zk == null) {
            return "ERR no ZooKeeper session with " + quorum(util);
          }
          zk.addAuthInfo("digest", "rowkey:secret".getBytes(StandardCharsets.UTF_8));
          var acl = org.apache.zookeeper.ZooDefs.Ids.CREATOR_ALL_ACL;
          for (String node : new String[] {path, path + "/master", path + "/meta-region-server",
              path + "/hbaseid"}) {
            if (zk.exists(node, false) == null) {
              zk.create(node, new byte[] {1}, acl, org.apache.zookeeper.CreateMode.PERSISTENT);
            }
          }
        }
        return "OK";
      }
      // `hdfs-renames TEXT`: the renames on the mini HDFS (--hdfs on a Kerberized cluster)
      // whose source path holds TEXT, `;`-separated: `SRC DST USER_(auth:METHOD)`.
      if (command.startsWith("hdfs-renames ")) {
        String text = command.substring(13).trim();
        return "OK " + String.join(";", Audit.RENAMES.stream()
            .filter(e -> e.split(" ")[0].contains(text)).toList());
      }
      // `sasl-znodes PATH`: copies of the records HBase keeps under its parent (master,
      // meta-region-server, hbaseid) under PATH, readable by `sasl:rowkey` only (and all
      // permissions to `sasl:hbase`, which this JVM's ZooKeeper client logs in as): a secured
      // ZooKeeper whose HBase znodes are not world-readable, for clients that read it with
      // Kerberos. Only on a Kerberized cluster (--secure), whose ZooKeeper takes SASL.
      if (command.startsWith("sasl-znodes ")) {
        String path = command.substring(12).trim();
        String parent = util.getConfiguration().get("zookeeper.znode.parent", "/hbase");
        try (var zk = zkSession(util,
            org.apache.zookeeper.Watcher.Event.KeeperState.SaslAuthenticated)) {
          if (zk == null) {
            return "ERR no SASL-authenticated ZooKeeper session with " + quorum(util)
                + " (is the cluster Kerberized, --secure?)";
          }
          var rowkey = new org.apache.zookeeper.data.Id("sasl", "rowkey");
          var hbase = new org.apache.zookeeper.data.Id("sasl", "hbase");
          int all = org.apache.zookeeper.ZooDefs.Perms.ALL;
          int read = org.apache.zookeeper.ZooDefs.Perms.READ;
          // HBase's own identity may do anything but read the copies: a principal that
          // authenticates and still may not read, for the tests.
          // Mutable lists: ZooKeeper's client asks them whether they contain null, which an
          // immutable List.of answers with a NullPointerException.
          var acl = new java.util.ArrayList<>(java.util.List.of(
              new org.apache.zookeeper.data.ACL(read, rowkey),
              new org.apache.zookeeper.data.ACL(all & ~read, hbase)));
          if (zk.exists(path, false) == null) {
            zk.create(path, new byte[0], new java.util.ArrayList<>(java.util.List.of(
                new org.apache.zookeeper.data.ACL(read, rowkey),
                new org.apache.zookeeper.data.ACL(all, hbase))),
                org.apache.zookeeper.CreateMode.PERSISTENT);
          }
          for (String name : new String[] {"master", "meta-region-server", "hbaseid"}) {
            byte[] data = zk.getData(parent + "/" + name, false, null);
            String node = path + "/" + name;
            if (zk.exists(node, false) == null) {
              zk.create(node, data, acl, org.apache.zookeeper.CreateMode.PERSISTENT);
            } else {
              zk.setData(node, data, -1);
            }
          }
        }
        return "OK";
      }
      // `split TABLE HEXROW`: splits the region holding the row at the row, and returns once
      // the daughters are open. `move TABLE HEXROW`: moves the region holding the row to
      // another live server, and returns once it is open there. For the native store's
      // fault tests (a scan or a batch in flight meets the change).
      String[] words = command.trim().split("\\s+");
      if (words.length == 3 && (words[0].equals("split") || words[0].equals("move"))) {
        var table = org.apache.hadoop.hbase.TableName.valueOf(words[1]);
        byte[] row = org.apache.hadoop.hbase.util.Bytes.fromHex(words[2]);
        var admin = util.getAdmin();
        try (var locator = util.getConnection().getRegionLocator(table)) {
          var before = locator.getRegionLocation(row, true);
          if (words[0].equals("split")) {
            try {
              admin.splitRegionAsync(before.getRegion().getRegionName(), row)
                  .get(60, java.util.concurrent.TimeUnit.SECONDS);
            } catch (Exception e) {
              // A daughter of a recent split still refers to its parent's files and cannot
              // split again until a compaction rewrites them.
              util.compact(table, true);
              admin.splitRegionAsync(before.getRegion().getRegionName(), row)
                  .get(60, java.util.concurrent.TimeUnit.SECONDS);
            }
            return "OK " + admin.getRegions(table).size();
          }
          org.apache.hadoop.hbase.ServerName target = null;
          for (var rs : live) {
            var name = rs.getRegionServer().getServerName();
            if (!name.equals(before.getServerName())) {
              target = name;
              break;
            }
          }
          if (target == null) {
            return "ERR no other live server";
          }
          admin.move(before.getRegion().getEncodedNameAsBytes(), target);
          return "OK " + target.getAddress();
        }
      }
      switch (command) {
        case "servers": {
          StringBuilder b = new StringBuilder("OK");
          for (var rs : live) {
            b.append(' ').append(rs.getRegionServer().getServerName().getAddress());
          }
          return b.toString();
        }
        case "abort-rs": {
          int busiest = 0;
          for (int i = 0; i < live.size(); i++) {
            if (live.get(i).getRegionServer().getNumberOfOnlineRegions()
                > live.get(busiest).getRegionServer().getNumberOfOnlineRegions()) {
              busiest = i;
            }
          }
          var rs = live.get(busiest).getRegionServer();
          String name = rs.getServerName().getAddress().toString();
          rs.abort("aborted by the rowkey test's control command");
          return "OK " + name;
        }
        case "start-rs": {
          var rs = cluster.startRegionServerAndWait(60_000);
          return "OK " + rs.getRegionServer().getServerName().getAddress();
        }
        case "start-master": {
          // A backup master: it waits on ZooKeeper for the active one to go.
          var mt = cluster.startMaster();
          long deadline = System.currentTimeMillis() + 60_000;
          while (mt.getMaster().getServerName() == null
              || mt.getMaster().getRpcServer() == null
              || mt.getMaster().getRpcServer().getListenerAddress() == null) {
            if (System.currentTimeMillis() > deadline) {
              return "ERR the backup master did not start in 60 s";
            }
            Thread.sleep(100);
          }
          return "OK " + mt.getMaster().getServerName().getAddress();
        }
        case "abort-master": {
          // The active master aborts (a crash); returns once a backup has taken over.
          var masters = cluster.getMasterThreads();
          for (int i = 0; i < masters.size(); i++) {
            var m = masters.get(i).getMaster();
            if (m.isActiveMaster() && !m.isStopped()) {
              String old = m.getServerName().getAddress().toString();
              cluster.abortMaster(i);
              cluster.waitOnMaster(i);
              if (!cluster.waitForActiveAndReadyMaster(120_000)) {
                return "ERR no master took over in 120 s";
              }
              return "OK " + old + " " + cluster.getMaster().getServerName().getAddress();
            }
          }
          return "ERR no active master";
        }
        default:
          return "ERR unknown command " + command;
      }
    } catch (Throwable e) {
      // The whole trace to the log (the reply is one line).
      System.err.println("control `" + command + "` failed:");
      e.printStackTrace();
      return "ERR " + e;
    }
  }

  /** The process's resident memory in MiB (Linux), or -1. */
  private static long rssMb() {
    try {
      for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
        if (line.startsWith("VmRSS:")) {
          return Long.parseLong(line.replaceAll("[^0-9]", "")) >> 10;
        }
      }
    } catch (IOException | NumberFormatException e) {
      // Not Linux, or an unexpected format: unknown.
    }
    return -1;
  }

  private static void waitForPort(int port, long timeoutMs) throws Exception {
    long deadline = System.currentTimeMillis() + timeoutMs;
    while (true) {
      try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
        return;
      } catch (IOException e) {
        if (System.currentTimeMillis() > deadline) {
          throw new IOException("the thrift2 gateway did not open port " + port, e);
        }
        Thread.sleep(100);
      }
    }
  }
}
