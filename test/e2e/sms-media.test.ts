import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { systemClock, type Clock } from '../../src/core/clock.js';
import { owner, smsSetup, startSmsGateway, tinyPng } from '../helpers/sms.js';
import { contentImages, contentText, lastUserContent } from '../helpers/request-roles.js';

const bot = smsSetup.botNumber;

test('sms: an MMS picture reaches the agent as a file in the profile cache; an oversized one becomes a note', { timeout: 20_000 }, async () => {
  const g = await startSmsGateway({ overrides: { max_media_size: '2k' } });
  try {
    const picture = g.fake.addMedia({ bytes: tinyPng, contentType: 'image/png' });
    const big = g.fake.addMedia({ bytes: Buffer.alloc(4096, 1), contentType: 'image/jpeg' });
    g.h.fake.enqueue({ text: 'a tiny picture' });
    const answer = await g.hooks.inbound({ from: owner, to: bot, body: 'what is this?', media: [picture, big] });
    assert.equal(answer.status, 200);
    await g.fake.waitFor({ predicate: () => g.fake.messagesTo({ to: owner }).length === 1 });
    const content = contentText(lastUserContent(g.h.fake.requests[0]));
    assert.equal(contentImages(lastUserContent(g.h.fake.requests[0])).length, 1, 'the model sees the picture');
    assert.match(content, /^what is this\?\n\[attachment 2 \(image\/jpeg\) was not downloaded: it is over the 2 KB limit\]/);
    const file = /\[Attached file: (\S+) \(image, image\/png, (\d+) bytes\) named "(MM[0-9a-f]{32}-0\.png)"\]/.exec(content);
    assert.ok(file, `the agent was not told about the picture: ${content}`);
    const [, filePath = '', size, name] = file;
    assert.equal(path.dirname(filePath), path.join(g.h.profile.cacheDir, 'sms'));
    assert.equal(path.basename(filePath), name);
    assert.ok(existsSync(filePath));
    assert.deepEqual(readFileSync(filePath), tinyPng);
    assert.equal(Number(size), tinyPng.length);
  } finally {
    await g.stop();
  }
});

test('sms: a MEDIA: picture goes out as an MMS through a signed, expiring link; other files become a note', { timeout: 20_000 }, async () => {
  let offsetMs = 0;
  const adapterClock: Clock = { now: () => systemClock.now() + offsetMs, sleep: (ms, signal) => systemClock.sleep(ms, signal) };
  const g = await startSmsGateway({ adapterClock });
  try {
    const chart = path.join(g.h.profile.workspaceDir, 'chart.png');
    const report = path.join(g.h.profile.workspaceDir, 'report.pdf');
    writeFileSync(chart, tinyPng);
    writeFileSync(report, '%PDF-1.4');
    g.h.fake.enqueue({ text: `Here you go.\nMEDIA:${chart}\nMEDIA:${report}\nMEDIA:${g.h.profile.configPath}` });
    await g.hooks.inbound({ from: owner, to: bot, body: 'chart please' });
    await g.fake.waitFor({ predicate: () => g.fake.messagesTo({ to: owner }).length === 1 });
    await g.h.runner.waitIdle();
    const [sent] = g.fake.messagesTo({ to: owner });
    assert.ok(sent);
    assert.equal(sent.mediaUrls.length, 1, 'only the picture is linked (never the config the gateway refused)');
    const link = sent.mediaUrls[0] ?? '';
    assert.match(link, /^https:\/\/sms\.example\.test\/sms\/twilio\/media\/[0-9a-f]{32}\/chart\.png\?expires=\d+&sig=[0-9a-f]{64}$/);
    assert.match(sent.body, /^Here you go\./);
    assert.match(sent.body, /\(attachment report\.pdf could not be sent by SMS: only JPEG, PNG and GIF pictures go by MMS\)/);
    assert.match(sent.body, /Could not attach .*config\.yaml/);
    // Twilio fetched the picture when the message was created; fetching the link again gives the same bytes.
    assert.deepEqual([sent.media[0]?.status, sent.media[0]?.contentType], [200, 'image/png']);
    assert.deepEqual(sent.media[0]?.bytes, tinyPng);
    const again = await g.hooks.fetchMedia({ url: link });
    assert.deepEqual([again.status, again.bytes], [200, tinyPng]);
    const url = new URL(link);
    const forged = new URL(link);
    forged.searchParams.set('sig', '0'.repeat(64));
    const extended = new URL(link);
    extended.searchParams.set('expires', String(Number(url.searchParams.get('expires')) + 86_400_000));
    const elsewhere = link.replace('/chart.png', '/config.yaml');
    for (const bad of [forged.href, extended.href, elsewhere]) assert.equal((await g.hooks.fetchMedia({ url: bad })).status, 403, bad);
    offsetMs = 2 * 3_600_000;
    assert.equal((await g.hooks.fetchMedia({ url: link })).status, 410, 'expired after media_url_ttl');
  } finally {
    await g.stop();
  }
});
