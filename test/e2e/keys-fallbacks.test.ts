import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startHarness } from '../helpers/harness.js';

const KEY_A = 'sk-e2e-key-aaaaaaaa1111';
const KEY_B = 'sk-e2e-key-bbbbbbbb2222';

/** Polls until `check` holds (the control lane answers /status at once, but through the adapter). */
async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!check()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
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
