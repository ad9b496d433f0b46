import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { pino } from 'pino';
import { SCRUBBED_CURSOR, scrubStoredHistory } from '../../../src/gateway/sessions/history-scrub.js';
import { Redactor } from '../../../src/log/redact.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import type { Store } from '../../../src/store/types.js';
import { FakeClock } from '../../helpers/fake-clock.js';
import { makeEvent, makeTempDir } from './fixtures.js';

const secret = 'hsk_Q7vLm2Xp9Rt4Wz8Nc3Bd6Fg';
const logger = pino({ level: 'silent' });

/** A store with history written before `secret` was known: message, tool call, title, answered and pending inbox rows. */
function seeded(params: { dir: string; rows?: number }): { store: Store; dbPath: string; pendingId: number } {
  const dbPath = path.join(params.dir, 'state.db');
  const store = openStore({ path: dbPath, clock: new FakeClock() });
  const session = store.createSession({ key: 'k', title: `token ${secret}` });
  const done = store.recordInbound({ event: makeEvent({ messageId: 'done', text: `here: ${secret}` }), sessionKey: 'k' }).row.id;
  store.completeTurn({ inboxId: done });
  const pendingId = store.recordInbound({ event: makeEvent({ messageId: 'pending', text: `pending ${secret}` }), sessionKey: 'k' }).row.id;
  for (let i = 0; i < (params.rows ?? 1); i++) {
    store.appendMessage({ sessionId: session.id, role: 'assistant', content: `row ${i}: the key is ${secret}, base64 ${Buffer.from(secret).toString('base64')}` });
  }
  store.appendMessage({
    sessionId: session.id,
    role: 'assistant',
    content: 'calling',
    toolCalls: [{ id: 'c1', name: 'terminal', arguments: JSON.stringify({ command: `echo ${secret}` }) }],
  });
  return { store, dbPath, pendingId };
}

const redactor = new Redactor({ secrets: [secret] });
const scrub = (text: string): string => redactor.scrub(text);

test('history stored before a secret was known is scrubbed in batches: messages, FTS, tool calls, titles, answered inbox rows; no copy left in the files', async () => {
  const { dir, cleanup } = makeTempDir();
  const { store, dbPath, pendingId } = seeded({ dir, rows: 7 });
  try {
    assert.equal(store.search({ query: secret, limit: 10 }).length, 7, 'the FTS index holds the secret before');
    const result = await scrubStoredHistory({ store, secrets: redactor.secrets, scrub, logger, signal: new AbortController().signal, batchSize: 2 });
    assert.deepEqual(result, { kind: 'scrubbed', changed: 7 + 1 + 1 + 1 });
    const [session] = store.listSessions({ limit: 1 });
    assert.ok(session);
    assert.equal(session.title, 'token ***');
    const messages = store.history({ sessionId: session.id });
    for (const message of messages) {
      assert.ok(!redactor.contains(message.content), message.content);
      for (const call of message.toolCalls ?? []) {
        assert.ok(!call.arguments.includes(secret.slice(0, 8)), call.arguments);
        assert.doesNotThrow(() => JSON.parse(call.arguments), 'tool-call arguments stay JSON');
      }
    }
    assert.match(messages[0]?.content ?? '', /^row 0: the key is \*\*\*/);
    assert.equal(store.search({ query: secret, limit: 10 }).length, 0, 'the FTS index no longer finds it');
    assert.equal(store.search({ query: 'row', limit: 10 }).length, 7, 'the FTS index still finds the rest');
    const done = store.getInbound({ inboxId: 1 });
    assert.equal(done?.event.text, 'here: ***', 'an answered inbox row is scrubbed');
    assert.equal(store.getInbound({ inboxId: pendingId })?.event.text, `pending ${secret}`, 'a row still to be answered is replayed as it came');
    const cursor = store.getCursor({ name: SCRUBBED_CURSOR }) ?? '';
    assert.match(cursor, /^pbkdf2-sha256-1:[0-9a-f]{32}:[0-9a-f]{64}$/);
    // Only the pending inbox row (which a replay needs) may still hold it in the files: nothing in free pages or the WAL.
    store.completeTurn({ inboxId: pendingId });
    assert.equal((await scrubStoredHistory({ store, secrets: [...redactor.secrets, 'another-Secret-2468'], scrub, logger, signal: new AbortController().signal })).kind, 'scrubbed');
    for (const file of [dbPath, `${dbPath}-wal`]) {
      if (!existsSync(file)) continue;
      assert.ok(!readFileSync(file).includes(secret.slice(4, 16)), `${path.basename(file)} still holds a piece of the secret`);
    }
  } finally {
    store.close();
    cleanup();
  }
});

test('the scrub runs again only when the secret set changes, and records nothing when it is cut short', async () => {
  const { dir, cleanup } = makeTempDir();
  const { store } = seeded({ dir, rows: 3 });
  try {
    const aborted = new AbortController();
    aborted.abort();
    assert.deepEqual(await scrubStoredHistory({ store, secrets: redactor.secrets, scrub, logger, signal: aborted.signal }), { kind: 'aborted' });
    assert.equal(store.getCursor({ name: SCRUBBED_CURSOR }), undefined, 'an aborted scrub records no fingerprint');
    const signal = new AbortController().signal;
    assert.equal((await scrubStoredHistory({ store, secrets: redactor.secrets, scrub, logger, signal })).kind, 'scrubbed');
    assert.deepEqual(await scrubStoredHistory({ store, secrets: [...redactor.secrets].reverse(), scrub, logger, signal }), { kind: 'unchanged' });
    // A secret added later (a reload): rows stored meanwhile that hold it are scrubbed on the next run.
    const later = 'LATERsecret-9137-xyzw';
    const [session] = store.listSessions({ limit: 1 });
    assert.ok(session);
    store.appendMessage({ sessionId: session.id, role: 'user', content: `new value ${later}` });
    const more = new Redactor({ secrets: [secret, later] });
    assert.deepEqual(await scrubStoredHistory({ store, secrets: more.secrets, scrub: (t) => more.scrub(t), logger, signal }), { kind: 'scrubbed', changed: 1 });
    assert.equal(store.history({ sessionId: session.id }).at(-1)?.content, 'new value ***');
    const cursor = store.getCursor({ name: SCRUBBED_CURSOR }) ?? '';
    assert.ok(!cursor.includes(secret) && !cursor.includes(later), 'the fingerprint holds no secret');
  } finally {
    store.close();
    cleanup();
  }
});
