import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SlackAdapter } from '../../adapters/slack/adapter.js';
import { FakeSlack } from '../fakes/slack/index.js';
import type { BotMessage } from '../fakes/slack/types.js';
import { clarifyResult, scriptClarify } from '../helpers/clarify.js';
import { startHarness } from '../helpers/harness.js';
import { slackAdapter, slackTokens } from '../helpers/slack.js';

const owner = 'U0OWNER';
const dm = 'D0OWNER';

test('slack (Socket Mode): clarify with choices shows Block Kit buttons; the owner presses one → acked, the model gets the choice, the question updated without buttons; next time the owner answers in a message', { timeout: 60_000 }, async () => {
  const fake = new FakeSlack({ ...slackTokens });
  await fake.start();
  const h = await startHarness({
    // No background review: its model calls would take the scripted replies.
    config: { skills: { review: false, review_interval: 1000 }, memory: { review_interval: 1000 } },
    adapters: ({ profile, clock, logger }): { adapter: SlackAdapter; allow: string[]; unauthorized: 'ignore'; mergeWindowMs: number }[] => [
      { adapter: slackAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { allowed_users: [owner], unauthorized: 'ignore' } }), allow: [owner], unauthorized: 'ignore', mergeWindowMs: 0 },
    ],
  });
  let n = 0;
  const say = async (text: string): Promise<void> => {
    n += 1;
    await fake.deliverEvent({ event: fake.userMessage({ channel: dm, channelType: 'im', user: owner, text }), eventId: `EvCl${n}` });
  };
  const questions = (): BotMessage[] => fake.messages(dm).filter((m) => !m.deleted && m.text.startsWith('❓ ') && !m.text.startsWith('❓ clarify'));
  const now = (q: BotMessage): BotMessage | undefined => fake.messages(dm).find((m) => m.ts === q.ts);
  const waitShown = (text: string): Promise<unknown> => fake.waitFor({ predicate: (f) => f.messages(dm).some((m) => !m.deleted && m.text === text), timeoutMs: 15_000 });
  try {
    scriptClarify(h, { question: 'Which colour for the logo?', choices: ['Red', 'Blue', 'Green'], final: 'Blue it is' });
    await say('make a logo');
    await fake.waitFor({ predicate: () => questions().length === 1, timeoutMs: 15_000 });
    const q = questions()[0];
    assert.ok(q);
    assert.equal(q.text, '❓ Which colour for the logo?\n\nPress a button, or reply with your own answer. No answer in 5 min: the agent goes on without one.');
    assert.deepEqual(fake.buttons({ channel: dm, ts: q.ts }).flat().map((b) => b.text), ['Red', 'Blue', 'Green']);
    assert.ok(fake.buttons({ channel: dm, ts: q.ts }).flat().every((b) => /^cl:[0-9a-f]{12}:[0-2]$/.test(b.actionId)));
    const { ack, envelopeId } = await fake.press({ channel: dm, ts: q.ts, user: owner, label: 'Green' });
    assert.equal(ack.envelope_id, envelopeId, 'the press was not acknowledged');
    await waitShown('Blue it is');
    await h.runner.waitIdle();
    assert.equal(clarifyResult(h), 'Green');
    assert.equal(now(q)?.text, '❓ Which colour for the logo?\n\n✅ u0owner answered: Green');
    assert.deepEqual(fake.buttons({ channel: dm, ts: q.ts }), []);

    scriptClarify(h, { question: 'Which size?', choices: ['Small', 'Large'], final: 'large then' });
    await say('and the size?');
    await fake.waitFor({ predicate: () => questions().length === 2, timeoutMs: 15_000 });
    await say('large');
    await waitShown('large then');
    await h.runner.waitIdle();
    assert.equal(clarifyResult(h), 'Large');
    assert.equal(h.fake.requests.length, 4, 'the answer started a turn');
  } finally {
    await h.stop();
    await fake.close();
  }
});
