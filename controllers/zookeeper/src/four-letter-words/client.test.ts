// The TCP exchange of a four-letter word: answer to EOF, refusal, timeout, typed refusals.
import { createServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { fourLetterWord } from './client.js';
import { FourLetterWordConnectionError, NotServingError } from './errors.js';

/** A stand-in server on 127.0.0.1; half-open like ZooKeeper, so it closes only when `answer` says so. */
async function serve(answer: (word: string, socket: Socket) => void): Promise<StandIn> {
  const sockets = new Set<Socket>();
  const server = createServer({ allowHalfOpen: true }, (socket) => {
    sockets.add(socket);
    socket.once('data', (data: Buffer) => answer(data.toString('utf8'), socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') {
    throw new Error('no TCP address');
  }
  const close = (): Promise<void> => {
    sockets.forEach((socket) => socket.destroy());
    return new Promise((resolve) => server.close(() => resolve()));
  };
  return { port: address.port, close };
}

interface StandIn {
  port: number;
  close(): Promise<void>;
}

describe('fourLetterWord', () => {
  const standIns: StandIn[] = [];
  afterEach(async () => {
    await Promise.all(standIns.splice(0).map((standIn) => standIn.close()));
  });

  it('sends the word and reads the answer to the end', async () => {
    const standIn = await serve((word, socket) => socket.end(`you said ${word}\n`));
    standIns.push(standIn);
    await expect(fourLetterWord('127.0.0.1', standIn.port, 'srvr')).resolves.toBe('you said srvr\n');
  });

  it('reports a refused connection as a connection error', async () => {
    const { port, close } = await serve(() => undefined);
    await close();
    await expect(fourLetterWord('127.0.0.1', port, 'srvr')).rejects.toThrow(FourLetterWordConnectionError);
  });

  it('gives up after the timeout when the server never closes', async () => {
    const standIn = await serve(() => undefined);
    standIns.push(standIn);
    await expect(fourLetterWord('127.0.0.1', standIn.port, 'srvr', { timeoutMs: 300 })).rejects.toThrow(/within 300 ms/);
  });

  it('turns the not-serving text into a typed error', async () => {
    const standIn = await serve((_word, socket) =>
      socket.end('This ZooKeeper instance is not currently serving requests\n'),
    );
    standIns.push(standIn);
    await expect(fourLetterWord('127.0.0.1', standIn.port, 'mntr')).rejects.toThrow(NotServingError);
  });
});
