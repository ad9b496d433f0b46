import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { ChoiceRouter } from '../../../src/gateway/owner/choices.js';
import type { ChoiceEvent } from '../../../src/core/adapter.js';

const press = (choiceId: string): ChoiceEvent => ({
  platform: 'telegram',
  chat: { id: '42', kind: 'dm' },
  sender: { id: '7', isBot: false },
  messageId: '100',
  choiceId,
});

test('a press goes to the handler of its prefix; one nobody claims, or whose handler fails, retires its buttons', async () => {
  const router = new ChoiceRouter({ logger: pino({ level: 'silent' }) });
  const seen: string[] = [];
  const remove = router.register({
    prefix: 'ap',
    handle: async (event) => {
      seen.push(event.choiceId);
      if (event.choiceId === 'ap:boom') throw new Error('boom');
      return event.choiceId === 'ap:1:once' ? { notice: 'Allowed once' } : undefined;
    },
  });
  assert.deepEqual(await router.choose(press('ap:1:once')), { notice: 'Allowed once' });
  assert.equal((await router.choose(press('ap:2:once'))).retire, true, 'not pending: retired');
  assert.equal((await router.choose(press('ap:boom'))).retire, true, 'a failing handler never rejects');
  assert.equal((await router.choose(press('cl:1:0'))).retire, true, 'an unknown prefix');
  assert.deepEqual(seen, ['ap:1:once', 'ap:2:once', 'ap:boom']);
  assert.throws(() => router.register({ prefix: 'ap', handle: async () => undefined }), /registered already/);
  remove();
  assert.equal((await router.choose(press('ap:1:once'))).retire, true, 'after removal nothing claims it');
  assert.throws(() => router.register({ prefix: 'A:b', handle: async () => undefined }), /lowercase/);
});
