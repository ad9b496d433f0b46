import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { pino } from 'pino';
import { SmtpSink } from '../fakes/smtp/sink.js';
import { dovecotAvailability, startDovecot, type Dovecot } from '../helpers/dovecot.js';
import { composeRaw, emailEntry } from '../helpers/email.js';
import { startHarness, type Harness } from '../helpers/harness.js';

const owner = 'owner@example.org';

/** Waits until `check` holds, or fails naming `what`. */
async function until(params: { check: () => boolean; what: string; timeoutMs?: number }): Promise<void> {
  const deadline = Date.now() + (params.timeoutMs ?? 10_000);
  while (!params.check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${params.what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The email adapter's status in the current gateway. */
function emailStatus(params: { h: Harness }): ReturnType<Harness['runner']['adapterStatuses']>[number] | undefined {
  return params.h.runner.adapterStatuses().find((s) => s.name === 'email');
}

const availability = dovecotAvailability();
describe('email: downtime and dropped connections', { skip: availability.available ? false : availability.reason }, () => {
  let shared: Promise<Dovecot> | undefined;
  const dovecot = (): Promise<Dovecot> => (shared ??= startDovecot());
  after(async () => (await shared)?.stop());

  test('mail that arrives while the gateway is stopped is answered after the restart, each exactly once', { timeout: 30_000 }, async () => {
    const d = await dovecot();
    const sink = new SmtpSink();
    await sink.start();
    const h = await startHarness({ adapters: ({ profile, clock, logger }) => [emailEntry({ dovecot: d, sink, profile, clock, logger, overrides: { allowed_users: [owner] } })] });
    try {
      await until({ check: () => emailStatus({ h })?.state === 'connected', what: 'the first connection' });
      h.fake.setResponder((request) => ({ text: `answered ${/subject "([^"]+)"/.exec(JSON.stringify(request.body.messages))?.[1] ?? '?'}` }));
      await h.runner.stop();
      const sent = [];
      for (const subject of ['one', 'two', 'three']) {
        const mail = await composeRaw({ from: owner, subject, text: `mail ${subject}` });
        await d.append({ raw: mail.raw });
        sent.push(mail.messageId);
      }
      await h.restart();
      await sink.waitFor({ count: 3 });
      await new Promise((r) => setTimeout(r, 300));
      await h.runner.waitIdle();
      assert.equal(sink.mails.length, 3);
      assert.equal(h.fake.requests.length, 3);
      assert.deepEqual(sink.mails.map((m) => m.parsed.inReplyTo).sort(), [...sent].sort());
      assert.deepEqual(sink.mails.map((m) => m.parsed.subject).sort(), ['Re: one', 'Re: three', 'Re: two']);
    } finally {
      await h.stop();
      await sink.close();
    }
  });

  test('Dovecot restarted under the gateway: the adapter reports it, reconnects and keeps answering', { timeout: 30_000 }, async () => {
    const d = await dovecot();
    const sink = new SmtpSink();
    await sink.start();
    const h = await startHarness({ ...(process.env['EMAIL_TEST_LOG'] ? { logger: pino({ level: 'debug' }) } : {}), adapters: ({ profile, clock, logger }) => [emailEntry({ dovecot: d, sink, profile, clock, logger, overrides: { allowed_users: [owner] } })] });
    try {
      await until({ check: () => emailStatus({ h })?.state === 'connected', what: 'the first connection' });
      h.fake.setResponder(() => ({ text: 'still here' }));
      await d.append({ raw: (await composeRaw({ from: owner, subject: 'before', text: 'hello' })).raw });
      await sink.waitFor({ count: 1 });
      await h.runner.waitIdle();

      await d.restart();
      await until({ check: () => (emailStatus({ h })?.restarts ?? 0) >= 1, what: 'the dropped connection to be noticed' });
      assert.match(emailStatus({ h })?.lastError ?? '', /IMAP/);
      const later = await composeRaw({ from: owner, subject: 'after', text: 'still there?' });
      await d.append({ raw: later.raw });
      await sink.waitFor({ count: 2, timeoutMs: 15_000 });
      await h.runner.waitIdle();
      assert.equal(sink.mails[1]?.parsed.inReplyTo, later.messageId);
      assert.equal(emailStatus({ h })?.state, 'connected');
      assert.equal(sink.mails.length, 2);
    } finally {
      await h.stop();
      await sink.close();
    }
  });
});
