import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SMS_MAX_LENGTH } from '../../../adapters/sms/adapter.js';
import { splitMessage } from '../../../src/gateway/delivery/split.js';

test('the gateway splitter cuts a 3,500-character answer into three SMS of at most 1600, at sentence ends', () => {
  const sentences: string[] = [];
  for (let i = 0; sentences.join(' ').length < 3500; i++) sentences.push(`Sentence number ${i} says something short but useful.`);
  const text = sentences.join(' ').slice(0, 3500).replace(/\s\S*$/, '.');
  const chunks = splitMessage({ text, limit: SMS_MAX_LENGTH });
  assert.equal(chunks.length, 3);
  for (const chunk of chunks) assert.ok(chunk.length <= SMS_MAX_LENGTH, `${chunk.length} > ${SMS_MAX_LENGTH}`);
  for (const chunk of chunks.slice(0, -1)) assert.match(chunk, /useful\.$/, 'cut at the end of a sentence');
  assert.equal(chunks.join(' '), text);
});
