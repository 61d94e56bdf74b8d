// Asking over NATS never throws at the asker: every way of getting no usable reply is an outcome that says why.
import { NoRespondersError, RequestError, TimeoutError } from '@nats-io/nats-core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { requestReply, type Asker } from './request-reply.js';

const reply = z.object({ answer: z.number().int() });
const ask = { subject: 'zkoam.v1.test', body: { question: 1 }, reply, timeoutMs: 1_000 };

const answering = (payload: () => unknown): Asker => ({ request: () => Promise.resolve({ json: <T>() => payload() as T }) });
const failing = (error: Error): Asker => ({ request: () => Promise.reject(error) });

describe('requestReply', () => {
  it('gives the reply parsed with its schema', async () => {
    expect(await requestReply(answering(() => ({ answer: 42, extra: true })), ask)).toEqual({ ok: true, reply: { answer: 42 } });
  });

  it('says so while NATS is not connected', async () => {
    expect(await requestReply(undefined, ask)).toMatchObject({ ok: false, failure: 'not_connected' });
  });

  it('refuses a reply that does not match the schema, and one that is not JSON', async () => {
    expect(await requestReply(answering(() => ({ answer: 'many' })), ask)).toMatchObject({ ok: false, failure: 'invalid_reply' });
    const notJson = answering(() => {
      throw new SyntaxError('Unexpected token');
    });
    expect(await requestReply(notJson, ask)).toEqual({ ok: false, failure: 'invalid_reply', message: 'the reply is not JSON' });
  });

  it('tells no responder from no reply in time', async () => {
    const noResponders = new RequestError('no responders', { cause: new NoRespondersError('zkoam.v1.test') });
    expect(await requestReply(failing(noResponders), ask)).toMatchObject({ ok: false, failure: 'no_responder' });
    expect(await requestReply(failing(new TimeoutError()), ask)).toEqual({ ok: false, failure: 'timeout', message: 'no reply within 1000 ms' });
  });
});
