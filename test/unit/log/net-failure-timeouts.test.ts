import assert from 'node:assert/strict';
import { test } from 'node:test';
import { REST } from 'discord.js';
import { Api } from 'grammy';
import { ImapFlow } from 'imapflow';
import { pino } from 'pino';
import { classifyImapError } from '../../../adapters/email/imap-client.js';
import { emailSchema } from '../../../adapters/email/config-schema.js';
import { failureLog } from '../../../src/util/net-failure.js';
import { blackHole } from '../../helpers/black-hole.js';

test("grammy's request timeout (a plain Error in its HttpError) is one line with the cause, no stack", async () => {
  const hole = await blackHole();
  try {
    const api = new Api('123:abc', { apiRoot: `http://127.0.0.1:${hole.port}`, timeoutSeconds: 1 });
    const error = await api.getMe().then(() => undefined, (e: unknown) => e);
    const log = failureLog({ error, msg: 'adapter failed', logger: pino({ level: 'info' }) });
    assert.equal(log.fields.cause, 'timed out');
    assert.equal(log.fields.err, undefined, 'the error (and its stack) went into the line');
    assert.equal(log.msg, 'adapter failed: timed out');
    assert.match(log.text, /^Network request for 'getMe' failed!.*timed out/);
  } finally {
    await hole.close();
  }
});

test('an IMAP server that sends no greeting in time: one line naming the server, no stack', async () => {
  const hole = await blackHole();
  try {
    const config = emailSchema.parse({ enabled: true, address: 'bot@example.com', imap_host: '127.0.0.1', imap_port: hole.port, imap_tls: false, smtp_host: '127.0.0.1', username: 'bot', password: 'pw' });
    // As createImapClient makes it, with a greeting timeout a test can wait for.
    const client = new ImapFlow({ host: '127.0.0.1', port: hole.port, secure: false, doSTARTTLS: false, auth: { user: 'bot', pass: 'pw' }, logger: false, greetingTimeout: 300 });
    client.on('error', () => undefined);
    const raw = await client.connect().then(() => undefined, (e: unknown) => e);
    const error = classifyImapError({ error: raw, config, host: '127.0.0.1' });
    const log = failureLog({ error, msg: 'adapter failed', logger: pino({ level: 'info' }) });
    assert.equal(log.fields.cause, `no greeting from the server in time 127.0.0.1:${hole.port}`);
    assert.equal(log.fields.err, undefined, 'the error (and its stack) went into the line');
    // A connect timeout and a silent socket read the same way.
    for (const code of ['CONNECT_TIMEOUT', 'ETIMEOUT']) {
      const timedOut = classifyImapError({ error: Object.assign(new Error('Socket timeout'), { code }), config, host: 'imap.example.com' });
      assert.equal(failureLog({ error: timedOut, msg: 'x', logger: pino({ level: 'info' }) }).fields.cause, `connection timed out imap.example.com:${hole.port}`);
    }
  } finally {
    await hole.close();
  }
});

test("discord.js REST's own deadline (it aborts the request: an AbortError) is one line with the cause, no stack", async () => {
  const hole = await blackHole();
  try {
    const rest = new REST({ api: `http://127.0.0.1:${hole.port}/api`, timeout: 300, retries: 0 }).setToken('MTAw.test.token');
    const error = await rest.get('/gateway/bot').then(() => undefined, (e: unknown) => e);
    assert.equal((error as { name?: string }).name, 'AbortError');
    const log = failureLog({ error, msg: 'adapter failed', logger: pino({ level: 'info' }) });
    assert.equal(log.fields.cause, 'timed out');
    assert.equal(log.fields.err, undefined, 'the error (and its stack) went into the line');
    assert.equal(log.text, 'This operation was aborted (timed out)');
  } finally {
    await hole.close();
  }
});
