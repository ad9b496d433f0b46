import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { z } from 'zod';
import { ToolRegistry } from '../../../src/tools/registry.js';
import { defineTool, type ToolContext } from '../../../src/tools/tool.js';
import { ToolError } from '../../../src/core/errors.js';
import { systemClock } from '../../../src/core/clock.js';

const ctx: ToolContext = {
  workspace: '/tmp',
  confineToWorkspace: true,
  signal: new AbortController().signal,
  clock: systemClock,
  terminal: { timeoutMs: 1_000, maxOutputBytes: 1_000 },
};

const add = defineTool({
  name: 'add',
  description: 'Adds two numbers.',
  input: z.object({ a: z.number(), b: z.number().default(0) }),
  parallel: 'safe',
  handler: async (args) => String(args.a + args.b),
});
const failing = defineTool({
  name: 'failing',
  description: 'Always fails.',
  input: z.object({ readable: z.boolean().optional() }),
  parallel: 'never',
  handler: async (args) => {
    if (args.readable) throw new ToolError('the widget is jammed; unjam it first');
    throw new Error('kaboom');
  },
});

function call(name: string, args: string): { id: string; name: string; arguments: string } {
  return { id: 'c1', name, arguments: args };
}

describe('ToolRegistry', () => {
  const registry = new ToolRegistry({ tools: [add, failing] });

  test('runs a valid call with schema defaults applied', async () => {
    assert.deepEqual(await registry.execute({ call: call('add', '{"a":2,"b":3}'), ctx }), { content: '5', isError: false });
    assert.deepEqual(await registry.execute({ call: call('add', '{"a":2}'), ctx }), { content: '2', isError: false });
  });

  test('unknown tools, invalid JSON, schema failures and exceptions become error results', async () => {
    const unknown = await registry.execute({ call: call('nope', '{}'), ctx });
    assert.deepEqual(unknown, { content: 'Error: unknown tool "nope". Available tools: add, failing.', isError: true });
    const json = await registry.execute({ call: call('add', '{a:1}'), ctx });
    assert.equal(json.isError, true);
    assert.match(json.content, /^Error: the arguments for add are not valid JSON \(.+\)\. Send one JSON object/);
    const schema = await registry.execute({ call: call('add', '{"a":"x","b":[]}'), ctx });
    assert.equal(schema.isError, true);
    assert.match(schema.content, /^Error: invalid arguments for add: a: .*expected number.*; b: .*expected number/);
    const empty = await registry.execute({ call: call('add', ''), ctx });
    assert.match(empty.content, /invalid arguments for add: a: /);
    const thrown = await registry.execute({ call: call('failing', '{}'), ctx });
    assert.deepEqual(thrown, { content: 'Error: failing failed: kaboom', isError: true });
    const readable = await registry.execute({ call: call('failing', '{"readable":true}'), ctx });
    assert.deepEqual(readable, { content: 'Error: the widget is jammed; unjam it first', isError: true });
  });

  test('toOpenAITools exports input JSON Schemas without $schema', () => {
    const [first] = registry.toOpenAITools();
    assert.deepEqual(first, {
      type: 'function',
      function: {
        name: 'add',
        description: 'Adds two numbers.',
        parameters: {
          type: 'object',
          properties: { a: { type: 'number' }, b: { type: 'number', default: 0 } },
          required: ['a'],
        },
      },
    });
  });

  test('what the model is sent leaves out minLength 1 and the safe-integer bounds of .int(); the arguments are still checked against them', async () => {
    const bounded = defineTool({
      name: 'bounded',
      description: 'Bounded.',
      input: z.object({ path: z.string().min(1), line: z.number().int().min(1).optional(), n: z.number().int().max(5).optional(), tags: z.array(z.string().min(2)).max(3).optional(), mode: z.enum(['a', 'b']).default('a') }),
      parallel: 'safe',
      handler: async (args) => JSON.stringify(args),
    });
    const r = new ToolRegistry({ tools: [bounded] });
    assert.deepEqual(r.toOpenAITools()[0]?.function.parameters, {
      type: 'object',
      properties: {
        path: { type: 'string' },
        line: { type: 'integer', minimum: 1 },
        n: { type: 'integer', maximum: 5 },
        tags: { type: 'array', maxItems: 3, items: { type: 'string', minLength: 2 } },
        mode: { type: 'string', enum: ['a', 'b'], default: 'a' },
      },
      required: ['path'],
    });
    assert.match((await r.execute({ call: call('bounded', '{"path":""}'), ctx })).content, /^Error: invalid arguments for bounded: path: /);
    assert.match((await r.execute({ call: call('bounded', `{"path":"x","line":${Number.MAX_SAFE_INTEGER + 2}}`), ctx })).content, /^Error: invalid arguments for bounded: line: /);
  });

  test('register refuses duplicates and invalid names; get and list see registered tools', () => {
    const r = new ToolRegistry();
    r.register(add);
    assert.throws(() => r.register(add), /registered twice/);
    assert.throws(() => r.register({ ...add, name: 'has space' }), /invalid/);
    assert.equal(r.get('add'), add);
    assert.equal(r.get('missing'), undefined);
    assert.deepEqual(r.list().map((t) => t.name), ['add']);
  });

  test('oversized results are capped with a note', async () => {
    const big = defineTool({ name: 'big', description: 'x', input: z.object({}), parallel: 'safe', handler: async () => 'y'.repeat(500) });
    const r = new ToolRegistry({ tools: [big], maxResultChars: 100 });
    const result = await r.execute({ call: call('big', '{}'), ctx });
    assert.equal(result.content, `${'y'.repeat(100)}\n[truncated: 400 more characters not shown]`);
  });
});
