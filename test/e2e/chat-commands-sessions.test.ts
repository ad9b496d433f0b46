import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startHarness, type Harness } from '../helpers/harness.js';
import { say, until } from '../helpers/converse.js';
import { gateTool } from '../helpers/gate-tool.js';
import { commandHelp } from '../../src/core/commands.js';

/** Command replies and edits paced at the shortest interval the config allows (the harness's 1 s makes each command wait). */
const fast = { stream: { edit_interval: '250ms' } };

/** The user messages' texts of the fake model's last request. */
function userTexts(h: Harness): string[] {
  const messages = h.fake.requests.at(-1)?.body.messages ?? [];
  return messages.filter((m) => m['role'] === 'user').map((m) => String(m['content']));
}

test('/title shows and sets the title (secrets scrubbed, capped)', { timeout: 20_000 }, async () => {
  const h = await startHarness({ config: fast, env: { SECRET_TOKEN: 'sk-very-secret-value-123456' } });
  try {
    assert.match(await say(h, '/title'), /no title yet/);
    assert.equal(await say(h, '/title Trip   planning'), 'Title set: Trip planning');
    assert.equal(await say(h, '/title'), 'Title: Trip planning');
    const secret = await say(h, '/title key sk-very-secret-value-123456 here');
    assert.doesNotMatch(secret, /sk-very-secret/);
    const long = await say(h, `/title ${'x'.repeat(300)}`);
    // Shortened, and the reply says so: what was kept and the limit.
    assert.equal(long, `Title set, shortened to 100 characters (yours had 300; titles hold at most 100): ${'x'.repeat(99)}…\nSend a shorter /title to change it.`);
    const store = h.readStore();
    try {
      const session = store.listSessions({ limit: 1 })[0];
      assert.ok(session?.title !== null && (session?.title?.length ?? 0) <= 100);
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});

test("/sessions lists this chat's conversations; /resume 2 makes the next request's history the old one's", { timeout: 20_000 }, async () => {
  const h = await startHarness({ config: fast });
  try {
    h.fake.setResponder(() => ({ text: 'noted' }));
    assert.equal(await say(h, '/sessions'), 'No conversations in this chat yet.');
    await say(h, 'remember the blue door');
    await say(h, '/new');
    await say(h, 'something else entirely');
    const list = await say(h, '/sessions');
    assert.match(list, /^1\. [0-9a-f]{8} · something else entirely · \d{4}-\d\d-\d\d \d\d:\d\d · 2 messages ← current$/m, list);
    assert.match(list, /^2\. [0-9a-f]{8} · remember the blue door · .* · 2 messages$/m, list);

    assert.match(await say(h, '/resume 7'), /^Nothing to resume: there is no conversation 7 \(1 to 2\)/);
    assert.match(await say(h, '/resume'), /Say which conversation/);
    const resumed = await say(h, '/resume 2');
    assert.match(resumed, /^Resumed conversation [0-9a-f]{8} “remember the blue door” \(2 messages\)/);
    await say(h, 'which door?');
    assert.deepEqual(userTexts(h), ['remember the blue door', 'which door?']);
    // The resumed one is current now; the other is kept and can be resumed by its short id.
    const again = await say(h, '/sessions');
    const other = /^\d\. ([0-9a-f]{8}) · something else entirely/m.exec(again)?.[1];
    assert.ok(other, again);
    assert.match(again, /remember the blue door · .* · 4 messages ← current$/m);
    assert.match(await say(h, `/resume ${other}`), /^Resumed conversation/);
    await say(h, 'and now?');
    assert.deepEqual(userTexts(h), ['something else entirely', 'and now?']);
  } finally {
    await h.stop();
  }
});

test('/verbose off: the next tool-using answer shows no progress lines; on again: it does (kept across a restart)', { timeout: 20_000 }, async () => {
  // A tool that holds the turn until the test opens it (rearmed per turn): the progress line (if any) has time to be shown.
  const gate = gateTool();
  const h = await startHarness({ config: { ...fast, display: { tool_progress: 'all' } }, extraTools: [gate.tool] });
  const shownLine = (from: number): boolean => h.adapter.calls.slice(from).some((c) => c.kind !== 'typing' && c.text.includes('probe_gate'));
  /** Runs a turn that calls the gate; resolves with whether its progress line was shown while the tool ran. */
  const toolTurn = async (text: string, expectLine: boolean): Promise<boolean> => {
    const before = h.adapter.calls.length;
    gate.rearm();
    h.fake.enqueue({ toolCalls: [{ name: 'probe_gate', arguments: {} }] }, { text: 'done' });
    await h.adapter.inject({ text });
    await until(() => gate.entered(), 'the tool call');
    if (expectLine) await until(() => shownLine(before), 'the progress line');
    // Off: more than the edit interval passes with the tool running, and still no line.
    else await new Promise((resolve) => setTimeout(resolve, 700));
    const shown = shownLine(before);
    gate.open();
    await h.runner.waitIdle();
    return shown;
  };
  try {
    assert.equal(await toolTurn('look', true), true, 'progress lines shown by default');
    assert.match(await say(h, '/verbose'), /Tool progress lines for this chat: off/);
    await h.restart();
    assert.equal(await toolTurn('look again', false), false, 'no progress line after /verbose off (and a restart)');
    assert.match(await say(h, '/verbose on'), /on: a line for every tool call/);
    assert.equal(await toolTurn('and again', true), true);
    assert.match(await say(h, '/verbose loud'), /takes on, off, all or new/);
  } finally {
    gate.open();
    await h.stop();
  }
});

test('/help has a line for each of /model /usage /title /sessions /resume /verbose', { timeout: 20_000 }, async () => {
  const h = await startHarness({ config: fast });
  try {
    const help = await say(h, '/help');
    for (const name of ['model', 'usage', 'title', 'sessions', 'resume', 'verbose']) {
      assert.match(help, new RegExp(`^/${name}\\b.* — `, 'm'), name);
      assert.ok(commandHelp.some((line) => line.startsWith(`/${name}`)), name);
    }
  } finally {
    await h.stop();
  }
});

test('/sessions lists a compressed conversation once (its newest session); /resume with the old id or its number continues the newest', { timeout: 40_000 }, async () => {
  const h = await startHarness({ config: { ...fast, model: { context_length: 5550 }, compression: { tail_ratio: 0.1 } } });
  try {
    h.fake.setResponder((req) => (req.body.stream === true ? { text: 'ok.' } : { text: 'The user described ten items.' }));
    for (let i = 1; i <= 10; i += 1) await say(h, `item ${i}: ` + 'a fairly long description of the item. '.repeat(8));
    const before = /^1\. ([0-9a-f]{8}) /m.exec(await say(h, '/sessions'))?.[1];
    assert.ok(before);
    assert.match(await say(h, '/compress'), /^Compressed:/);
    await say(h, '/new');
    await say(h, 'another topic');
    const list = await say(h, '/sessions');
    const lines = list.split('\n').filter((l) => /^\d+\. /.test(l));
    assert.equal(lines.length, 2, `one line per conversation: ${list}`);
    assert.ok(!list.includes(before), `the compressed ancestor ${before} is listed apart: ${list}`);
    const newest = /^2\. ([0-9a-f]{8}) · item 1: /m.exec(list)?.[1];
    assert.ok(newest, list);

    const byOldId = await say(h, `/resume ${before}`);
    assert.match(byOldId, new RegExp(`^Resumed conversation ${newest} .*\\(${before} was compressed: the conversation goes on there\\)`), byOldId);
    await say(h, 'go on');
    assert.ok(userTexts(h).some((t) => t.includes('The user described ten items')), 'the next request continues from the summary');
    // Back to the other conversation, then by number: the compressed one is number 2 and resumes at its newest session.
    assert.match(await say(h, '/resume 1'), /^Resumed conversation [0-9a-f]{8} .*\(2 messages\)/);
    assert.match(await say(h, '/resume 2'), new RegExp(`^Resumed conversation ${newest} `));
    const store = h.readStore();
    try {
      const ancestor = store.listSessions({ limit: 10 }).find((s) => s.id.replace(/-/g, '').endsWith(before));
      assert.ok(ancestor !== undefined && ancestor.endedAt !== null, 'the ancestor stays ended');
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});
