import assert from 'node:assert/strict';
import { test } from 'node:test';
import { auxiliaryClient } from '../../../../src/agent/auxiliary/client.js';
import {
  compressHistory,
  fallbackNote,
  isSummaryMessage,
  summaryHeader,
  summaryText,
  toolPairingProblems,
  trimmedMarker,
} from '../../../../src/agent/compress/index.js';
import { unansweredToolCalls, type ChatMessage } from '../../../../src/agent/messages.js';
import { appConfigSchema } from '../../../../src/app/config-schema.js';
import { FakeOpenAI } from '../../../fakes/openai/server.js';
import { charTokens, fakeSummariser, generateHistory, total } from './support.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

const signal = new AbortController().signal;

/** A history whose weight is in plain text (step 1 cannot help), with a user fact in turn 2. */
function chatty(turns: number, from = 0): ChatMessage[] {
  const messages: ChatMessage[] = [];
  for (let i = from; i < from + turns; i++) {
    messages.push({ role: 'user', content: i === 1 ? 'By the way, my cat is called Mirabelle. ' + 'x'.repeat(400) : `question ${i} ${'q'.repeat(400)}` });
    messages.push({ role: 'assistant', content: `answer ${i} ${'a'.repeat(400)}` });
  }
  return messages;
}

test('the middle becomes one hand-off summary: head + summary + tail, framed so old requests are not redone', async () => {
  const messages = chatty(20);
  const fake = fakeSummariser(() => '## Task\nchat\n## Facts\nthe cat is Mirabelle');
  const threshold = 2000;
  const result = await compressHistory({ messages, countTokens: charTokens, threshold, summarise: fake.summarise, signal });
  assert.equal(result.outcome, 'summarised');
  assert.equal(fake.requests.length, 1);
  const request = fake.requests[0];
  assert.match(request?.system ?? '', /hand-off note/);
  assert.match(request?.system ?? '', /must NOT be carried out again/);
  assert.match(request?.system ?? '', /facts about the user/);
  assert.match(request?.user ?? '', /Mirabelle/, 'the middle is in the request');
  assert.doesNotMatch(request?.user ?? '', /question 0 /, 'the head is not summarised');
  assert.doesNotMatch(request?.user ?? '', /previous-summary/);
  assert.equal(request?.signal, signal);
  assert.deepEqual(result.messages.slice(0, 2), messages.slice(0, 2), 'head: the first exchange');
  const summary = result.messages[2];
  assert.ok(summary && isSummaryMessage(summary));
  assert.ok(summary.content.startsWith(summaryHeader));
  assert.match(summary.content, /not a new request/);
  assert.equal(summaryText(summary), result.summary);
  assert.match(result.summary ?? '', /Mirabelle/);
  const tail = result.messages.slice(3);
  assert.deepEqual(tail, messages.slice(messages.length - tail.length));
  assert.ok(total(tail) <= 0.2 * threshold);
  assert.ok(result.stats.after <= threshold, `after ${result.stats.after}`);
  assert.equal(result.stats.after, total(result.messages));
  assert.equal(result.stats.summarised, messages.length - 2 - tail.length);
});

test('a second compression sends the first summary and asks to UPDATE it, leaving one summary', async () => {
  const fake = fakeSummariser((_request, i) => (i === 0 ? 'FIRST NOTE: cat Mirabelle' : 'SECOND NOTE: cat Mirabelle, later work'));
  const threshold = 2000;
  const first = await compressHistory({ messages: chatty(20), countTokens: charTokens, threshold, summarise: fake.summarise, signal });
  assert.equal(first.outcome, 'summarised');
  const longer = [...first.messages, ...chatty(12, 20)];
  const second = await compressHistory({ messages: longer, countTokens: charTokens, threshold, summarise: fake.summarise, signal });
  assert.equal(second.outcome, 'summarised');
  const update = fake.requests[1]?.user ?? '';
  assert.match(update, /UPDATE/);
  assert.match(update, /<previous-summary>\nFIRST NOTE: cat Mirabelle\n<\/previous-summary>/);
  assert.doesNotMatch(update.split('<newer-messages>')[1] ?? '', /CONTEXT SUMMARY/, 'the old summary is not summarised as a message');
  assert.match(update, /question 20 /, 'the newer messages are in the request');
  const summaries = second.messages.filter((m) => isSummaryMessage(m));
  assert.equal(summaries.length, 1);
  assert.equal(second.summary, 'SECOND NOTE: cat Mirabelle, later work');
  assert.deepEqual(second.messages.slice(0, 2), longer.slice(0, 2), 'the head is still the first exchange');
  // A new session that starts from the summary (no head): the summary is middle and gets updated too.
  const fresh = [summaryMessageOf(second), ...chatty(12, 40)];
  const third = await compressHistory({ messages: fresh, countTokens: charTokens, threshold, summarise: fake.summarise, signal });
  assert.equal(third.outcome, 'summarised');
  assert.match(fake.requests[2]?.user ?? '', /<previous-summary>\nSECOND NOTE/);
  assert.ok(third.messages[0] && isSummaryMessage(third.messages[0]));
});

function summaryMessageOf(result: { messages: ChatMessage[] }): ChatMessage {
  const found = result.messages.find((m) => isSummaryMessage(m));
  assert.ok(found);
  return found;
}

test('summary model answering 500 (real SDK, fake server) → the fixed fallback note plus head and tail', async () => {
  const fake = new FakeOpenAI();
  await fake.start();
  try {
    const complete = auxiliaryClient({ config: configSchema.parse({ auxiliary: { model: { name: 'small', base_url: fake.baseURL, api_key: 'sk-aux' } } }) });
    assert.ok(complete);
    fake.enqueue({ status: 500 });
    const messages = generateHistory({ seed: 42, turns: 30 });
    const result = await compressHistory({ messages, countTokens: charTokens, threshold: 3000, summarise: complete, signal });
    assert.equal(fake.requests.length, 1);
    assert.equal(result.outcome, 'fallback');
    assert.equal(result.summary, fallbackNote);
    assert.match(result.summary ?? '', /^Earlier messages were removed to save context/);
    assert.ok(result.error !== undefined);
    assert.deepEqual(result.messages[0], messages[0]);
    assert.ok(result.messages.some((m) => isSummaryMessage(m)));
    assert.deepEqual(result.messages.at(-1), messages.at(-1));
    assert.deepEqual(toolPairingProblems({ messages: result.messages }), []);
    assert.deepEqual(unansweredToolCalls({ messages: result.messages }), []);
  } finally {
    await fake.close();
  }
});

test('summarise throwing or answering blank → fallback; an update that fails keeps the earlier summary', async () => {
  for (const answer of [() => { throw new Error('boom'); }, () => '   ']) {
    const result = await compressHistory({ messages: chatty(20), countTokens: charTokens, threshold: 2000, summarise: fakeSummariser(answer).summarise, signal });
    assert.equal(result.outcome, 'fallback');
    assert.equal(result.summary, fallbackNote);
    assert.ok(result.messages.length >= 4);
  }
  const ok = await compressHistory({ messages: chatty(20), countTokens: charTokens, threshold: 2000, summarise: fakeSummariser(() => 'KEEP ME').summarise, signal });
  const failing = await compressHistory({
    messages: [...ok.messages, ...chatty(12, 20)],
    countTokens: charTokens,
    threshold: 2000,
    summarise: fakeSummariser(() => { throw new Error('500'); }).summarise,
    signal,
  });
  assert.equal(failing.outcome, 'fallback');
  assert.match(failing.summary ?? '', /^KEEP ME\n\n\[Later messages were also removed/);
});

test('an aborted summary call keeps the middle (step 1 only) instead of dropping it', async () => {
  const controller = new AbortController();
  const messages = chatty(20);
  const result = await compressHistory({
    messages,
    countTokens: charTokens,
    threshold: 2000,
    signal: controller.signal,
    summarise: async () => {
      controller.abort();
      throw new Error('aborted');
    },
  });
  assert.equal(result.outcome, 'aborted');
  assert.deepEqual(result.messages, messages);
  assert.equal(result.summary, undefined);
});

test('the summary is capped: maxTokens is the cap (12,000 at most) and a longer answer is cut to it', async () => {
  const big = generateHistory({ seed: 7, turns: 200 });
  const fake = fakeSummariser(() => 'fact '.repeat(100_000));
  const result = await compressHistory({ messages: big, countTokens: charTokens, threshold: 200_000, force: true, summarise: fake.summarise, signal });
  assert.equal(fake.requests[0]?.maxTokens, 12_000);
  const summary = result.messages.find((m) => isSummaryMessage(m));
  assert.ok(summary);
  assert.ok(charTokens(summary) <= 12_000, `summary message of ${charTokens(summary)} tokens`);
  assert.ok(charTokens(summary) > 11_900, 'cut close to the cap, not far below');
  assert.ok(result.summary?.endsWith(trimmedMarker));
  // A tight budget gives a smaller cap, so the output still fits the threshold.
  const tight = fakeSummariser(() => 'fact '.repeat(100_000));
  const small = await compressHistory({ messages: chatty(30), countTokens: charTokens, threshold: 3000, summaryMaxTokens: 12_000, summarise: tight.summarise, signal });
  assert.ok((tight.requests[0]?.maxTokens ?? Infinity) < 3000);
  assert.ok(small.stats.after <= 3000, `after ${small.stats.after}`);
});

test('the summary request stays bounded: long messages are clipped and a long middle keeps its oldest and newest parts', async () => {
  const messages = chatty(200).map((m, i) => (i === 40 ? { role: 'user' as const, content: `HUGE ${'h'.repeat(50_000)} END` } : m));
  const fake = fakeSummariser();
  const result = await compressHistory({ messages, countTokens: charTokens, threshold: 5000, transcriptMaxChars: 20_000, summarise: fake.summarise, signal });
  assert.equal(result.outcome, 'summarised');
  const user = fake.requests[0]?.user ?? '';
  assert.ok(user.length < 21_000, `request of ${user.length} chars`);
  assert.match(user, /question 2 /, 'the oldest middle messages are kept');
  assert.match(user, /messages omitted here to fit the request/);
  const lastMiddle = messages[messages.length - 1 - (result.messages.length - 3)]?.content ?? 'missing';
  assert.ok(user.includes(lastMiddle), 'the newest middle message is kept');
  const unbounded = fakeSummariser();
  await compressHistory({ messages: [...chatty(10), ...messages.slice(40, 42), ...chatty(10, 10)], countTokens: charTokens, threshold: 2000, force: true, summarise: unbounded.summarise, signal });
  assert.match(unbounded.requests[0]?.user ?? '', /characters omitted/, 'a 50k-character message is clipped');
});
