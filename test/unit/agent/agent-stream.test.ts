import assert from 'node:assert/strict';
import { afterEach, describe, test } from 'node:test';
import { z } from 'zod';
import { defineTool } from '../../../src/tools/tool.js';
import { historyProblems, runTurn, startRig, toolContextFor, type Rig } from './support.js';

const echoTool = defineTool({
  name: 'echo',
  description: 'Echoes its text.',
  input: z.object({ text: z.string(), times: z.number().int().default(1) }),
  parallel: 'safe',
  handler: async (args) => args.text.repeat(args.times),
});

describe('AIAgent streaming', () => {
  let rig: Rig | undefined;
  afterEach(async () => {
    await rig?.close();
    rig = undefined;
  });

  test('a plain answer streams its deltas in order as they arrive', async () => {
    rig = await startRig({});
    rig.fake.enqueue({ chunks: ['Hello', ', ', 'world', '!'], chunkDelayMs: 40 });
    const times: number[] = [];
    const deltas: string[] = [];
    const result = await rig.agent.run({
      systemPrompt: 'You are a test agent.',
      history: [],
      userText: 'hi',
      signal: new AbortController().signal,
      onTextDelta: (delta) => {
        deltas.push(delta);
        times.push(Date.now());
      },
      onMessage: () => undefined,
      toolContext: toolContextFor({ workspace: rig.workspace }),
    });
    assert.deepEqual(deltas, ['Hello', ', ', 'world', '!']);
    assert.deepEqual(result, { outcome: 'final', text: 'Hello, world!', note: undefined, modelCalls: 1 });
    assert.ok((times.at(-1) ?? 0) - (times[0] ?? 0) >= 80, 'deltas were not delivered incrementally');
    const body = rig.fake.requests[0]?.body;
    assert.equal(body?.stream, true);
    assert.equal(body?.model, 'fake-model');
    assert.deepEqual(body?.messages, [
      { role: 'system', content: 'You are a test agent.' },
      { role: 'user', content: 'hi' },
    ]);
    assert.equal(body?.tools, undefined, 'no tools parameter when there are no tools');
  });

  test('streamed tool calls are reassembled by index and their results sent back in order', async () => {
    rig = await startRig({ tools: [echoTool] });
    rig.fake.enqueue(
      {
        toolCalls: [
          { id: 'call_1', name: 'echo', arguments: { text: 'ab', times: 2 } },
          { id: 'call_2', name: 'echo', arguments: '{"text":"long argument text that is split into pieces"}' },
        ],
      },
      { text: 'done' },
    );
    const { result, messages } = await runTurn({ rig, userText: 'go' });
    assert.equal(result.outcome, 'final');
    assert.equal(result.modelCalls, 2);
    assert.deepEqual(messages, [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'echo', arguments: '{"text":"ab","times":2}' } },
          {
            id: 'call_2',
            type: 'function',
            function: { name: 'echo', arguments: '{"text":"long argument text that is split into pieces"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', name: 'echo', content: 'abab' },
      { role: 'tool', tool_call_id: 'call_2', name: 'echo', content: 'long argument text that is split into pieces' },
      { role: 'assistant', content: 'done' },
    ]);
    const second = rig.fake.requests[1]?.body.messages ?? [];
    assert.deepEqual(second.slice(3), [
      { role: 'tool', content: 'abab', tool_call_id: 'call_1' },
      { role: 'tool', content: 'long argument text that is split into pieces', tool_call_id: 'call_2' },
    ]);
    const tools = rig.fake.requests[0]?.body.tools;
    assert.deepEqual(tools, [
      {
        type: 'function',
        function: {
          name: 'echo',
          description: 'Echoes its text.',
          parameters: {
            type: 'object',
            // zod's ±(2^53-1) bounds of an int are left out of what the model is sent (the arguments are still checked against them).
            properties: { text: { type: 'string' }, times: { type: 'integer', default: 1 } },
            required: ['text'],
          },
        },
      },
    ]);
  });

  test('text of a later round is separated from earlier text by a blank line', async () => {
    rig = await startRig({ tools: [echoTool] });
    rig.fake.enqueue(
      { text: 'Let me check.', toolCalls: [{ name: 'echo', arguments: { text: 'x' } }] },
      { toolCalls: [{ name: 'echo', arguments: { text: 'y' } }] },
      { text: 'All done.' },
    );
    const { result, deltas, messages } = await runTurn({ rig, userText: 'go' });
    assert.equal(result.text, 'Let me check.\n\nAll done.');
    assert.equal(deltas.join(''), result.text);
    assert.deepEqual(historyProblems({ messages }), []);
    assert.equal(messages[1]?.role === 'assistant' ? messages[1].content : undefined, 'Let me check.');
  });

  test('a bad tool call (unknown tool, invalid JSON, schema failure) becomes an error result the model reads', async () => {
    rig = await startRig({ tools: [echoTool] });
    rig.fake.enqueue(
      {
        toolCalls: [
          { id: 'u', name: 'nope', arguments: {} },
          { id: 'j', name: 'echo', arguments: '{"text": ' },
          { id: 's', name: 'echo', arguments: { text: 5 } },
        ],
      },
      { text: 'sorry' },
    );
    const { result, messages } = await runTurn({ rig, userText: 'go' });
    assert.equal(result.outcome, 'final');
    const results = messages.filter((m) => m.role === 'tool').map((m) => m.content);
    assert.match(results[0] ?? '', /unknown tool "nope".*Available tools: echo/);
    assert.match(results[1] ?? '', /not valid JSON/);
    assert.match(results[2] ?? '', /invalid arguments for echo: text: .*expected string/);
  });

  test('an empty reply ends the turn with a note', async () => {
    rig = await startRig({});
    rig.fake.enqueue({ text: '' });
    const { result } = await runTurn({ rig, userText: 'hi' });
    assert.equal(result.outcome, 'final');
    assert.match(result.note ?? '', /empty reply/);
  });
});
