import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CapturedRequest } from '../fakes/openai/server.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { until } from '../helpers/converse.js';

const KEY_A = 'sk-e2e-key-aaaaaaaa1111';
const KEY_B = 'sk-e2e-key-bbbbbbbb2222';
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The key a request carried. */
function keyOf(req: CapturedRequest): string {
  return String(req.headers.authorization ?? '').replace(/^Bearer /, '');
}

/** Sends one message and moves the fake clock on (100 ms steps) until the gateway is idle; returns the last message shown. */
async function say(h: Harness, clock: FakeClock, text: string): Promise<string> {
  const before = h.adapter.shown().length;
  await h.adapter.inject({ text });
  let idle = false;
  const done = h.runner.waitIdle().then(() => {
    idle = true;
  });
  const deadline = Date.now() + 20_000;
  while (!idle || h.adapter.shown().length === before) {
    assert.ok(Date.now() < deadline, `no reply to "${text}"`);
    await clock.advance(100);
    await new Promise((r) => setTimeout(r, 2));
  }
  await done;
  return h.adapter.shown().at(-1)?.text ?? '';
}

test('gateway: key A out of credit, key B answers the same message; /status shows both keys masked', async () => {
  const h = await startHarness({ config: { timezone: 'UTC', model: { api_key: KEY_A, api_keys: [KEY_B] } } });
  try {
    h.fake.setResponder((req) =>
      req.headers.authorization === `Bearer ${KEY_A}`
        ? { status: 429, errorCode: 'insufficient_quota', errorMessage: 'You exceeded your current quota' }
        : { text: 'answered with B' },
    );
    await h.adapter.inject({ text: 'hello' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown().at(-1)?.text, 'answered with B');
    assert.deepEqual(h.fake.requests.map((r) => r.headers.authorization), [`Bearer ${KEY_A}`, `Bearer ${KEY_B}`]);
    const before = h.adapter.shown().length;
    await h.adapter.inject({ text: '/status' });
    await until(() => h.adapter.shown().length > before, 'the /status reply');
    const status = h.adapter.shown().at(-1)?.text ?? '';
    assert.match(status, /^Keys of fake-model \(primary\): sk-…1111: cooling down until \d+ \w{3} \d\d:\d\d \(out of credit\); sk-…2222: ok, 1 call$/m);
    assert.ok(!status.includes('aaaaaaaa') && !status.includes('bbbbbbbb'), status);
  } finally {
    await h.stop();
  }
});

test('gateway: the primary is down (500), the fallback answers and the user gets one line saying so', async () => {
  const h = await startHarness({ config: { model: { max_retries: 0, fallbacks: [{ name: 'backup-model' }] } } });
  try {
    h.fake.setResponder((req) => (req.body.model === 'fake-model' ? { status: 500 } : { text: 'backup here' }));
    await h.adapter.inject({ text: 'hello' });
    await h.runner.waitIdle();
    const shown = h.adapter.shown().map((m) => m.text).join('\n');
    assert.match(shown, /backup here/);
    assert.equal(shown.match(/answered by fallback/g)?.length, 1, shown);
    assert.match(shown, /\(answered by fallback model backup-model: the primary failed with a server error\)/);
  } finally {
    await h.stop();
  }
});

test('gateway: key A 402 → key B the same turn; A rests 24 h (fake clock), also after a restart of the gateway on the same store', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { timezone: 'UTC', model: { api_key: KEY_A, api_keys: [KEY_B], max_retries: 3 } } });
  try {
    h.fake.setResponder((req) =>
      keyOf(req) === KEY_A ? { status: 402, errorMessage: 'Insufficient credits' } : { text: `from ${keyOf(req).slice(-4)}` },
    );
    assert.equal(await say(h, clock, 'one'), 'from 2222');
    assert.deepEqual(h.fake.requests.map(keyOf), [KEY_A, KEY_B], 'out of credit: no retry on A, B in the same turn');

    await clock.advance(DAY - 2 * MINUTE);
    assert.equal(await say(h, clock, 'two'), 'from 2222');
    assert.equal(h.fake.requests.length, 3, 'A skipped one day later minus two minutes');

    await h.restart();
    assert.equal(await say(h, clock, 'three'), 'from 2222');
    assert.deepEqual(h.fake.requests.slice(2).map(keyOf), [KEY_B, KEY_B], 'a new gateway on the same store still skips A');

    await clock.advance(2 * MINUTE);
    h.fake.setResponder((req) => ({ text: `from ${keyOf(req).slice(-4)}` }));
    assert.equal(await say(h, clock, 'four'), 'from 1111', 'after 24 h A is used again (least_used: 1 call against 3)');
  } finally {
    await h.stop();
  }
});

test('gateway: key A 429 × N waits out Retry-After (seconds, then an HTTP date), then rotates to B; A rests 1 h', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { timezone: 'UTC', model: { api_key: KEY_A, api_keys: [KEY_B], key_strategy: 'fill_first', max_retries: 2 } } });
  try {
    const at: number[] = [];
    let limited = 0;
    h.fake.setResponder((req) => {
      at.push(clock.now());
      if (keyOf(req) !== KEY_A || limited >= 3) return { text: `from ${keyOf(req).slice(-4)}` };
      limited++;
      if (limited === 1) return { status: 429, errorMessage: 'Rate limit reached', retryAfterSeconds: 20 };
      if (limited === 2) return { status: 429, errorMessage: 'Rate limit reached', retryAfter: new Date(Math.ceil((clock.now() + 30_000) / 1_000) * 1_000).toUTCString() };
      return { status: 429, errorMessage: 'Rate limit reached' };
    });
    assert.equal(await say(h, clock, 'hello'), 'from 2222');
    assert.deepEqual(h.fake.requests.map(keyOf), [KEY_A, KEY_A, KEY_A, KEY_B]);
    const [t0, t1, t2, t3] = at as [number, number, number, number];
    assert.ok(t1 - t0 >= 20_000 && t1 - t0 < 22_000, `the first retry waited ${t1 - t0} ms for Retry-After: 20`);
    assert.ok(t2 - t1 >= 30_000 && t2 - t1 < 33_000, `the second retry waited ${t2 - t1} ms for a Retry-After date 30 s on`);
    assert.ok(t3 - t2 < 1_000, 'after its retries the pool rotates to B at once');

    const status = await say(h, clock, '/status');
    assert.match(status, /sk-…1111: cooling down until \d\d:\d\d \(rate limited\); sk-…2222: ok, 1 call/);

    await clock.advance(HOUR - 2 * MINUTE);
    assert.equal(await say(h, clock, 'later'), 'from 2222', 'fill_first still skips A within the hour');
    await clock.advance(2 * MINUTE);
    assert.equal(await say(h, clock, 'an hour on'), 'from 1111', 'A is back after 1 h');
  } finally {
    await h.stop();
  }
});

test('gateway: primary 500 × retries → the fallback answers that turn (one line, once, over two calls); the next turn goes to the primary', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { model: { max_retries: 2, fallbacks: [{ name: 'backup-model' }] } } });
  try {
    let primaryDown = true;
    let backupCalls = 0;
    h.fake.setResponder((req) => {
      if (req.body.model === 'fake-model') return primaryDown ? { status: 500, errorMessage: 'internal error' } : { text: 'primary here' };
      backupCalls++;
      return backupCalls === 1 ? { toolCalls: [{ name: 'read_file', arguments: { path: 'missing.txt' } }] } : { text: 'backup here' };
    });
    const reply = await say(h, clock, 'hello');
    assert.deepEqual(h.fake.requests.map((r) => r.body.model), ['fake-model', 'fake-model', 'fake-model', 'backup-model', 'backup-model']);
    assert.equal(reply, 'backup here\n\n(answered by fallback model backup-model: the primary failed with a server error)');

    primaryDown = false;
    assert.equal(await say(h, clock, 'again'), 'primary here', 'the next turn starts on the primary, no note');
    assert.equal(h.fake.requests.at(-1)?.body.model, 'fake-model');
    assert.equal(h.fake.requests.length, 6);
  } finally {
    await h.stop();
  }
});

test('gateway: primary 401 → the fallback at once, no retries (two requests at the fake)', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { model: { api_key: KEY_A, max_retries: 4, fallbacks: [{ name: 'backup-model', api_key: KEY_B }] } } });
  try {
    h.fake.setResponder((req) => (req.body.model === 'fake-model' ? { status: 401, errorMessage: 'Incorrect API key provided' } : { text: 'backup here' }));
    const reply = await say(h, clock, 'hello');
    assert.deepEqual(h.fake.requests.map((r) => [r.body.model, keyOf(r)]), [['fake-model', KEY_A], ['backup-model', KEY_B]]);
    assert.equal(reply, 'backup here\n\n(answered by fallback model backup-model: the primary was refused the API key)');
  } finally {
    await h.stop();
  }
});

test('gateway: every key cooling down → the reply says until when and what to do, without calling the provider', async () => {
  const clock = new FakeClock(Date.UTC(2026, 0, 5, 13, 5));
  const h = await startHarness({ clock, config: { timezone: 'UTC', model: { api_key: KEY_A, api_keys: [KEY_B] } } });
  try {
    h.fake.setResponder(() => ({ status: 402, errorMessage: 'Insufficient credits' }));
    const first = await say(h, clock, 'hello');
    assert.match(first, /API key sk-…2222 is out of credit \(HTTP 402\): Insufficient credits\. Check the plan and billing for this key, or add another key to model\.api_keys\./);
    assert.ok(!first.includes('bbbbbbbb') && !first.includes('aaaaaaaa'), first);
    assert.equal(h.fake.requests.length, 2);
    const second = await say(h, clock, 'still there?');
    assert.equal(h.fake.requests.length, 2, 'resting keys are not called');
    assert.match(
      second,
      /Every API key for model "fake-model" is cooling down after failures\. The first comes back at 6 Jan 13:05 \(it was out of credit\)\. Add a working key to model\.api_keys, or wait\.$/,
    );
  } finally {
    await h.stop();
  }
});

test('gateway: primary and every fallback fail → one reply with the reason, that the fallbacks failed too, and no "answered by" line', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { model: { max_retries: 0, fallbacks: [{ name: 'backup-model' }, { name: 'third-model' }] } } });
  try {
    const status: Record<string, number> = { 'fake-model': 500, 'backup-model': 503, 'third-model': 401 };
    h.fake.setResponder((req) => ({ status: status[String(req.body.model)] ?? 400, errorMessage: 'upstream down' }));
    const reply = await say(h, clock, 'hello');
    assert.deepEqual(h.fake.requests.map((r) => r.body.model), ['fake-model', 'backup-model', 'third-model']);
    assert.match(reply, /The model provider had a temporary problem \(HTTP 500\): upstream down\. Try again in a moment\. The fallback models failed too \(backup-model failed with a server error; third-model was refused the API key\)\.$/);
    assert.ok(!reply.includes('answered by'), reply);
    assert.equal(h.adapter.shown().length, 1, 'one reply');
  } finally {
    await h.stop();
  }
});

test('gateway: the primary breaks off after streaming text → the text stays with a note; no fallback answer is added to it (no duplicate reply)', async () => {
  const clock = new FakeClock();
  const h = await startHarness({ clock, config: { model: { max_retries: 2, fallbacks: [{ name: 'backup-model' }] } } });
  try {
    h.fake.setResponder((req) =>
      req.body.model === 'fake-model' ? { chunks: ['The answer ', 'is forty', ' two.'], breakAfterChunks: 2 } : { text: 'FULL BACKUP ANSWER' },
    );
    const reply = await say(h, clock, 'hello');
    assert.deepEqual(h.fake.requests.map((r) => r.body.model), ['fake-model'], 'shown text cannot be taken back: no retry, no fallback');
    assert.match(reply, /^The answer is forty\n\n.*cut off; send another message to continue\.$/s);
    assert.ok(!reply.includes('FULL BACKUP ANSWER') && !reply.includes('answered by'), reply);
    assert.equal(h.adapter.shown().length, 1, 'one message');
  } finally {
    await h.stop();
  }
});
