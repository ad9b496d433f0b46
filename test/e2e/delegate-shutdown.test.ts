import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { stringify } from 'yaml';
import { systemClock } from '../../src/core/clock.js';
import { openStore } from '../../src/store/sqlite-store.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { FakeTelegram } from '../fakes/telegram/index.js';
import { childRequests, delegateResponder } from '../helpers/delegate.js';
import { startCliGateway, until, type GatewayProcess } from '../helpers/gateway-process.js';
import { processesWith } from '../helpers/processes.js';
import { testToken } from '../helpers/telegram.js';

const owner = { id: 77, first_name: 'Owner', username: 'owner' };
const dm = { id: owner.id, type: 'private' as const };
const goals = ['north', 'south', 'west'];
/** Each child's command: `sleep` with an argument no other test uses, so only these are counted. */
const seconds = '61.4217';
const sleeping = (): number[] => processesWith(`sleep\0${seconds}`);

/** The bot's messages in the owner's chat, as shown. */
function shown(tg: FakeTelegram): string[] {
  return tg.chatMessages(dm.id).filter((m) => !m.deleted).map((m) => m.shown);
}

/** The inbox rows of the profile not yet answered (read once the gateway has exited). */
function pendingTexts(params: { dir: string }): string[] {
  const store = openStore({ path: path.join(params.dir, 'state.db'), clock: systemClock });
  try {
    return store.pendingInbound().map((row) => row.event.text);
  } finally {
    store.close();
  }
}

/** Polls `check` until it holds or `ms` passed since `from`: the ms it took, undefined when it did not hold in time. */
async function within(params: { from: number; ms: number; check: () => boolean }): Promise<number | undefined> {
  for (;;) {
    if (params.check()) return Date.now() - params.from;
    if (Date.now() - params.from > params.ms) return undefined;
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** The profile's gateway log (JSON lines). */
function gatewayLog(params: { dir: string }): string {
  return readFileSync(path.join(params.dir, 'logs', 'gateway.log'), 'utf8');
}

test('SIGTERM while three delegate_task children each run `sleep 60`: no sleep left and the gateway exited within 3 s; the message is answered after the restart', { timeout: 120_000 }, async (t) => {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-delegate-stop-'));
  const tg = new FakeTelegram({ token: testToken });
  await tg.start();
  tg.addChat({ id: owner.id, type: 'private', first_name: owner.first_name });
  const model = new FakeOpenAI();
  await model.start();
  const dir = path.join(home, 'profiles', 'work');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, '.env'), 'MODEL_KEY=sk-delegate-stop-test\n');
  writeFileSync(
    path.join(dir, 'config.yaml'),
    stringify({
      model: { base_url: model.baseURL, api_key: '${MODEL_KEY}' },
      // The default drain: the exit within 3 s must not come from a short drain timeout.
      gateway: { http: { port: 0 }, drain_timeout: '30s' },
      toolsets: ['all'],
      skills: { review: false, review_interval: 1000 },
      memory: { review_interval: 1000 },
      platforms: { telegram: { enabled: true, token: testToken, api_root: tg.apiRoot, allowed_users: ['@owner'], merge_window: '0s' } },
    }),
  );
  // Before the stop the parent delegates and each child runs its long command; the replay after the restart is answered at once.
  let restarted = false;
  model.setResponder(
    delegateResponder({
      parent: () => (restarted ? { text: 'answered after the restart' } : { toolCalls: [{ name: 'delegate_task', arguments: { tasks: goals.map((goal) => ({ goal })) } }] }),
      child: (_goal, round) => (round === 0 ? { toolCalls: [{ name: 'terminal', arguments: { command: `sleep ${seconds}` } }] } : { text: 'slept' }),
    }),
  );
  let gateway: GatewayProcess = startCliGateway({ home, profile: 'work' });
  try {
    const first = gateway;
    await until({ what: 'the gateway to connect', timeoutMs: 30_000, check: () => tg.calls.some((c) => c.method === 'getUpdates'), output: first.output });
    tg.pushMessage({ chat: dm, from: owner, text: 'survey the three regions' });
    await until({ what: 'three children each running sleep', timeoutMs: 30_000, check: () => sleeping().length === 3, output: first.output });
    assert.equal(childRequests({ requests: model.requests }).size, 3);

    const stoppedAt = Date.now();
    first.proc.kill('SIGTERM');
    const sleepsGone = await within({ from: stoppedAt, ms: 3_000, check: () => sleeping().length === 0 });
    const exited = await within({ from: stoppedAt, ms: 3_000, check: () => !first.alive() });
    t.diagnostic(`after SIGTERM: sleeps gone in ${sleepsGone ?? '> 3000'} ms, gateway exited in ${exited ?? '> 3000'} ms`);
    assert.notEqual(sleepsGone, undefined, `${sleeping().length} sleep processes still ran 3 s after SIGTERM`);
    assert.notEqual(exited, undefined, `the gateway still ran 3 s after SIGTERM\n${first.output()}`);
    assert.equal(await first.exited, 0, first.output());

    // Nothing lost: the turn was left open (not answered, not marked stopped), and the restart answers it.
    assert.deepEqual(pendingTexts({ dir }), ['survey the three regions']);
    assert.ok(!shown(tg).some((text) => /stopped/.test(text)), `the turn was marked stopped: ${shown(tg).join(' | ')}`);
    assert.match(gatewayLog({ dir }), /turn left open for replay after shutdown/);
    restarted = true;
    gateway = startCliGateway({ home, profile: 'work' });
    const second = gateway;
    await until({ what: 'the answer after the restart', timeoutMs: 60_000, check: () => shown(tg).includes('answered after the restart'), output: second.output });
    second.proc.kill('SIGTERM');
    assert.equal(await second.exited, 0, second.output());
    assert.deepEqual(pendingTexts({ dir }), []);
    assert.match(gatewayLog({ dir }), /resuming a turn a restart cut short/);
  } finally {
    gateway.proc.kill('SIGKILL');
    for (const pid of sleeping()) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // Gone meanwhile.
      }
    }
    await tg.close();
    await model.close();
    rmSync(home, { recursive: true, force: true });
  }
});
