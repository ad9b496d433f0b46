import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { dm, owner, telegramHarness } from '../helpers/telegram-harness.js';
import { startHarness, type Harness } from '../helpers/harness.js';

/** A noisy photo-like PNG (noise does not compress, so the byte cap is exercised). */
async function noisyPng(params: { width: number; height: number }): Promise<Buffer> {
  return sharp({ create: { width: params.width, height: params.height, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 128, sigma: 40 } } }).png().toBuffer();
}

/** The user message of the main model's request at `index`. */
function userContent(h: Harness, index: number): unknown {
  const main = h.fake.requests.filter((r) => r.body.model === 'fake-model');
  return (main[index]?.body.messages ?? []).filter((m) => m['role'] === 'user').at(-1)?.['content'];
}

test('a photo through the Telegram fake reaches the model as an image part: a JPEG data URL within media.image_max_edge and media.image_max_bytes', { timeout: 60_000 }, async () => {
  const { h, fake } = await telegramHarness({ config: { media: { image_max_edge: 1024, image_max_bytes: '150k' } } });
  try {
    h.fake.setResponder(() => ({ text: 'Lots of grey noise.' }));
    fake.pushMessage({ chat: dm, from: owner, photo: fake.addFile({ bytes: await noisyPng({ width: 2400, height: 1600 }) }), caption: 'what is this?' });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'Lots of grey noise.'), timeoutMs: 30_000 });
    const content = userContent(h, 0) as { type: string; text?: string; image_url?: { url: string } }[];
    assert.ok(Array.isArray(content), 'the user message has parts');
    assert.equal(content[0]?.type, 'text');
    assert.match(content[0]?.text ?? '', /^what is this\?\n\[Attached file: .*\(image, image\/jpeg, \d+ bytes\)\]$/);
    const url = content[1]?.image_url?.url ?? '';
    assert.equal(content[1]?.type, 'image_url');
    assert.match(url, /^data:image\/jpeg;base64,/);
    const jpeg = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
    const meta = await sharp(jpeg).metadata();
    assert.equal(meta.format, 'jpeg');
    assert.ok(Math.max(meta.width ?? 0, meta.height ?? 0) <= 1024, `${meta.width}x${meta.height}`);
    assert.ok(jpeg.length <= 150 * 1024, `${jpeg.length} bytes`);
    assert.ok(Math.abs((meta.width ?? 0) / (meta.height ?? 1) - 1.5) < 0.01, 'the aspect ratio is kept');
  } finally {
    await h.stop();
    await fake.close();
  }
});

test('model.vision: false: auxiliary.vision describes the photo (it gets the image) and the main request carries the description; with neither, the chat is told once', { timeout: 60_000 }, async () => {
  const { h, fake } = await telegramHarness({ config: { model: { vision: false }, auxiliary: { vision: { name: 'vision-model' } } } });
  try {
    h.fake.setResponder((request) => ({ text: request.body.model === 'vision-model' ? 'A grey noisy square; no text in it.' : 'It is noise.' }));
    fake.pushMessage({ chat: dm, from: owner, photo: fake.addFile({ bytes: await noisyPng({ width: 300, height: 300 }) }) });
    await fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).some((m) => m.shown === 'It is noise.'), timeoutMs: 30_000 });
    const vision = h.fake.requests.find((r) => r.body.model === 'vision-model');
    const parts = (vision?.body.messages ?? []).find((m) => m['role'] === 'user')?.['content'] as { type: string; image_url?: { url: string } }[] | undefined;
    assert.equal(parts?.[1]?.type, 'image_url');
    assert.match(parts?.[1]?.image_url?.url ?? '', /^data:image\/jpeg;base64,/);
    const main = userContent(h, 0);
    assert.equal(typeof main, 'string', 'no image part for a model that cannot see');
    assert.match(String(main), /\n\[The image, as described by another model:\] A grey noisy square; no text in it\.$/);
  } finally {
    await h.stop();
    await fake.close();
  }

  const blind = await telegramHarness({ config: { model: { vision: false } } });
  try {
    blind.h.fake.setResponder(() => ({ text: 'Noted.' }));
    for (const n of [1, 2]) {
      blind.fake.pushMessage({ chat: dm, from: owner, photo: blind.fake.addFile({ bytes: await noisyPng({ width: 64, height: 64 }) }) });
      await blind.fake.waitFor({ predicate: (f) => f.chatMessages(dm.id).filter((m) => m.shown.startsWith('Noted.')).length === n, timeoutMs: 30_000 });
      await blind.h.runner.waitIdle();
    }
    assert.match(String(userContent(blind.h, 0)), /\n\[The image was not seen: this model cannot see images and no auxiliary\.vision model is set\.\]$/);
    const answers = blind.fake.chatMessages(dm.id).filter((m) => m.shown.startsWith('Noted.')).map((m) => m.shown);
    assert.deepEqual(answers, ['Noted.\n\n(I cannot see images with this model. Set model.vision: true if it can, or auxiliary.vision in config.yaml to a model that sees.)', 'Noted.'], 'told once');
  } finally {
    await blind.h.stop();
    await blind.fake.close();
  }
});

test('an image file that is not an image: the model is told it could not be read, the user gets one line, the turn goes on', async () => {
  const h = await startHarness({ config: {} });
  try {
    mkdirSync(h.profile.cacheDir, { recursive: true });
    const broken = path.join(h.profile.cacheDir, 'broken.png');
    writeFileSync(broken, 'not a png at all');
    h.fake.enqueue({ text: 'I could not see it.' });
    await h.adapter.inject({ text: 'look', media: [{ path: broken, kind: 'image', mimeType: 'image/png' }] });
    await h.runner.waitIdle();
    assert.match(String(userContent(h, 0)), /\n\[The image could not be read: it could not be read as an image \(.+\)\.\]$/);
    const sent = h.adapter.calls.filter((c) => c.kind === 'send' || c.kind === 'edit').at(-1);
    assert.match(sent?.text ?? '', /^I could not see it\.\n\n\(I could not look at your image: it could not be read as an image \(.+\)\.\)$/);
  } finally {
    await h.stop();
  }
});
