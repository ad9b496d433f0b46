import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mutateForm, Prng } from '../helpers/fuzz.js';
import { owner, smsSetup, startSmsGateway, stranger } from '../helpers/sms.js';
import { assertNoErrorLines, fuzzRoute, untilConnected, untilModelSaw } from '../helpers/webhook-fuzz.js';

test('sms webhook and status callback fuzz: thousands of signed, mutated forms get 2xx/4xx, no error line, and well-formed ones still count', { timeout: 90_000 }, async () => {
  const g = await startSmsGateway({ overrides: { unauthorized: 'ignore' } });
  try {
    await untilConnected({ runner: g.h.runner, name: 'sms' });
    g.h.fake.setResponder(() => ({ text: 'ok' }));
    const rng = new Prng({ seed: 1600 });
    const statusUrl = `${smsSetup.webhookUrl}/status`;
    const valid: string[] = [];
    const validStatuses: string[] = [];
    const statuses = await fuzzRoute({
      count: 3000,
      send: async (i) => {
        const wellFormed = i % 150 === 0;
        const toStatus = i % 2 === 1;
        if (wellFormed) {
          const text = `well-formed ${i}`;
          valid.push(text);
          const answer = await g.hooks.inbound({ from: owner, to: smsSetup.botNumber, body: text });
          assert.equal(answer.status, 200, `well-formed SMS answered ${answer.status}: ${answer.text}`);
          return { status: answer.status, what: text };
        }
        if (i % 150 === 1) {
          const sid = `SMgood${i}`;
          validStatuses.push(sid);
          const answer = await g.hooks.status({ callbackUrl: statusUrl, messageSid: sid, to: owner, status: 'delivered' });
          assert.equal(answer.status, 204, `well-formed status callback answered ${answer.status}`);
          return { status: answer.status, what: sid };
        }
        const base = toStatus
          ? { SmsSid: `SM${i}`, SmsStatus: 'sent', MessageStatus: 'sent', To: stranger, MessageSid: `SM${i}`, AccountSid: smsSetup.accountSid, From: smsSetup.botNumber, ApiVersion: '2010-04-01' }
          : g.hooks.inboundParams({ from: stranger, to: smsSetup.botNumber, body: `hi ${i}`, media: [{ url: `https://api.twilio.com/2010-04-01/Accounts/${smsSetup.accountSid}/Messages/MM1/Media/ME1`, contentType: 'image/png' }] });
        const params = mutateForm({ rng, fields: base });
        const answer = await g.hooks.post({ url: toStatus ? statusUrl : smsSetup.webhookUrl, params });
        return { status: answer.status, what: `${JSON.stringify(params)} → ${answer.text}` };
      },
    });
    assert.ok((statuses.get(200) ?? 0) > 100 && (statuses.get(204) ?? 0) > 100, `both routes answered many mutated forms: ${JSON.stringify([...statuses])}`);
    await untilModelSaw({ fake: g.h.fake, texts: valid });
    for (const sid of validStatuses) assert.ok(g.logs.some((line) => line['messageSid'] === sid && line['msg'] === 'SMS delivery status'), `status of ${sid} recorded`);
    assertNoErrorLines({ lines: g.logs });
    const warnings = g.logs.filter((line) => typeof line['level'] === 'number' && line['level'] >= 40).map((line) => String(line['msg']));
    assert.ok(warnings.length <= 10, `thousands of bad forms gave ${warnings.length} warnings, e.g. ${[...new Set(warnings)].slice(0, 3).join(' | ')}`);
    const skipped = g.logs.filter((line) => line['reason'] === 'malformed');
    assert.ok(skipped.length >= 1 && skipped.length <= 2, `malformed forms from one source are logged once per minute, not ${skipped.length} times`);
  } finally {
    await g.stop();
  }
});
