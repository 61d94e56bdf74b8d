// A logical dump of an ensemble's persistent znodes, consistent at one zxid.
export { judge, judgeNew, type Judgement, type Sighting } from './consistency.js';
export { ConcurrentChangesError, dumpTree, type TreeDump } from './dump.js';
export type { DumpedZnode, DumpSink } from './read-tree.js';
