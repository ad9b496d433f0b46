import assert from 'node:assert/strict';
import { test } from 'node:test';
import { modelCommand } from '../../../src/gateway/commands/model.js';
import { openStore } from '../../../src/store/sqlite-store.js';
import { systemClock } from '../../../src/core/clock.js';

test('/model with a name that is not one word quotes it whole when short, cut with … only when long; nothing is switched', async () => {
  const store = openStore({ path: ':memory:', clock: systemClock });
  try {
    const deps = { store, sessionKey: 'p:test:c', routeModels: ['fake-model'] };
    assert.equal(await modelCommand({ args: 'two words', deps }), '"two words" is not a model name (one word, at most 200 characters).');
    const long = `${'x'.repeat(50)} y`;
    assert.equal(await modelCommand({ args: long, deps }), `"${'x'.repeat(40)}…" is not a model name (one word, at most 200 characters).`);
    assert.equal(store.activeSession({ key: deps.sessionKey }), undefined);
  } finally {
    store.close();
  }
});
