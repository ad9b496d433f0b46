import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { test } from 'node:test';
import { parse } from 'yaml';
import { loadAppConfig } from '../../../src/app/config-schema.js';
import { renderEffectiveConfig } from '../../../src/config/show.js';
import { createLogger } from '../../../src/log/logger.js';
import { Redactor } from '../../../src/log/redact.js';
import { tempProfile } from './temp-profile.js';
import { appConfigSchema } from '../../../src/app/config-schema.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

const config = `
platforms:
  email:
    enabled: true
    imap_host: \${IMAP_HOST}
    smtp_host: smtp.example.org
    username: bot@example.org
    password: \${EMAIL_PASSWORD}
    smtp_password: smtp-pass-canary
    address: bot@example.org
    trusted_auth_server: mx.example.org
  telegram:
    token: \${TG_TOKEN}
model:
  api_key: sk-canary-model-key
`;
const dotenv = 'IMAP_HOST=imap.example.org\nEMAIL_PASSWORD=imap-pass-canary\nTG_TOKEN=123:tg-canary-token\nUNUSED_THING=kept-hidden-canary\n';

test('config show and log lines mask secret keys only: trusted_auth_server, imap_host (from .env), smtp_host, username are shown', async () => {
  const { profile, cleanup } = tempProfile({ config, dotenv });
  try {
    const loaded = await loadAppConfig({ profile, env: {} });
    const shown = parse(renderEffectiveConfig({ schema: configSchema,  config: loaded.config, secrets: loaded.secrets })) as { platforms: { email: Record<string, unknown>; telegram: Record<string, unknown> }; model: Record<string, unknown> };
    const email = shown.platforms.email;
    assert.equal(email['trusted_auth_server'], 'mx.example.org');
    assert.equal(email['imap_host'], 'imap.example.org');
    assert.equal(email['smtp_host'], 'smtp.example.org');
    assert.equal(email['username'], 'bot@example.org');
    assert.equal(email['password'], '***');
    assert.equal(email['smtp_password'], '***');
    assert.equal(shown.platforms.telegram['token'], '***');
    assert.equal(shown.model['api_key'], '***');

    const lines: string[] = [];
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done): void {
        lines.push(chunk.toString());
        done();
      },
    });
    const log = createLogger({ profile, level: 'info', redactor: new Redactor({ secrets: loaded.secrets }), tty: false, maxSize: 1_000_000, maxFiles: 1, destination });
    log.logger.info({ trustedAuthServer: 'mx.example.org', host: 'imap.example.org' }, 'sender check: Authentication-Results of mx.example.org; login imap-pass-canary with 123:tg-canary-token, kept-hidden-canary, smtp-pass-canary');
    await log.close();
    const text = lines.join('');
    assert.match(text, /"trustedAuthServer":"mx\.example\.org"/);
    assert.match(text, /"host":"imap\.example\.org"/);
    assert.match(text, /Authentication-Results of mx\.example\.org/);
    for (const canary of ['imap-pass-canary', 'tg-canary-token', 'kept-hidden-canary', 'smtp-pass-canary']) assert.ok(!text.includes(canary), `${canary} leaked: ${text}`);
  } finally {
    cleanup();
  }
});
