// Fakes, named as such: the images the specs of oam-kubernetes-runtime's e2e suite put in their workloads (WordPress)
// cannot run on the bed, and the specs need only a container that starts and stays up (a Deployment with ready
// replicas). The bed's node agent runs each of them as an idle Node process.

const E2E_SUITE_IMAGES = ['wordpress:4.6.1-apache', 'wordpress:php7.2'] as const;

/** image -> host command, for the agent's --images file. */
export function oamE2eImageStandIns(nodeExecutable = process.execPath): Record<string, string[]> {
  const idle = [nodeExecutable, '-e', 'setInterval(() => {}, 1 << 30)'];
  return Object.fromEntries(E2E_SUITE_IMAGES.map((image) => [image, idle]));
}
