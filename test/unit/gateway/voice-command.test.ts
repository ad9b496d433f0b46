import assert from 'node:assert/strict';
import { test } from 'node:test';
import { voiceReply } from '../../../src/gateway/commands/voice.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { FakeClock } from '../../helpers/fake-clock.js';

test('/voice: on, tts, off kept per chat; bare switches on/off; a bad word says the choices; no tts set up and SMS say why nothing is spoken', () => {
  const store = openStore({ path: ':memory:', clock: new FakeClock() });
  try {
    const reply = (args: string, over: { speaks?: boolean; configured?: boolean } = {}): string =>
      voiceReply({ args, store, sessionKey: 'telegram:1', speaks: over.speaks ?? true, configured: over.configured ?? true });
    assert.equal(reply('on'), 'Voice replies for this chat: on: a voice note is answered with a voice note too (and the text).');
    assert.equal(store.chatVoiceMode({ key: 'telegram:1' }), 'on');
    assert.match(reply(''), /: off: text replies only\.$/);
    assert.match(reply(''), /: on: /);
    assert.match(reply('TTS'), /: tts: every reply is also sent as a voice note/);
    assert.equal(reply('loud'), '/voice takes off, on or tts (bare: switch on ⇄ off). Now: tts: every reply is also sent as a voice note (and the text).');
    assert.match(reply('on', { configured: false }), /Text-to-speech is not set up yet, so replies stay text until tts\.provider is set in config\.yaml\.$/);
    assert.equal(reply('on', { speaks: false }), 'Replies here are never spoken: this platform gets text only.');
    assert.equal(store.chatVoiceMode({ key: 'telegram:1' }), 'on');
  } finally {
    store.close();
  }
});
