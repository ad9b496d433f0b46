import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GatewayMetrics } from '../../src/gateway/ops/metrics.js';
import { startHarness, type Harness } from '../helpers/harness.js';

async function scrape(h: Harness): Promise<{ status: number; type: string | null; body: string }> {
  const address = h.runner.httpAddress;
  assert.ok(address, 'the HTTP server listens');
  const response = await fetch(`http://127.0.0.1:${address.port}/metrics`);
  return { status: response.status, type: response.headers.get('content-type'), body: await response.text() };
}

/** The value of one sample line (`name{labels} value`), or undefined when absent. */
function sample(body: string, line: string): number | undefined {
  const found = body.split('\n').find((l) => l.startsWith(`${line} `));
  return found === undefined ? undefined : Number(found.slice(line.length + 1));
}

test('/metrics after an end-to-end turn: messages in and out, the turn by outcome, latency observations, model calls, 429s waited, adapter state, RSS', { timeout: 30_000 }, async () => {
  const h = await startHarness({ withHttp: true, config: { gateway: { http: { metrics: true } } } });
  try {
    h.fake.enqueue({ chunks: ['Hello ', 'there'] });
    // The platform answers the reply's first send with 429 (retry after 200 ms): the pacer waits, then sends.
    h.adapter.rateLimitOn.set(1, 200);
    await h.adapter.inject({ text: 'hi' });
    await h.runner.waitIdle();
    assert.ok(h.adapter.shown().some((m) => m.text === 'Hello there'), 'the reply arrived');
    const { status, type, body } = await scrape(h);
    assert.equal(status, 200);
    assert.match(type ?? '', /^text\/plain; version=0\.0\.4/);
    assert.equal(sample(body, 'hermes_messages_in_total{platform="test"}'), 1, body);
    assert.ok((sample(body, 'hermes_messages_out_total{platform="test",kind="send"}') ?? 0) >= 1, 'a reply message was sent');
    assert.equal(sample(body, 'hermes_turns_total{platform="test",outcome="delivered"}'), 1);
    assert.equal(sample(body, 'hermes_turn_first_send_seconds_count{platform="test"}'), 1, 'inbound → first send observed');
    assert.equal(sample(body, 'hermes_turn_final_lag_seconds_count{platform="test"}'), 1, 'last token → final observed');
    assert.equal(sample(body, 'hermes_model_calls_total{purpose="turn",outcome="ok"}'), 1);
    assert.equal(sample(body, 'hermes_rate_limited_total{platform="test"}'), 1, 'the 429 was counted');
    assert.equal(sample(body, 'hermes_queue_depth'), 0);
    assert.equal(sample(body, 'hermes_adapter_state{adapter="test",state="connected"}'), 1);
    assert.ok((sample(body, 'hermes_process_resident_memory_bytes') ?? 0) > 0, 'RSS');
  } finally {
    await h.stop();
  }
});

test('/metrics counts a failed model call by its reason', { timeout: 30_000 }, async () => {
  const h = await startHarness({ withHttp: true, config: { gateway: { http: { metrics: true } }, model: { max_retries: 0 } } });
  try {
    h.fake.enqueue({ status: 401, errorMessage: 'bad key' });
    await h.adapter.inject({ text: 'hi' });
    await h.runner.waitIdle();
    const { body } = await scrape(h);
    assert.equal(sample(body, 'hermes_model_calls_total{purpose="turn",outcome="auth"}'), 1, body.split('\n').filter((l) => l.startsWith('hermes_model') || l.startsWith('hermes_turns')).join('\n'));
    assert.equal(sample(body, 'hermes_turns_total{platform="test",outcome="error"}'), 1);
  } finally {
    await h.stop();
  }
});

test('/metrics: hermes_queue_depth counts the messages waiting behind a running turn, and goes back to 0', { timeout: 30_000 }, async () => {
  const h = await startHarness({ withHttp: true, config: { gateway: { busy_policy: 'queue', http: { metrics: true } } } });
  try {
    // The first answer takes ~1.5 s: the two messages after it wait behind it.
    h.fake.enqueue({ chunks: ['one ', 'two ', 'three'], chunkDelayMs: 400 });
    await h.adapter.inject({ text: 'first' });
    await h.adapter.inject({ text: 'second' });
    await h.adapter.inject({ text: 'third' });
    const during = await scrape(h);
    assert.equal(sample(during.body, 'hermes_queue_depth'), 2, 'two messages wait');
    assert.equal(sample(during.body, 'hermes_messages_in_total{platform="test"}'), 3);
    await h.runner.waitIdle();
    assert.equal(sample((await scrape(h)).body, 'hermes_queue_depth'), 0);
  } finally {
    await h.stop();
  }
});

test('/metrics is 404 unless gateway.http.metrics is true', { timeout: 30_000 }, async () => {
  const h = await startHarness({ withHttp: true });
  try {
    assert.equal((await scrape(h)).status, 404);
  } finally {
    await h.stop();
  }
});

test('two gateways in one process keep their own registries', async () => {
  const a = new GatewayMetrics();
  const b = new GatewayMetrics();
  a.inbound({ platform: 'telegram' });
  assert.match(await a.text(), /hermes_messages_in_total\{platform="telegram"\} 1/);
  assert.doesNotMatch(await b.text(), /hermes_messages_in_total\{platform="telegram"\}/);
});
