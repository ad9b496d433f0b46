import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStore } from '../../../src/store/sqlite-store.js';
import { resumeSession } from '../../../src/gateway/sessions/resume.js';
import { shortSessionId } from '../../../src/store/session-id.js';
import { FakeClock } from '../../helpers/fake-clock.js';

test("a session's /model choice: set, cleared, carried into the session a compression continues it in, not into /new's", () => {
  const store = openStore({ path: ':memory:', clock: new FakeClock() });
  const a = store.createSession({ key: 'k' });
  assert.equal(store.sessionModel({ sessionId: a.id }), null);
  store.setSessionModel({ sessionId: a.id, model: 'other-model' });
  assert.equal(store.sessionModel({ sessionId: a.id }), 'other-model');
  const continued = store.continueSession({ fromSessionId: a.id, messages: [], prompt: { text: 'p', layers: [] } });
  assert.equal(store.sessionModel({ sessionId: continued.id }), 'other-model', 'a compression keeps the choice');
  store.endSession({ sessionId: continued.id });
  const fresh = store.createSession({ key: 'k', parentSessionId: continued.id });
  assert.equal(store.sessionModel({ sessionId: fresh.id }), null, '/new starts on the configured model');
  store.setSessionModel({ sessionId: continued.id, model: null });
  assert.equal(store.sessionModel({ sessionId: continued.id }), null);
  assert.throws(() => store.setSessionModel({ sessionId: 'nope', model: 'x' }), /no such session/);
  store.close();
});

test("a chat's tool progress choice is kept per session key (and cleared with null)", () => {
  const store = openStore({ path: ':memory:', clock: new FakeClock() });
  assert.equal(store.chatToolProgress({ key: 'k' }), undefined);
  store.setChatToolProgress({ key: 'k', mode: 'off' });
  store.setChatToolProgress({ key: 'other', mode: 'all' });
  assert.equal(store.chatToolProgress({ key: 'k' }), 'off');
  store.setChatToolProgress({ key: 'k', mode: 'new' });
  assert.equal(store.chatToolProgress({ key: 'k' }), 'new');
  store.setChatToolProgress({ key: 'k', mode: null });
  assert.equal(store.chatToolProgress({ key: 'k' }), undefined);
  assert.equal(store.chatToolProgress({ key: 'other' }), 'all');
  store.close();
});

test("a chat's /voice choice is kept per session key apart from its tool progress (and cleared with null)", () => {
  const store = openStore({ path: ':memory:', clock: new FakeClock() });
  assert.equal(store.chatVoiceMode({ key: 'k' }), undefined);
  store.setChatToolProgress({ key: 'k', mode: 'off' });
  store.setChatVoiceMode({ key: 'k', mode: 'on' });
  assert.equal(store.chatVoiceMode({ key: 'k' }), 'on');
  assert.equal(store.chatToolProgress({ key: 'k' }), 'off', 'setting the voice keeps the tool progress choice');
  store.setChatToolProgress({ key: 'k', mode: 'all' });
  assert.equal(store.chatVoiceMode({ key: 'k' }), 'on', 'and the other way round');
  store.setChatVoiceMode({ key: 'k', mode: 'tts' });
  assert.equal(store.chatVoiceMode({ key: 'k' }), 'tts');
  store.setChatVoiceMode({ key: 'k', mode: null });
  assert.equal(store.chatVoiceMode({ key: 'k' }), undefined);
  store.close();
});

test('resumeSession: by number (newest first) or short id; the open session ends; the resumed one is open; bad references say why', async () => {
  const clock = new FakeClock(1_000);
  const store = openStore({ path: ':memory:', clock });
  const old = store.createSession({ key: 'k', title: 'old' });
  await clock.advance(1_000);
  store.endSession({ sessionId: old.id });
  const current = store.createSession({ key: 'k', parentSessionId: old.id });
  store.createSession({ key: 'someone-else' });
  let before = 0;
  const resumed = resumeSession({ store, key: 'k', ref: '2', before: () => (before += 1) });
  assert.equal(resumed.kind, 'resumed');
  assert.equal(before, 1);
  assert.equal(store.activeSession({ key: 'k' })?.id, old.id);
  assert.equal(store.getSession({ sessionId: current.id })?.endedAt, 2_000, 'the session it left ended');
  assert.deepEqual(resumeSession({ store, key: 'k', ref: '2' }).kind, 'current', "after the switch, 2 is still the old one (ordered by start)");
  const back = resumeSession({ store, key: 'k', ref: shortSessionId({ id: current.id }) });
  assert.equal(back.kind, 'resumed');
  assert.equal(store.activeSession({ key: 'k' })?.id, current.id);
  assert.deepEqual(resumeSession({ store, key: 'k', ref: '3' }), { kind: 'not_found', why: 'there is no conversation 3 (1 to 2)' });
  assert.equal(resumeSession({ store, key: 'k', ref: 'zzzzzzzz' }).kind, 'not_found');
  assert.equal(resumeSession({ store, key: 'nobody', ref: '1' }).kind, 'not_found');
  store.close();
});

test('sessionUsageByModel: one entry per model, most calls first', () => {
  const store = openStore({ path: ':memory:', clock: new FakeClock() });
  const s = store.createSession({ key: 'k' });
  const call = (model: string, prompt: number): void => store.recordModelCall({ sessionId: s.id, model, promptTokens: prompt, completionTokens: 1, cachedTokens: 0 });
  call('a', 10);
  call('b', 20);
  call('b', 30);
  assert.deepEqual(
    store.sessionUsageByModel({ sessionId: s.id }).map((u) => [u.model, u.calls, u.promptTokens]),
    [['b', 2, 50], ['a', 1, 10]],
  );
  store.close();
});
