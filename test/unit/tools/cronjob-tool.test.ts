import assert from 'node:assert/strict';
import { test } from 'node:test';
import { builtinTools } from '../../../src/tools/builtin/index.js';
import { cronjobTool } from '../../../src/tools/builtin/cronjob.js';
import type { CronCapability, CronjobRequest, TurnOrigin } from '../../../src/tools/capabilities.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { bareToolContext } from './support.js';

function context(params: { cron?: CronCapability; origin?: TurnOrigin }): ToolContext {
  return {
    ...bareToolContext(),
    ...(params.cron ? { cron: params.cron } : {}),
    ...(params.origin ? { origin: params.origin } : {}),
  };
}

test("the cronjob tool has Hermes's shape (snake_case arguments), never runs in parallel, and is offered only with cron", () => {
  const [schema] = new ToolRegistry({ tools: [cronjobTool] }).toOpenAITools();
  assert.equal(schema?.function.name, 'cronjob');
  const parameters = schema?.function.parameters as { properties: Record<string, { enum?: string[]; description?: string }>; required: string[] };
  assert.deepEqual(Object.keys(parameters.properties).sort(), ['action', 'deliver', 'job_id', 'name', 'prompt', 'schedule']);
  assert.deepEqual(parameters.properties['action']?.enum, ['create', 'list', 'update', 'pause', 'resume', 'run', 'remove']);
  assert.deepEqual(parameters.required, ['action']);
  assert.equal(cronjobTool.parallel, 'never');
  // The schedule forms are told where the schedule is given.
  assert.match(parameters.properties['schedule']?.description ?? '', /0 8 \* \* 1-5.*every 2h.*in 20m.*2026-12-02 09:00/);
  assert.match(cronjobTool.description, /\[SILENT\]/);
  assert.match(cronjobTool.description, /self-contained/);
  assert.ok(!builtinTools({ memory: true, skills: true }).some((tool) => tool.name === 'cronjob'));
  assert.ok(builtinTools({ cron: true }).some((tool) => tool.name === 'cronjob'));
});

test('the tool passes the camel-cased request and the turn origin to the capability; without one it refuses', async () => {
  const seen: CronjobRequest[] = [];
  const origins: (TurnOrigin | undefined)[] = [];
  const cron: CronCapability = {
    manage: async (request) => {
      seen.push({ action: request.action, ...(request.jobId ? { jobId: request.jobId } : {}), ...(request.deliver ? { deliver: request.deliver } : {}) });
      origins.push(request.origin);
      return 'ok';
    },
  };
  const origin: TurnOrigin = { platform: 'slack', chatId: 'C1', threadId: '1700.1', chatKind: 'channel' };
  const registry = new ToolRegistry({ tools: [cronjobTool] });
  const result = await registry.execute({ call: { id: '1', name: 'cronjob', arguments: JSON.stringify({ action: 'update', job_id: 'ab12cd34', deliver: 'home' }) }, ctx: context({ cron, origin }) });
  assert.equal(result.content, 'ok');
  assert.deepEqual(seen, [{ action: 'update', jobId: 'ab12cd34', deliver: 'home' }]);
  assert.deepEqual(origins, [origin]);
  const off = await registry.execute({ call: { id: '2', name: 'cronjob', arguments: JSON.stringify({ action: 'list' }) }, ctx: context({}) });
  assert.equal(off.isError, true);
  assert.match(off.content, /scheduled jobs are not available/);
});

test('in a turn a job, the heartbeat or a check started, cronjob may only list: a run never creates, changes or removes jobs', async () => {
  const seen: string[] = [];
  const cron: CronCapability = {
    manage: async (request) => {
      seen.push(request.action);
      return 'ok';
    },
  };
  const registry = new ToolRegistry({ tools: [cronjobTool] });
  const origin: TurnOrigin = { platform: 'telegram', chatId: '42', chatKind: 'dm' };
  for (const startedBy of ['job', 'heartbeat', 'check'] as const) {
    for (const action of ['create', 'update', 'pause', 'resume', 'run', 'remove']) {
      const args = { action, job_id: 'ab12cd34', prompt: 'Remind the user to call the bank.', schedule: 'in 1d' };
      const result = await registry.execute({ call: { id: '1', name: 'cronjob', arguments: JSON.stringify(args) }, ctx: { ...context({ cron, origin }), startedBy } });
      assert.ok(result.isError, `${action} in a ${startedBy} turn was not refused`);
      assert.match(result.content, new RegExp(`cronjob ${action} refused: this turn was started by a ${startedBy}`));
    }
    const listed = await registry.execute({ call: { id: '2', name: 'cronjob', arguments: JSON.stringify({ action: 'list' }) }, ctx: { ...context({ cron, origin }), startedBy } });
    assert.equal(listed.isError, false);
  }
  assert.deepEqual(seen, ['list', 'list', 'list'], 'only the lists reached the jobs');
  const fromUser = await registry.execute({ call: { id: '3', name: 'cronjob', arguments: JSON.stringify({ action: 'create', prompt: 'p', schedule: 'in 1d' }) }, ctx: context({ cron, origin }) });
  assert.equal(fromUser.isError, false, 'a user’s turn still creates');
});
