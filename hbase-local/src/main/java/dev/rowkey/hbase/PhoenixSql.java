package dev.rowkey.hbase;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.math.BigDecimal;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.util.HexFormat;

import org.apache.hadoop.conf.Configuration;

/**
 * Apache Phoenix on the local HBase (started with {@code --phoenix}): the server-side settings
 * Phoenix needs before the cluster starts, and a line server on loopback that runs SQL through
 * Phoenix's own JDBC driver, so tests in any language can write and query Phoenix tables.
 *
 * <p>Only {@code java.sql} is used here: Phoenix's jars are on the class path only when asked
 * for (hbase-local/phoenix/pom.xml), and the driver registers itself.
 *
 * <p>The protocol, one connection per client (each with its own JDBC connection, auto-commit
 * on), UTF-8 lines separated by {@code \n}:
 *
 * <pre>
 * request:  SQL [TAB param]...      (the SQL on one line; params bind its ?s in order)
 * query:    COLS TAB label...  then  ROW TAB value...  per row,  then  END TAB rows
 * update:   UPDATED TAB count
 * failure:  ERROR TAB message       (the message on one line)
 * </pre>
 *
 * <p>Values and params are typed text: {@code null}; {@code i:} a decimal integer (TINYINT to
 * BIGINT and their UNSIGNED forms); {@code f:} a double; {@code n:} a decimal
 * ({@code BigDecimal} plain string); {@code s:} UTF-8 in hex; {@code b:} bytes in hex;
 * {@code z:true} or {@code z:false}; {@code t:MILLIS:NANOS} a timestamp (NANOS within the
 * second, as {@code java.sql.Timestamp} keeps them); {@code d:MILLIS} a date or time.
 */
final class PhoenixSql {
  private PhoenixSql() {}

  /** Phoenix's server-side settings (as its own mini-cluster tests make them). */
  static void configure(Configuration conf) {
    conf.set("hbase.regionserver.wal.codec",
        "org.apache.hadoop.hbase.regionserver.wal.IndexedWALEditCodec");
    conf.set("hbase.region.server.rpc.scheduler.factory.class",
        "org.apache.hadoop.hbase.ipc.PhoenixRpcSchedulerFactory");
    conf.set("hbase.rpc.controllerfactory.class",
        "org.apache.hadoop.hbase.ipc.controller.ServerRpcControllerFactory");
    conf.setBoolean("phoenix.schema.isNamespaceMappingEnabled", false);
    conf.setBoolean("hbase.table.sanity.checks", false);
  }

  /**
   * Opens a first connection (Phoenix creates its SYSTEM tables then) and serves the line
   * protocol on {@code port} (0: any free port) of 127.0.0.1; returns the port.
   */
  static int start(String zkQuorum, int zkPort, int port) throws Exception {
    String url = "jdbc:phoenix:" + zkQuorum + ":" + zkPort;
    try (Connection c = DriverManager.getConnection(url)) {
      c.getMetaData();
    }
    ServerSocket server = new ServerSocket(port, 50, InetAddress.getLoopbackAddress());
    Thread accept = new Thread(() -> {
      while (true) {
        try {
          Socket client = server.accept();
          Thread t = new Thread(() -> serve(url, client), "phoenix-sql-client");
          t.setDaemon(true);
          t.start();
        } catch (IOException e) {
          return;
        }
      }
    }, "phoenix-sql");
    accept.setDaemon(true);
    accept.start();
    return server.getLocalPort();
  }

  private static void serve(String url, Socket client) {
    try (Socket s = client;
        Connection c = DriverManager.getConnection(url);
        BufferedReader in = new BufferedReader(
            new InputStreamReader(s.getInputStream(), StandardCharsets.UTF_8));
        Writer out = new BufferedWriter(
            new OutputStreamWriter(s.getOutputStream(), StandardCharsets.UTF_8), 1 << 16)) {
      c.setAutoCommit(true);
      String line;
      while ((line = in.readLine()) != null) {
        if (line.isEmpty()) {
          continue;
        }
        try {
          run(c, line, out);
        } catch (Exception e) {
          String message = String.valueOf(e.getMessage()).replace('\n', ' ').replace('\t', ' ');
          out.write("ERROR\t" + e.getClass().getSimpleName() + ": " + message + "\n");
        }
        out.flush();
      }
    } catch (Exception e) {
      System.err.println("phoenix-sql: " + e);
    }
  }

  private static void run(Connection c, String line, Writer out) throws Exception {
    String[] parts = line.split("\t", -1);
    try (PreparedStatement st = c.prepareStatement(parts[0])) {
      for (int i = 1; i < parts.length; i++) {
        bind(st, i, parts[i]);
      }
      if (!st.execute()) {
        out.write("UPDATED\t" + st.getUpdateCount() + "\n");
        return;
      }
      try (ResultSet rs = st.getResultSet()) {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        StringBuilder b = new StringBuilder("COLS");
        for (int i = 1; i <= n; i++) {
          b.append('\t').append(md.getColumnLabel(i));
        }
        out.write(b.append('\n').toString());
        long rows = 0;
        while (rs.next()) {
          b.setLength(0);
          b.append("ROW");
          for (int i = 1; i <= n; i++) {
            b.append('\t').append(render(rs.getObject(i)));
          }
          out.write(b.append('\n').toString());
          rows++;
        }
        out.write("END\t" + rows + "\n");
      }
    }
  }

  private static final HexFormat HEX = HexFormat.of();

  private static String render(Object v) {
    if (v == null) {
      return "null";
    }
    if (v instanceof Byte || v instanceof Short || v instanceof Integer || v instanceof Long) {
      return "i:" + v;
    }
    if (v instanceof Float || v instanceof Double) {
      return "f:" + ((Number) v).doubleValue();
    }
    if (v instanceof BigDecimal) {
      return "n:" + ((BigDecimal) v).toPlainString();
    }
    if (v instanceof String) {
      return "s:" + HEX.formatHex(((String) v).getBytes(StandardCharsets.UTF_8));
    }
    if (v instanceof byte[]) {
      return "b:" + HEX.formatHex((byte[]) v);
    }
    if (v instanceof Boolean) {
      return "z:" + v;
    }
    if (v instanceof java.sql.Timestamp) {
      java.sql.Timestamp t = (java.sql.Timestamp) v;
      return "t:" + t.getTime() + ":" + t.getNanos();
    }
    if (v instanceof java.util.Date) {
      return "d:" + ((java.util.Date) v).getTime();
    }
    return "s:" + HEX.formatHex(v.toString().getBytes(StandardCharsets.UTF_8));
  }

  private static void bind(PreparedStatement st, int i, String p) throws SQLException {
    if (p.equals("null")) {
      st.setObject(i, null);
      return;
    }
    int colon = p.indexOf(':');
    if (colon < 0) {
      throw new SQLException("param " + i + " is not typed (want e.g. i:42): " + p);
    }
    String v = p.substring(colon + 1);
    switch (p.substring(0, colon)) {
      case "i": st.setLong(i, Long.parseLong(v)); break;
      case "f": st.setDouble(i, Double.parseDouble(v)); break;
      case "n": st.setBigDecimal(i, new BigDecimal(v)); break;
      case "s": st.setString(i, new String(HEX.parseHex(v), StandardCharsets.UTF_8)); break;
      case "b": st.setBytes(i, HEX.parseHex(v)); break;
      case "z": st.setBoolean(i, Boolean.parseBoolean(v)); break;
      case "d": st.setDate(i, new java.sql.Date(Long.parseLong(v))); break;
      case "t": {
        String[] mn = v.split(":");
        java.sql.Timestamp t = new java.sql.Timestamp(Long.parseLong(mn[0]));
        t.setNanos(Integer.parseInt(mn[1]));
        st.setTimestamp(i, t);
        break;
      }
      default: throw new SQLException("param " + i + " has an unknown type: " + p);
    }
  }
}
