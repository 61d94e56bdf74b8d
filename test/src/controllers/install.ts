// The two ways our controllers are installed, and which Deployments (deploy/<name>) each one is made of.
import { CONTROLLER_NAMES, type ControllerName, type ImageName } from '../bed/controller-images.js';

/** How the controllers are installed: the manager running them in one Deployment, or a Deployment each. */
export type ControllerInstall = 'combined' | 'separate';
/** What `npm start`, deploy/kustomization.yaml and the chart install (docs/operations.md says why). */
export const DEFAULT_INSTALL: ControllerInstall = 'combined';

/** The Deployments (deploy/<name>) of an install. */
export function installedDeployments(install: ControllerInstall): (ControllerName | 'manager')[] {
  return install === 'combined' ? ['manager'] : [...CONTROLLER_NAMES];
}

/** The Deployment that runs `controller` in an install. */
export function deploymentRunning(controller: ControllerName, install: ControllerInstall): ControllerName | 'manager' {
  return install === 'combined' ? 'manager' : controller;
}

/** The images an install runs: its Deployments', and the console's. */
export function installedImages(install: ControllerInstall): ImageName[] {
  return [...installedDeployments(install), 'console'];
}
