import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { dm, owner, telegramHarness } from '../helpers/telegram-harness.js';
import { missingAudioTools, probeAudio, spokenOgg, spokenWav } from '../helpers/audio.js';
import type { FakeTelegram } from '../fakes/telegram/index.js';
import { FakeDiscord } from '../fakes/discord/index.js';
import { startHarness } from '../helpers/harness.js';
import { discordAdapter, discordToken } from '../helpers/discord.js';
import type { DiscordAdapter } from '../../adapters/discord/adapter.js';
import { slashCommands } from '../../adapters/discord/slash-commands.js';

const missing = missingAudioTools({ tools: ['espeak-ng', 'ffmpeg', 'ffprobe'] });

/** The bot's messages in the owner's chat: its texts and its voice notes. */
function sent(fake: FakeTelegram): { texts: string[]; voices: Buffer[] } {
  const messages = fake.chatMessages(dm.id);
  return { texts: messages.filter((m) => m.kind === 'text').map((m) => m.shown), voices: messages.filter((m) => m.kind === 'voice').map((m) => m.file?.bytes ?? Buffer.alloc(0)) };
}

test('/voice on (tts.provider command, espeak-ng): a voice note is answered with the text and a sendVoice that ffprobe reads as Opus in OGG; a text message gets text only', { skip: missing ?? false, timeout: 60_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-voice-out-'));
  const { h, fake } = await telegramHarness({ config: { tts: { provider: 'command', command: 'espeak-ng -v en-us -w {output} -f {input}' } } });
  try {
    fake.pushMessage({ chat: dm, from: owner, text: '/voice on' });
    await fake.waitFor({ predicate: (f) => sent(f).texts.some((t) => t.startsWith('Voice replies for this chat: on')), timeoutMs: 10_000 });

    h.fake.setResponder(() => ({ text: 'Your dentist is at **ten** tomorrow. See https://example.com/agenda for the rest.' }));
    fake.pushMessage({ chat: dm, from: owner, voice: fake.addFile({ bytes: spokenOgg({ sentence: 'when is the dentist', dir }), mimeType: 'audio/ogg', duration: 2 }) });
    await fake.waitFor({ predicate: (f) => sent(f).voices.length === 1, timeoutMs: 30_000 });
    await h.runner.waitIdle();
    const first = sent(fake);
    assert.ok(first.texts.some((t) => t.startsWith('Your dentist is at ten tomorrow.')), first.texts.join(' | '));
    const probe = probeAudio({ bytes: first.voices[0] ?? Buffer.alloc(0), dir });
    assert.equal(probe.codec, 'opus');
    assert.match(probe.format, /\bogg\b/);
    assert.equal(probe.channels, 1);
    assert.ok(probe.seconds > 1, `${probe.seconds}s of speech`);
    assert.deepEqual(readdirSync(path.join(h.profile.cacheDir, 'voice-replies')), [], 'the voice note is removed once delivered');

    h.fake.setResponder(() => ({ text: 'Text for text.' }));
    fake.pushMessage({ chat: dm, from: owner, text: 'and what about Friday?' });
    await fake.waitFor({ predicate: (f) => sent(f).texts.includes('Text for text.'), timeoutMs: 10_000 });
    await h.runner.waitIdle();
    assert.equal(sent(fake).voices.length, 1, 'a text message is answered with text only');

    fake.pushMessage({ chat: dm, from: owner, text: '/voice off' });
    await fake.waitFor({ predicate: (f) => sent(f).texts.some((t) => t.startsWith('Voice replies for this chat: off')), timeoutMs: 10_000 });
    h.fake.setResponder(() => ({ text: 'Quiet now.' }));
    fake.pushMessage({ chat: dm, from: owner, voice: fake.addFile({ bytes: spokenOgg({ sentence: 'thank you', dir }), mimeType: 'audio/ogg', duration: 1 }) });
    await fake.waitFor({ predicate: (f) => sent(f).texts.some((t) => t.startsWith('Quiet now.')), timeoutMs: 10_000 });
    await h.runner.waitIdle();
    assert.equal(sent(fake).voices.length, 1, '/voice off: no voice note');
  } finally {
    await h.stop();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('tts.provider openai: /voice tts speaks every reply through POST /audio/speech (JSON checked, code and links not read aloud), chunked at tts.chunk_chars; a refusal costs only the voice', { skip: missing ?? false, timeout: 60_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-voice-out-'));
  const speech = spokenWav({ sentence: 'this is the answer', dir });
  const seen: { url: string; auth: string; body: Record<string, unknown> }[] = [];
  let refuse = false;
  const api = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ url: String(req.url), auth: String(req.headers.authorization), body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown> });
      if (req.url !== '/v1/audio/speech' || refuse) res.writeHead(refuse ? 500 : 404).end('{}');
      else res.writeHead(200, { 'content-type': 'audio/wav' }).end(speech);
    });
  });
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}/v1`;
  const { h, fake } = await telegramHarness({ config: { tts: { provider: 'openai', base_url: base, api_key: 'sk-tts-test', model: 'tts-1', voice: 'nova', chunk_chars: 100, max_chunks: 2 } } });
  try {
    fake.pushMessage({ chat: dm, from: owner, text: '/voice tts' });
    await fake.waitFor({ predicate: (f) => sent(f).texts.some((t) => t.startsWith('Voice replies for this chat: tts')), timeoutMs: 10_000 });

    h.fake.setResponder(() => ({ text: 'Run this:\n```sh\nls -la /tmp\n```\nThen read [the guide](https://example.com/guide).' }));
    fake.pushMessage({ chat: dm, from: owner, text: 'how do I list files?' });
    await fake.waitFor({ predicate: (f) => sent(f).voices.length === 1, timeoutMs: 30_000 });
    await h.runner.waitIdle();
    const [request] = seen;
    assert.equal(request?.url, '/v1/audio/speech');
    assert.equal(request?.auth, 'Bearer sk-tts-test');
    assert.deepEqual(request?.body, { model: 'tts-1', input: 'Run this:\n(The code is in the text.)\nThen read the guide.', voice: 'nova', response_format: 'mp3' });
    const probe = probeAudio({ bytes: sent(fake).voices[0] ?? Buffer.alloc(0), dir });
    assert.deepEqual([probe.codec, probe.channels], ['opus', 1]);

    const sentence = 'This sentence is here to make the reply long enough for several voice notes.';
    h.fake.setResponder(() => ({ text: [sentence, sentence, sentence, sentence].join(' ') }));
    fake.pushMessage({ chat: dm, from: owner, text: 'tell me more' });
    await fake.waitFor({ predicate: (f) => sent(f).voices.length === 3, timeoutMs: 30_000 });
    await h.runner.waitIdle();
    assert.equal(sent(fake).voices.length, 3, 'two voice notes at most (tts.max_chunks) for the long reply');
    assert.deepEqual(seen.slice(1).map((r) => r.body['input']), [sentence, sentence]);
    assert.ok(sent(fake).texts.some((t) => t.startsWith(sentence) && t.endsWith('(The voice notes cover the start; the rest is in the text.)')), sent(fake).texts.join(' | '));

    refuse = true;
    h.fake.setResponder(() => ({ text: 'Still here.' }));
    fake.pushMessage({ chat: dm, from: owner, text: 'are you there?' });
    await fake.waitFor({ predicate: (f) => sent(f).texts.some((t) => t.startsWith('Still here.')), timeoutMs: 10_000 });
    await h.runner.waitIdle();
    assert.equal(sent(fake).voices.length, 3);
    assert.ok(sent(fake).texts.includes('Still here.\n\n(I could not make a voice reply: the speech service answered HTTP 500.)'), sent(fake).texts.join(' | '));
    assert.ok(!existsSync(path.join(h.profile.cacheDir, 'voice-replies')) || readdirSync(path.join(h.profile.cacheDir, 'voice-replies')).length === 0);
  } finally {
    await h.stop();
    await fake.close();
    await new Promise((resolve) => api.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  }
});

test("discord: /voice tts sends each reply's voice note as a Discord voice message (IS_VOICE_MESSAGE, no text, its duration and waveform read from the OGG) after the text", { skip: missing ?? false, timeout: 60_000 }, async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-voice-out-'));
  const fake = new FakeDiscord({ token: discordToken, guilds: [] });
  await fake.start();
  const user = { id: '200000000000000001', username: 'owner' };
  const channelId = fake.openDm({ userId: user.id, username: user.username });
  const h = await startHarness({
    config: { tts: { provider: 'command', command: 'espeak-ng -v en-us -w {output} -f {input}' } },
    adapters: ({ profile, clock, logger }): { adapter: DiscordAdapter; allow: string[] }[] => [
      { adapter: discordAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [user.id], merge_window: '0s' } }), allow: [user.id] },
    ],
  });
  try {
    await fake.waitFor({ predicate: () => fake.commands.length === slashCommands.length, what: 'the slash commands' });
    fake.slashCommand({ channelId, user, name: 'voice', values: { mode: 'tts' } });
    await fake.waitFor({ predicate: () => fake.channelMessages({ channelId }).some((m) => m.content.startsWith('Voice replies for this chat: tts')), what: 'the /voice reply' });
    h.fake.setResponder(() => ({ text: 'The build passed on the first try.' }));
    fake.messageCreate({ channelId, author: user, content: 'did the build pass?' });
    await fake.waitFor({ predicate: () => fake.channelMessages({ channelId }).some((m) => m.flags !== 0), what: 'the voice message', timeoutMs: 30_000 });
    await h.runner.waitIdle();
    const messages = fake.channelMessages({ channelId });
    const text = messages.findIndex((m) => m.content === 'The build passed on the first try.');
    const voice = messages.findIndex((m) => m.flags !== 0);
    assert.ok(text >= 0 && voice > text, 'the text first, then the voice message');
    const sentVoice = messages[voice];
    assert.equal(sentVoice?.flags, 1 << 13);
    assert.equal(sentVoice?.content, '');
    const [file] = sentVoice?.attachments ?? [];
    assert.match(file?.name ?? '', /\.ogg$/);
    const probe = probeAudio({ bytes: file?.bytes ?? Buffer.alloc(0), dir });
    assert.equal(probe.codec, 'opus');
    assert.ok(Math.abs((file?.durationSecs ?? 0) - probe.seconds) < 0.1, `declared ${file?.durationSecs}s, ffprobe ${probe.seconds}s`);
    const waveform = Buffer.from(file?.waveform ?? '', 'base64');
    assert.ok(waveform.length > 10 && waveform.length <= 256, `${waveform.length} waveform points`);
    assert.ok(Math.max(...waveform) === 255 && Math.min(...waveform) < 255, 'the waveform is scaled to its loudest point and varies');
  } finally {
    await h.stop();
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a platform without edits (email) gets one message: the text with the voice note attached (an open code fence too); one that never gets voice (SMS) is told so by /voice and answered in text', { skip: missing ?? false, timeout: 60_000 }, async () => {
  const tts = { provider: 'command', command: 'espeak-ng -v en-us -w {output} -f {input}' };
  const email = await startHarness({ config: { tts }, capabilities: { edit: false, typing: false } });
  try {
    await email.adapter.inject({ text: '/voice tts' });
    await email.runner.waitIdle();
    // A reply that leaves a code fence open still gets its voice note (a MEDIA line would be swallowed by the fence).
    email.fake.enqueue({ text: 'The invoice is paid:\n```\nstatus: paid' });
    await email.adapter.inject({ text: 'is the invoice paid?' });
    await email.runner.waitIdle();
    const sends = email.adapter.calls.filter((c) => c.kind === 'send');
    const answer = sends.at(-1);
    assert.ok(answer?.text.startsWith('The invoice is paid:\n```\nstatus: paid') && !answer.text.includes('MEDIA:'), answer?.text);
    assert.equal(answer?.attachments?.length, 1);
    assert.match(answer?.attachments?.[0] ?? '', /voice-replies\/reply-[0-9a-f]{8}\.ogg$/);
  } finally {
    await email.stop();
  }

  const sms = await startHarness({ config: { tts }, capabilities: { edit: false, typing: false, voice: false } });
  try {
    await sms.adapter.inject({ text: '/voice on' });
    await sms.runner.waitIdle();
    assert.equal(sms.adapter.calls.filter((c) => c.kind === 'send').at(-1)?.text, 'Replies here are never spoken: this platform gets text only.');
    sms.fake.enqueue({ text: 'Hello.' });
    await sms.adapter.inject({ text: 'hello' });
    await sms.runner.waitIdle();
    // Even a stored choice (made before the platform's limits were known) never speaks here.
    const store = sms.readStore();
    try {
      const key = store.listSessions({ limit: 1 })[0]?.key ?? '';
      assert.notEqual(key, '');
      store.setChatVoiceMode({ key, mode: 'tts' });
    } finally {
      store.close();
    }
    sms.fake.enqueue({ text: 'Paid.' });
    await sms.adapter.inject({ text: 'paid?' });
    await sms.runner.waitIdle();
    const answer = sms.adapter.calls.filter((c) => c.kind === 'send').at(-1);
    assert.deepEqual([answer?.text, answer?.attachments ?? []], ['Paid.', []]);
  } finally {
    await sms.stop();
  }
});
