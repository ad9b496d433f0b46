import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { loadAppConfig } from '../../../src/app/config-schema.js';
import { ensureProfileDirs } from '../../../src/home/ensure-dirs.js';
import { resolveProfile, type Profile } from '../../../src/home/profile.js';
import { createLogger } from '../../../src/log/logger.js';
import { REDACTED, Redactor } from '../../../src/log/redact.js';
import { FakeClock } from '../../helpers/fake-clock.js';

const CANARY = 'canary-8c1f2e9d-secret';

/** A fresh profile whose .env holds the canary, plus cleanup. */
async function canaryProfile(): Promise<{ profile: Profile; secrets: readonly string[]; cleanup: () => void }> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
  const profile = resolveProfile({ hermesHome: root, name: 'work' });
  ensureProfileDirs({ profile });
  fs.writeFileSync(profile.envPath, `SOME_VALUE=${CANARY}\n`);
  const { secrets } = await loadAppConfig({ profile, env: {} });
  return { profile, secrets, cleanup: () => fs.rmSync(root, { recursive: true, force: true }) };
}

/** A logger of `profile` at `level` writing to an array (the canary is its one secret). */
function linesLogger(params: { profile: Profile; level: 'info' | 'warn' }): ReturnType<typeof createLogger> & { lines: string[] } {
  const lines: string[] = [];
  const handle = createLogger({
    profile: params.profile,
    level: params.level,
    redactor: new Redactor({ secrets: [CANARY] }),
    tty: false,
    maxSize: 1024,
    maxFiles: 1,
    destination: { write: (line: string) => void lines.push(line) },
  });
  return { ...handle, lines };
}

describe('createLogger', () => {
  test('a secret from .env never reaches the log file (msg, nested object, error message and stack, bindings)', async () => {
    const { profile, secrets, cleanup } = await canaryProfile();
    try {
      const stderr = new PassThrough();
      let pretty = '';
      stderr.on('data', (chunk: Buffer) => (pretty += chunk.toString()));
      const { logger, close } = createLogger({
        profile,
        level: 'debug',
        redactor: new Redactor({ secrets }),
        tty: true,
        stderr,
        maxSize: 1024 * 1024,
        maxFiles: 2,
        clock: new FakeClock(Date.UTC(2030, 0, 1)),
      });
      logger.info(`message with ${CANARY} inside`);
      logger.info('format %s arg', CANARY);
      logger.info({ deep: { deeper: { deepest: { value: `x${CANARY}x` } } }, list: [CANARY] }, 'nested');
      logger.info({ token: 'other-token-value', headers: { authorization: 'Bearer other-auth-value' } }, 'by key');
      logger.error(new Error(`failed with ${CANARY}`), 'error object');
      logger.error({ err: new Error(`wrapped ${CANARY}`) }, 'err key');
      logger.child({ chat: CANARY }).warn('child bindings');
      logger.debug({ weird: new Map([['k', CANARY]]) }, 'a map');
      await close();

      const text = fs.readFileSync(profile.logFile, 'utf8');
      const lines = text.trim().split('\n');
      assert.equal(lines.length, 8);
      assert.ok(!text.includes(CANARY), text);
      assert.ok(!text.includes('other-token-value') && !text.includes('other-auth-value'), 'key paths censored');
      assert.ok(!pretty.includes(CANARY), pretty);
      assert.match(pretty, /message with \*\*\* inside/);

      const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.equal(records[0]?.['msg'], 'message with *** inside');
      assert.equal(records[0]?.['profile'], 'work');
      assert.equal(records[0]?.['time'], '2030-01-01T00:00:00.000Z');
      assert.equal(records[1]?.['msg'], 'format *** arg');
      assert.deepEqual(records[2]?.['list'], ['***']);
      assert.equal(records[3]?.['token'], '***');
      const err = records[4]?.['err'] as { message: string; stack: string; type: string };
      assert.equal(err.message, 'failed with ***');
      assert.equal(err.type, 'Error');
      assert.match(err.stack, /failed with \*\*\*/);
      assert.equal(records[6]?.['chat'], '***');
    } finally {
      cleanup();
    }
  });

  test('a DOMException (an SDK timeout\'s AbortError) logged as err is serialized with its secrets scrubbed, and does not throw', async () => {
    const { profile, secrets, cleanup } = await canaryProfile();
    try {
      const { logger, close } = createLogger({ profile, level: 'info', redactor: new Redactor({ secrets }), tty: false, stderr: new PassThrough(), maxSize: 1024 * 1024, maxFiles: 2, clock: new FakeClock(0) });
      logger.warn({ err: new DOMException(`This operation was aborted (${CANARY})`, 'AbortError') }, 'adapter failed');
      logger.warn({ err: new Error('wrapped', { cause: new DOMException('The operation timed out.', 'TimeoutError') }) }, 'with a cause');
      await close();
      const text = fs.readFileSync(profile.logFile, 'utf8');
      assert.ok(!text.includes(CANARY), text);
      const records = text.trim().split('\n').map((line) => JSON.parse(line) as { err: { type: string; message: string; name?: string; stack: string } });
      assert.equal(records.length, 2);
      assert.equal(records[0]?.err.type, 'DOMException');
      assert.equal(records[0]?.err.message, 'This operation was aborted (***)');
      assert.equal(records[0]?.err.name, 'AbortError');
      assert.match(records[1]?.err.stack ?? '', /caused by: TimeoutError: The operation timed out\./);
    } finally {
      cleanup();
    }
  });

  test('secret-named keys are censored at any depth, in child bindings and on errors; the logged objects are not changed', async () => {
    const { profile, cleanup } = await canaryProfile();
    try {
      const { logger, close, lines } = linesLogger({ profile, level: 'info' });
      const logged = { a: { b: { c: { d: { apiKey: 'deep-key' } } } }, list: [{ password: 'in-a-list' }], headers: { Authorization: 'Bearer by-header' }, kept: 'plain' };
      logger.info(logged, 'nested');
      logger.child({ inboxId: 7, settings: { bot_token: 'bound-token' } }).child({ more: { client_secret: 'grandchild' } }).warn('bindings');
      const error = Object.assign(new Error('failed'), { token: 'on-the-error' });
      logger.error({ err: error }, 'error');
      await close();
      const text = lines.join('');
      for (const value of ['deep-key', 'in-a-list', 'by-header', 'bound-token', 'grandchild', 'on-the-error']) assert.ok(!text.includes(value), `${value} was logged: ${text}`);
      assert.equal(text.split(JSON.stringify(REDACTED)).length - 1, 6, text);
      const first = JSON.parse(lines[0] ?? '{}') as { kept: string; a: { b: { c: { d: { apiKey: string } } } } };
      assert.equal(first.kept, 'plain');
      assert.equal(first.a.b.c.d.apiKey, REDACTED);
      assert.equal((JSON.parse(lines[1] ?? '{}') as { inboxId: number }).inboxId, 7);
      assert.equal((JSON.parse(lines[2] ?? '{}') as { err: { message: string } }).err.message, 'failed');
      assert.equal(logged.a.b.c.d.apiKey, 'deep-key', 'the caller\'s object is left as it was');
      assert.equal(error.token, 'on-the-error');
    } finally {
      cleanup();
    }
  });

  test('respects the level and writes to a given destination', async () => {
    const { profile, cleanup } = await canaryProfile();
    try {
      const { logger, close, lines } = linesLogger({ profile, level: 'warn' });
      logger.info('hidden');
      logger.warn(`shown ${CANARY}`);
      await close();
      assert.equal(lines.length, 1);
      assert.equal((JSON.parse(lines[0] ?? '{}') as { msg: string }).msg, 'shown ***');
      assert.ok(!fs.existsSync(profile.logFile), 'no file when a destination is given');
    } finally {
      cleanup();
    }
  });

  test('rotates by size: current file is gateway.log, older ones numbered, at most maxFiles kept', async () => {
    const { profile, cleanup } = await canaryProfile();
    try {
      const { logger, close } = createLogger({
        profile,
        level: 'info',
        redactor: new Redactor({ secrets: [] }),
        tty: false,
        maxSize: 400,
        maxFiles: 3,
      });
      for (let i = 0; i < 40; i += 1) logger.info({ i }, 'a line that is long enough to fill the tiny log quickly');
      await close();
      const files = fs.readdirSync(profile.logsDir).sort();
      assert.deepEqual(files, ['gateway.log', 'gateway.log.1', 'gateway.log.2', 'gateway.log.3']);
      for (const file of files) {
        const size = fs.statSync(path.join(profile.logsDir, file)).size;
        assert.ok(size > 0 && size <= 400, `${file} is ${size} bytes`);
      }
      const last = fs.readFileSync(profile.logFile, 'utf8').trim().split('\n').at(-1) ?? '{}';
      assert.equal((JSON.parse(last) as { i: number }).i, 39, 'newest line is in gateway.log');
      const older = fs.readFileSync(`${profile.logFile}.1`, 'utf8').trim().split('\n').at(-1) ?? '{}';
      assert.ok((JSON.parse(older) as { i: number }).i < 39);
    } finally {
      cleanup();
    }
  });
  test('phone numbers are masked in every log line (SMS chat ids, session keys, sender ids)', async () => {
    const { profile, secrets, cleanup } = await canaryProfile();
    try {
      const stderr = new PassThrough();
      let pretty = '';
      stderr.on('data', (chunk: Buffer) => (pretty += chunk.toString()));
      const { logger, close } = createLogger({ profile, level: 'info', redactor: new Redactor({ secrets }), tty: true, stderr, maxSize: 1024 * 1024, maxFiles: 2, clock: new FakeClock(0) });
      logger.info({ chatId: '+15551234567', sessionKey: 'work:sms:+447700900123', from: 'whatsapp:+15557654321' }, 'turn finished for +15551234567');
      logger.info({ id: 'order 12345678', tg: '-1001234567890', messageSid: 'SM0123456789' }, 'not phone numbers');
      await close();
      const text = fs.readFileSync(profile.logFile, 'utf8');
      for (const full of ['+15551234567', '+447700900123', '+15557654321']) {
        assert.ok(!text.includes(full), `${full} in the log file`);
        assert.ok(!pretty.includes(full), `${full} on the terminal`);
      }
      const [masked, plain] = text.trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
      assert.equal(masked?.['chatId'], '+1555***4567');
      assert.equal(masked?.['sessionKey'], 'work:sms:+4477***0123');
      assert.equal(masked?.['from'], 'whatsapp:+1555***4321');
      assert.equal(masked?.['msg'], 'turn finished for +1555***4567');
      assert.deepEqual([plain?.['id'], plain?.['tg'], plain?.['messageSid']], ['order 12345678', '-1001234567890', 'SM0123456789']);
    } finally {
      cleanup();
    }
  });
});
