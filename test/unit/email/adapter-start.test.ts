import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { pino } from 'pino';
import type { AdapterReport, MessageEvent } from '../../../src/core/adapter.js';
import { AdapterFatalError } from '../../../src/core/errors.js';
import { systemClock } from '../../../src/core/clock.js';
import { SmtpSink } from '../../fakes/smtp/sink.js';
import { dovecotAvailability, startDovecot, type Dovecot } from '../../helpers/dovecot.js';
import { composeRaw, emailAdapter } from '../../helpers/email.js';
import { memoryStorage } from './memory-storage.js';

/** Starts an adapter with the given config overrides; resolves with how start() ended. */
async function startWith(params: { dovecot: Dovecot; overrides: Record<string, unknown> }): Promise<{ error: unknown; reports: AdapterReport[] }> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
  const sink = new SmtpSink();
  const adapter = emailAdapter({ dovecot: params.dovecot, sink, cacheDir: dir, clock: systemClock, logger: pino({ level: 'silent' }), overrides: { smtp_port: 2525, ...params.overrides } });
  const reports: AdapterReport[] = [];
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 5000);
  try {
    await adapter.start({ signal: controller.signal, emit: async (_event: MessageEvent) => undefined, report: (r) => reports.push(r), storage: memoryStorage(), mayTalk: () => true, choose: async () => ({}) });
    return { error: undefined, reports };
  } catch (error) {
    return { error, reports };
  } finally {
    clearTimeout(timer);
    rmSync(dir, { recursive: true, force: true });
  }
}

const availability = dovecotAvailability();
describe('EmailAdapter.start', { skip: availability.available ? false : availability.reason }, () => {
  let shared: Promise<Dovecot> | undefined;
  after(async () => (await shared)?.stop());

  test('a missing folder or a refused login is fatal with a hint (no restarts); an unreachable server is retried', async () => {
    const dovecot = await (shared ??= startDovecot());
    const folder = await startWith({ dovecot, overrides: { folder: 'Nope' } });
    assert.ok(folder.error instanceof AdapterFatalError, String(folder.error));
    assert.match(folder.error.message, /folder "Nope" does not exist/);
    assert.match(folder.error.hint ?? '', /platforms\.email\.folder/);

    const down = await startWith({ dovecot, overrides: { imap_port: 1 } });
    assert.ok(down.error instanceof Error && !(down.error instanceof AdapterFatalError), String(down.error));
    assert.match(down.error.message, /IMAP 127\.0\.0\.1:1/);

    // Last: Dovecot slows down logins from an address after a refused one.
    const login = await startWith({ dovecot, overrides: { password: 'not-the-password' } });
    assert.ok(login.error instanceof AdapterFatalError, String(login.error));
    assert.match(login.error.message, /refused the login/);
    assert.match(login.error.hint ?? '', /username and password/);
    assert.doesNotMatch(`${login.error.message} ${login.error.hint}`, /not-the-password/);
    assert.deepEqual(login.reports, []);
  });

  test('edit is refused clearly; sending before start says to wait', async () => {
    const dovecot = await (shared ??= startDovecot());
    const adapter = emailAdapter({ dovecot, sink: new SmtpSink(), cacheDir: os.tmpdir(), clock: systemClock, logger: pino({ level: 'silent' }), overrides: { smtp_port: 2525 } });
    assert.equal(adapter.capabilities.edit, false);
    await assert.rejects(adapter.edit({ chat: { id: 'a@b.c', kind: 'dm' }, messageId: 'x', text: 'y' }), /cannot edit/);
    await assert.rejects(adapter.send({ chat: { id: 'a@b.c', kind: 'dm' }, text: 'y' }), /has not started/);
  });

  test('without IDLE on the server, the folder is polled every poll_interval', { timeout: 20_000 }, async () => {
    const dovecot = await startDovecot({ extraConfig: 'imap_capability = IMAP4rev1 UIDPLUS MOVE\n' });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
    const controller = new AbortController();
    const events: MessageEvent[] = [];
    try {
      const logLines: string[] = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
      const adapter = emailAdapter({ dovecot, sink: new SmtpSink(), cacheDir: dir, clock: systemClock, logger, overrides: { smtp_port: 2525, poll_interval: '1s' } });
      const running = adapter.start({ signal: controller.signal, emit: async (event) => void events.push(event), report: () => undefined, storage: memoryStorage(), mayTalk: () => true, choose: async () => ({}) });
      await adapter.ready();
      await dovecot.append({ raw: (await composeRaw({ from: 'a@example.org', subject: 'polled', text: 'hi' })).raw });
      const deadline = Date.now() + 5000;
      while (events.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      assert.equal(events.length, 1);
      assert.match(events[0]?.text ?? '', /subject "polled"/);
      assert.ok(logLines.some((line) => line.includes('has no IDLE')), 'it knew to poll');
      controller.abort();
      await running;
    } finally {
      controller.abort();
      await dovecot.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
