import { describe, expect, it } from 'vitest';
import { withWatcherNoticesLast } from './zkcli.js';

describe("zkCli's output", () => {
  it("has the watcher's notices after the answer they split (as in a CI run of workload-x509)", () => {
    const printed = 'Connecting to zkx-0:2281\n\nWATCHER::\n[\nWatchedEvent state:SyncConnected type:None path:null\nalice]\n';
    expect(withWatcherNoticesLast(printed)).toBe('Connecting to zkx-0:2281\n[alice]\nWatchedEvent state:SyncConnected type:None path:null\n');
  });

  it('keeps every notice, in the order printed', () => {
    const printed = '\nWATCHER::\n\nWatchedEvent state:SyncConnected type:None path:null\n\nWATCHER::\n\nWatchedEvent state:AuthFailed type:None path:null\nAuthFailed\n';
    expect(withWatcherNoticesLast(printed)).toBe('AuthFailed\nWatchedEvent state:SyncConnected type:None path:null\nWatchedEvent state:AuthFailed type:None path:null\n');
  });

  it('keeps what the command printed when no notice came', () => {
    expect(withWatcherNoticesLast('Created /owned/alice\n')).toBe('Created /owned/alice\n');
  });
});
