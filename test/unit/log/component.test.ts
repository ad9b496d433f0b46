import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { componentLogger } from '../../../src/log/component.js';

test('componentLogger makes one child per parent, component and level, and a new one once the parent\'s level changes', () => {
  const lines: string[] = [];
  const parent = pino({ level: 'info' }, { write: (line: string) => void lines.push(line) });
  const first = componentLogger({ logger: parent, component: 'approval' });
  assert.equal(componentLogger({ logger: parent, component: 'approval' }), first);
  assert.notEqual(componentLogger({ logger: parent, component: 'clarify' }), first);
  first.debug('hidden at info');
  parent.level = 'debug';
  const after = componentLogger({ logger: parent, component: 'approval' });
  assert.notEqual(after, first);
  after.debug('shown at debug');
  assert.deepEqual(lines.map((line) => (JSON.parse(line) as { component: string; msg: string })).map((l) => [l.component, l.msg]), [['approval', 'shown at debug']]);
});
