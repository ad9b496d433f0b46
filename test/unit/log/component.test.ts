import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import { componentLogger, lazyChild } from '../../../src/log/component.js';

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

test('lazyChild makes the child only when a line is logged at a level that is on, once, with its bindings and the redaction', () => {
  const lines: string[] = [];
  const parent = pino({ level: 'warn', redact: ['token'] }, { write: (line: string) => void lines.push(line) });
  let made = 0;
  // Children inherit `child` from their parent: the spy calls the original on whichever logger it is called on.
  const realChild = parent.child;
  parent.child = function child(this: typeof parent, ...args: Parameters<typeof parent.child>) {
    made += 1;
    return realChild.apply(this, args);
  } as typeof parent.child;
  const turn = lazyChild({ logger: parent, bindings: { inboxId: 7, token: 'sk-secret' } });
  turn.info({ detail: 1 }, 'not logged at warn');
  turn.debug('nor this');
  assert.equal(typeof turn.child, 'function', 'looking up child (fastify does) is fine');
  assert.equal(made, 0, 'nothing logged: no child made');
  turn.warn({ detail: 2 }, 'logged');
  turn.error('also logged');
  assert.equal(made, 1, 'one child for the turn');
  made = 0;
  const nested = turn.child({ tool: 'terminal' });
  nested.warn('from a grandchild');
  assert.equal(turn.level, 'warn');
  assert.equal(turn.isLevelEnabled('info'), false);
  const logged = lines.map((line) => JSON.parse(line) as { inboxId?: number; token?: string; tool?: string; msg: string });
  assert.deepEqual(logged.map((l) => [l.msg, l.inboxId, l.token, l.tool]), [
    ['logged', 7, '[Redacted]', undefined],
    ['also logged', 7, '[Redacted]', undefined],
    ['from a grandchild', 7, '[Redacted]', 'terminal'],
  ]);
});
