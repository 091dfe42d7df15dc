package dev.rowkey.hbase;

import java.util.TimerTask;

/**
 * What a region server does when its abort takes longer than
 * {@code hbase.regionserver.abort.timeout}: HBase's default task exits the JVM, which in a mini
 * cluster is every server at once (an aborted test server left lingering would take the whole
 * local HBase down 20 minutes after a crash test). This one only says so.
 */
public final class NoExitOnAbortTimeout extends TimerTask {
  @Override
  public void run() {
    System.err.println("a region server's abort timed out; the local HBase keeps running");
  }
}
