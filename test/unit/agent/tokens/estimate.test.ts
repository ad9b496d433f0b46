import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { ChatCompletionMessageParam, ChatCompletionTool } from 'openai/resources/chat/completions';
import { TokenCountCache } from '../../../../src/agent/tokens/cache.js';
import { countText, encodingFor } from '../../../../src/agent/tokens/encoding.js';
import { estimatePromptTokens } from '../../../../src/agent/tokens/estimate.js';

// OpenAI cookbook "How to count tokens with tiktoken": these messages cost 129 prompt tokens on gpt-3.5-turbo and
// gpt-4 and 124 on gpt-4o, as the API reports them.
const cookbook: ChatCompletionMessageParam[] = [
  { role: 'system', content: 'You are a helpful, pattern-following assistant that translates corporate jargon into plain English.' },
  { role: 'system', name: 'example_user', content: 'New synergies will help drive top-line growth.' },
  { role: 'system', name: 'example_assistant', content: 'Things working well together will increase revenue.' },
  { role: 'system', name: 'example_user', content: "Let's circle back when we have more bandwidth to touch base on opportunities for increased leverage." },
  { role: 'system', name: 'example_assistant', content: "Let's talk later when we're less busy about how to do better." },
  { role: 'user', content: "This late pivot means we don't have time to boil the ocean for the client deliverable." },
];

const tools: ChatCompletionTool[] = [
  {
    type: 'function',
    function: { name: 'read_file', description: 'Reads a file of the workspace.', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  },
];

describe('prompt token estimate', () => {
  test("matches the API's counts of the cookbook request: 124 on gpt-4o (o200k), 129 on gpt-4 and gpt-3.5 (cl100k)", () => {
    assert.equal(estimatePromptTokens({ request: { model: 'gpt-4o', messages: cookbook } }), 124);
    assert.equal(estimatePromptTokens({ request: { model: 'openai/gpt-4o-mini', messages: cookbook } }), 124);
    assert.equal(estimatePromptTokens({ request: { model: 'gpt-4-0613', messages: cookbook } }), 129);
    assert.equal(estimatePromptTokens({ request: { model: 'gpt-3.5-turbo', messages: cookbook } }), 129);
  });

  test('picks the encoding by model name', () => {
    for (const model of ['gpt-4o', 'gpt-4.1-mini', 'gpt-5', 'o1-preview', 'o3-mini', 'o4-mini', 'openai/gpt-oss-120b']) assert.equal(encodingFor({ model }), 'o200k_base', model);
    for (const model of ['gpt-4', 'gpt-4-turbo', 'gpt-3.5-turbo-0125']) assert.equal(encodingFor({ model }), 'cl100k_base', model);
    for (const model of ['llama-3.1-70b', 'qwen2.5', 'fake-model', 'claude-sonnet-4', 'omni']) assert.equal(encodingFor({ model }), 'ratio', model);
  });

  test('an unknown model is counted at 3.5 UTF-8 bytes a token, rounded up per text', () => {
    const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'x'.repeat(35) }];
    // 3 framing + ceil(4 / 3.5) for "user" + 10 for the content + 3 reply priming
    assert.equal(estimatePromptTokens({ request: { model: 'llama-3.1-70b', messages } }), 3 + 2 + 10 + 3);
    // The ratio errs high: more than the o200k count of ordinary English.
    assert.ok(estimatePromptTokens({ request: { model: 'some-local-model', messages: cookbook } }) > 124);
    // Bytes, not characters: 35 CJK characters (105 bytes, about 35 o200k tokens) count 30, not 10.
    assert.equal(countText({ text: '你'.repeat(35), encoding: 'ratio' }), 30);
    assert.ok(countText({ text: '你好，今天天气很好。我们去公园散步吧，然后一起吃午饭。', encoding: 'ratio' }) >= 0.75 * countText({ text: '你好，今天天气很好。我们去公园散步吧，然后一起吃午饭。', encoding: 'o200k_base' }));
  });

  test('counts tool calls with their arguments, tool results and the tools JSON', () => {
    const args = JSON.stringify({ path: 'notes/a-rather-long-file-name-for-counting.md' });
    const base: ChatCompletionMessageParam[] = [{ role: 'user', content: 'read it' }];
    const withCall: ChatCompletionMessageParam[] = [
      ...base,
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: args } }] },
    ];
    const withResult: ChatCompletionMessageParam[] = [...withCall, { role: 'tool', tool_call_id: 'call_1', content: 'The file says hello to everyone reading it.' }];
    const model = 'gpt-4o';
    const count = (text: string): number => countText({ text, encoding: 'o200k_base' });
    const a = estimatePromptTokens({ request: { model, messages: base } });
    const b = estimatePromptTokens({ request: { model, messages: withCall } });
    const c = estimatePromptTokens({ request: { model, messages: withResult } });
    const d = estimatePromptTokens({ request: { model, messages: withResult, tools } });
    assert.ok(b - a >= count(args) + count('read_file'), `tool call adds its arguments (${b - a})`);
    assert.ok(c - b >= count('The file says hello to everyone reading it.'), `tool result adds its content (${c - b})`);
    assert.ok(d - c >= count(JSON.stringify(tools)), `tools add their JSON (${d - c})`);
  });

  test('text parts of array content count; the cache gives the same figure and remembers each long text once', () => {
    const long = 'A long message that is the same on every call of the session. '.repeat(20);
    const messages: ChatCompletionMessageParam[] = [
      { role: 'system', content: long },
      { role: 'user', content: [{ type: 'text', text: long }] },
    ];
    const cache = new TokenCountCache();
    const first = estimatePromptTokens({ request: { model: 'gpt-4o', messages }, cache });
    const second = estimatePromptTokens({ request: { model: 'gpt-4o', messages }, cache });
    assert.equal(first, second);
    const o200k = (t: string): number => countText({ text: t, encoding: 'o200k_base' });
    // reply priming + (framing + role + content) for each message
    assert.equal(first, 3 + (3 + o200k('system') + o200k(long)) + (3 + o200k('user') + o200k(long)));
    assert.equal(cache.size, 1);
  });

  test('the cache is bounded: the least recently used text goes first', () => {
    const cache = new TokenCountCache({ maxEntries: 2 });
    const text = (n: number): string => `${n} `.repeat(40);
    cache.count({ text: text(1), encoding: 'o200k_base' });
    cache.count({ text: text(2), encoding: 'o200k_base' });
    cache.count({ text: text(1), encoding: 'o200k_base' });
    cache.count({ text: text(3), encoding: 'o200k_base' });
    assert.equal(cache.size, 2);
  });
});
