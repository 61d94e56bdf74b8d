import { describe, expect, it } from 'vitest';
import { withJvmArchive } from './jvm-archive.js';

describe('withJvmArchive', () => {
  it("mounts the archive's directory and puts the bed's JVM options before the pod's own", () => {
    const run = withJvmArchive({ env: { JDK_JAVA_OPTIONS: '-Xmx1g', POD_NAME: 'zk-0' }, mounts: [] }, '/root/.cache/zk-oam/jvm-cds/zookeeper-image-abc.jsa');
    expect(run.env).toEqual({
      POD_NAME: 'zk-0',
      JDK_JAVA_OPTIONS: '-XX:TieredStopAtLevel=1 -XX:SharedArchiveFile=/zk-oam-jvm-cds/zookeeper-image-abc.jsa -Xlog:cds*=off -Xlog:cds*=warning:stderr -Xmx1g',
    });
    expect(run.mounts).toEqual([{ source: '/root/.cache/zk-oam/jvm-cds', destination: '/zk-oam-jvm-cds', readOnly: true }]);
  });
});
