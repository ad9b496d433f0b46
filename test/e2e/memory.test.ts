import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { stringify, parse } from 'yaml';
import { GatewayReloader } from '../../src/app/reload.js';
import { Redactor } from '../../src/log/redact.js';
import { builtinTools } from '../../src/tools/builtin/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { systemClock } from '../../src/core/clock.js';
import { startHarness } from '../helpers/harness.js';

const toolResults = (messages: readonly Record<string, unknown>[] | undefined): string[] =>
  (messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));

test('the model saves a memory through the real openai SDK: the file has the entry and the result says "next session"', async () => {
  const h = await startHarness({ editIntervalMs: 20 });
  try {
    h.fake.enqueue(
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Prefers answers in German' } }] },
      { toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: 'Workspace repo builds with `make all`' } }] },
      { text: 'Noted.' },
    );
    await h.adapter.inject({ text: 'Please answer in German from now on.' });
    await h.runner.waitIdle();
    assert.equal(h.adapter.shown().at(-1)?.text, 'Noted.');
    const tools = (h.fake.requests[0]?.body.tools ?? []).map((t) => (t['function'] as { name: string }).name);
    assert.ok(tools.includes('memory'), `memory is not offered: ${tools.join(', ')}`);
    assert.equal(readFileSync(path.join(h.profile.memoriesDir, 'USER.md'), 'utf8'), 'Prefers answers in German');
    assert.equal(readFileSync(path.join(h.profile.memoriesDir, 'MEMORY.md'), 'utf8'), 'Workspace repo builds with `make all`');
    const [first] = toolResults(h.fake.requests[1]?.body.messages);
    assert.match(first ?? '', /Entry added to USER\.md/);
    assert.match(first ?? '', /next session/);
  } finally {
    await h.stop();
  }
});

test("a memory write holding one of the profile's secrets is refused through the gateway's SecretGuard", async () => {
  const h = await startHarness({ editIntervalMs: 20 });
  try {
    h.fake.enqueue({ toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'memory', content: 'The API key is sk-test-harness' } }] }, { text: 'ok' });
    await h.adapter.inject({ text: 'remember the key' });
    await h.runner.waitIdle();
    const [result] = toolResults(h.fake.requests[1]?.body.messages);
    assert.match(result ?? '', /^Error: Refused, nothing was saved: it contains one of the profile's secrets/);
    assert.equal(existsSync(path.join(h.profile.memoriesDir, 'MEMORY.md')), false);
  } finally {
    await h.stop();
  }
});

test('/memory answers on the control lane with both files, entries numbered, and their usage', async () => {
  const h = await startHarness({ editIntervalMs: 20 });
  try {
    writeFileSync(path.join(h.profile.memoriesDir, 'MEMORY.md'), 'Build with make\n§\nDeploys need a tag\nand a changelog line');
    await h.adapter.inject({ text: '/memory' });
    await h.runner.waitIdle();
    const reply = h.adapter.shown().at(-1)?.text ?? '';
    assert.match(reply, /MEMORY\.md — the agent's notes: 2 entries, 57\/2,200 chars \(3%\)/);
    assert.match(reply, /  1\. Build with make\n  2\. Deploys need a tag\n     and a changelog line/);
    assert.match(reply, /USER\.md — what it knows about you: 0 entries, 0\/1,375 chars \(0%\)\n  \(empty\)/);
    assert.match(reply, /next conversation/);
    assert.equal(h.fake.requests.length, 0, 'the model was called');
    await h.adapter.inject({ text: '/help' });
    await h.runner.waitIdle();
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /\/memory — what the agent remembers/);
  } finally {
    await h.stop();
  }
});

test('with both memory files off, the memory tool is not offered and /memory says so', async () => {
  const h = await startHarness({ editIntervalMs: 20, config: { memory: { memory_enabled: false, user_profile_enabled: false } } });
  try {
    h.fake.enqueue({ text: 'hi' });
    await h.adapter.inject({ text: 'hello' });
    await h.runner.waitIdle();
    const tools = (h.fake.requests[0]?.body.tools ?? []).map((t) => (t['function'] as { name: string }).name);
    assert.ok(!tools.includes('memory'));
    const system = String(h.fake.requests[0]?.body.messages?.[0]?.['content']);
    assert.doesNotMatch(system, /# Memory\n/, 'memory guidance without the memory tool');
    assert.match(system, /# Earlier conversations\n/);
    await h.adapter.inject({ text: '/memory' });
    await h.runner.waitIdle();
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /Memory is off for this profile/);
  } finally {
    await h.stop();
  }
});

test('memory turned off by a config reload: the still-registered tool refuses clearly, and new sessions get no memory guidance', async () => {
  const h = await startHarness({ editIntervalMs: 20 });
  const store = h.readStore();
  try {
    h.fake.enqueue({ text: 'hi' });
    await h.adapter.inject({ text: 'hello' });
    await h.runner.waitIdle();
    assert.match(String(h.fake.requests[0]?.body.messages?.[0]?.['content']), /# Memory\n/);
    const raw = parse(readFileSync(h.profile.configPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(h.profile.configPath, stringify({ ...raw, logging: { level: 'error' }, memory: { memory_enabled: false, user_profile_enabled: false } }));
    const registry = new ToolRegistry({ tools: builtinTools({ memory: true }) });
    const reloader = new GatewayReloader({ profile: h.profile, env: {}, config: h.config, runner: h.runner, http: undefined, registry, store, redactor: new Redactor({ secrets: [] }), logger: h.logger, clock: systemClock });
    assert.equal((await reloader.request()).ok, true);
    await reloader.close();
    await h.adapter.inject({ text: '/new' });
    await h.runner.waitIdle();
    const before = h.fake.requests.length;
    h.fake.enqueue({ toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Likes tea' } }] }, { text: 'ok' });
    await h.adapter.inject({ text: 'remember I like tea' });
    await h.runner.waitIdle();
    const [result] = toolResults(h.fake.requests[before + 1]?.body.messages);
    assert.match(result ?? '', /memory is off for this agent/);
    assert.equal(existsSync(path.join(h.profile.memoriesDir, 'USER.md')), false);
    const system = String(h.fake.requests[before]?.body.messages?.[0]?.['content']);
    assert.doesNotMatch(system, /# Memory\n/);
    assert.match(system, /# Earlier conversations\n/);
  } finally {
    await h.stop();
    store.close();
  }
});

test('memory turned on by a config reload: the tool is offered from the next turn on and new sessions get its guidance', async () => {
  const h = await startHarness({ editIntervalMs: 20, config: { memory: { memory_enabled: false, user_profile_enabled: false } } });
  const store = h.readStore();
  try {
    const raw = parse(readFileSync(h.profile.configPath, 'utf8')) as Record<string, unknown>;
    writeFileSync(h.profile.configPath, stringify({ ...raw, logging: { level: 'error' }, memory: { memory_enabled: true, user_profile_enabled: true } }));
    // The gateway's registry as it was built: without the memory tool.
    const registry = new ToolRegistry({ tools: builtinTools({ memory: false }) });
    const reloader = new GatewayReloader({ profile: h.profile, env: {}, config: h.config, runner: h.runner, http: undefined, registry, store, redactor: new Redactor({ secrets: [] }), logger: h.logger, clock: systemClock });
    assert.equal((await reloader.request()).ok, true);
    await reloader.close();
    h.fake.enqueue({ toolCalls: [{ name: 'memory', arguments: { action: 'add', target: 'user', content: 'Likes tea' } }] }, { text: 'ok' });
    await h.adapter.inject({ text: 'remember I like tea' });
    await h.runner.waitIdle();
    const tools = (h.fake.requests[0]?.body.tools ?? []).map((t) => (t['function'] as { name: string }).name);
    assert.ok(tools.includes('memory'), tools.join(', '));
    assert.equal(readFileSync(path.join(h.profile.memoriesDir, 'USER.md'), 'utf8'), 'Likes tea');
    assert.match(String(h.fake.requests[0]?.body.messages?.[0]?.['content']), /# Memory\n/);
  } finally {
    await h.stop();
    store.close();
  }
});

test("a /memory reply longer than the platform's message limit is sent in parts, in order, each within the limit", async () => {
  const h = await startHarness({ editIntervalMs: 20, capabilities: { maxMessageLength: 300 } });
  try {
    const entries = Array.from({ length: 12 }, (_, i) => `Fact number ${i + 1}: the owner keeps note ${i + 1} in the blue notebook.`);
    writeFileSync(path.join(h.profile.memoriesDir, 'MEMORY.md'), entries.join('\n§\n'));
    await h.adapter.inject({ text: '/memory' });
    await h.runner.waitIdle();
    const parts = h.adapter.shown().map((m) => m.text);
    assert.ok(parts.length > 1, `one message of ${parts[0]?.length} chars`);
    for (const part of parts) assert.ok(part.length <= 300, `${part.length} chars`);
    const joined = parts.join('\n');
    let at = -1;
    for (const entry of entries) {
      const next = joined.indexOf(entry);
      assert.ok(next > at, `${entry} missing or out of order`);
      at = next;
    }
    assert.match(parts.at(-1) ?? '', /next conversation/);
  } finally {
    await h.stop();
  }
});

test('/memory in a group or channel does not list the files (others read along); in a DM it does', async () => {
  const h = await startHarness({ editIntervalMs: 20 });
  try {
    writeFileSync(path.join(h.profile.memoriesDir, 'USER.md'), 'Lives at 12 Elm Street');
    for (const kind of ['group', 'channel'] as const) {
      await h.adapter.inject({ text: '/memory', chatId: `room-${kind}`, kind });
      await h.runner.waitIdle();
      const reply = h.adapter.shown({ chatId: `room-${kind}` }).at(-1)?.text ?? '';
      assert.match(reply, /Send \/memory in a direct message/);
      assert.doesNotMatch(reply, /Elm Street/);
    }
    await h.adapter.inject({ text: '/memory' });
    await h.runner.waitIdle();
    assert.match(h.adapter.shown().at(-1)?.text ?? '', /Lives at 12 Elm Street/);
  } finally {
    await h.stop();
  }
});
