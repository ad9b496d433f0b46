import assert from 'node:assert/strict';
import net from 'node:net';
import { test } from 'node:test';
import { pino } from 'pino';
import { runImapSession } from '../../../adapters/email/imap-session.js';
import { emailSchema } from '../../../adapters/email/config-schema.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { memoryStorage } from './memory-storage.js';

/**
 * An IMAP server that logs anyone in and then never answers SELECT (a server that hangs mid-session).
 * Resolves with its port, a promise for the first SELECT, and a close function.
 */
async function hangingImapServer(): Promise<{ port: number; selected: Promise<void>; close: () => Promise<void> }> {
  let onSelect: () => void = () => undefined;
  const selected = new Promise<void>((resolve) => (onSelect = resolve));
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.write('* OK [CAPABILITY IMAP4rev1 AUTH=PLAIN IDLE] ready\r\n');
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n'); end !== -1; end = buffered.indexOf('\r\n')) {
        const [tag = '*', command = ''] = buffered.slice(0, end).split(' ');
        buffered = buffered.slice(end + 2);
        const verb = command.toUpperCase();
        if (verb === 'SELECT' || verb === 'EXAMINE') onSelect();
        else if (verb === 'CAPABILITY') socket.write(`* CAPABILITY IMAP4rev1 AUTH=PLAIN IDLE\r\n${tag} OK done\r\n`);
        else if (verb === 'LOGOUT') socket.end(`* BYE\r\n${tag} OK bye\r\n`);
        else socket.write(`${tag} OK done\r\n`);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address !== null && typeof address === 'object');
  return {
    port: address.port,
    selected,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

test('a stop while the IMAP server hangs on a command ends the session after a short grace, not the socket timeout', { timeout: 10_000 }, async () => {
  const server = await hangingImapServer();
  const clock = new FakeClock();
  const controller = new AbortController();
  try {
    const config = emailSchema.parse({
      enabled: true, imap_host: '127.0.0.1', imap_port: server.port, imap_tls: false, smtp_host: '127.0.0.1', smtp_tls: 'none',
      username: 'bot', password: 'pw', address: 'bot@example.com',
    });
    let ended = false;
    const session = runImapSession({
      config,
      account: { imapHost: '127.0.0.1', smtpHost: '127.0.0.1', username: 'bot', password: 'pw', address: 'bot@example.com' },
      storage: memoryStorage(),
      clock,
      logger: pino({ level: 'silent' }),
      signal: controller.signal,
      report: () => undefined,
      maxSourceBytes: 1024 * 1024,
      handle: async () => undefined,
      onConnected: async () => undefined,
      onDisconnected: () => undefined,
    }).finally(() => (ended = true));
    await server.selected;
    controller.abort();
    await clock.advance(500);
    assert.equal(ended, false, 'a running command gets a moment to finish');
    await clock.advance(600);
    await clock.advance(2000);
    await session;
    assert.ok(ended);
  } finally {
    controller.abort();
    await server.close();
  }
});
