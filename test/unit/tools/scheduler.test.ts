import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { z } from 'zod';
import { ToolRegistry, type ToolCallRequest } from '../../../src/tools/registry.js';
import { INTERRUPTED_RESULT, planBatches, runBatches } from '../../../src/tools/scheduler.js';
import { defineTool } from '../../../src/tools/tool.js';
import { systemClock } from '../../../src/core/clock.js';

const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
after(() => fs.rmSync(workspace, { recursive: true, force: true }));

const pathInput = z.object({ path: z.string() });
const registry = new ToolRegistry({
  tools: [
    defineTool({ name: 'safe', description: 's', input: z.object({}), parallel: 'safe', handler: async () => 'safe' }),
    defineTool({ name: 'never', description: 'n', input: z.object({}), parallel: 'never', handler: async () => 'never' }),
    defineTool({ name: 'read', description: 'r', input: pathInput, parallel: { paths: (a) => [{ path: a.path, write: false }] }, handler: async (a) => `read ${a.path}` }),
    defineTool({ name: 'write', description: 'w', input: pathInput, parallel: { paths: (a) => [{ path: a.path, write: true }] }, handler: async (a) => `wrote ${a.path}` }),
  ],
});

let seq = 0;
function c(name: string, args: object = {}): ToolCallRequest {
  return { id: `${name}-${++seq}`, name, arguments: JSON.stringify(args) };
}
const names = (batches: ToolCallRequest[][]): string[][] => batches.map((b) => b.map((x) => `${x.name}:${JSON.parse(x.arguments).path ?? ''}`));

describe('planBatches', () => {
  test('never tools run alone; safe ones run together; order is kept', () => {
    const calls = [c('safe'), c('safe'), c('never'), c('safe'), c('never'), c('never')];
    assert.deepEqual(names(planBatches({ calls, registry, workspace })), [['safe:', 'safe:'], ['never:'], ['safe:'], ['never:'], ['never:']]);
  });

  test('a writer and anything touching the same path or an ancestor/descendant go into separate batches', () => {
    const plan = (calls: ToolCallRequest[]): string[][] => names(planBatches({ calls, registry, workspace }));
    assert.deepEqual(plan([c('read', { path: 'a.txt' }), c('write', { path: './a.txt' })]), [['read:a.txt'], ['write:./a.txt']]);
    assert.deepEqual(plan([c('write', { path: 'dir' }), c('read', { path: 'dir/f' })]), [['write:dir'], ['read:dir/f']]);
    assert.deepEqual(plan([c('read', { path: 'dir/f' }), c('write', { path: path.join(workspace, 'dir') })]).length, 2);
    assert.deepEqual(plan([c('write', { path: 'a' }), c('write', { path: 'a' })]).length, 2);
    assert.deepEqual(plan([c('read', { path: 'a' }), c('read', { path: 'a' }), c('write', { path: 'ab' }), c('safe')]), [
      ['read:a', 'read:a', 'write:ab', 'safe:'],
    ]);
  });

  test('paths that are the same file through a symlink count as overlapping', () => {
    fs.mkdirSync(path.join(workspace, 'real'), { recursive: true });
    fs.symlinkSync(path.join(workspace, 'real'), path.join(workspace, 'alias'));
    const batches = planBatches({ calls: [c('write', { path: 'real/x' }), c('read', { path: 'alias/x' })], registry, workspace });
    assert.equal(batches.length, 2);
  });

  test('at most maxParallel per batch; unparseable calls never block others', () => {
    const calls = Array.from({ length: 5 }, () => c('safe'));
    assert.deepEqual(planBatches({ calls, registry, workspace, maxParallel: 2 }).map((b) => b.length), [2, 2, 1]);
    const bad = { id: 'x', name: 'write', arguments: '{oops' };
    assert.equal(planBatches({ calls: [c('write', { path: 'a' }), bad], registry, workspace }).length, 1);
  });
});

describe('runBatches', () => {
  const ctx = { workspace, confineToWorkspace: true, clock: systemClock, terminal: { timeoutMs: 1_000, maxOutputBytes: 1_000 } };

  test('returns results in call order and reports each through onResult in that order', async () => {
    const calls = [c('write', { path: 'z' }), c('read', { path: 'z' }), c('safe')];
    const seen: string[] = [];
    const outcomes = await runBatches({
      batches: planBatches({ calls, registry, workspace }),
      registry,
      ctx,
      signal: new AbortController().signal,
      onResult: (o) => seen.push(o.call.id),
    });
    assert.deepEqual(seen, calls.map((x) => x.id));
    assert.deepEqual(outcomes.map((o) => o.result.content), ['wrote z', 'read z', 'safe']);
  });

  test('after an abort, later batches do not start and a tool that ignores the abort is given up on', async () => {
    const controller = new AbortController();
    const started: string[] = [];
    const stubborn = new ToolRegistry({
      tools: [
        defineTool({
          name: 'stubborn',
          description: 'ignores aborts',
          input: z.object({}),
          parallel: 'never',
          handler: async () => {
            started.push('stubborn');
            controller.abort();
            await new Promise((resolve) => setTimeout(resolve, 5_000).unref());
            return 'too late';
          },
        }),
        defineTool({ name: 'next', description: 'n', input: z.object({}), parallel: 'safe', handler: async () => { started.push('next'); return 'ran'; } }),
      ],
    });
    const calls = [c('stubborn'), c('next')];
    const t0 = Date.now();
    const outcomes = await runBatches({
      batches: planBatches({ calls, registry: stubborn, workspace }),
      registry: stubborn,
      ctx,
      signal: controller.signal,
      abortGraceMs: 50,
    });
    assert.ok(Date.now() - t0 < 2_000, 'waited for the stubborn tool');
    assert.deepEqual(started, ['stubborn']);
    assert.match(outcomes[0]?.result.content ?? '', /^Interrupted: stubborn was still running/);
    assert.deepEqual(outcomes[1]?.result, { content: INTERRUPTED_RESULT, isError: true });
  });
});
