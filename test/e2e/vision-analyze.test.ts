import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { test } from 'node:test';
import sharp from 'sharp';
import { startHarness } from '../helpers/harness.js';
import type { CapturedRequest } from '../fakes/openai/server.js';

/** The tool result the main model got back in its second call of a turn. */
function toolResult(requests: readonly CapturedRequest[]): string {
  const main = requests.filter((r) => r.body.model === 'fake-model');
  return String((main.at(-1)?.body.messages ?? []).filter((m) => m['role'] === 'tool').at(-1)?.['content'] ?? '');
}

test('vision_analyze (offered with auxiliary.vision): a workspace image goes to the vision model with the question and its answer comes back; a private URL and a file outside the workspace are refused', { timeout: 60_000 }, async () => {
  const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#3366cc' } }).png().toBuffer();
  const server = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/chart.png`;
  const h = await startHarness({ config: { auxiliary: { vision: { name: 'vision-model' } } } });
  try {
    writeFileSync(path.join(h.profile.workspaceDir, 'chart.png'), png);
    let imageUrl = 'chart.png';
    h.fake.setResponder((request) => {
      if (request.body.model === 'vision-model') return { text: 'A plain blue rectangle, no text.' };
      const answered = (request.body.messages ?? []).at(-1)?.['role'] === 'tool';
      return answered ? { text: 'Done.' } : { toolCalls: [{ name: 'vision_analyze', arguments: { image_url: imageUrl, question: 'What colour is it?' } }] };
    });
    await h.adapter.inject({ text: 'look at chart.png' });
    await h.runner.waitIdle();
    const tools = (h.fake.requests[0]?.body.tools ?? []).map((t) => (t['function'] as { name: string }).name);
    assert.ok(tools.includes('vision_analyze'), tools.join(', '));
    assert.equal(toolResult(h.fake.requests), 'A plain blue rectangle, no text.');
    const vision = h.fake.requests.find((r) => r.body.model === 'vision-model');
    const parts = (vision?.body.messages ?? []).find((m) => m['role'] === 'user')?.['content'] as { type: string; text?: string; image_url?: { url: string } }[];
    assert.equal(parts[0]?.text, 'What colour is it?');
    assert.match(parts[1]?.image_url?.url ?? '', /^data:image\/jpeg;base64,/);

    imageUrl = url;
    await h.adapter.inject({ text: 'and this one?' });
    await h.runner.waitIdle();
    assert.match(toolResult(h.fake.requests), /^Error: vision_analyze could not look at http:\/\/127\.0\.0\.1:\d+\/chart\.png: the image could not be fetched: .*private, loopback or link-local address.*web\.allow_private/);

    imageUrl = '/etc/hostname';
    await h.adapter.inject({ text: 'and the hostname file?' });
    await h.runner.waitIdle();
    assert.match(toolResult(h.fake.requests), /outside the workspace/);
    assert.equal(h.fake.requests.filter((r) => r.body.model === 'vision-model').length, 1, 'nothing refused reached the vision model');
  } finally {
    await h.stop();
    await new Promise((resolve) => server.close(resolve));
  }
});

test("vision_analyze fetches an image URL under the web tools' rules: with web.allow_private a local image reaches the vision model; an address holding one of the profile's secrets is refused before anything is sent", { timeout: 60_000 }, async () => {
  const secret = 'ghp_visionUrlSecret0123456789abcdef';
  const png = await sharp({ create: { width: 320, height: 200, channels: 3, background: '#cc3333' } }).png().toBuffer();
  const asked: string[] = [];
  const server = http.createServer((req, res) => {
    asked.push(String(req.url));
    res.writeHead(200, { 'content-type': 'image/png' }).end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const h = await startHarness({ env: { GITHUB_TOKEN: secret }, config: { auxiliary: { vision: { name: 'vision-model' } }, web: { allow_private: true } } });
  try {
    let imageUrl = `${base}/red.png`;
    h.fake.setResponder((request) => {
      if (request.body.model === 'vision-model') return { text: 'A red rectangle.' };
      const answered = (request.body.messages ?? []).at(-1)?.['role'] === 'tool';
      return answered ? { text: 'Done.' } : { toolCalls: [{ name: 'vision_analyze', arguments: { image_url: imageUrl, question: 'What colour?' } }] };
    });
    await h.adapter.inject({ text: 'what is at that address?' });
    await h.runner.waitIdle();
    assert.equal(toolResult(h.fake.requests), 'A red rectangle.');
    assert.deepEqual(asked, ['/red.png']);

    imageUrl = `${base}/red.png?token=${secret}`;
    await h.adapter.inject({ text: 'and with the token?' });
    await h.runner.waitIdle();
    assert.match(toolResult(h.fake.requests), /the image could not be fetched: the address holds one of the profile's secrets; it was not sent/);
    assert.deepEqual(asked, ['/red.png'], 'nothing was sent to the address holding the secret');
    assert.equal(h.fake.requests.filter((r) => r.body.model === 'vision-model').length, 1);
  } finally {
    await h.stop();
    await new Promise((resolve) => server.close(resolve));
  }
});

test('without a model that sees, vision_analyze is not offered', async () => {
  const h = await startHarness({ config: {} });
  try {
    h.fake.enqueue({ text: 'ok' });
    await h.adapter.inject({ text: 'hi' });
    await h.runner.waitIdle();
    const tools = (h.fake.requests[0]?.body.tools ?? []).map((t) => (t['function'] as { name: string }).name);
    assert.ok(!tools.includes('vision_analyze'), tools.join(', '));
  } finally {
    await h.stop();
  }
});
