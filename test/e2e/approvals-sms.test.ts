import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { test } from 'node:test';
import { lastToolResult, makeBuild, scriptCommand } from '../helpers/approvals.js';
import { owner, smsSetup, startSmsGateway } from '../helpers/sms.js';

const bot = smsSetup.botNumber;

test('sms (real adapter, Twilio fake): /approve with nothing pending says so; a dangerous command asks by text; /approve runs it and says which', { timeout: 60_000 }, async () => {
  // No background review: its model calls would take the scripted replies.
  const g = await startSmsGateway({ config: { skills: { review: false, review_interval: 1000 }, memory: { review_interval: 1000 } } });
  try {
    const texts = (): string[] => g.fake.messagesTo({ to: owner }).map((m) => m.body);
    const waitText = async (predicate: (t: string) => boolean, what: string): Promise<string> => {
      await g.fake.waitFor({ predicate: () => texts().some(predicate), timeoutMs: 15_000 });
      const found = texts().find(predicate);
      assert.ok(found, what);
      return found;
    };
    await g.hooks.inbound({ from: owner, to: bot, body: '/approve' });
    await waitText((t) => t === 'Nothing is waiting for approval.', 'the nothing-pending reply');
    assert.equal(g.h.fake.requests.length, 0, 'the /approve reached the model');

    const build = makeBuild(g.h);
    scriptCommand(g.h, 'rm -rf build', 'cleaned');
    await g.hooks.inbound({ from: owner, to: bot, body: 'clean up the build' });
    const question = await waitText((t) => t.startsWith('⚠️ The agent wants to run a dangerous command'), 'the question');
    assert.match(question, /rm -rf build/);
    assert.match(question, /Reply \/approve \(once\), \/approve session \(for this conversation\), \/approve always \(this kind of command from now on\) or \/deny\. No answer in 5 min means no\.$/);
    assert.ok(existsSync(build));
    await g.hooks.inbound({ from: owner, to: bot, body: '/approve' });
    await waitText((t) => t === 'cleaned', 'the answer');
    await g.h.runner.waitIdle();
    assert.equal(existsSync(build), false, 'the approved command did not run');
    assert.equal(lastToolResult(g.h), '(no output)\n[exit code: 0]');
    assert.ok(texts().some((t) => /^✅ Allowed once by .+: .*rm -rf build.* \(the oldest waiting request\)\.$/.test(t)), texts().join('\n---\n'));
  } finally {
    await g.stop();
  }
});
