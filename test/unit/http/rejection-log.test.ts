import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { RejectionLog } from '../../../src/gateway/http/rejection-log.js';
import { FakeClock } from '../../helpers/fake-clock.js';

function setup(): { log: RejectionLog; clock: FakeClock; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  const clock = new FakeClock();
  return { log: new RejectionLog({ logger, clock }), clock, lines };
}

const badSignature = { source: '203.0.113.9', reason: 'bad_signature', message: 'bad signature rejected' } as const;

test('a flood from one source is one line, then one count line per minute, then quiet', async () => {
  const { log, clock, lines } = setup();
  try {
    for (let i = 0; i < 2543; i++) log.reject(badSignature);
    assert.equal(lines.length, 1, 'the first rejection is logged, the rest only counted');
    assert.equal(lines[0]?.['msg'], 'bad signature rejected');
    assert.equal(lines[0]?.['source'], '203.0.113.9');
    await clock.advance(59_999);
    assert.equal(lines.length, 1, 'nothing more within the minute');
    await clock.advance(1);
    assert.equal(lines.length, 2);
    assert.equal(lines[1]?.['suppressed'], 2542, 'the minute ends with the count of the others');
    assert.equal(lines[1]?.['reason'], 'bad_signature');
    // The flood goes on: still one count line per minute.
    for (let i = 0; i < 100; i++) log.reject(badSignature);
    await clock.advance(60_000);
    assert.equal(lines.length, 3);
    assert.equal(lines[2]?.['suppressed'], 100);
    // A quiet minute ends the bucket; the next rejection is logged on its own again.
    await clock.advance(60_000);
    assert.equal(lines.length, 3, 'no count line for a minute without rejections');
    log.reject(badSignature);
    assert.equal(lines.length, 4);
    assert.equal(lines[3]?.['msg'], 'bad signature rejected');
  } finally {
    log.close();
  }
});

test('sources and reasons are counted apart; close logs what is still counted and stops the timer', async () => {
  const { log, clock, lines } = setup();
  log.reject(badSignature);
  log.reject({ ...badSignature, source: '198.51.100.1' });
  log.reject({ ...badSignature, reason: 'malformed', message: 'malformed', fields: { issue: 'message.from: expected object' } });
  log.reject(badSignature);
  assert.deepEqual(lines.map((l) => [l['source'], l['reason']]), [['203.0.113.9', 'bad_signature'], ['198.51.100.1', 'bad_signature'], ['203.0.113.9', 'malformed']]);
  assert.equal(lines[2]?.['issue'], 'message.from: expected object', 'the first line carries the route\'s fields');
  log.close();
  assert.equal(lines.length, 4);
  assert.equal(lines[3]?.['suppressed'], 1);
  assert.equal(clock.pending, 0, 'no timer left after close');
});

test('many sources share one bucket per reason past the limit, so memory and lines stay bounded', async () => {
  const { log, clock, lines } = setup();
  try {
    for (let i = 0; i < 5000; i++) log.reject({ ...badSignature, source: `2001:db8::${i.toString(16)}` });
    assert.equal(lines.length, 1001, 'a line per source up to the limit, then one for all the others');
    await clock.advance(60_000);
    const summary = lines.at(-1);
    assert.equal(summary?.['source'], 'other sources');
    assert.equal(summary?.['suppressed'], 3999);
  } finally {
    log.close();
  }
});
