import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clearedToolOutput, compressHistory, headEnd, isSummaryMessage, summaryMessage, tailStart, toolPairingProblems } from '../../../../src/agent/compress/index.js';
import { unansweredToolCalls, type ChatMessage } from '../../../../src/agent/messages.js';
import { historyProblems } from '../support.js';
import { charTokens, fakeSummariser, generateHistory, rng, total } from './support.js';

const signal = new AbortController().signal;

/** True when `out` is `original` with some tool results replaced by the placeholder. */
function sameButCleared(out: ChatMessage, original: ChatMessage): boolean {
  if (out.role === 'tool' && original.role === 'tool' && out.content === clearedToolOutput) return out.tool_call_id === original.tool_call_id;
  return JSON.stringify(out) === JSON.stringify(original);
}

test('generated histories: no orphan tool results, no cut tool groups, head and tail intact, under the threshold', async () => {
  let summarisedRuns = 0;
  for (let seed = 1; seed <= 400; seed++) {
    const random = rng(seed * 7919);
    const generated = generateHistory({ seed, turns: 2 + Math.floor(random() * 30) });
    // Every third history was compressed before: an earlier summary right after the first exchange.
    const firstReply = generated.findIndex((m, i) => i > 0 && m.role === 'assistant' && (m.tool_calls ?? []).length === 0);
    const earlier = seed % 3 === 0 ? [summaryMessage({ text: `EARLIER NOTE ${seed}` })] : [];
    const messages = [...generated.slice(0, firstReply + 1), ...earlier, ...generated.slice(firstReply + 1)];
    const full = total(messages);
    const threshold = Math.max(300, Math.floor(full * (0.05 + random() * 0.6)));
    const fake = fakeSummariser();
    const result = await compressHistory({ messages, countTokens: charTokens, threshold, summarise: fake.summarise, signal, force: seed % 2 === 0 });
    const label = `seed ${seed} (threshold ${threshold}, ${messages.length} messages, ${full} tokens)`;
    assert.deepEqual(toolPairingProblems({ messages: result.messages }), [], label);
    assert.deepEqual(historyProblems({ messages: result.messages }), [], label);
    assert.deepEqual(unansweredToolCalls({ messages: result.messages }), [], label);
    assert.ok(result.messages.length > 0, label);
    assert.equal(result.stats.after, total(result.messages), label);
    const at = result.messages.findIndex((m) => isSummaryMessage(m));
    if (result.outcome !== 'summarised') {
      assert.equal(at, messages.findIndex((m) => isSummaryMessage(m)), label);
      assert.equal(result.messages.length, messages.length, label);
      result.messages.forEach((m, i) => assert.ok(sameButCleared(m, messages[i] as ChatMessage), `${label}: message ${i}`));
      continue;
    }
    summarisedRuns++;
    assert.equal(result.messages.filter((m) => isSummaryMessage(m)).length, 1, `${label}: one summary`);
    if (earlier.length > 0) assert.match(fake.requests[0]?.user ?? '', new RegExp(`<previous-summary>\\nEARLIER NOTE ${seed}\\n`), `${label}: update`);
    const head = result.messages.slice(0, at);
    const tail = result.messages.slice(at + 1);
    // The head is the first exchange: the first user message and the assistant's reply (with its tool rounds).
    assert.deepEqual(head[0], messages[0], label);
    head.forEach((m, i) => assert.ok(sameButCleared(m, messages[i] as ChatMessage), `${label}: head ${i}`));
    if (total(messages.slice(0, firstReply + 1)) <= Math.floor(0.2 * threshold)) assert.equal(head.length, firstReply + 1, `${label}: whole first exchange`);
    // The tail is the input's end, verbatim, starting at a safe cut.
    assert.ok(tail.length > 0, label);
    assert.deepEqual(tail, messages.slice(messages.length - tail.length), label);
    assert.notEqual(tail[0]?.role, 'tool', label);
    assert.equal(result.stats.summarised, messages.length - head.length - tail.length, label);
    // The tail is sized in tokens: within 0.2 × threshold unless it had to grow to keep the last message or a tool group.
    const tailTokens = total(tail);
    if (tailTokens > 0.2 * threshold) {
      const lastGroupStart = messages.length - tail.length;
      const grew = tail.length === 1 || tail[0]?.role === 'assistant';
      assert.ok(grew, `${label}: tail of ${tailTokens} tokens at ${lastGroupStart} is over budget without a reason`);
    }
    if (head.length + tail.length + 1 < messages.length && total(head) + total(tail) + 300 <= threshold) assert.ok(result.stats.after <= threshold, `${label}: after ${result.stats.after}`);
  }
  assert.ok(summarisedRuns > 200, `only ${summarisedRuns} runs reached step 3`);
});

/** user, assistant(call a, b), tool a, tool b, assistant text, user, assistant(call c), tool c, assistant text. */
function grouped(): ChatMessage[] {
  const call = (id: string): { id: string; type: 'function'; function: { name: string; arguments: string } } => ({ id, type: 'function', function: { name: 't', arguments: '{}' } });
  return [
    { role: 'user', content: 'first' },
    { role: 'assistant', content: null, tool_calls: [call('a'), call('b')] },
    { role: 'tool', tool_call_id: 'a', content: 'A' },
    { role: 'tool', tool_call_id: 'b', content: 'B' },
    { role: 'assistant', content: 'reply one' },
    { role: 'user', content: 'second' },
    { role: 'assistant', content: null, tool_calls: [call('c')] },
    { role: 'tool', tool_call_id: 'c', content: 'C' },
    { role: 'assistant', content: 'reply two' },
  ];
}

test('tail start: a cut inside a tool group moves back to the assistant that called (forward when that is the head)', () => {
  const messages = grouped();
  const ones = messages.map(() => 10);
  // Budget of 2 messages would start the tail at the tool result "c": it moves back to the call.
  assert.equal(tailStart({ messages, tokens: ones, maxTokens: 20, minStart: 5 }), 6);
  // Budget of 3 messages starts at the call itself: already safe.
  assert.equal(tailStart({ messages, tokens: ones, maxTokens: 30, minStart: 5 }), 6);
  // Budget of 6 messages would start at tool "b"; moving back would reach the call at 1, inside the head (min 1): forward instead.
  assert.equal(tailStart({ messages, tokens: ones, maxTokens: 60, minStart: 2 }), 4);
  // The last message alone is over budget: still kept.
  assert.equal(tailStart({ messages, tokens: ones, maxTokens: 5, minStart: 5 }), 8);
  // Every position of the cut gives a safe start.
  for (let budget = 0; budget <= 100; budget += 5) {
    for (let min = 0; min <= messages.length; min++) {
      const start = tailStart({ messages, tokens: ones, maxTokens: budget, minStart: min });
      assert.ok(start >= min && start <= messages.length, `budget ${budget} min ${min}: ${start}`);
      assert.notEqual(messages[start]?.role, 'tool', `budget ${budget} min ${min}: tail starts with a tool result`);
    }
  }
});

test('head end: the first exchange with its tool round; capped at a safe cut; empty when the history starts with a summary', () => {
  const messages = grouped();
  const ones = messages.map(() => 10);
  assert.equal(headEnd({ messages, tokens: ones, maxTokens: 1000 }), 5);
  // Over the cap after the call: the cut falls before the tool group, never inside it.
  assert.equal(headEnd({ messages, tokens: ones, maxTokens: 25 }), 1);
  assert.equal(headEnd({ messages, tokens: ones, maxTokens: 0 }), 1, 'at least the first user message');
  const summary: ChatMessage = { role: 'user', content: '[CONTEXT SUMMARY: hand-off note from an earlier context window]\nold' };
  assert.equal(headEnd({ messages: [summary, ...messages], tokens: [10, ...ones], maxTokens: 1000 }), 0);
});

test('a large overhead (system prompt + tools) caps the tail at half the room it leaves, so the result fits the threshold', async () => {
  // 20 exchanges of ~60 tokens; the threshold 1000 leaves 300 tokens for messages next to a 700-token overhead.
  const messages: ChatMessage[] = [];
  for (let i = 0; i < 20; i++) messages.push({ role: 'user', content: `question ${i} `.repeat(10) }, { role: 'assistant', content: `answer ${i} `.repeat(10) });
  const fake = fakeSummariser(() => 'NOTE.');
  const result = await compressHistory({ messages, countTokens: charTokens, threshold: 1000, overheadTokens: 700, summarise: fake.summarise, signal });
  assert.equal(result.outcome, 'summarised');
  const at = result.messages.findIndex((m) => isSummaryMessage(m));
  const tailTokens = total(result.messages.slice(at + 1));
  // Without the cap the tail is 0.2 × 1000 = 200 tokens and head + summary + tail no longer fit the 300 left.
  assert.ok(tailTokens <= 150, `tail of ${tailTokens} tokens is at most half the 300-token room`);
  assert.ok(result.stats.after <= 1000, `after ${result.stats.after} fits the threshold`);
});
