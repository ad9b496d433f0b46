import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { dm, lastUserText, owner, telegramHarness } from '../helpers/telegram-harness.js';
import { missingAudioTools, spokenOgg } from '../helpers/audio.js';

const grammar = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'voice', 'reminder.jsgf');
const model = '/usr/share/pocketsphinx/model/en-us';

const missing = missingAudioTools({ tools: ['espeak-ng', 'ffmpeg', 'pocketsphinx_continuous'] });

test('a real spoken voice note through Telegram is transcribed by pocketsphinx (stt.provider command) before the model sees the turn', { skip: missing ?? false, timeout: 60_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-voice-'));
  const command = `pocketsphinx_continuous -infile {input_wav} -jsgf '${grammar}' -dict ${model}/cmudict-en-us.dict -hmm ${model}/en-us -logfn /dev/null`;
  const { h, fake } = await telegramHarness({ config: { stt: { provider: 'command', command } } });
  try {
    h.fake.setResponder(() => ({ text: 'Reminder noted.' }));
    const voice = fake.addFile({ bytes: spokenOgg({ sentence: 'remind me to call the dentist tomorrow', dir }), mimeType: 'audio/ogg', duration: 3 });
    fake.pushMessage({ chat: dm, from: owner, voice });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'Reminder noted.'), timeoutMs: 30_000 });
    const text = lastUserText({ h, index: 0 });
    assert.match(text, /^\[Attached file: .*\.(oga|ogg) \(voice, audio\/ogg, \d+ bytes\)\]\n\[The voice note says:\] remind me to call the dentist tomorrow$/);
  } finally {
    await h.stop();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('stt.provider openai: the audio goes as multipart to /audio/transcriptions with the model and key; a refusal tells the user in one line and the turn goes on', { timeout: 30_000 }, async () => {
  const seen: { auth: string; type: string; body: string }[] = [];
  let refuse = false;
  const api = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ auth: String(req.headers.authorization), type: String(req.headers['content-type']), body: Buffer.concat(chunks).toString('latin1') });
      if (req.url !== '/v1/audio/transcriptions' || refuse) res.writeHead(refuse ? 500 : 404).end('{}');
      else res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: 'what is on my calendar today' }));
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`;
  const { h, fake } = await telegramHarness({ config: { stt: { provider: 'openai', base_url: base, api_key: 'sk-stt-test', model: 'whisper-large' } } });
  try {
    h.fake.setResponder(() => ({ text: 'Nothing today.' }));
    const voice = fake.addFile({ bytes: Buffer.from('OggS fake opus bytes'), mimeType: 'audio/ogg' });
    fake.pushMessage({ chat: dm, from: owner, voice });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'Nothing today.'), timeoutMs: 10_000 });
    assert.match(lastUserText({ h, index: 0 }), /\[The voice note says:\] what is on my calendar today$/);
    const [request] = seen;
    assert.equal(request?.auth, 'Bearer sk-stt-test');
    assert.match(request?.type ?? '', /^multipart\/form-data; boundary=/);
    assert.match(request?.body ?? '', /name="file"; filename="[^"]+\.(oga|ogg)"\r\nContent-Type: audio\/ogg\r\n\r\nOggS fake opus bytes\r\n/);
    assert.match(request?.body ?? '', /name="model"\r\n\r\nwhisper-large\r\n/);

    refuse = true;
    const again = fake.addFile({ bytes: Buffer.from('OggS more bytes'), mimeType: 'audio/ogg' });
    fake.pushMessage({ chat: dm, from: owner, voice: again });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).filter((m) => m.shown.startsWith('Nothing today.')).length === 2, timeoutMs: 10_000 });
    assert.match(lastUserText({ h, index: 1 }), /\[The voice note could not be transcribed: the transcription service answered HTTP 500\.\]$/);
    const shown = fake.chatMessages(dm.id).map((m) => m.shown).at(-1) ?? '';
    assert.match(shown, /^Nothing today\.\n+\(I could not transcribe your voice note: the transcription service answered HTTP 500\.\)$/);
  } finally {
    await h.stop();
    await fake.close();
    await new Promise((resolve) => api.close(resolve));
  }
});

test('without speech-to-text set up a voice note is not transcribed: the model is told, the user gets one line with the answer', { timeout: 30_000 }, async () => {
  const { h, fake } = await telegramHarness({ config: {} });
  try {
    h.fake.setResponder(() => ({ text: 'I got a voice note.' }));
    fake.pushMessage({ chat: dm, from: owner, voice: fake.addFile({ bytes: Buffer.from('OggS bytes'), mimeType: 'audio/ogg' }) });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown.startsWith('I got a voice note.')), timeoutMs: 10_000 });
    await h.runner.waitIdle();
    assert.match(lastUserText({ h, index: 0 }), /\n\[The voice note was not transcribed: no speech-to-text is set up\.\]$/);
    assert.match(fake.chatMessages(dm.id).at(-1)?.shown ?? '', /\(I could not listen to your voice note: speech-to-text is not set up; stt in config\.yaml\.\)$/);
  } finally {
    await h.stop();
    await fake.close();
  }
});
