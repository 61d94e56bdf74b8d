// The rendered registry configuration: loopback only, storage where the bed says, JSON logs.
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { renderRegistryConfig } from './registry.js';

describe('renderRegistryConfig', () => {
  it('listens on 127.0.0.1 alone, keeps its blobs in the given directory and logs JSON lines', () => {
    expect(parse(renderRegistryConfig({ port: 5123, storageDir: '/bed/registry/storage' }))).toEqual({
      version: '0.1',
      log: { level: 'info', formatter: 'json' },
      storage: { filesystem: { rootdirectory: '/bed/registry/storage' } },
      http: { addr: '127.0.0.1:5123' },
    });
  });
});
