import { describe, expect, it } from 'vitest';
import { processKind } from './process-kinds.js';

describe('processKind', () => {
  it('names the bed servers by their thread name or their command', () => {
    expect(processKind(12, 'kube-apiserver', [])).toBe('kube-apiserver');
    expect(processKind(13, 'kube-controller', ['/c/kube-controller-manager --kubeconfig=x'])).toBe('kube-controller-manager');
    expect(processKind(14, 'etcd', [])).toBe('etcd');
    // The bed's binaries sit in a directory whose name holds etcd's version.
    expect(processKind(15, 'kube-controller', ['/c/controlplane/k8s-v1.36.3-etcd-v3.6.8/kube-controller-manager --kubeconfig=x'])).toBe('kube-controller-manager');
    expect(processKind(16, 'kubectl', ['/c/controlplane/k8s-v1.36.3-etcd-v3.6.8/kubectl get pods'])).toBe('kubectl');
  });

  it('counts a member whose start.sh exec-ed java as a ZooKeeper member, whatever the JVM thread', () => {
    const member = ['bash /b/pods/ns_zk-0/volumes/config/start.sh', 'java -Xmx192m -cp /x org.apache.zookeeper.server.quorum.QuorumPeerMain /d/zoo.cfg'];
    expect(processKind(20, 'C1 CompilerThre', member)).toBe('java: ZooKeeper members (pods)');
    expect(processKind(20, 'java', member.slice(0, 1))).toBe('java: ZooKeeper members (pods)');
    expect(processKind(21, 'java', ['java -cp /x org.apache.zookeeper.client.FourLetterWordMain zk-1 2181 conf'])).toBe('java: FourLetterWordMain (start.sh asking peers)');
  });

  it('tells the shell of a probe from the member its start script became', () => {
    expect(processKind(30, 'bash', ['bash /b/pods/ns_zk-0/volumes/config/start.sh'])).toBe('shell tools (probes, scripts)');
  });

  it('tells node processes apart by what they run', () => {
    expect(processKind(40, 'node', ['node /r/controllers/rolling/dist/main.mjs'])).toBe('node: controllers and console');
    expect(processKind(41, 'node', ['node --import tsx /r/test/src/agent/main.ts --kubeconfig k'])).toBe('node: the node agent');
    expect(processKind(42, 'node', ['node /r/node_modules/vitest/dist/workers/forks.js'])).toBe('node: vitest (tests)');
    expect(processKind(43, 'node', [])).toBe('node: other');
  });

  it('keeps idle and unknown threads apart', () => {
    expect(processKind(0, 'swapper', [])).toBe('idle');
    expect(processKind(50, 'kworker/1:1H', [])).toBe('other: kworker/1:1H');
  });
});
