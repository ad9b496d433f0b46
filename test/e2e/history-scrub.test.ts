import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { test } from 'node:test';
import { pino } from 'pino';
import { SCRUBBED_CURSOR } from '../../src/gateway/sessions/history-scrub.js';
import { GatewayReloader } from '../../src/app/reload.js';
import { Redactor } from '../../src/log/redact.js';
import { builtinTools } from '../../src/tools/builtin/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { systemClock } from '../../src/core/clock.js';
import { cli } from '../helpers/cli.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { leakedPiece } from '../helpers/secret-leaks.js';

const added = 'ADDEDkey-Wq4Zr8Tm2Lx6Vb9';
const word = 'ADDEDkey';

/** A harness gateway whose log messages are collected. */
async function start(params: { env?: Record<string, string> } = {}): Promise<{ h: Harness; messages: string[] }> {
  const messages: string[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void messages.push((JSON.parse(line) as { msg: string }).msg) });
  const h = await startHarness({ logger, ...(params.env ? { env: params.env } : {}) });
  return { h, messages };
}

async function until(params: { predicate: () => boolean; what: string }): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (!params.predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${params.what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Every stored text: message contents, tool-call arguments, session titles, and what sessions list/search print. */
async function storedTexts(h: Harness): Promise<string[]> {
  const store = h.readStore();
  const texts: string[] = [];
  try {
    for (const session of store.listSessions({ limit: 10 })) {
      texts.push(session.title ?? '');
      for (const m of store.history({ sessionId: session.id })) texts.push(m.content, ...(m.toolCalls ?? []).map((c) => c.arguments));
    }
    texts.push(...store.search({ query: word, limit: 10 }).map((hit) => hit.snippet));
  } finally {
    store.close();
  }
  const env = { HERMES_HOME: h.profile.hermesHome, HOME: h.profile.hermesHome };
  for (const argv of [['sessions', 'list'], ['sessions', 'search', 'value']]) {
    const out = await cli({ argv: ['-p', h.profile.name, ...argv], env });
    assert.equal(out.code, 0, out.stderr);
    texts.push(out.stdout);
  }
  return texts;
}

test('a secret added to .env and reloaded is scrubbed from the history stored before (messages, FTS, titles, sessions list/search)', { timeout: 30_000 }, async () => {
  const { h, messages } = await start();
  try {
    h.fake.enqueue({ text: `Noted, the value is ${added}.` });
    await h.adapter.inject({ text: `my value is ${added}` });
    await h.adapter.waitFor({ predicate: () => h.adapter.shown().some((m) => m.text.includes('Noted')), what: 'the reply' });
    await h.runner.waitIdle();
    assert.ok((await storedTexts(h)).some((t) => t.includes(added)), 'not yet a secret: stored as it was');

    writeFileSync(h.profile.envPath, `ADDED_KEY=${added}\n`, { mode: 0o600 });
    const registry = new ToolRegistry();
    for (const tool of builtinTools()) registry.register(tool);
    const reloader = new GatewayReloader({ profile: h.profile, env: {}, config: h.config, runner: h.runner, http: undefined, registry, redactor: new Redactor({ secrets: [] }), logger: h.logger, clock: systemClock });
    assert.equal((await reloader.request()).ok, true);
    await until({ predicate: () => messages.some((m) => m.startsWith('stored history: scrubbed secrets from')), what: 'the scrub after the reload' });
    for (const text of await storedTexts(h)) {
      assert.equal(leakedPiece({ text, secrets: [added] }), undefined, `still stored: ${text}`);
    }
    await reloader.close();
  } finally {
    await h.stop();
  }
});

test('an upgraded profile (history written by a version that did not scrub) is scrubbed when the gateway starts; once only', { timeout: 30_000 }, async () => {
  const { h, messages } = await start({ env: { ADDED_KEY: added } });
  try {
    await h.runner.stop();
    // What an older version left: raw rows, no fingerprint.
    const store = h.readStore();
    try {
      const session = store.createSession({ key: 'old', title: `old value ${added}` });
      store.appendMessage({ sessionId: session.id, role: 'assistant', content: `the value is ${added}` });
      store.appendMessage({ sessionId: session.id, role: 'tool', content: `value ${[...added].reverse().join('')}`, toolCallId: 'c1', toolName: 'terminal' });
      store.setCursor({ name: SCRUBBED_CURSOR, value: 'none' });
    } finally {
      store.close();
    }
    // Last line of defence: the CLI masks what it prints even while the store still holds it.
    const env = { HERMES_HOME: h.profile.hermesHome, HOME: h.profile.hermesHome };
    for (const argv of [['sessions', 'list'], ['sessions', 'search', 'value']]) {
      const out = await cli({ argv: ['-p', h.profile.name, ...argv], env });
      assert.equal(out.code, 0, out.stderr);
      assert.match(out.stdout, /value/);
      assert.equal(leakedPiece({ text: out.stdout, secrets: [added] }), undefined, `hermes ${argv.join(' ')} prints: ${out.stdout}`);
    }
    await h.restart();
    await until({ predicate: () => messages.some((m) => m.startsWith('stored history: scrubbed secrets from 3 rows')), what: 'the scrub at start' });
    for (const text of await storedTexts(h)) {
      assert.equal(leakedPiece({ text, secrets: [added] }), undefined, `still stored: ${text}`);
    }
    const before = messages.filter((m) => m.startsWith('stored history:')).length;
    await h.restart();
    await h.runner.waitIdle();
    await h.runner.stop();
    assert.equal(messages.filter((m) => m.startsWith('stored history:')).length, before, 'the same secret set is not scrubbed for again');
  } finally {
    await h.stop();
  }
});
