import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import { makeSandbox, type Sandbox } from '../support.js';

// Each blocked command would be harmless if it did run (the dangerous part is never reached or never called),
// and each starts by creating a marker file: the marker's absence shows the command did not run at all.
const BLOCKED: readonly { command: string; reason: RegExp }[] = [
  { command: 'touch marker; true || rm -rf /', reason: /deleting the whole file system/ },
  { command: "touch marker && sh -c ': || rm --no-preserve-root -r /srv/none'", reason: /root folder safeguard/ },
  { command: 'touch marker; :(){ :|:& }', reason: /fork bomb/ },
  { command: 'touch marker; false && sudo /bin/chmod -R 777 /', reason: /permissions or owner of every file/ },
  { command: 'touch marker; echo $(false && kill -9 -1)', reason: /killing every process/ },
];

describe('terminal: hard-blocked commands', () => {
  let box: Sandbox | undefined;
  afterEach(() => {
    box?.cleanup();
    box = undefined;
  });

  for (const { command, reason } of BLOCKED) {
    test(`refuses ${JSON.stringify(command)} without running it`, async () => {
      box = makeSandbox();
      const result = await box.call('terminal', { command });
      assert.equal(result.isError, true);
      assert.match(result.content, /^Error: refused: .+ is never run, whatever the approval setting/);
      assert.match(result.content, reason);
      assert.equal(fs.existsSync(path.join(box.workspace, 'marker')), false, 'the command ran');
    });
  }

  test('a dangerous but not blocked command still runs (approval is not this step)', async () => {
    box = makeSandbox();
    fs.mkdirSync(path.join(box.workspace, 'build', 'sub'), { recursive: true });
    const result = await box.call('terminal', { command: 'rm -rf build && touch marker' });
    assert.equal(result.isError, false, result.content);
    assert.equal(fs.existsSync(path.join(box.workspace, 'build')), false);
    assert.equal(fs.existsSync(path.join(box.workspace, 'marker')), true);
  });
});
