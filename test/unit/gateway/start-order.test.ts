import assert from 'node:assert/strict';
import { test } from 'node:test';
import { systemClock } from '../../../src/core/clock.js';
import type { AdapterStartParams } from '../../../src/core/adapter.js';
import { startHarness } from '../../helpers/harness.js';
import { TestAdapter } from '../../helpers/test-adapter.js';
import { until } from '../../helpers/gateway-process.js';

/** A test platform whose connect waits for `open()`. */
class GatedAdapter extends TestAdapter {
  private release: () => void = () => undefined;
  private readonly gate = new Promise<void>((resolve) => (this.release = resolve));

  open(): void {
    this.release();
  }

  override async start(params: AdapterStartParams): Promise<void> {
    // A stop while it waits ends it too.
    await Promise.race([this.gate, new Promise<void>((resolve) => params.signal.addEventListener('abort', () => resolve(), { once: true }))]);
    if (params.signal.aborted) return;
    await super.start(params);
  }
}

/**
 * At start the adapters connect first: the background loops (the model endpoint's first probe, the history scrub,
 * maintenance, the disk probe) wait for every adapter's first outcome, at most a couple of seconds.
 */
test('the background loops start once every adapter has connected', { timeout: 20_000 }, async () => {
  const gated = new GatedAdapter({ clock: systemClock, name: 'gated' });
  const h = await startHarness({ adapters: [{ adapter: gated, allow: 'all' }] });
  try {
    // The test platform is connected; the gated one is still connecting, so no loop has started: no model status yet.
    assert.equal(h.runner.adapterStatuses().find((a) => a.name === 'gated')?.state, 'connecting');
    assert.equal(h.runner.health().model, undefined);
    assert.equal(h.fake.modelListings.length, 0);
    gated.open();
    await until({ what: "the model endpoint's first probe", timeoutMs: 10_000, check: () => h.fake.modelListings.length > 0 && h.runner.health().model !== undefined });
  } finally {
    await h.stop();
  }
});

test('the background loops start after a while even when an adapter never connects', { timeout: 20_000 }, async () => {
  const gated = new GatedAdapter({ clock: systemClock, name: 'gated' });
  const h = await startHarness({ adapters: [{ adapter: gated, allow: 'all' }] });
  try {
    assert.equal(h.runner.health().model, undefined);
    await until({ what: "the model endpoint's first probe", timeoutMs: 10_000, check: () => h.fake.modelListings.length > 0 && h.runner.health().model !== undefined });
    assert.equal(h.runner.adapterStatuses().find((a) => a.name === 'gated')?.state, 'connecting');
  } finally {
    gated.open();
    await h.stop();
  }
});
