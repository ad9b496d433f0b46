import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FakeSlack, signedEventRequest } from '../fakes/slack/index.js';
import { mutateJson, Prng } from '../helpers/fuzz.js';
import { startHarness } from '../helpers/harness.js';
import { slackAdapter, slackTokens } from '../helpers/slack.js';
import { assertNoErrorLines, captureLogs, fuzzRoute, untilConnected, untilModelSaw } from '../helpers/webhook-fuzz.js';

const owner = 'U0OWNER';
const stranger = 'U0STRANGER';

/** Valid Events API bodies from a stranger, of the kinds the adapter reads; mutated, they must never reach the agent. */
function templates(n: number): Record<string, unknown>[] {
  const envelope = (event: Record<string, unknown>): Record<string, unknown> => ({
    token: 'fake-verification-token', team_id: 'T0TEAM', api_app_id: 'A0APP', type: 'event_callback', event_id: `EvFuzz${n}`, event_time: 1,
    authorizations: [{ enterprise_id: null, team_id: 'T0TEAM', user_id: 'U0BOT', is_bot: true }], event,
  });
  const ts = `1700000000.${String(n).padStart(6, '0')}`;
  return [
    envelope({ type: 'message', channel: 'D0STRANGER', channel_type: 'im', user: stranger, text: 'hello', ts, event_ts: ts, team: 'T0TEAM' }),
    envelope({ type: 'app_mention', channel: 'C0GENERAL', user: stranger, text: '<@U0BOT> in a thread', ts, thread_ts: '1700000000.000001', event_ts: ts }),
    envelope({
      type: 'message', subtype: 'file_share', channel: 'C0GENERAL', channel_type: 'channel', user: stranger, text: '<@U0BOT> a file', ts,
      files: [{ id: 'F0FILE', name: 'a.png', mimetype: 'image/png', size: 10, url_private_download: 'https://files.slack.com/a.png', url_private: 'https://files.slack.com/a.png' }],
    }),
    envelope({ type: 'message', channel: 'C0GENERAL', channel_type: 'channel', bot_id: 'B0OTHER', text: 'beep', ts }),
    envelope({ type: 'reaction_added', user: stranger, reaction: 'eyes', item: { type: 'message', channel: 'C0GENERAL', ts } }),
    { type: 'url_verification', challenge: `challenge-${n}`, token: 'x' },
  ];
}

test('slack Events API fuzz: thousands of signed, structurally mutated bodies get 2xx/4xx, no error line, and well-formed ones still reach the agent', { timeout: 90_000 }, async () => {
  const fake = new FakeSlack({ ...slackTokens });
  await fake.start();
  const logs = captureLogs();
  const h = await startHarness({
    withHttp: true,
    logger: logs.logger,
    adapters: ({ profile, clock, logger }) => [
      { adapter: slackAdapter({ fake, cacheDir: profile.cacheDir, clock, logger, overrides: { mode: 'http', allowed_users: [owner], unauthorized: 'ignore' } }), allow: [owner], unauthorized: 'ignore', mergeWindowMs: 50 },
    ],
  });
  try {
    await untilConnected({ runner: h.runner, name: 'slack' });
    h.fake.setResponder(() => ({ text: 'ok' }));
    const address = h.runner.httpAddress;
    assert.ok(address);
    const url = `http://127.0.0.1:${address.port}/slack/events`;
    const rng = new Prng({ seed: 5_1_2026 });
    const valid: string[] = [];
    const statuses = await fuzzRoute({
      count: 3000,
      send: async (i) => {
        const wellFormed = i % 150 === 0;
        let request: { headers: Record<string, string>; body: string };
        if (wellFormed) {
          const text = `well-formed ${i}`;
          valid.push(text);
          request = fake.signedEvent({ event: fake.userMessage({ channel: 'D0OWNER', channelType: 'im', user: owner, text }), eventId: `EvGood${i}` });
        } else {
          request = signedEventRequest({ body: JSON.stringify(mutateJson({ rng, value: rng.pick(templates(i)) })), secret: slackTokens.signingSecret });
        }
        const res = await fetch(url, { method: 'POST', headers: request.headers, body: request.body });
        const text = await res.text();
        if (wellFormed) assert.equal(res.status, 200, `well-formed event answered ${res.status}: ${text}`);
        return { status: res.status, what: `${request.body} → ${text}` };
      },
    });
    assert.ok((statuses.get(200) ?? 0) > 100, 'many mutated bodies were still readable (skipped, 200)');
    await untilModelSaw({ fake: h.fake, texts: valid });
    assertNoErrorLines({ lines: logs.lines });
    const skipped = logs.lines.filter((line) => line['reason'] === 'malformed');
    assert.ok(skipped.length >= 1 && skipped.length <= 2, `malformed bodies from one source are logged once per minute, not ${skipped.length} times`);
  } finally {
    await h.stop();
    await fake.close();
  }
});
