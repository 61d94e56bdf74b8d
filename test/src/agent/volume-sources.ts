// Reads ConfigMaps, Secrets and bound claims from the apiserver for volumes and env, and asks TokenRequest for the
// pods' ServiceAccount tokens (the VolumeSourceReader).
import type { CoreV1Api } from '@kubernetes/client-node';
import { isNotFound } from './api-errors.js';
import type { VolumeSourceReader } from './volumes.js';

export class ClaimNotReadyError extends Error {
  constructor(claim: string, why: string) {
    super(`claim ${claim} ${why}`);
    this.name = 'ClaimNotReadyError';
  }
}

export function apiVolumeSources(core: CoreV1Api): VolumeSourceReader {
  return {
    async configMap(namespace, name) {
      const configMap = await orUndefined(core.readNamespacedConfigMap({ namespace, name }));
      if (configMap === undefined) return undefined;
      const text = Object.entries(configMap.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'utf8')] as const);
      const binary = Object.entries(configMap.binaryData ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64')] as const);
      return Object.fromEntries([...text, ...binary]);
    },
    async secret(namespace, name) {
      const secret = await orUndefined(core.readNamespacedSecret({ namespace, name }));
      if (secret === undefined) return undefined;
      return Object.fromEntries(Object.entries(secret.data ?? {}).map(([key, value]) => [key, Buffer.from(value, 'base64')]));
    },
    async serviceAccountToken({ namespace, serviceAccount, pod, audience, expirationSeconds }) {
      const answer = await core.createNamespacedServiceAccountToken({
        namespace,
        name: serviceAccount,
        body: {
          spec: {
            audiences: audience === undefined ? [] : [audience],
            expirationSeconds,
            boundObjectRef: { apiVersion: 'v1', kind: 'Pod', name: pod.name, uid: pod.uid },
          },
        },
      });
      const { token, expirationTimestamp } = answer.status ?? {};
      if (token === undefined || expirationTimestamp === undefined) {
        throw new Error(`TokenRequest for ServiceAccount ${namespace}/${serviceAccount} answered without a token`);
      }
      return { token, expiresAt: new Date(expirationTimestamp) };
    },
    async claimDirectory(namespace, claimName) {
      const claim = await core.readNamespacedPersistentVolumeClaim({ namespace, name: claimName });
      const volumeName = claim.spec?.volumeName;
      if (!volumeName) {
        throw new ClaimNotReadyError(`${namespace}/${claimName}`, 'is not bound yet');
      }
      const volume = await core.readPersistentVolume({ name: volumeName });
      const path = volume.spec?.hostPath?.path;
      if (path === undefined) {
        throw new ClaimNotReadyError(`${namespace}/${claimName}`, `is bound to ${volumeName}, which is not a hostPath volume`);
      }
      return path;
    },
  };
}

async function orUndefined<T>(read: Promise<T>): Promise<T | undefined> {
  try {
    return await read;
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}
