import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import type { ScriptedReply } from '../fakes/openai/server.js';
import { FakeClock } from '../helpers/fake-clock.js';
import { gateTool } from '../helpers/gate-tool.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import type { AdapterCapabilities } from '../../src/core/adapter.js';

const CURSOR = ' ▉';

/** The gate tool (test/helpers/gate-tool.ts): the preview can be looked at while the agent works. */
const gate = gateTool;

/** Moves fake time on while real work (model stream, tools) happens, until `done` holds. */
async function until(params: { h: Harness; clock: FakeClock; done: () => boolean; what: string }): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!params.done()) {
    assert.ok(Date.now() < deadline, `timed out waiting for ${params.what} (${params.h.fake.requests.length} model calls; shown: ${JSON.stringify(params.h.adapter.shown().map((m) => m.text))})`);
    await params.clock.advance(100);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** A harness with the gate tool and `notes.md` in the workspace. */
async function setup(params: { mode?: 'all' | 'new' | 'off'; capabilities?: Partial<AdapterCapabilities>; env?: Record<string, string> } = {}): Promise<{ h: Harness; clock: FakeClock; g: ReturnType<typeof gate> }> {
  const clock = new FakeClock();
  const g = gate();
  const h = await startHarness({
    clock,
    extraTools: [g.tool],
    ...(params.mode === undefined ? {} : { config: { display: { tool_progress: params.mode } } }),
    ...(params.capabilities ? { capabilities: params.capabilities } : {}),
    ...(params.env ? { env: params.env } : {}),
  });
  writeFileSync(path.join(h.profile.workspaceDir, 'notes.md'), 'buy milk\n');
  return { h, clock, g };
}

/** Two terminal calls in one round, a read, the gate, then the answer. */
const script: ScriptedReply[] = [
  { toolCalls: [{ name: 'terminal', arguments: { command: 'echo one' } }, { name: 'terminal', arguments: { command: 'echo two' } }] },
  { toolCalls: [{ name: 'read_file', arguments: { path: 'notes.md' } }] },
  { toolCalls: [{ name: 'probe_gate', arguments: {} }] },
  { chunks: ['All ', 'done.'] },
];

/** Runs the script; returns what the preview showed while the gate held the agent, and the texts of all platform calls. */
async function runScript(params: { h: Harness; clock: FakeClock; g: ReturnType<typeof gate> }): Promise<{ during: string | undefined; texts: string[] }> {
  const { h, clock, g } = params;
  h.fake.enqueue(...script);
  await h.adapter.inject({ text: 'check my notes' });
  await until({ h, clock, done: g.entered, what: 'the gate tool' });
  // Two pacing intervals: whatever the preview will show for this work, it shows now.
  await clock.advance(1100);
  await clock.advance(1100);
  const during = h.adapter.shown()[0]?.text;
  g.open();
  await until({ h, clock, done: () => h.adapter.shown()[0]?.text === 'All done.' || (h.adapter.shown().length > 0 && !h.adapter.shown()[0]?.text.endsWith(CURSOR) && h.fake.requests.length === 4), what: 'the answer' });
  await h.runner.waitIdle();
  return { during, texts: h.adapter.calls.filter((c) => c.kind !== 'typing').map((c) => c.text) };
}

test('new (default): the preview shows a line per tool change, repeated calls share one; the answer replaces them in the same message', { timeout: 30_000 }, async () => {
  const { h, clock, g } = await setup();
  try {
    const { during, texts } = await runScript({ h, clock, g });
    assert.equal(during, `⚙ terminal: echo one ×2\n📖 read_file notes.md\n🔧 probe_gate${CURSOR}`);
    // The first thing the user saw was the first tool's line (the turn began with tool calls), sent as the reply.
    assert.equal(h.adapter.calls.find((c) => c.kind === 'send')?.text, `⚙ terminal: echo one ×2${CURSOR}`);
    assert.equal(h.adapter.shown().length, 1, 'the lines never became messages of their own');
    assert.equal(h.adapter.shown()[0]?.text, 'All done.');
    assert.ok(!(texts.at(-1) ?? '').includes('terminal'));
    // The model's history is untouched by the lines.
    const last = h.fake.requests.at(-1)?.body.messages ?? [];
    assert.ok(!JSON.stringify(last).includes('⚙'), 'a progress line reached the model');
  } finally {
    await h.stop();
  }
});

test('all: a line per call', { timeout: 30_000 }, async () => {
  const { h, clock, g } = await setup({ mode: 'all' });
  try {
    const { during } = await runScript({ h, clock, g });
    assert.equal(during, `⚙ terminal: echo one\n⚙ terminal: echo two\n📖 read_file notes.md\n🔧 probe_gate${CURSOR}`);
    assert.equal(h.adapter.shown().length, 1);
    assert.equal(h.adapter.shown()[0]?.text, 'All done.');
  } finally {
    await h.stop();
  }
});

test('off: no lines anywhere; the reply appears when its text does', { timeout: 30_000 }, async () => {
  const { h, clock, g } = await setup({ mode: 'off' });
  try {
    const { during, texts } = await runScript({ h, clock, g });
    assert.equal(during, undefined, 'nothing was shown while only tools ran');
    assert.ok(texts.length > 0);
    for (const text of texts) assert.ok(!/terminal|read_file|probe_gate/.test(text), text);
    assert.equal(h.adapter.shown()[0]?.text, 'All done.');
  } finally {
    await h.stop();
  }
});

test('a burst of tool calls keeps edit pacing at one per second and the preview at its last six lines', { timeout: 30_000 }, async () => {
  const { h, clock, g } = await setup({ mode: 'all' });
  try {
    const burst = Array.from({ length: 20 }, (_, i) => ({ name: 'read_file', arguments: { path: `notes.md`, offset: 1, limit: i + 1 } }));
    // Twenty rounds of one terminal call each (each a new line), then one round of twenty calls, all inside a few seconds.
    const bursts = Array.from({ length: 20 }, (_, i) => ({ ...(i === 0 ? { chunks: ['Starting.'] } : {}), toolCalls: [{ name: 'terminal', arguments: { command: `echo step ${i}` } }] }));
    h.fake.enqueue(...bursts, { toolCalls: burst }, { toolCalls: [{ name: 'probe_gate', arguments: {} }] }, { chunks: ['Finished.'] });
    await h.adapter.inject({ text: 'do many things' });
    await until({ h, clock, done: g.entered, what: 'the gate tool' });
    await clock.advance(1100);
    await clock.advance(1100);
    const during = h.adapter.shown()[0]?.text ?? '';
    g.open();
    await until({ h, clock, done: () => h.adapter.shown()[0]?.text === 'Starting.\n\nFinished.', what: 'the answer' });
    await h.runner.waitIdle();
    const ops = h.adapter.calls.filter((c) => c.kind !== 'typing');
    for (let i = 1; i < ops.length; i++) {
      const gap = (ops[i]?.at ?? 0) - (ops[i - 1]?.at ?? 0);
      assert.ok(gap >= 1000, `platform call ${i} came ${gap} ms after the previous one`);
    }
    const lines = during.replace(CURSOR, '').split('\n\n').at(-1)?.split('\n') ?? [];
    assert.equal(lines.length, 6, during);
    assert.equal(lines.at(-1), '🔧 probe_gate');
    assert.ok(during.startsWith('Starting.\n\n'), 'the text streamed so far stays above the lines');
    assert.equal(h.adapter.shown().length, 1);
  } finally {
    await h.stop();
  }
});

test('a platform without edits (email, SMS) gets no tool lines, only the answer', { timeout: 30_000 }, async () => {
  const { h, clock, g } = await setup({ mode: 'all', capabilities: { edit: false } });
  try {
    const { during, texts } = await runScript({ h, clock, g });
    assert.equal(during, undefined);
    assert.deepEqual(texts, ['All done.']);
  } finally {
    await h.stop();
  }
});

test('a secret in a tool argument never appears in a progress line', { timeout: 30_000 }, async () => {
  const secret = 'dpl-Q8w3Ez5Rt7Yu1Io9';
  const { h, clock, g } = await setup({ mode: 'all', env: { DEPLOY_TOKEN: secret } });
  try {
    h.fake.enqueue(
      { toolCalls: [{ name: 'terminal', arguments: { command: `echo ${secret} > /dev/null` } }] },
      { toolCalls: [{ name: 'probe_gate', arguments: {} }] },
      { chunks: ['Deployed.'] },
    );
    await h.adapter.inject({ text: 'deploy' });
    await until({ h, clock, done: g.entered, what: 'the gate tool' });
    await clock.advance(1100);
    const during = h.adapter.shown()[0]?.text ?? '';
    assert.match(during, /^⚙ terminal: echo \*\*\* > \/dev\/null\n🔧 probe_gate/);
    g.open();
    await until({ h, clock, done: () => h.adapter.shown()[0]?.text === 'Deployed.', what: 'the answer' });
    await h.runner.waitIdle();
    for (const call of h.adapter.calls) assert.ok(!call.text.includes(secret) && !call.text.includes(secret.slice(0, 8)), call.text);
  } finally {
    await h.stop();
  }
});

test('/stop while only tools ran: the tool lines give way to "(stopped)", not a bare message', { timeout: 30_000 }, async () => {
  const { h, clock, g } = await setup();
  try {
    h.fake.enqueue({ toolCalls: [{ name: 'probe_gate', arguments: {} }] }, { text: 'never asked for' });
    await h.adapter.inject({ text: 'wait for it' });
    await until({ h, clock, done: () => g.entered() && h.adapter.shown()[0]?.text === `🔧 probe_gate${CURSOR}`, what: 'the tool line' });
    await h.adapter.inject({ text: '/stop' });
    await until({ h, clock, done: () => h.adapter.shown()[0]?.text === '(stopped)', what: 'the stopped reply' });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 1);
    assert.ok(h.adapter.shown().some((m) => m.text.startsWith('Stopped.')), 'the /stop answer');
  } finally {
    await h.stop();
  }
});
