import { describe, expect, it } from 'vitest';
import { InvalidImageReferenceError, mirroredReference, parseImageReference } from './image-reference.js';

const digest = `sha256:${'ab'.repeat(32)}`;

describe('parseImageReference', () => {
  it.each([
    ['zookeeper:3.9.4', { domain: 'docker.io', path: 'library/zookeeper', selector: ':3.9.4' }],
    ['zookeeper', { domain: 'docker.io', path: 'library/zookeeper', selector: ':latest' }],
    ['bitnami/zookeeper:3.9', { domain: 'docker.io', path: 'bitnami/zookeeper', selector: ':3.9' }],
    ['docker.io/library/zookeeper:3.9.4-jre-17', { domain: 'docker.io', path: 'library/zookeeper', selector: ':3.9.4-jre-17' }],
    ['ghcr.io/zk-oam/workload:0.1.0', { domain: 'ghcr.io', path: 'zk-oam/workload', selector: ':0.1.0' }],
    ['localhost/zk-oam/zookeeper:bed-debian', { domain: 'localhost', path: 'zk-oam/zookeeper', selector: ':bed-debian' }],
    ['127.0.0.1:5000/mirror/zookeeper', { domain: '127.0.0.1:5000', path: 'mirror/zookeeper', selector: ':latest' }],
    [`zookeeper@${digest}`, { domain: 'docker.io', path: 'library/zookeeper', selector: `@${digest}` }],
    [`registry.example:443/zk/zookeeper:3.9@${digest}`, { domain: 'registry.example:443', path: 'zk/zookeeper', selector: `@${digest}` }],
  ])('%s', (reference, expected) => {
    expect(parseImageReference(reference)).toEqual(expected);
  });

  it.each([
    ['', 'is not a repository name'],
    ['Zookeeper:3.9', 'is not a repository name'],
    ['zookeeper:3.9:bad', 'is not a repository name'],
    ['zookeeper:-3', 'is not a tag'],
    ['zookeeper@sha256:abc', 'the digest is not'],
  ])('refuses %j, saying why', (reference, reason) => {
    expect(() => parseImageReference(reference)).toThrow(InvalidImageReferenceError);
    expect(() => parseImageReference(reference)).toThrow(reason);
  });
});

describe('mirroredReference', () => {
  it('keeps the path and the tag or digest, and changes only the host', () => {
    expect(mirroredReference('zookeeper:3.9.4', '127.0.0.1:41234')).toBe('127.0.0.1:41234/library/zookeeper:3.9.4');
    expect(mirroredReference('ghcr.io/zk-oam/scale:0.1.0', '127.0.0.1:41234')).toBe('127.0.0.1:41234/zk-oam/scale:0.1.0');
    expect(mirroredReference(`zookeeper@${digest}`, 'mirror:5000')).toBe(`mirror:5000/library/zookeeper@${digest}`);
  });
});
