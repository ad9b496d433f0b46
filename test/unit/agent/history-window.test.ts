import assert from 'node:assert/strict';
import { test } from 'node:test';
import { windowHistory } from '../../../src/agent/history-window.js';
import type { ChatMessage } from '../../../src/agent/messages.js';

const turn = (n: number, body: string): ChatMessage[] => [
  { role: 'user', content: `question ${n}` },
  { role: 'assistant', content: null, tool_calls: [{ id: `c${n}`, type: 'function', function: { name: 'read_file', arguments: '{"path":"a"}' } }] },
  { role: 'tool', tool_call_id: `c${n}`, content: body },
  { role: 'assistant', content: `answer ${n}` },
];

test('keeps everything that fits', () => {
  const history = [...turn(1, 'x'), ...turn(2, 'y')];
  assert.deepEqual(windowHistory({ messages: history, maxChars: 10_000 }), history);
});

test('drops whole old turns, never orphaning a tool result', () => {
  const history = [...turn(1, 'x'.repeat(500)), ...turn(2, 'y'.repeat(500)), ...turn(3, 'z')];
  const kept = windowHistory({ messages: history, maxChars: 560 });
  assert.equal(kept[0]?.role, 'user');
  assert.equal(kept[0]?.content, 'question 3');
  const ids = new Set(kept.flatMap((m) => (m.role === 'assistant' && m.tool_calls ? m.tool_calls.map((c) => c.id) : [])));
  for (const m of kept) if (m.role === 'tool') assert.ok(ids.has(m.tool_call_id));
});

test('a single turn larger than the window is left out entirely', () => {
  assert.deepEqual(windowHistory({ messages: turn(1, 'x'.repeat(5000)), maxChars: 100 }), []);
});
