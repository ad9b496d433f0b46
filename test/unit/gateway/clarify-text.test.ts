import assert from 'node:assert/strict';
import { test } from 'node:test';
import { messageAnswer, questionChoices, questionHead, questionText } from '../../../src/gateway/clarify/text.js';

test('a message answers: its number picks that choice, a choice\'s text in any case picks it, anything else is the answer as written', () => {
  const choices = ['main', 'Release branch'];
  assert.deepEqual(messageAnswer({ text: '2', choices }), { answer: 'Release branch', choice: true });
  assert.deepEqual(messageAnswer({ text: ' release BRANCH ', choices }), { answer: 'Release branch', choice: true });
  assert.deepEqual(messageAnswer({ text: '3', choices }), { answer: '3', choice: false });
  assert.deepEqual(messageAnswer({ text: '0', choices }), { answer: '0', choice: false });
  assert.deepEqual(messageAnswer({ text: 'neither, use dev', choices }), { answer: 'neither, use dev', choice: false });
  assert.deepEqual(messageAnswer({ text: '1', choices: [] }), { answer: '1', choice: false });
});

test('buttons carry cl:<id>:<index> (≤ 64 bytes) and cut long labels; a cut label makes the question list the choices in full', () => {
  const long = `Use the ${'very '.repeat(15)}long option`;
  const buttons = questionChoices({ requestId: 'abcdef012345', choices: ['Short', long] });
  assert.deepEqual(buttons.map((b) => b.id), ['cl:abcdef012345:0', 'cl:abcdef012345:1']);
  assert.ok(buttons.every((b) => Buffer.byteLength(b.id) <= 64));
  assert.equal(buttons[1]?.label.length, 60);
  assert.ok(buttons[1]?.label.endsWith('…'));
  assert.equal(questionHead({ question: 'Which?', choices: ['Short', 'Other'], buttons: true }), '❓ Which?');
  assert.equal(questionHead({ question: 'Which?', choices: ['Short', long], buttons: true }), `❓ Which?\n\n1. Short\n2. ${long}`);
  assert.equal(
    questionText({ head: '❓ Which?', choices: ['a', 'b'], buttons: true, timeoutMs: 90_000, group: true }),
    '❓ Which?\n\nPress a button, or reply with your own answer. Only the owner can answer. No answer in 90 s: the agent goes on without one.',
  );
});
