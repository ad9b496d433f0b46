import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { trimReply } from '../../../adapters/email/trim.js';

describe('trimReply', () => {
  test('cuts the history below an "On ... wrote:" line (one line or wrapped over two)', () => {
    assert.equal(trimReply({ text: 'Sounds good.\n\nOn Mon, 1 Jan 2024 at 10:00, Bot <bot@x.org> wrote:\n> earlier\n> text' }), 'Sounds good.');
    assert.equal(trimReply({ text: 'Yes\n\nOn Mon, Jan 1, 2024 at 10:00 AM Bot Name <bot@example.com>\nwrote:\n> quoted' }), 'Yes');
    assert.equal(trimReply({ text: 'Ja.\n\nAm 01.01.2024 um 10:00 schrieb Bot <bot@x.org>:\n> alt' }), 'Ja.');
  });

  test('cuts Outlook\'s original-message block, with or without the dashed marker', () => {
    assert.equal(trimReply({ text: 'Thanks!\n\n-----Original Message-----\nFrom: Bot\nSent: Monday\nSubject: x\n\nold' }), 'Thanks!');
    assert.equal(trimReply({ text: 'Thanks!\n\n________________________________\nFrom: Bot <bot@x.org>\nSent: Monday' }), 'Thanks!');
    assert.equal(trimReply({ text: 'Thanks!\n\nFrom: Bot <bot@x.org>\nSent: Monday, 1 January\nTo: me' }), 'Thanks!');
  });

  test('drops "> " lines and the signature from a "-- " line on', () => {
    assert.equal(trimReply({ text: '> what about Tuesday?\nTuesday works.\n\n-- \nAlice\n+1 555 0100' }), 'Tuesday works.');
    assert.equal(trimReply({ text: 'Fine\r\n--\r\nBob' }), 'Fine');
  });

  test('keeps ordinary text, including lines that merely start with "On"', () => {
    const text = 'On Monday I will call you.\nFrom: the office, as usual.\n- a list item';
    assert.equal(trimReply({ text }), text);
  });

  test('a mail that is nothing but a quote is kept rather than emptied', () => {
    assert.equal(trimReply({ text: '> only a quote' }), '> only a quote');
  });
});
