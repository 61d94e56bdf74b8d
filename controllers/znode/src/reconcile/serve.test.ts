import { describe, expect, it } from 'vitest';
import { pathEvent } from './serve.js';

const unseen = { created: false, aclChanged: false, known: false };

describe('the path step as an Event', () => {
  it('says the path was created, naming whom its ACL lets in', () => {
    expect(pathEvent('/kafka', { ...unseen, created: true }, 'sasl:znode-1')).toMatchObject({ reason: 'PathCreated', note: 'created /kafka, for sasl:znode-1 alone' });
  });

  it('says an ACL was set back, even on a path the status knew', () => {
    expect(pathEvent('/kafka', { ...unseen, aclChanged: true, known: true }, undefined)).toMatchObject({ reason: 'AclRestored', type: 'Normal' });
  });

  it('says a path found with the tenant’s ACL before the status knew it, as after a create whose reply was lost', () => {
    expect(pathEvent('/kafka', unseen, 'sasl:znode-1')).toMatchObject({ reason: 'PathFound', note: "found /kafka already there with the tenant's ACL, for sasl:znode-1 alone" });
  });

  it('says nothing of a path the status already knew, with its ACL as it should be', () => {
    expect(pathEvent('/kafka', { ...unseen, known: true }, 'sasl:znode-1')).toBeUndefined();
  });
});
