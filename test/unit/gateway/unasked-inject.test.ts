import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { InjectParams, InjectResult } from '../../../src/jobs/ports.js';
import { unaskedInject } from '../../../src/gateway/inject/unasked-session.js';
import type { InjectRequest } from '../../../src/jobs/inject-request.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { systemClock } from '../../../src/core/clock.js';

const request: InjectRequest = { source: 'check', name: 'disk', platform: 'telegram', prompt: 'disk 95%', scheduledFor: 1_800_000 };
const signal = new AbortController().signal;

test('a heartbeat or check request becomes a system turn in the platform home channel, one journal key per scheduled time', async () => {
  const store = openStore({ path: ':memory:', clock: systemClock });
  try {
    const injected: InjectParams[] = [];
    const inject = (p: InjectParams): InjectResult => {
      injected.push(p);
      return { kind: 'refused', reason: 'the gateway is stopping' };
    };
    const turn = unaskedInject({ store, profileName: () => 'work', inject });
    await assert.rejects(turn({ request, signal }), /no home channel on telegram: send \/sethome/);
    assert.equal(injected.length, 0, 'nothing injected without a home channel');

    store.setHomeChannel({ platform: 'telegram', chat: { id: '42', kind: 'dm' } });
    await assert.rejects(turn({ request, signal }), /the gateway is stopping/, 'a refusal is passed on (a once-check is then not retired)');
    const first = injected[0];
    assert.ok(first);
    assert.deepEqual(first.chat, { id: '42', kind: 'dm' });
    assert.deepEqual(first.origin, { kind: 'check', name: 'disk' });
    assert.equal(first.text, 'disk 95%');
    assert.equal(first.messageId, 'check:disk:1800000');
    assert.match(first.sessionKey, /^work:telegram:42:check=disk:at=1800000$/);
    await assert.rejects(turn({ request: { ...request, source: 'heartbeat', name: 'heartbeat' }, signal }));
    assert.deepEqual(injected[1]?.origin, { kind: 'heartbeat' });
  } finally {
    store.close();
  }
});
