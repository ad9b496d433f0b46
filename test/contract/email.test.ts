import { after, test } from 'node:test';
import { dovecotAvailability, startDovecot, type Dovecot } from '../helpers/dovecot.js';
import { emailPlatform } from '../helpers/email.js';
import { adapterContract } from './suite.js';

const availability = dovecotAvailability();
if (availability.available) {
  // One Dovecot for the file (stopping one takes a second); each test's adapter starts at the folder's end.
  let dovecot: Promise<Dovecot> | undefined;
  after(async () => (await dovecot)?.stop());
  adapterContract({ name: 'email (imapflow against Dovecot, nodemailer to an SMTP sink)', setup: async () => emailPlatform({ dovecot: await (dovecot ??= startDovecot()) }) });
} else {
  test('adapter contract: email', { skip: availability.reason }, () => undefined);
}
