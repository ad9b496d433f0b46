import assert from 'node:assert/strict';
import { test } from 'node:test';
import { say } from '../helpers/converse.js';
import { delegateResponder } from '../helpers/delegate.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { isReview } from '../helpers/review.js';

const metricsOn = { gateway: { http: { metrics: true } } };

/** Every `hermes_model_calls_total` sample, as `purpose/outcome` → value. */
async function modelCalls(h: Harness): Promise<Record<string, number>> {
  const address = h.runner.httpAddress;
  assert.ok(address, 'the HTTP server listens');
  const body = await (await fetch(`http://127.0.0.1:${address.port}/metrics`)).text();
  const calls: Record<string, number> = {};
  for (const match of body.matchAll(/^hermes_model_calls_total\{purpose="(\w+)",outcome="(\w+)"\} (\d+)$/gm)) calls[`${match[1]}/${match[2]}`] = Number(match[3]);
  return calls;
}

test('/metrics counts each model request: a 429 the retry recovered from is counted under its reason, then the ok', { timeout: 30_000 }, async () => {
  const h = await startHarness({ withHttp: true, config: { ...metricsOn, model: { max_retries: 2 } } });
  try {
    h.fake.enqueue({ status: 429, errorMessage: 'slow down', retryAfterSeconds: 0 });
    h.fake.enqueue({ text: 'recovered' });
    assert.equal(await say(h, 'hi'), 'recovered');
    assert.equal(h.fake.requests.length, 2, 'the failed request and its retry');
    assert.deepEqual(await modelCalls(h), { 'turn/rate_limit': 1, 'turn/ok': 1 });
  } finally {
    await h.stop();
  }
});

test('/metrics counts a delegate_task child\'s model calls under purpose delegate, the parent\'s under turn', { timeout: 30_000 }, async () => {
  const h = await startHarness({ withHttp: true, config: metricsOn });
  try {
    h.fake.setResponder(
      delegateResponder({
        parent: (round) => (round === 0 ? { toolCalls: [{ name: 'delegate_task', arguments: { tasks: [{ goal: 'alpha' }] } }] } : { text: 'done' }),
        child: () => ({ text: 'alpha summary' }),
      }),
    );
    assert.equal(await say(h, 'delegate it'), 'done');
    assert.deepEqual(await modelCalls(h), { 'turn/ok': 2, 'delegate/ok': 1 });
  } finally {
    await h.stop();
  }
});

test('/metrics counts a compression\'s summary call under purpose compression, and the overflow that caused it under turn', { timeout: 60_000 }, async () => {
  const h = await startHarness({ withHttp: true, editIntervalMs: 20, config: { ...metricsOn, model: { context_length: 4034 } } });
  try {
    h.fake.setResponder((req) => (req.body.stream === true ? { text: 'ok, noted.' } : { text: 'The user listed six items.' }));
    for (let i = 1; i <= 10; i += 1) await say(h, `item ${i}: ` + 'a fairly long description of the item. '.repeat(8));
    const before = await modelCalls(h);
    h.fake.enqueue({ status: 400, errorCode: 'context_length_exceeded', errorMessage: "This model's maximum context length is 4000 tokens." });
    assert.match(await say(h, 'what did I list?'), /ok, noted\./);
    const after = await modelCalls(h);
    const delta = (key: string): number => (after[key] ?? 0) - (before[key] ?? 0);
    assert.equal(delta('turn/context_overflow'), 1, JSON.stringify(after));
    assert.equal(delta('compression/ok'), 1, JSON.stringify(after));
    assert.equal(delta('turn/ok'), 1, 'the retried call');
  } finally {
    await h.stop();
  }
});

test('/metrics counts a background review\'s model calls under purpose review', { timeout: 30_000 }, async () => {
  const h = await startHarness({ withHttp: true, config: { ...metricsOn, skills: { review: true, review_interval: 1 } } });
  try {
    h.fake.setResponder((req) => (isReview(req) ? { text: 'Nothing to save.' } : { text: 'hello' }));
    assert.equal(await say(h, 'hi'), 'hello');
    // The review runs in the background after the turn: its call is counted once the fake answered it.
    let calls = await modelCalls(h);
    for (let i = 0; i < 200 && calls['review/ok'] === undefined; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      calls = await modelCalls(h);
    }
    assert.ok(h.fake.requests.some(isReview), 'a review ran');
    assert.deepEqual(calls, { 'turn/ok': 1, 'review/ok': 1 });
  } finally {
    await h.stop();
  }
});
