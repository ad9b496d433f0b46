import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { emailCredentialCheck } from '../../../adapters/email/check.js';
import type { AppConfig } from '../../../src/app/config-schema.js';
import { appConfigSchema } from '../../../src/app/config-schema.js';
import { SmtpSink } from '../../fakes/smtp/sink.js';
import { dovecotAvailability, startDovecot, type Dovecot } from '../../helpers/dovecot.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

/** A whole config with platforms.email pointed at the test servers. */
function config(params: { dovecot: Dovecot; smtpPort: number; overrides?: Record<string, unknown> }): AppConfig {
  const parsed = configSchema.parse({
    platforms: {
      email: {
        enabled: true,
        imap_host: '127.0.0.1',
        imap_port: params.dovecot.port,
        imap_tls: false,
        smtp_host: '127.0.0.1',
        smtp_port: params.smtpPort,
        smtp_tls: 'none',
        username: params.dovecot.user.username,
        password: params.dovecot.user.password,
        address: 'bot@example.com',
        ...params.overrides,
      },
    },
  });
  return { ...parsed, tools: { ...parsed.tools, workspace: '/nonexistent' } };
}

const availability = dovecotAvailability();
describe('emailCredentialCheck', { skip: availability.available ? false : availability.reason }, () => {
  let shared: Promise<Dovecot> | undefined;
  const sink = new SmtpSink({ credentials: { username: 'bot', password: 'bot-imap-password' } });
  after(async () => {
    await (await shared)?.stop();
    await sink.close();
  });

  test('ok when the IMAP and SMTP logins work; a refused login says which and what to check, without the password', async () => {
    const dovecot = await (shared ??= startDovecot());
    await sink.start();
    const good = await emailCredentialCheck({ config: config({ dovecot, smtpPort: sink.port }).platforms.email, signal: new AbortController().signal });
    assert.equal(good.ok, true, good.detail);
    assert.match(good.detail, /bot@example\.com/);

    const badSmtp = await emailCredentialCheck({ config: config({ dovecot, smtpPort: sink.port, overrides: { smtp_password: 'other-wrong-456' } }).platforms.email, signal: new AbortController().signal });
    assert.equal(badSmtp.ok, false);
    assert.match(badSmtp.detail, /SMTP .* refused the login/);

    const noFolder = await emailCredentialCheck({ config: config({ dovecot, smtpPort: sink.port, overrides: { folder: 'Missing' } }).platforms.email, signal: new AbortController().signal });
    assert.equal(noFolder.ok, false);
    assert.match(noFolder.detail, /folder "Missing" does not exist/);

    // Last: Dovecot slows down logins from an address after a refused one.
    const badImap = await emailCredentialCheck({ config: config({ dovecot, smtpPort: sink.port, overrides: { password: 'wrong-pass-123' } }).platforms.email, signal: new AbortController().signal });
    assert.equal(badImap.ok, false);
    assert.match(badImap.detail, /IMAP .* refused the login/);
    assert.match(badImap.hint ?? '', /username and password/);
    assert.doesNotMatch(JSON.stringify(badImap), /wrong-pass-123/);
  });

  test('never throws: nothing listening, a missing setting, an aborted check', async () => {
    const dovecot = await (shared ??= startDovecot());
    const closed = await emailCredentialCheck({ config: config({ dovecot, smtpPort: sink.port, overrides: { imap_port: 1 } }).platforms.email, signal: new AbortController().signal });
    assert.equal(closed.ok, false);
    assert.match(closed.detail, /IMAP 127\.0\.0\.1:1/);
    const missing = await emailCredentialCheck({ config: config({ dovecot, smtpPort: sink.port, overrides: { enabled: false, address: undefined } }).platforms.email, signal: new AbortController().signal });
    assert.deepEqual([missing.ok, missing.detail], [false, 'platforms.email.address is not set']);
    const aborted = new AbortController();
    aborted.abort(new Error('doctor gave up'));
    const started = Date.now();
    const result = await emailCredentialCheck({ config: config({ dovecot, smtpPort: sink.port }).platforms.email, signal: aborted.signal });
    assert.equal(result.ok, false);
    assert.ok(Date.now() - started < 1000);
  });
});
