import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, test } from 'node:test';
import type { ApprovalDecision, ApprovalRequest } from '../../../../src/tools/capabilities.js';
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

  test('a dangerous command without an approval capability is denied (a result, not an error) and does not run', async () => {
    box = makeSandbox();
    fs.mkdirSync(path.join(box.workspace, 'build', 'sub'), { recursive: true });
    const result = await box.call('terminal', { command: 'rm -rf build && touch marker' });
    assert.equal(result.isError, false, result.content);
    assert.equal(result.content, 'Not run: no one can approve commands here. Do not retry it; ask the owner or choose another way.');
    assert.equal(fs.existsSync(path.join(box.workspace, 'build')), true);
    assert.equal(fs.existsSync(path.join(box.workspace, 'marker')), false);
  });

  test('a dangerous command asks the approval capability with its matches: approved runs, denied returns the reason', async () => {
    box = makeSandbox();
    fs.mkdirSync(path.join(box.workspace, 'build', 'sub'), { recursive: true });
    const asked: ApprovalRequest[] = [];
    let answer: ApprovalDecision = { approved: false, reason: 'the owner denied it (Ann pressed Deny or answered /deny)' };
    box.ctx.approval = {
      decide: async ({ signal: _signal, ...request }) => {
        asked.push(request);
        return answer;
      },
    };
    const denied = await box.call('terminal', { command: 'rm -rf build && touch marker' });
    assert.equal(denied.content, 'Not run: the owner denied it (Ann pressed Deny or answered /deny). Do not retry it; ask the owner or choose another way.');
    assert.equal(fs.existsSync(path.join(box.workspace, 'build')), true);
    assert.deepEqual(asked, [{ tool: 'terminal', command: 'rm -rf build && touch marker', matches: [{ patternId: 'recursive-delete', description: 'recursive delete (rm -r)', segment: 'rm -rf build' }] }]);
    answer = { approved: true, how: 'once' };
    const ran = await box.call('terminal', { command: 'rm -rf build && touch marker' });
    assert.equal(ran.isError, false, ran.content);
    assert.equal(fs.existsSync(path.join(box.workspace, 'build')), false);
    assert.equal(fs.existsSync(path.join(box.workspace, 'marker')), true);
    // A safe command never asks.
    await box.call('terminal', { command: 'ls' });
    assert.equal(asked.length, 2);
  });
});
