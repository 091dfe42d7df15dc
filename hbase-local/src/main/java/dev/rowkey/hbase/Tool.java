package dev.rowkey.hbase;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hbase.Cell;
import org.apache.hadoop.hbase.CellUtil;
import org.apache.hadoop.hbase.ClusterMetrics;
import org.apache.hadoop.hbase.HBaseConfiguration;
import org.apache.hadoop.hbase.RegionMetrics;
import org.apache.hadoop.hbase.ServerMetrics;
import org.apache.hadoop.hbase.ServerName;
import org.apache.hadoop.hbase.TableName;
import org.apache.hadoop.hbase.client.Admin;
import org.apache.hadoop.hbase.client.BufferedMutator;
import org.apache.hadoop.hbase.client.BufferedMutatorParams;
import org.apache.hadoop.hbase.client.ColumnFamilyDescriptorBuilder;
import org.apache.hadoop.hbase.client.Connection;
import org.apache.hadoop.hbase.client.ConnectionFactory;
import org.apache.hadoop.hbase.client.Get;
import org.apache.hadoop.hbase.client.Increment;
import org.apache.hadoop.hbase.client.Put;
import org.apache.hadoop.hbase.client.RegionInfo;
import org.apache.hadoop.hbase.client.Result;
import org.apache.hadoop.hbase.client.ResultScanner;
import org.apache.hadoop.hbase.client.Scan;
import org.apache.hadoop.hbase.client.Table;
import org.apache.hadoop.hbase.client.TableDescriptorBuilder;
import org.apache.hadoop.hbase.util.Bytes;

/**
 * HBase's own Java client, run against the local HBase (or any cluster) to check rowkey from
 * the other side. One command per run; output is one record per line, fields separated by
 * spaces, binary values in hex.
 *
 * <pre>
 * region-writes --zk HOST:PORT --table T [--table T2 ...]
 *     per region: REGION table start_hex end_hex server write_requests read_requests
 * dump --zk HOST:PORT --table T
 *     per row (family d, qualifier v): ROW key_hex value_hex toStringBinary(key)
 * write-recipes --zk HOST:PORT --table T --layout L --rows N
 *     writes N rows whose keys the Java code of the seed documents builds (value
 *     Bytes.toBytes((long) i) in d:v), through a BufferedMutator; layouts:
 *     flurry: DataOutputStream writeLong(i / 5) then writeUTF(apps[i % 5]);
 *     flurry-signed: the same with writeLong(i / 5 - N / 10) (negative ids too);
 *     concat: Bytes.toBytes(i % 7 - 3) + Bytes.toBytes(31L * i - N) + Bytes.toBytes("user_" + i)
 *     text: String.format("%06d:%06d:%d", 230601 + i % 30, i * 37 % 240000, i) (the salting
 *     article's date:time:message_id);
 *     salted: the same after MD5Hash.getMD5AsHex(Bytes.toBytes(Long.toString(i))), uppercased,
 *     and ":" (the salting article's key whole);
 *     user-ts: "u" + (i % 1000) + "_" + (1700000000000L + i) (the HBase guide's user + "_" + ts);
 *     reversed: new StringBuilder("138" + String.format("%08d", i % 5000)).reverse() + "|" +
 *     String.format("%019d", Long.MAX_VALUE - (1700000000000L + i)) (the Chinese guide's
 *     reversed phone and Long.MAX_VALUE - ts)
 *     (apps: "", "mail", "a\u0000b", "\ud83d\ude00maps", "news"); prints WROTE n
 * region-splitter --algo A --regions N [--first F --last L]
 *     RegionSplitter's algorithm A (HexStringSplit, DecimalStringSplit, UniformSplit) split
 *     into N regions, first and last rows set when given: per point, SPLIT hex(point).
 *     Without --algo, one case per stdin line (ALGO N [FIRST LAST]): SPLIT case hex(point)
 * write-java-cells --zk HOST:PORT --table T
 *     writes rows java-long (Bytes.toBytes(42L)), java-string (Bytes.toBytes("héllo, hbase")),
 *     java-counter (Increment of 5, three times) in d:v
 * raw --zk HOST:PORT --table T
 *     every cell of the table, one line each: RAW row_hex family qualifier_hex value_hex
 * checksum --zk HOST:PORT --table T [--principal P --keytab F --krb5-conf F
 *     --server-principal S] (every command that connects takes the Kerberos options)
 *     scans the whole table: SUM rows cells sha256  (sha256 over each cell's row, family,
 *     qualifier and value, each after its 4-byte length, in scan order)
 * cells --zk HOST:PORT --table T --row HEX
 *     every cell of the row, one line each, with what HBase's Bytes makes of the value:
 *     CELL family qualifier_hex value_hex string=Bytes.toString [long= double=] [int= float=]
 *     [short=] [boolean=]   (the numeric readings where the value has their width)
 * binary   (reads hex strings on stdin) per line: BIN hex toStringBinary(bytes)
 * reverse-ts  (reads decimal longs on stdin) per line: REV ts hex(Bytes.toBytes(Long.MAX_VALUE - ts))
 * java-hash --buckets N  (reads hex strings on stdin) per line:
 *     JH hex Arrays.hashCode(bytes) Math.abs(hash % N)   (OpenTSDB's salt of the salted bytes)
 * phoenix-salt --buckets N  (reads hex strings: the key after its salt byte) per line:
 *     PHX hex SaltingUtil.getSaltingByte(bytes, 0, length, N)   (Apache Phoenix's own code)
 * bench --zk HOST:PORT --table T --keys FILE [--gets N] [--rounds R] [--warmup W]
 *     (FILE: one key in hex per line) R times (default 1) in one JVM: creates table T_r
 *     pre-split as the splits on stdin (hex, one per line; empty input: no splits), writes
 *     every key with a 16-byte value through a BufferedMutator, scans it back with caching
 *     5000, reads N keys spread over the file (default 0) with one Get each, one after another,
 *     and prints: BENCH r rows put_rows_per_s scan_rows_per_s gets_per_s; then drops T_r.
 *     With W > 0, a round 0 of the first W keys (no gets, not printed) warms the JVM first.
 * hfile --file PATH [--file PATH ...]
 *     per file, after a line FILE PATH (one JVM reads them all): reads an HFile on the local file system with HBase's own reader, every cell in order:
 *     HFILE cells sha256 first_row_hex last_row_hex trailer_entry_count  (sha256 over each
 *     cell's row, family, qualifier (each after its 4-byte length), timestamp (8 bytes), type
 *     byte and value (after its 4-byte length)); then HFilePrettyPrinter's report of the file
 *     (-k -m -v: key order checked, meta printed), one line each: PP line. Between them,
 *     with a general Bloom filter: BLOOM rows rows_passing others_passing type (each row, and
 *     each row with 0x5a appended, checked by HBase's own filter); without one: BLOOM none;
 *     then SEEK sampled found mid_row_hex: every 37th cell sought through the block index
 *     (HFileScanner.seekTo), how many were found exactly, and the reader's midKey's row
 * </pre>
 */
public final class Tool {
  private Tool() {}

  /** RegionSplitter's algorithm {@code name} split into {@code regions}, rows set when given. */
  private static byte[][] regionSplits(String name, int regions, String first, String last)
      throws Exception {
    org.apache.hadoop.hbase.util.RegionSplitter.SplitAlgorithm algo =
        org.apache.hadoop.hbase.util.RegionSplitter.newSplitAlgoInstance(
            HBaseConfiguration.create(), name);
    if (first != null) {
      algo.setFirstRow(first);
    }
    if (last != null) {
      algo.setLastRow(last);
    }
    return algo.split(regions);
  }

  private static final byte[] FAMILY = Bytes.toBytes("d");
  private static final byte[] QUALIFIER = Bytes.toBytes("v");

  public static void main(String[] args) throws Exception {
    if (args.length == 0) {
      usage();
    }
    String command = args[0];
    Map<String, List<String>> opts = new HashMap<>();
    for (int i = 1; i + 1 < args.length; i += 2) {
      opts.computeIfAbsent(args[i], k -> new ArrayList<>()).add(args[i + 1]);
    }
    PrintStream out = new PrintStream(System.out, false, StandardCharsets.UTF_8);
    switch (command) {
      case "binary":
        for (String line : stdinLines()) {
          out.println("BIN " + line + " " + Bytes.toStringBinary(Bytes.fromHex(line)));
        }
        break;
      case "reverse-ts":
        for (String line : stdinLines()) {
          long ts = Long.parseLong(line.trim());
          out.println("REV " + ts + " " + Bytes.toHex(Bytes.toBytes(Long.MAX_VALUE - ts)));
        }
        break;
      case "java-hash": {
        int n = Integer.parseInt(opts.get("--buckets").get(0));
        for (String line : stdinLines()) {
          int h = java.util.Arrays.hashCode(Bytes.fromHex(line));
          out.println("JH " + line + " " + h + " " + Math.abs(h % n));
        }
        break;
      }
      case "phoenix-salt": {
        int n = Integer.parseInt(opts.get("--buckets").get(0));
        for (String line : stdinLines()) {
          byte[] b = Bytes.fromHex(line);
          out.println("PHX " + line + " "
              + org.apache.phoenix.schema.SaltingUtil.getSaltingByte(b, 0, b.length, n));
        }
        break;
      }
      case "region-writes":
        try (Connection c = connect(opts)) {
          regionWrites(c, opts.get("--table"), out);
        }
        break;
      case "dump":
        try (Connection c = connect(opts); Table t = c.getTable(table(opts))) {
          try (ResultScanner s = t.getScanner(new Scan().addColumn(FAMILY, QUALIFIER))) {
            for (Result r : s) {
              out.println("ROW " + Bytes.toHex(r.getRow()) + " "
                  + Bytes.toHex(r.getValue(FAMILY, QUALIFIER)) + " "
                  + Bytes.toStringBinary(r.getRow()));
            }
          }
        }
        break;
      case "raw":
        try (Connection c = connect(opts); Table t = c.getTable(table(opts))) {
          try (ResultScanner s = t.getScanner(new Scan())) {
            for (Result r : s) {
              for (Cell cell : r.rawCells()) {
                out.println("RAW " + Bytes.toHex(r.getRow()) + " "
                    + Bytes.toString(CellUtil.cloneFamily(cell)) + " "
                    + Bytes.toHex(CellUtil.cloneQualifier(cell)) + " "
                    + Bytes.toHex(CellUtil.cloneValue(cell)));
              }
            }
          }
        }
        break;
      case "checksum":
        try (Connection c = connect(opts); Table t = c.getTable(table(opts))) {
          java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
          long rows = 0;
          long cells = 0;
          try (ResultScanner s = t.getScanner(new Scan().setCaching(5000))) {
            for (Result r : s) {
              rows++;
              for (Cell cell : r.rawCells()) {
                for (byte[] part : new byte[][] {CellUtil.cloneRow(cell),
                    CellUtil.cloneFamily(cell), CellUtil.cloneQualifier(cell),
                    CellUtil.cloneValue(cell)}) {
                  sha.update(Bytes.toBytes(part.length));
                  sha.update(part);
                }
                cells++;
              }
            }
          }
          out.println("SUM " + rows + " " + cells + " " + Bytes.toHex(sha.digest()));
        }
        break;
      case "cells":
        try (Connection c = connect(opts); Table t = c.getTable(table(opts))) {
          Result r = t.get(new Get(Bytes.fromHex(opts.get("--row").get(0))));
          for (Cell cell : r.rawCells()) {
            byte[] v = CellUtil.cloneValue(cell);
            StringBuilder line = new StringBuilder("CELL ")
                .append(Bytes.toString(CellUtil.cloneFamily(cell))).append(' ')
                .append(Bytes.toHex(CellUtil.cloneQualifier(cell))).append(' ')
                .append(Bytes.toHex(v)).append(" string=")
                .append(Bytes.toHex(Bytes.toBytes(Bytes.toString(v))));
            if (v.length == 8) {
              line.append(" long=").append(Bytes.toLong(v)).append(" double=").append(Bytes.toDouble(v));
            } else if (v.length == 4) {
              line.append(" int=").append(Bytes.toInt(v)).append(" float=").append(Bytes.toFloat(v));
            } else if (v.length == 2) {
              line.append(" short=").append(Bytes.toShort(v));
            } else if (v.length == 1) {
              line.append(" boolean=").append(Bytes.toBoolean(v));
            }
            out.println(line);
          }
        }
        break;
      case "region-splitter": {
        if (opts.containsKey("--algo")) {
          String first = opts.containsKey("--first") ? opts.get("--first").get(0) : null;
          String last = opts.containsKey("--last") ? opts.get("--last").get(0) : null;
          for (byte[] point : regionSplits(opts.get("--algo").get(0),
              Integer.parseInt(opts.get("--regions").get(0)), first, last)) {
            out.println("SPLIT " + Bytes.toHex(point));
          }
        } else {
          // One JVM for many cases: a line each, "ALGO REGIONS [FIRST LAST]".
          int i = 0;
          for (String line : stdinLines()) {
            String[] f = line.trim().split(" ");
            for (byte[] point : regionSplits(f[0], Integer.parseInt(f[1]),
                f.length > 2 ? f[2] : null, f.length > 3 ? f[3] : null)) {
              out.println("SPLIT " + i + " " + Bytes.toHex(point));
            }
            i++;
          }
        }
        break;
      }
      case "write-recipes":
        try (Connection c = connect(opts)) {
          int n = Integer.parseInt(opts.get("--rows").get(0));
          out.println("WROTE " + writeRecipes(c, table(opts), opts.get("--layout").get(0), n));
        }
        break;
      case "write-java-cells":
        try (Connection c = connect(opts); Table t = c.getTable(table(opts))) {
          t.put(new Put(Bytes.toBytes("java-long")).addColumn(FAMILY, QUALIFIER, Bytes.toBytes(42L)));
          t.put(new Put(Bytes.toBytes("java-string"))
              .addColumn(FAMILY, QUALIFIER, Bytes.toBytes("héllo, hbase")));
          for (int i = 0; i < 3; i++) {
            t.increment(new Increment(Bytes.toBytes("java-counter")).addColumn(FAMILY, QUALIFIER, 5));
          }
          out.println("WROTE 3");
        }
        break;
      case "hfile":
        for (String file : opts.get("--file")) {
          out.println("FILE " + file);
          hfile(file, out);
        }
        break;
      case "bench":
        try (Connection c = connect(opts)) {
          int gets = opts.containsKey("--gets") ? Integer.parseInt(opts.get("--gets").get(0)) : 0;
          int rounds =
              opts.containsKey("--rounds") ? Integer.parseInt(opts.get("--rounds").get(0)) : 1;
          int warmup =
              opts.containsKey("--warmup") ? Integer.parseInt(opts.get("--warmup").get(0)) : 0;
          bench(c, opts.get("--table").get(0), opts.get("--keys").get(0), gets, rounds, warmup,
              out);
        }
        break;
      default:
        usage();
    }
    out.flush();
    // HBase's client leaves non-daemon threads behind.
    System.exit(0);
  }

  /** Reads an HFile with HBase's reader and its pretty printer (see the class comment). */
  private static void hfile(String file, PrintStream out) throws Exception {
    Configuration conf = HBaseConfiguration.create();
    org.apache.hadoop.fs.Path path = new org.apache.hadoop.fs.Path(file);
    org.apache.hadoop.fs.FileSystem fs = org.apache.hadoop.fs.FileSystem.getLocal(conf);
    java.security.MessageDigest sha = java.security.MessageDigest.getInstance("SHA-256");
    long cells = 0;
    byte[] first = null;
    byte[] last = null;
    long entries;
    List<byte[]> rows = new ArrayList<>();
    List<Cell> sampled = new ArrayList<>();
    String bloomLine = "BLOOM none";
    String seekLine = "SEEK 0 0 -";
    try (org.apache.hadoop.hbase.io.hfile.HFile.Reader reader =
        org.apache.hadoop.hbase.io.hfile.HFile.createReader(fs, path,
            // A block cache, as a store file has: without one, each Bloom filter check
            // read and decompressed its 128 KiB chunk again (minutes for a test's files).
            new org.apache.hadoop.hbase.io.hfile.CacheConfig(conf,
                new org.apache.hadoop.hbase.io.hfile.LruBlockCache(256L << 20, 64 << 10)),
            true, conf)) {
      entries = reader.getTrailer().getEntryCount();
      // HBase 2.5 and later take the configuration first; 2.4 does not.
      org.apache.hadoop.hbase.io.hfile.HFileScanner scanner;
      Class<org.apache.hadoop.hbase.io.hfile.HFile.Reader> api =
          org.apache.hadoop.hbase.io.hfile.HFile.Reader.class;
      try {
        scanner = (org.apache.hadoop.hbase.io.hfile.HFileScanner) api
            .getMethod("getScanner", Configuration.class, boolean.class, boolean.class)
            .invoke(reader, conf, false, false);
      } catch (NoSuchMethodException e) {
        scanner = (org.apache.hadoop.hbase.io.hfile.HFileScanner) api
            .getMethod("getScanner", boolean.class, boolean.class)
            .invoke(reader, false, false);
      }
      if (scanner.seekTo()) {
        do {
          Cell c = scanner.getCell();
          byte[] row = CellUtil.cloneRow(c);
          if (first == null) {
            first = row;
          }
          if (last == null || !Bytes.equals(last, row)) {
            rows.add(row);
          }
          last = row;
          for (byte[] part : new byte[][] {row, CellUtil.cloneFamily(c), CellUtil.cloneQualifier(c)}) {
            sha.update(Bytes.toBytes(part.length));
            sha.update(part);
          }
          sha.update(Bytes.toBytes(c.getTimestamp()));
          sha.update(c.getTypeByte());
          byte[] value = CellUtil.cloneValue(c);
          sha.update(Bytes.toBytes(value.length));
          sha.update(value);
          if (cells % 37 == 0) {
            sampled.add(org.apache.hadoop.hbase.KeyValueUtil.copyToNewKeyValue(c));
          }
          cells++;
        } while (scanner.next());
      }
      // Seeks through the block index (every level of it) to every 37th cell, and the mid key
      // HBase splits a region at.
      if (cells > 0) {
        long exact = 0;
        for (Cell want : sampled) {
          if (scanner.seekTo(want) == 0 && CellUtil.equals(scanner.getCell(), want)
              && CellUtil.matchingValue(scanner.getCell(), want)) {
            exact++;
          }
        }
        Cell mid = reader.midKey().orElse(null);
        seekLine = "SEEK " + sampled.size() + " " + exact + " "
            + (mid == null ? "-" : Bytes.toHex(CellUtil.cloneRow(mid)));
      }
      // The row Bloom filter, read as a store file reads it: every row must pass; rows not in
      // the file (each row with a byte appended) pass at the filter's error rate.
      java.io.DataInput meta = reader.getGeneralBloomFilterMetadata();
      if (meta != null) {
        org.apache.hadoop.hbase.util.BloomFilter bloom =
            org.apache.hadoop.hbase.util.BloomFilterFactory.createFromMeta(meta, reader);
        long passed = 0;
        long absentPassed = 0;
        for (byte[] row : rows) {
          if (bloom.contains(row, 0, row.length, null)) {
            passed++;
          }
          byte[] other = Arrays.copyOf(row, row.length + 1);
          other[row.length] = (byte) 0x5a;
          if (bloom.contains(other, 0, other.length, null)) {
            absentPassed++;
          }
        }
        bloomLine = "BLOOM " + rows.size() + " " + passed + " " + absentPassed + " "
            + Bytes.toString(reader.getHFileInfo().get(Bytes.toBytes("BLOOM_FILTER_TYPE")));
      }
    }
    out.println("HFILE " + cells + " " + Bytes.toHex(sha.digest()) + " "
        + (first == null ? "-" : Bytes.toHex(first)) + " "
        + (last == null ? "-" : Bytes.toHex(last)) + " " + entries);
    out.println(bloomLine);
    out.println(seekLine);
    java.io.ByteArrayOutputStream report = new java.io.ByteArrayOutputStream();
    PrintStream to = new PrintStream(report, true, StandardCharsets.UTF_8);
    org.apache.hadoop.hbase.io.hfile.HFilePrettyPrinter printer =
        new org.apache.hadoop.hbase.io.hfile.HFilePrettyPrinter(conf);
    printer.setPrintStreams(to, to);
    int status = printer.run(new String[] {"-k", "-m", "-v", "-f", file});
    for (String line : report.toString(StandardCharsets.UTF_8).split("\n")) {
      out.println("PP " + line);
    }
    out.println("PP status " + status);
  }

  private static void usage() {
    System.err.println("usage: Tool (region-writes|dump|cells|write-java-cells|binary|reverse-ts|bench)"
        + " [--zk HOST:PORT] [--table T]...; see Tool.java");
    System.exit(2);
  }

  private static List<String> stdinLines() throws IOException {
    List<String> lines = new ArrayList<>();
    BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (!line.isBlank()) {
        lines.add(line.trim());
      }
    }
    return lines;
  }

  /** The seed documents' keys, built as their Java code builds them. */
  private static int writeRecipes(Connection c, TableName name, String layout, int n)
      throws IOException {
    String[] apps = {"", "mail", "a\u0000b", "\ud83d\ude00maps", "news"};
    try (BufferedMutator m = c.getBufferedMutator(name)) {
      for (int i = 0; i < n; i++) {
        byte[] key;
        switch (layout) {
          case "flurry":
          case "flurry-signed": {
            java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
            java.io.DataOutputStream data = new java.io.DataOutputStream(bytes);
            long user = layout.equals("flurry") ? i / 5 : i / 5 - n / 10;
            data.writeLong(user);
            data.writeUTF(apps[i % 5]);
            data.flush();
            key = bytes.toByteArray();
            break;
          }
          case "concat":
            key = Bytes.add(Bytes.toBytes(i % 7 - 3), Bytes.toBytes(31L * i - n),
                Bytes.toBytes("user_" + i));
            break;
          case "text":
            key = Bytes.toBytes(String.format("%06d:%06d:%d", 230601 + i % 30, i * 37 % 240000, i));
            break;
          case "salted":
            key = Bytes.toBytes(
                org.apache.hadoop.hbase.util.MD5Hash.getMD5AsHex(Bytes.toBytes(Long.toString(i)))
                    .toUpperCase()
                + ":" + String.format("%06d:%06d:%d", 230601 + i % 30, i * 37 % 240000, i));
            break;
          case "user-ts":
            key = Bytes.toBytes("u" + (i % 1000) + "_" + (1700000000000L + i));
            break;
          case "reversed": {
            String phone = "138" + String.format("%08d", i % 5000);
            key = Bytes.toBytes(new StringBuilder(phone).reverse() + "|"
                + String.format("%019d", Long.MAX_VALUE - (1700000000000L + i)));
            break;
          }
          default:
            throw new IllegalArgumentException("unknown layout " + layout);
        }
        m.mutate(new Put(key).addColumn(FAMILY, QUALIFIER, Bytes.toBytes((long) i)));
      }
    }
    return n;
  }

  private static TableName table(Map<String, List<String>> opts) {
    return TableName.valueOf(opts.get("--table").get(0));
  }

  private static Connection connect(Map<String, List<String>> opts) throws IOException {
    String zk = opts.get("--zk").get(0);
    int colon = zk.lastIndexOf(':');
    Configuration conf = HBaseConfiguration.create();
    conf.set("hbase.zookeeper.quorum", zk.substring(0, colon));
    conf.set("hbase.zookeeper.property.clientPort", zk.substring(colon + 1));
    // Through ZooKeeper on every version: HBase 3.0's client otherwise asks the masters at
    // their default port (its default registry is the masters').
    conf.set("hbase.client.registry.impl", "org.apache.hadoop.hbase.client.ZKConnectionRegistry");
    // A Kerberized cluster (--principal P --keytab F --krb5-conf F --server-principal S): log
    // in from the keytab, as a service using HBase's Java client does.
    if (opts.containsKey("--keytab")) {
      System.setProperty("java.security.krb5.conf", opts.get("--krb5-conf").get(0));
      String server = opts.get("--server-principal").get(0);
      conf.set("hadoop.security.authentication", "kerberos");
      conf.set("hbase.security.authentication", "kerberos");
      conf.set("hbase.master.kerberos.principal", server);
      conf.set("hbase.regionserver.kerberos.principal", server);
      org.apache.hadoop.security.UserGroupInformation.setConfiguration(conf);
      org.apache.hadoop.security.UserGroupInformation.loginUserFromKeytab(
          opts.get("--principal").get(0), opts.get("--keytab").get(0));
    }
    return ConnectionFactory.createConnection(conf);
  }

  /** Each region's request counters as the region servers last reported them to the master. */
  private static void regionWrites(Connection c, List<String> tables, PrintStream out)
      throws IOException {
    try (Admin admin = c.getAdmin()) {
      ClusterMetrics cluster = admin.getClusterMetrics();
      Map<String, RegionMetrics> metrics = new HashMap<>();
      Map<String, ServerName> servers = new HashMap<>();
      for (Map.Entry<ServerName, ServerMetrics> e : cluster.getLiveServerMetrics().entrySet()) {
        for (RegionMetrics m : e.getValue().getRegionMetrics().values()) {
          metrics.put(Bytes.toStringBinary(m.getRegionName()), m);
          servers.put(Bytes.toStringBinary(m.getRegionName()), e.getKey());
        }
      }
      for (String t : tables) {
        for (RegionInfo r : admin.getRegions(TableName.valueOf(t))) {
          String name = Bytes.toStringBinary(r.getRegionName());
          RegionMetrics m = metrics.get(name);
          ServerName s = servers.get(name);
          out.println("REGION " + t + " " + hex(r.getStartKey()) + " " + hex(r.getEndKey()) + " "
              + (s == null ? "-" : s.getHostname() + ":" + s.getPort()) + " "
              + (m == null ? -1 : m.getWriteRequestCount()) + " "
              + (m == null ? -1 : m.getReadRequestCount()));
        }
      }
    }
  }

  private static String hex(byte[] b) {
    return b.length == 0 ? "-" : Bytes.toHex(b);
  }

  private static void bench(Connection c, String table, String keysFile, int gets, int rounds,
      int warmup, PrintStream out) throws IOException {
    List<byte[]> splits = new ArrayList<>();
    for (String line : stdinLines()) {
      splits.add(Bytes.fromHex(line));
    }
    List<byte[]> keys = new ArrayList<>();
    for (String line : java.nio.file.Files.readAllLines(java.nio.file.Path.of(keysFile))) {
      if (!line.isBlank()) {
        keys.add(Bytes.fromHex(line.trim()));
      }
    }
    for (int round = warmup > 0 ? 0 : 1; round <= rounds; round++) {
      // Round 0 warms this JVM up on the first `warmup` keys and is not reported.
      List<byte[]> these = round == 0 ? keys.subList(0, Math.min(warmup, keys.size())) : keys;
      TableName name = TableName.valueOf(table + "_" + round);
      try (Admin admin = c.getAdmin()) {
        TableDescriptorBuilder d = TableDescriptorBuilder.newBuilder(name).setColumnFamily(
            ColumnFamilyDescriptorBuilder.newBuilder(FAMILY).setMaxVersions(1).build());
        if (splits.isEmpty()) {
          admin.createTable(d.build());
        } else {
          admin.createTable(d.build(), splits.toArray(new byte[0][]));
        }
      }
      byte[] value = new byte[16];
      java.util.Arrays.fill(value, (byte) 7);
      long t0 = System.nanoTime();
      try (BufferedMutator m = c.getBufferedMutator(
          new BufferedMutatorParams(name).writeBufferSize(4L << 20))) {
        for (byte[] k : these) {
          m.mutate(new Put(k).addColumn(FAMILY, QUALIFIER, value));
        }
      }
      double putSecs = (System.nanoTime() - t0) / 1e9;
      long t1 = System.nanoTime();
      long n = 0;
      try (Table t = c.getTable(name);
          ResultScanner s =
              t.getScanner(new Scan().addColumn(FAMILY, QUALIFIER).setCaching(5000))) {
        for (Result r : s) {
          if (r.getRow().length > 0) {
            n++;
          }
        }
      }
      double scanSecs = (System.nanoTime() - t1) / 1e9;
      double getsPerSec = 0;
      if (gets > 0 && round > 0) {
        int step = Math.max(1, keys.size() / gets);
        int found = 0;
        long t2 = System.nanoTime();
        try (Table t = c.getTable(name)) {
          for (int i = 0; i < gets; i++) {
            Result r = t.get(new Get(keys.get((i * step) % keys.size())).addColumn(FAMILY, QUALIFIER));
            if (!r.isEmpty()) {
              found++;
            }
          }
        }
        getsPerSec = gets / ((System.nanoTime() - t2) / 1e9);
        if (found != gets) {
          throw new IOException("bench: " + (gets - found) + " of " + gets + " gets found nothing");
        }
      }
      if (round > 0) {
        out.printf("BENCH %d %d %.0f %.0f %.0f%n", round, n, keys.size() / putSecs,
            n / scanSecs, getsPerSec);
        out.flush();
      }
      // Dropped, as the Rust side drops its tables: the local HBase's heap holds the rest.
      try (Admin admin = c.getAdmin()) {
        admin.disableTable(name);
        admin.deleteTable(name);
      }
    }
  }
}
