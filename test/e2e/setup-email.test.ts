import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { parse } from 'yaml';
import { SmtpSink } from '../fakes/smtp/sink.js';
import { cli } from '../helpers/cli.js';
import { dovecotAvailability, startDovecot, type Dovecot } from '../helpers/dovecot.js';

const availability = dovecotAvailability();

describe('hermes setup email (a real Dovecot, an SMTP sink)', { skip: availability.available ? false : availability.reason }, () => {
  let dovecot: Dovecot;
  const sink = new SmtpSink({ credentials: { username: 'bot', password: 'bot-imap-password' } });
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-setup-email-'));
  const env = { HERMES_HOME: home, HOME: home };
  before(async () => {
    [dovecot] = await Promise.all([startDovecot(), sink.start()]);
  });
  after(async () => {
    await Promise.all([dovecot.stop(), sink.close()]);
    rmSync(home, { recursive: true, force: true });
  });
  const argv = (password: string): string[] => [
    'setup', 'email', '--address', 'bot@example.com', '--imap-host', dovecot.host, '--imap-port', String(dovecot.port), '--imap-tls', 'false',
    '--smtp-host', '127.0.0.1', '--smtp-port', String(sink.port), '--smtp-tls', 'none', '--username', 'bot', '--password', password, '--owner', 'Me@Example.com', '--yes',
  ];

  test('a wrong password: the IMAP login is refused, exit 78, nothing written; the right one: IMAP and SMTP logins, a config `config validate` accepts', async () => {
    const bad = await cli({ argv: argv('wrong-password'), env });
    assert.equal(bad.code, 78, bad.stderr);
    assert.match(bad.stderr, /refused the login of bot; nothing was written/);
    assert.ok(!readFileSync(path.join(home, 'config.yaml'), 'utf8').includes('imap_host'));
    const good = await cli({ argv: argv('bot-imap-password'), env });
    assert.equal(good.code, 0, good.stderr);
    assert.match(good.stdout, /✓ Email: bot@example\.com: IMAP .* and SMTP .* logins work/);
    const email = (parse(readFileSync(path.join(home, 'config.yaml'), 'utf8')) as { platforms: { email: Record<string, unknown> } }).platforms.email;
    assert.deepEqual(
      [email['enabled'], email['imap_port'], email['imap_tls'], email['smtp_tls'], email['password'], email['allowed_users']],
      [true, dovecot.port, false, 'none', '${EMAIL_PASSWORD}', ['me@example.com']],
    );
    assert.match(readFileSync(path.join(home, '.env'), 'utf8'), /^EMAIL_PASSWORD=bot-imap-password$/m);
    assert.equal(statSync(path.join(home, '.env')).mode & 0o777, 0o600);
    assert.equal((await cli({ argv: ['config', 'validate'], env })).code, 0);
  });
});
