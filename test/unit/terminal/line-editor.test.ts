import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LineEditor, type EditorAction, type KeyPress } from '../../../adapters/terminal/line-editor.js';
import { finishedLength, renderMarkdown } from '../../../adapters/terminal/markdown.js';
import { displayWidth } from '../../../adapters/terminal/width.js';

/** Types text as separate character keys. */
function typeText(editor: LineEditor, text: string): void {
  for (const ch of text) editor.key({ str: ch, key: { name: ch, sequence: ch } });
}

function press(editor: LineEditor, key: KeyPress, str?: string): EditorAction {
  return editor.key({ str, key });
}

test('the line editor: Enter submits, Ctrl-C interrupts, Ctrl-D leaves only on an empty line, Ctrl-L clears the screen', () => {
  const editor = new LineEditor();
  typeText(editor, 'helo');
  press(editor, { name: 'left' });
  typeText(editor, 'l');
  assert.equal(editor.text, 'hello');
  assert.deepEqual(press(editor, { name: 'd', ctrl: true }), { kind: 'changed' }, 'Ctrl-D inside a line deletes');
  assert.equal(editor.text, 'hell');
  assert.deepEqual(press(editor, { name: 'l', ctrl: true }), { kind: 'clear-screen' });
  assert.equal(editor.text, 'hell', 'Ctrl-L is not text');
  assert.deepEqual(press(editor, { name: 'c', ctrl: true }), { kind: 'interrupt' });
  assert.deepEqual(press(editor, { name: 'return' }, '\r'), { kind: 'submit', text: 'hell' });
  assert.equal(editor.text, '');
  assert.deepEqual(press(editor, { name: 'd', ctrl: true }), { kind: 'eof' });
  press(editor, { name: 'up' });
  assert.equal(editor.text, 'hell', 'Up brings back the last line');
  press(editor, { name: 'u', ctrl: true });
  assert.equal(editor.text, '');
});

test('the line editor: inside a bracketed paste Enter is a line break; the paste is sent whole on the next Enter', () => {
  const editor = new LineEditor();
  press(editor, { name: 'paste-start' });
  typeText(editor, 'one');
  assert.deepEqual(press(editor, { name: 'return' }, '\r'), { kind: 'changed' });
  typeText(editor, 'two');
  press(editor, { name: 'enter' }, '\n');
  typeText(editor, 'three');
  press(editor, { name: 'paste-end' });
  assert.deepEqual(press(editor, { name: 'return' }, '\r'), { kind: 'submit', text: 'one\ntwo\nthree' });
});

test('streamed Markdown: only blocks followed by another count as finished; rendering drops the asterisks', () => {
  assert.equal(finishedLength({ text: 'a paragraph still growing' }), 0);
  const text = 'First paragraph.\n\nSecond one, still';
  assert.equal(text.slice(0, finishedLength({ text })), 'First paragraph.\n\n');
  // An open code fence is one unfinished block, blank lines inside it notwithstanding.
  const fence = 'Look:\n\n```js\nconst a = 1;\n\nconst b = 2;\n';
  assert.equal(fence.slice(0, finishedLength({ text: fence })), 'Look:\n\n');
  const shown = renderMarkdown({ text: 'Some **bold** words.' });
  assert.ok(!shown.includes('**') && shown.includes('bold'), JSON.stringify(shown));
  assert.equal(displayWidth({ text: '\u001b[1m日本\u001b[22m ok' }), 7);
});
