// A client writing with ZooKeeper's own Java client, over TLS or plain (the Node binding has no TLS, and resolves no
// cluster names): the counterpart of continuous-writer.ts. `write <connect> <root>` creates <root>/w-<n> one after another and prints `ACK <path> <ms>`
// for each write ZooKeeper acknowledged, `FAIL <path> <error>` for one whose outcome is unknown, until it is killed.
// `list <connect> <root>` prints `HAS <child>` for every child, so the caller can tell an acknowledged write that is lost.
// The TLS settings come as system properties (zookeeper.client.secure, the PEM trust store), as zkCli takes them.
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

public class JavaWriter {
  private static final int SESSION_TIMEOUT_MS = 15_000;

  public static void main(String[] args) throws Exception {
    String mode = args[0];
    String connect = args[1];
    String root = args[2];
    ZooKeeper zk = open(connect);
    if (mode.equals("list")) {
      for (String child : zk.getChildren(root, false)) say("HAS " + child);
      zk.close();
      return;
    }
    try {
      zk.create(root, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
    } catch (KeeperException.NodeExistsException exists) {
      // A writer started again on the same root continues it.
    }
    for (long n = 0; ; n++) {
      String path = String.format("%s/w-%010d", root, n);
      try {
        zk.create(path, new byte[0], ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.PERSISTENT);
        say("ACK " + path + " " + System.currentTimeMillis());
      } catch (KeeperException.SessionExpiredException expired) {
        say("FAIL " + path + " SessionExpired");
        zk.close();
        zk = open(connect);
      } catch (KeeperException failure) {
        say("FAIL " + path + " " + failure.code());
        Thread.sleep(100);
      }
      Thread.sleep(20);
    }
  }

  private static ZooKeeper open(String connect) throws Exception {
    CountDownLatch connected = new CountDownLatch(1);
    ZooKeeper zk = new ZooKeeper(connect, SESSION_TIMEOUT_MS, event -> {
      if (event.getState() == Watcher.Event.KeeperState.SyncConnected) connected.countDown();
    });
    if (!connected.await(60, TimeUnit.SECONDS)) throw new IllegalStateException("no session with " + connect + " within 60 s");
    say("SESSION");
    return zk;
  }

  private static void say(String line) {
    System.out.println(line);
    System.out.flush();
  }
}
