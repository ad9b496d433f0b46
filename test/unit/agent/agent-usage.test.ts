import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { z } from 'zod';
import type { ModelCallReport } from '../../../src/agent/usage.js';
import { defineTool } from '../../../src/tools/tool.js';
import { startRig, toolContextFor, type Rig } from './support.js';

const echoTool = defineTool({
  name: 'echo',
  description: 'Echoes its text.',
  input: z.object({ text: z.string() }),
  parallel: 'safe',
  handler: async (args) => args.text,
});

/** Runs one turn and collects the usage reports. */
async function turnWithUsage(params: { rig: Rig; userText: string }): Promise<{ reports: ModelCallReport[]; text: string; note: string | undefined }> {
  const reports: ModelCallReport[] = [];
  const result = await params.rig.agent.run({
    systemPrompt: 'You are a test agent.',
    history: [],
    userText: params.userText,
    signal: new AbortController().signal,
    onTextDelta: () => undefined,
    onMessage: () => undefined,
    toolContext: toolContextFor({ workspace: params.rig.workspace }),
    onUsage: (report) => reports.push(report),
  });
  return { reports, text: result.text, note: result.note };
}

describe('usage per model call', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  test('asks for the usage chunk and reports each call once, read through the real openai SDK', async () => {
    rig = await startRig({ tools: [echoTool] });
    rig.fake.enqueue(
      { toolCalls: [{ name: 'echo', arguments: { text: 'x' } }], usage: { prompt_tokens: 1200, completion_tokens: 30, cached_tokens: 1024 } },
      { text: 'done', usage: { prompt_tokens: 1300, completion_tokens: 5, cached_tokens: 1280 } },
    );
    const { reports, text } = await turnWithUsage({ rig, userText: 'go' });
    assert.equal(text, 'done');
    assert.deepEqual(reports, [
      { model: 'fake-model', promptTokens: 1200, completionTokens: 30, cachedTokens: 1024 },
      { model: 'fake-model', promptTokens: 1300, completionTokens: 5, cachedTokens: 1280 },
    ]);
    for (const request of rig.fake.requests) assert.deepEqual(request.body['stream_options'], { include_usage: true });
  });

  test("the fake's own estimate: the second call's prompt shares its prefix with the first (cached tokens)", async () => {
    rig = await startRig({ tools: [echoTool] });
    rig.fake.enqueue({ toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] }, { text: 'done' });
    const { reports } = await turnWithUsage({ rig, userText: 'go' });
    const [first, second] = reports;
    assert.ok(first && second);
    assert.ok((first.promptTokens ?? 0) > 0 && (first.completionTokens ?? 0) > 0);
    assert.equal(first.cachedTokens, 0);
    assert.ok((second.cachedTokens ?? 0) > 0 && (second.cachedTokens ?? 0) < (second.promptTokens ?? 0));
  });

  test('an endpoint that accepts stream_options but reports nothing gives null counts', async () => {
    rig = await startRig({});
    rig.fake.reportUsage = false;
    rig.fake.enqueue({ text: 'hi' });
    const { reports } = await turnWithUsage({ rig, userText: 'go' });
    assert.deepEqual(reports, [{ model: 'fake-model', promptTokens: null, completionTokens: null, cachedTokens: null }]);
  });

  test('an endpoint that refuses stream_options still answers: one retry without it, then it is never sent again', async () => {
    const lines: { level: string; msg: string | undefined }[] = [];
    const logger = {
      debug: (_: object, msg?: string) => lines.push({ level: 'debug', msg }),
      info: (_: object, msg?: string) => lines.push({ level: 'info', msg }),
      warn: (_: object, msg?: string) => lines.push({ level: 'warn', msg }),
    };
    rig = await startRig({ logger });
    rig.fake.refuseStreamOptions = true;
    rig.fake.enqueue({ text: 'first answer' }, { text: 'second answer' });
    const first = await turnWithUsage({ rig, userText: 'one' });
    assert.equal(first.text, 'first answer');
    assert.equal(first.note, undefined, 'no error is shown');
    assert.deepEqual(first.reports, [{ model: 'fake-model', promptTokens: null, completionTokens: null, cachedTokens: null }]);
    const second = await turnWithUsage({ rig, userText: 'two' });
    assert.equal(second.text, 'second answer');
    const sent = rig.fake.requests.map((r) => r.body['stream_options']);
    assert.deepEqual(sent, [{ include_usage: true }, undefined, undefined], 'refused once, retried without, then left out');
    assert.deepEqual(lines.filter((l) => l.level !== 'debug'), [
      { level: 'info', msg: 'the model endpoint refuses stream_options; asking again without it (token usage will not be reported)' },
    ]);
  });

  test('other 400s are not mistaken for a refusal of stream_options', async () => {
    rig = await startRig({});
    rig.fake.enqueue({ status: 400, errorMessage: 'messages: too long' });
    const { text, note, reports } = await turnWithUsage({ rig, userText: 'go' });
    assert.equal(text, '');
    assert.ok(note !== undefined && note !== '', 'the error reaches the user');
    assert.deepEqual(reports, []);
    assert.equal(rig.fake.requests.length, 1);
  });

  test('a 400 about something else that quotes stream_options fails as itself and is not remembered as a refusal', async () => {
    rig = await startRig({});
    // A pydantic-style validation error echoing the request body (stream_options included).
    const echoed = "1 validation error: messages.0.content: Input should be a valid string [input={'stream_options': {'include_usage': True}}]";
    rig.fake.enqueue({ status: 400, errorMessage: echoed }, { status: 400, errorMessage: echoed }, { text: 'later answer' });
    const first = await turnWithUsage({ rig, userText: 'go' });
    assert.equal(first.text, '');
    assert.ok(first.note !== undefined && first.note !== '', 'the error reaches the user');
    const later = await turnWithUsage({ rig, userText: 'again' });
    assert.equal(later.text, 'later answer');
    const sent = rig.fake.requests.map((r) => r.body['stream_options']);
    assert.deepEqual(sent, [{ include_usage: true }, undefined, { include_usage: true }], 'asked once without it, then usage is asked for again');
    assert.equal(later.reports.length, 1);
    assert.notEqual(later.reports[0]?.promptTokens, null, 'usage is still reported');
  });
});
