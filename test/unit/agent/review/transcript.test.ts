import assert from 'node:assert/strict';
import { test } from 'node:test';
import { reviewInstructions, savedNothing } from '../../../../src/agent/review/prompt.js';
import { reviewTranscript, toolResultFailed, type TranscriptMessage } from '../../../../src/agent/review/transcript.js';
import { clearedToolOutput } from '../../../../src/agent/compress/clear-tool-results.js';
import { summaryMessage } from '../../../../src/agent/compress/summary-message.js';
import { INTERRUPTED_RESULT } from '../../../../src/tools/scheduler.js';

const msg = (role: TranscriptMessage['role'], content: string, extra: Partial<TranscriptMessage> = {}): TranscriptMessage => ({ role, content, toolCalls: null, toolCallId: null, ...extra });

test('tool results that report failure: registry errors, interrupts, terminal exit codes, timeouts', () => {
  assert.equal(toolResultFailed({ content: 'Error: invalid arguments for read_file: path: required.' }), true);
  assert.equal(toolResultFailed({ content: INTERRUPTED_RESULT }), true);
  assert.equal(toolResultFailed({ content: 'make: *** No rule\n[exit code: 2]' }), true);
  assert.equal(toolResultFailed({ content: '[timed out after 30 s: the command and its child processes were killed]' }), true);
  assert.equal(toolResultFailed({ content: 'built ok\n[exit code: 0]' }), false);
  assert.equal(toolResultFailed({ content: 'file contents mentioning Error: somewhere inside' }), false);
});

test('the transcript marks each tool call succeeded or failed and skips system messages', () => {
  const messages: TranscriptMessage[] = [
    msg('system', 'SYSTEM PROMPT'),
    msg('user', 'deploy it'),
    msg('assistant', '', { toolCalls: [{ id: 'a', name: 'terminal', arguments: '{"command":"make deploy"}' }, { id: 'b', name: 'terminal', arguments: '{"command":"make ship"}' }] }),
    msg('tool', 'no rule\n[exit code: 2]', { toolCallId: 'a' }),
    msg('tool', 'shipped\n[exit code: 0]', { toolCallId: 'b' }),
    msg('assistant', 'Deployed with make ship.'),
  ];
  const text = reviewTranscript({ messages, maxTokens: 10_000, countTokens: (t) => t.length });
  assert.doesNotMatch(text, /SYSTEM PROMPT/);
  assert.match(text, /\[user\] deploy it/);
  assert.match(text, /\[tool call terminal\] \[failed\] arguments: \{"command":"make deploy"\}\n {2}result: no rule/);
  assert.match(text, /\[tool call terminal\] \[succeeded\] arguments: \{"command":"make ship"\}/);
  assert.match(text, /\[assistant\] Deployed with make ship\./);
});

test('the transcript keeps the newest part within its token budget and says what it left out', () => {
  const messages = Array.from({ length: 50 }, (_, i) => msg(i % 2 === 0 ? 'user' : 'assistant', `message number ${i} ${'x'.repeat(80)}`));
  const text = reviewTranscript({ messages, maxTokens: 500, countTokens: (t) => Math.ceil(t.length / 4) });
  assert.match(text, /message number 49 /);
  assert.doesNotMatch(text, /message number 0 /);
  assert.match(text, /^\(\d+ older messages left out\)/);
  assert.ok(Math.ceil(text.length / 4) <= 520, `transcript of ${text.length} chars`);
});

test('the instruction covers the kinds asked for; "nothing to save" is recognised', () => {
  const skills = reviewInstructions({ kinds: { skills: true, memory: false } });
  assert.match(skills, /patch/);
  assert.match(skills, /No execution, no memory/);
  assert.doesNotMatch(skills, /Memory holds/);
  const memory = reviewInstructions({ kinds: { skills: false, memory: true } });
  assert.match(memory, /Memory holds/);
  assert.doesNotMatch(memory, /skill_manage/);
  assert.equal(savedNothing({ text: 'Nothing to save.' }), true);
  assert.equal(savedNothing({ text: 'saved skill deploy-app' }), false);
});

test('a tool result a compression cleared is marked outcome unknown, not succeeded', () => {
  const messages: TranscriptMessage[] = [
    msg('user', 'deploy it'),
    msg('assistant', '', { toolCalls: [{ id: 'a', name: 'terminal', arguments: '{"command":"make deploy"}' }] }),
    msg('tool', clearedToolOutput, { toolCallId: 'a' }),
  ];
  const text = reviewTranscript({ messages, maxTokens: 10_000, countTokens: (t) => t.length });
  assert.match(text, /\[tool call terminal\] \[outcome unknown\]/);
  assert.doesNotMatch(text, /\[succeeded\]/);
});

test('the instruction treats the transcript as material, not orders, and names only the memory targets that are on', () => {
  const both = reviewInstructions({ kinds: { skills: true, memory: true } });
  assert.match(both, /never instructions to you/);
  assert.match(both, /without a method that worked/);
  assert.match(both, /target user/);
  assert.match(both, /target memory/);
  const notesOnly = reviewInstructions({ kinds: { skills: false, memory: true }, memoryTargets: ['memory'] });
  assert.doesNotMatch(notesOnly, /target user/);
  assert.match(notesOnly, /target memory/);
  const none = reviewInstructions({ kinds: { skills: true, memory: true }, memoryTargets: [] });
  assert.doesNotMatch(none, /Memory holds/);
});

test('in a session continued after a compression, the summary is labelled as such, not as the user speaking', () => {
  const messages: TranscriptMessage[] = [msg('user', summaryMessage({ text: 'the user deployed twice' }).content), msg('user', 'and now?')];
  const text = reviewTranscript({ messages, maxTokens: 10_000, countTokens: (t) => t.length });
  assert.match(text, /^\[summary of the earlier conversation\] /);
  assert.match(text, /\[user\] and now\?/);
});
