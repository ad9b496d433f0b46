import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clearedToolOutput, compressHistory } from '../../../../src/agent/compress/index.js';
import type { ChatMessage } from '../../../../src/agent/messages.js';
import { charTokens, fakeSummariser, text, total } from './support.js';

/** A history whose weight is almost all in three old, long tool results; recent turns are small. */
function toolHeavy(): ChatMessage[] {
  const messages: ChatMessage[] = [
    { role: 'user', content: 'Please refactor the parser.' },
    { role: 'assistant', content: 'Sure, which file?' },
  ];
  for (let i = 0; i < 3; i++) {
    messages.push({ role: 'user', content: `look at file ${i}` });
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'read_file', arguments: `{"path":"f${i}"}` } }] });
    messages.push({ role: 'tool', tool_call_id: `c${i}`, name: 'read_file', content: text({ label: `file ${i}`, chars: 8000 }) });
    messages.push({ role: 'assistant', content: `file ${i} read` });
  }
  messages.push({ role: 'user', content: 'now the last one' });
  messages.push({ role: 'assistant', content: null, tool_calls: [{ id: 'last', type: 'function', function: { name: 'read_file', arguments: '{"path":"g"}' } }] });
  messages.push({ role: 'tool', tool_call_id: 'last', name: 'read_file', content: text({ label: 'recent', chars: 400 }) });
  messages.push({ role: 'assistant', content: 'done' });
  return messages;
}

const signal = new AbortController().signal;

test('step 1 alone: old tool results become the placeholder, the tail keeps its output, no model call', async () => {
  const messages = toolHeavy();
  const fake = fakeSummariser();
  const threshold = 1500;
  assert.ok(total(messages) > threshold);
  const result = await compressHistory({ messages, countTokens: charTokens, threshold, summarise: fake.summarise, signal });
  assert.equal(result.outcome, 'cleared');
  assert.equal(fake.requests.length, 0, 'step 1 was enough: no summary call');
  assert.equal(result.summary, undefined);
  assert.equal(result.messages.length, messages.length);
  const tools = result.messages.filter((m) => m.role === 'tool');
  assert.deepEqual(tools.map((m) => m.content === clearedToolOutput), [true, true, true, false]);
  assert.equal(tools[3]?.content, messages.at(-2)?.content, 'the tail tool output is intact');
  assert.equal(result.stats.clearedToolResults, 3);
  assert.equal(result.stats.summarised, 0);
  assert.equal(result.stats.before, total(messages));
  assert.equal(result.stats.after, total(result.messages));
  assert.ok(result.stats.after <= threshold);
  assert.equal((messages[4] as { content: string }).content.length, 8000, 'the input is not changed');
});

test('under the threshold: nothing changes and nothing is called; force summarises even when step 1 is enough', async () => {
  const messages = toolHeavy();
  const fake = fakeSummariser();
  const untouched = await compressHistory({ messages, countTokens: charTokens, threshold: 1_000_000, summarise: fake.summarise, signal });
  assert.equal(untouched.outcome, 'under_threshold');
  assert.deepEqual(untouched.messages, messages);
  assert.equal(untouched.stats.after, untouched.stats.before);
  const forced = await compressHistory({ messages, countTokens: charTokens, threshold: 1500, summarise: fake.summarise, signal, force: true });
  assert.equal(forced.outcome, 'summarised');
  assert.equal(fake.requests.length, 1);
  assert.ok(forced.stats.clearedToolResults >= 1);
});

test('overhead tokens (system prompt + tools) count into the estimate', async () => {
  const messages = toolHeavy();
  const fake = fakeSummariser();
  const threshold = total(messages) + 10;
  const plain = await compressHistory({ messages, countTokens: charTokens, threshold, summarise: fake.summarise, signal });
  assert.equal(plain.outcome, 'under_threshold');
  const withOverhead = await compressHistory({ messages, countTokens: charTokens, threshold, overheadTokens: 100, summarise: fake.summarise, signal });
  assert.equal(withOverhead.outcome, 'cleared');
  assert.equal(withOverhead.stats.before, total(messages) + 100);
});
