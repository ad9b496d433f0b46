import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import { pino } from 'pino';
import { loadCursor } from '../../../adapters/email/cursor.js';
import { FolderReader, type FetchedMail } from '../../../adapters/email/folder-reader.js';
import { createImapClient } from '../../../adapters/email/imap-client.js';
import { systemClock } from '../../../src/core/clock.js';
import { dovecotAvailability, startDovecot, type Dovecot } from '../../helpers/dovecot.js';
import { composeRaw, emailConfig } from '../../helpers/email.js';
import { SmtpSink } from '../../fakes/smtp/sink.js';
import { memoryStorage } from './memory-storage.js';

const folder = 'Bots';

/** Opens a reader on the test folder, collecting the subjects it hands on; `run` gets it, then it is closed. */
async function withReader(params: { dovecot: Dovecot; storage: ReturnType<typeof memoryStorage>; run: (reader: FolderReader, got: string[]) => Promise<void> }): Promise<void> {
  const sink = new SmtpSink();
  const config = emailConfig({ dovecot: params.dovecot, sink, overrides: { folder, smtp_port: 2525 } });
  const client = createImapClient({ config, account: { imapHost: '127.0.0.1', smtpHost: '127.0.0.1', username: params.dovecot.user.username, password: params.dovecot.user.password, address: 'bot@example.com' } });
  client.on('error', () => undefined);
  await client.connect();
  const got: string[] = [];
  const handle = async (mail: FetchedMail): Promise<void> => void got.push(/^Subject: (.*)$/m.exec(mail.raw.toString())?.[1]?.trim() ?? '?');
  const reader = new FolderReader({ client, folder, storage: params.storage, clock: systemClock, logger: pino({ level: 'silent' }), maxSourceBytes: 1024 * 1024, handle });
  try {
    await reader.open();
    await params.run(reader, got);
  } finally {
    await client.logout();
  }
}

const availability = dovecotAvailability();
describe('FolderReader against Dovecot (a folder other than INBOX)', { skip: availability.available ? false : availability.reason }, () => {
  let shared: Promise<Dovecot> | undefined;
  after(async () => (await shared)?.stop());

  test('first start skips what is there; each mail is read once, also across restarts; a UIDVALIDITY change re-reads only newer mail', async () => {
    const dovecot = await (shared ??= startDovecot());
    const storage = memoryStorage();
    const add = async (subject: string, date?: Date): Promise<void> => {
      await dovecot.append({ folder, raw: (await composeRaw({ from: 'a@example.org', subject, text: subject })).raw, ...(date ? { date } : {}) });
    };
    await add('already there');
    await withReader({
      dovecot,
      storage,
      run: async (reader, got) => {
        await reader.readNew();
        assert.deepEqual(got, []);
        await add('one');
        await add('two');
        await reader.readNew();
        await reader.readNew();
        assert.deepEqual(got, ['one', 'two']);
      },
    });
    // A restart: the persisted cursor resumes after "two".
    await add('three');
    await withReader({ dovecot, storage, run: async (reader, got) => {
      await reader.readNew();
      assert.deepEqual(got, ['three']);
    } });
    const before = loadCursor({ storage, folder });
    assert.ok(before);

    // The folder is re-created (new UIDVALIDITY): old mail comes back with its old dates, plus one new mail.
    await dovecot.deleteFolder({ folder });
    await add('old one', new Date('2020-01-01T00:00:00Z'));
    await add('old two', new Date('2020-01-02T00:00:00Z'));
    await add('new after the change');
    await withReader({ dovecot, storage, run: async (reader, got) => {
      await reader.readNew();
      assert.deepEqual(got, ['new after the change']);
      await reader.readNew();
      assert.deepEqual(got, ['new after the change'], 'nothing twice');
    } });
    const after = loadCursor({ storage, folder });
    assert.notEqual(after?.uidValidity, before.uidValidity);
    assert.equal(after?.lastUid, 3);
  });
});
