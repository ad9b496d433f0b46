import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { GatewayReloader } from '../../src/app/reload.js';
import { Redactor } from '../../src/log/redact.js';
import { builtinTools } from '../../src/tools/builtin/index.js';
import { ToolRegistry } from '../../src/tools/registry.js';
import { systemClock } from '../../src/core/clock.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import type { CapturedRequest } from '../fakes/openai/server.js';
import { startHarness, type Harness } from '../helpers/harness.js';

/** The text of every tool result the model was sent in one request. */
function toolResults(request: CapturedRequest | undefined): string[] {
  return (request?.body.messages ?? []).filter((m) => m['role'] === 'tool').map((m) => String(m['content']));
}

/** One turn: the user's text, then the scripted model replies, then wait until the gateway is idle. */
async function turn(h: Harness, text: string): Promise<void> {
  await h.adapter.inject({ text });
  await h.runner.waitIdle();
}

/** Two earlier sessions (the fact is in the first), then a third, current one that asks with the same words. */
async function threeSessions(h: Harness): Promise<void> {
  h.fake.enqueue({ text: 'Noted, I will keep that in mind.' });
  await turn(h, 'My gym locker code is 4417-walrus, do not forget it');
  await turn(h, '/new');
  h.fake.enqueue({ text: 'It looks sunny.' });
  await turn(h, 'What is the weather like in Lisbon?');
  await turn(h, '/new');
}

test('session_search finds a fact from a session ended with /new two sessions ago and quotes it; the current session is left out', async () => {
  const h = await startHarness({ editIntervalMs: 20, config: { timezone: 'Europe/Lisbon' } });
  try {
    await threeSessions(h);
    const before = h.fake.requests.length;
    h.fake.enqueue({ toolCalls: [{ name: 'session_search', arguments: { query: 'locker code' } }] }, { text: 'Your locker code is 4417-walrus.' });
    await turn(h, 'Which locker code did I give you?');
    const offered = (h.fake.requests[before]?.body.tools ?? []).map((t) => (t['function'] as { name?: string } | undefined)?.name);
    assert.ok(offered.includes('session_search'), 'the tool is offered to the model');
    const [result] = toolResults(h.fake.requests[before + 1]);
    assert.ok(result !== undefined, 'the model got the tool result');
    assert.ok(result.startsWith('<memory-context>\nBackground recalled from earlier conversations'), result);
    assert.ok(result.endsWith('</memory-context>'));
    assert.match(result, /4417-walrus/, 'the fact is quoted');
    assert.match(result, /> user: My gym locker code is 4417-walrus/);
    assert.match(result, /assistant: Noted, I will keep that in mind\./, 'the neighbouring reply is in the window');
    assert.match(result, /· test · \d{4}-\d\d-\d\d \d\d:\d\d Europe\/Lisbon · 1 matching message/, 'platform and date in the profile time zone');
    assert.doesNotMatch(result, /Which locker code did I give you/, "the current session's own text is not returned");
    assert.doesNotMatch(result, /Lisbon\?/, 'the session without the words is not returned');
    assert.equal(h.adapter.shown().at(-1)?.text, 'Your locker code is 4417-walrus.');
  } finally {
    await h.stop();
  }
});

test('session_search says plainly when nothing matches', async () => {
  const h = await startHarness({ editIntervalMs: 20 });
  try {
    await threeSessions(h);
    const before = h.fake.requests.length;
    h.fake.enqueue({ toolCalls: [{ name: 'session_search', arguments: { query: 'submarine' } }] }, { text: 'I found nothing.' });
    await turn(h, 'Did we talk about submarines?');
    assert.deepEqual(toolResults(h.fake.requests[before + 1]), ['No earlier conversation matches "submarine".']);
  } finally {
    await h.stop();
  }
});

test('session_search output stays under its 7,000-character cap with 10,000 matching messages', async () => {
  const h = await startHarness({ editIntervalMs: 20 });
  try {
    const store = h.readStore();
    try {
      for (let s = 0; s < 20; s += 1) {
        const session = store.createSession({ key: `test:test:bulk-${s}`, title: `bulk ${s}` });
        for (let m = 0; m < 500; m += 1) {
          store.appendMessage({ sessionId: session.id, role: m % 2 === 0 ? 'user' : 'assistant', content: `zebra ${'crossing notes '.repeat(40)} entry ${s}-${m}` });
        }
        store.endSession({ sessionId: session.id });
      }
    } finally {
      store.close();
    }
    h.fake.enqueue({ toolCalls: [{ name: 'session_search', arguments: { query: 'zebra', limit: 50 } }] }, { text: 'Many zebras.' });
    await turn(h, 'Tell me about zebras');
    const [result] = toolResults(h.fake.requests[1]);
    assert.ok(result !== undefined);
    assert.ok(result.length <= 7000, `result is ${result.length} characters`);
    assert.ok(result.endsWith('</memory-context>'));
    assert.equal(result.match(/^## Session \d/gm)?.length, 5, 'limit 50 is held to at most 5 sessions');
    assert.match(result, /Only the newest 2500 matching messages were ranked/);
  } finally {
    await h.stop();
  }
});

test('with auxiliary.model the passages are condensed by it (one non-streaming call); its failure returns the raw passages with one warn line', async () => {
  const aux = new FakeOpenAI();
  await aux.start();
  const lines: string[] = [];
  const logger = pino({ level: 'warn' }, { write: (line: string) => lines.push(line) });
  const h = await startHarness({ editIntervalMs: 20, logger, config: { auxiliary: { model: { name: 'aux-model', base_url: aux.baseURL } } } });
  try {
    await threeSessions(h);
    aux.enqueue({ text: 'On the first session (test) the user said the gym locker code is 4417-walrus.' });
    let before = h.fake.requests.length;
    h.fake.enqueue({ toolCalls: [{ name: 'session_search', arguments: { query: 'locker' } }] }, { text: 'ok' });
    await turn(h, 'What was my locker code?');
    const [condensed] = toolResults(h.fake.requests[before + 1]);
    assert.ok(condensed?.startsWith('<memory-context>\n'));
    assert.match(condensed ?? '', /Condensed from 1 earlier session\(s\) by the auxiliary model:\n\nOn the first session \(test\) the user said the gym locker code is 4417-walrus\./);
    assert.doesNotMatch(condensed ?? '', /> user:/, 'no raw window when the condensed answer came back');
    assert.equal(aux.requests.length, 1);
    const asked = aux.requests[0]?.body;
    assert.equal(asked?.model, 'aux-model');
    assert.notEqual(asked?.stream, true);
    assert.equal(aux.requests[0]?.headers['authorization'], 'Bearer sk-test-harness', "api_key falls back to model's");
    assert.match(JSON.stringify(asked?.messages ?? []), /4417-walrus/, 'the raw passages went to the auxiliary model');

    aux.enqueue({ status: 500, errorMessage: 'aux is down' });
    before = h.fake.requests.length;
    h.fake.enqueue({ toolCalls: [{ name: 'session_search', arguments: { query: 'locker' } }] }, { text: 'ok' });
    await turn(h, 'Again: my locker code?');
    const raw = toolResults(h.fake.requests[before + 1]).at(-1);
    assert.match(raw ?? '', /> user: My gym locker code is 4417-walrus/);
    assert.equal(aux.requests.length, 2);
    const warned = lines.filter((line) => line.includes('auxiliary model failed'));
    assert.equal(warned.length, 1, lines.join('\n'));
  } finally {
    await h.stop();
    await aux.close();
  }
});

test('after a config reload (SIGHUP) the tool context still has session_search', async () => {
  // The reload applies logging.level to the shared logger: keep the test's output quiet.
  const h = await startHarness({ editIntervalMs: 20, config: { logging: { level: 'error' } } });
  const store = h.readStore();
  try {
    await threeSessions(h);
    const registry = new ToolRegistry({ tools: builtinTools() });
    const reloader = new GatewayReloader({ profile: h.profile, env: {}, config: h.config, runner: h.runner, http: undefined, registry, store, redactor: new Redactor({ secrets: [] }), logger: h.logger, clock: systemClock });
    assert.equal((await reloader.request()).ok, true);
    await reloader.close();
    const before = h.fake.requests.length;
    h.fake.enqueue({ toolCalls: [{ name: 'session_search', arguments: { query: 'walrus' } }] }, { text: 'ok' });
    await turn(h, 'the walrus thing?');
    assert.match(toolResults(h.fake.requests[before + 1]).at(-1) ?? '', /> user: My gym locker code is 4417-walrus/);
  } finally {
    await h.stop();
    store.close();
  }
});
