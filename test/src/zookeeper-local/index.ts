// Runs real ZooKeeper ensembles locally, without Kubernetes, for tests of the ZooKeeper package.
export {
  startLocalEnsemble,
  type LocalEnsemble,
  type LocalEnsembleOptions,
  type LocalMember,
} from './ensemble.js';
export { MemberNotServingError } from './wait.js';
