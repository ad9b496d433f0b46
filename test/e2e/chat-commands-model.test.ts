import assert from 'node:assert/strict';
import { test } from 'node:test';
import { startHarness } from '../helpers/harness.js';
import { say } from '../helpers/converse.js';
import { childRequests, delegateResponder } from '../helpers/delegate.js';

/** Command replies and edits paced at the shortest interval the config allows (the harness's 1 s makes each command wait). */
const fast = { stream: { edit_interval: '250ms' } };

test('/model NAME: the next requests use it, across a restart; bare /model lists; an unknown name gets the list; /new starts on the configured one', { timeout: 20_000 }, async () => {
  const h = await startHarness({ config: fast });
  try {
    h.fake.models = ['fake-model', 'other-model', 'big-model'];
    h.fake.setResponder(() => ({ text: 'ok' }));
    const listed = await say(h, '/model');
    assert.match(listed, /^Model of this conversation: fake-model \(the configured model\)$/m);
    assert.match(listed, /^• other-model$/m);
    assert.match(listed, /^• big-model$/m);

    const unknown = await say(h, '/model nosuch-model');
    assert.match(unknown, /^Unknown model nosuch-model/);
    assert.match(unknown, /^• other-model$/m);

    assert.match(await say(h, '/model other-model'), /now uses other-model/);
    await say(h, 'hello');
    assert.equal(h.fake.requests.at(-1)?.body.model, 'other-model');

    await h.restart();
    await say(h, 'still there?');
    assert.equal(h.fake.requests.at(-1)?.body.model, 'other-model', 'the choice survives a restart');
    assert.match(await say(h, '/model'), /^Model of this conversation: other-model \(chosen with \/model; configured: fake-model\)$/m);
    assert.match(await say(h, '/status'), /^Model: .*; this conversation: other-model \(\/model\)$/m);

    await say(h, '/new');
    await say(h, 'fresh start');
    assert.equal(h.fake.requests.at(-1)?.body.model, 'fake-model', '/new starts on the configured model');
  } finally {
    await h.stop();
  }
});

test('/model: the list is not blocked by an endpoint without GET /models; any name is then taken, unchecked', { timeout: 20_000 }, async () => {
  const h = await startHarness({ config: { ...fast, model: { fallbacks: [{ name: 'backup-model' }] } } });
  try {
    h.fake.models = [];
    h.fake.setResponder(() => ({ text: 'ok' }));
    const listed = await say(h, '/model');
    assert.match(listed, /^Fallbacks when it fails: backup-model$/m);
    assert.match(listed, /^• fake-model$/m, listed);
    assert.match(listed, /^• backup-model$/m, listed);
    assert.match(listed, /model list is not available/, listed);
    // Nothing to check a name against: it is taken, and said to be unchecked.
    assert.match(await say(h, '/model elsewhere'), /now uses elsewhere \(not checked/);
    assert.match(await say(h, '/model backup-model'), /now uses backup-model/);
    await say(h, 'hi');
    assert.equal(h.fake.requests.at(-1)?.body.model, 'backup-model');
  } finally {
    await h.stop();
  }
});

test('/usage: tokens of the conversation and a cost from model.pricing; without pricing it says how to set it', { timeout: 20_000 }, async () => {
  const h = await startHarness({ config: { ...fast, model: { pricing: { input: 2, output: 10, cached_input: 1 } } } });
  try {
    assert.equal(await say(h, '/usage'), 'No conversation yet: nothing used.');
    h.fake.enqueue({ text: 'one', usage: { prompt_tokens: 300_000, completion_tokens: 20_000, cached_tokens: 100_000 } });
    h.fake.enqueue({ text: 'two', usage: { prompt_tokens: 200_000, completion_tokens: 30_000, cached_tokens: 0 } });
    await say(h, 'first');
    await say(h, 'second');
    const text = await say(h, '/usage');
    assert.match(text, /^Usage: 2 model calls, 500,000 prompt \/ 50,000 completion tokens \(100,000 cached\) \(sub-agents included\)$/m, text);
    // 400k uncached × $2 + 100k cached × $1 + 50k × $10, per million: 0.8 + 0.1 + 0.5.
    assert.match(text, /^Estimated cost: \$1\.40 \(from model\.pricing\)$/m, text);
  } finally {
    await h.stop();
  }
  const plain = await startHarness({ config: fast });
  try {
    plain.fake.enqueue({ text: 'one', usage: { prompt_tokens: 10, completion_tokens: 2 } });
    await say(plain, 'first');
    const text = await say(plain, '/usage');
    assert.match(text, /^Usage: 1 model call, 10 prompt \/ 2 completion tokens/m);
    assert.match(text, /set model\.pricing in config\.yaml/);
  } finally {
    await plain.stop();
  }
});


test("/model NAME: the conversation's delegate_task sub-agents use it too", { timeout: 20_000 }, async () => {
  const h = await startHarness({ config: fast });
  try {
    h.fake.models = ['fake-model', 'other-model'];
    h.fake.setResponder(
      delegateResponder({
        parent: (round) => (round === 0 ? { toolCalls: [{ name: 'delegate_task', arguments: { goal: 'look it up' } }] } : { text: 'delegated' }),
        child: () => ({ text: 'child summary' }),
      }),
    );
    await say(h, '/model other-model');
    assert.equal(await say(h, 'delegate please'), 'delegated');
    const children = [...childRequests({ requests: h.fake.requests }).values()].flat();
    assert.ok(children.length > 0, 'the child made requests');
    assert.deepEqual([...new Set(h.fake.requests.map((r) => r.body.model))], ['other-model']);
  } finally {
    await h.stop();
  }
});
