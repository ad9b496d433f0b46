import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mcpToolName, toolWanted } from '../../../src/mcp/names.js';

test('tool names are mcp_<server>_<tool> with other characters made "_", and none past 64 characters', () => {
  assert.equal(mcpToolName({ server: 'everything', tool: 'get-sum' }), 'mcp_everything_get_sum');
  assert.equal(mcpToolName({ server: 'home.assistant', tool: 'lights/on now' }), 'mcp_home_assistant_lights_on_now');
  assert.equal(mcpToolName({ server: 's', tool: 'x'.repeat(58) })?.length, 64);
  assert.equal(mcpToolName({ server: 's', tool: 'x'.repeat(59) }), undefined);
});

test('include names the only tools offered (and wins over exclude); exclude takes tools out; globs match whole names', () => {
  const want = (tool: string, include: string[], exclude: string[]): boolean => toolWanted({ tool, include, exclude });
  assert.equal(want('echo', [], []), true);
  assert.equal(want('echo', [], ['echo']), false);
  assert.equal(want('get-sum', [], ['get-*']), false);
  assert.equal(want('forget-sum', [], ['get-*']), true);
  assert.equal(want('echo', ['get-?um'], []), false);
  assert.equal(want('get-sum', ['get-?um'], ['get-sum']), true);
  assert.equal(want('a.b', ['a.b'], []), true);
  assert.equal(want('axb', ['a.b'], []), false);
});
