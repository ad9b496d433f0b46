// Child process for durability.test.ts: journals inbound messages into the store at argv[2],
// printing "acked <messageId>" after each commit (the point where an adapter would ack its
// platform), then idles until the parent kills it with SIGKILL.
import { openStore } from '../../../src/store/sqlite-store.js';
import { systemClock } from '../../../src/core/clock.js';
import { makeEvent } from './fixtures.js';

const file = process.argv[2];
const count = Number(process.argv[3]);
if (file === undefined || !Number.isInteger(count)) throw new Error('usage: durability-writer.ts <db path> <count>');

const store = openStore({ path: file, clock: systemClock });
for (let i = 0; i < count; i++) {
  const { row } = store.recordInbound({ event: makeEvent({ messageId: `msg-${i}`, text: `n${i}` }), sessionKey: 'k' });
  if (i % 2 === 0) store.setInboxState({ inboxId: row.id, state: 'processing' });
  process.stdout.write(`acked msg-${i}\n`);
}
setInterval(() => undefined, 60_000);
