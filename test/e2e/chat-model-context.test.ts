import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CapturedRequest } from '../fakes/openai/server.js';
import { startHarness, type Harness } from '../helpers/harness.js';
import { say, until } from '../helpers/converse.js';
import { capturingLogger, isReview, reviewLines, reviewTestTools, turnScript } from '../helpers/review.js';

/** A gateway whose endpoint lists a big configured model and a small one (context lengths in GET /models), resolved. */
async function twoModels(params: { h: Harness }): Promise<void> {
  const { h } = params;
  h.fake.models = ['fake-model', 'small-model'];
  // small-model: tuned to the ~3k-token fixed part (system prompt and tool schemas), as compression.test.ts does.
  h.fake.modelMetadata = { 'fake-model': { context_length: 200_000 }, 'small-model': { context_length: 4950 } };
  await h.restart();
  await until(() => h.fake.modelListings.length > 0, 'the /models lookup');
}

/** One turn of filler text (about 150 tokens). */
function filler(turn: number): string {
  return `Turn ${turn}: ` + `please keep track of item ${turn} in the inventory list we are building together. `.repeat(8);
}

const isSummary = (req: CapturedRequest): boolean => req.body.stream !== true;

test("/model NAME: /status, the compression threshold and its summary use the chosen model's context length", { timeout: 60_000 }, async () => {
  const h = await startHarness({ editIntervalMs: 20, config: { skills: { review: false } } });
  try {
    await twoModels({ h });
    h.fake.setResponder((req) => (isSummary(req) ? { text: 'Summary: inventory items were discussed.' } : { text: 'Noted. ' + 'I keep the inventory item in mind. '.repeat(4) }));
    assert.match(await say(h, '/model small-model'), /now uses small-model/);
    h.fake.enqueue({ text: 'hello', usage: { prompt_tokens: 1000, completion_tokens: 3 } });
    await say(h, 'hi');
    assert.match(await say(h, '/status'), /^Context: ~1,000 \/ 4,950 tokens \(20%\)$/m, 'the chosen model’s context, not the configured 200,000');
    // On the configured model's 200,000 tokens nothing would compress; on small-model's 4,950 it must.
    for (let turn = 1; turn <= 12 && !h.fake.requests.some(isSummary); turn += 1) await say(h, filler(turn));
    const summary = h.fake.requests.find(isSummary);
    assert.ok(summary, 'the conversation was compressed at small-model’s threshold');
    assert.equal(summary.body.model, 'small-model', 'the summary is written by the model the session talks to');
    const store = h.readStore();
    try {
      assert.ok(store.listSessions({ limit: 10 }).length >= 2, 'the compression went on in a new session');
    } finally {
      store.close();
    }
  } finally {
    await h.stop();
  }
});

test('/model NAME: the background review after a reply talks to the chosen model', { timeout: 30_000 }, async () => {
  const { logger, lines } = capturingLogger();
  const h = await startHarness({ editIntervalMs: 20, logger, extraTools: reviewTestTools() });
  try {
    await twoModels({ h });
    h.fake.models = ['fake-model', 'other-model'];
    const main = [...turnScript({ probes: 10, final: 'done' })];
    const reviews: CapturedRequest[] = [];
    h.fake.setResponder((req) => {
      if (isReview(req)) {
        reviews.push(req);
        return { text: 'nothing to save' };
      }
      return main.shift() ?? { text: 'extra' };
    });
    assert.match(await say(h, '/model other-model'), /now uses other-model/);
    await say(h, 'do the thing');
    await until(() => reviewLines(lines).length === 1, 'the review log line');
    assert.equal(reviews.length, 1);
    assert.equal(reviews[0]?.body.model, 'other-model', 'the review asks the model the session talks to');
  } finally {
    await h.stop();
  }
});
