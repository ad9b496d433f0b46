import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FailureLedger } from '../../../src/agent/escalation.js';
import { terminalTool } from '../../../src/tools/builtin/terminal.js';
import type { ToolDefinition } from '../../../src/tools/tool.js';

const terminal = terminalTool as unknown as ToolDefinition;
const run = (ledger: FailureLedger, command: string, content: string): string | undefined =>
  ledger.note({ name: 'terminal', args: JSON.stringify({ command }), result: { content, isError: false }, tool: terminal });

test('failure escalation: the same failure is counted across changing paths and numbers; the second changes approach, the third asks', () => {
  const ledger = new FailureLedger({ askAfter: 3, canAsk: true });
  assert.equal(run(ledger, 'ls /a/1', "ls: cannot access '/a/1': No such file or directory\n[exit code: 2]"), undefined);
  assert.match(run(ledger, 'ls /b/22', "ls: cannot access '/b/22': No such file or directory\n[exit code: 2]") ?? '', /change your approach/);
  assert.match(run(ledger, 'ls /c', "ls: cannot access '/c': No such file or directory\n[exit code: 2]") ?? '', /3 times in this turn: stop retrying it\. Ask the owner with the clarify tool/);
  // Another failure is its own count; a success or a "no match" exit is none.
  assert.equal(run(ledger, 'make', 'make: *** No rule to make target\n[exit code: 2]'), undefined);
  assert.equal(run(ledger, 'grep x f', '(no output)\n[exit code: 1]'), undefined);
  assert.equal(run(ledger, 'ls', 'a\nb\n[exit code: 0]'), undefined);
});

test('failure escalation: errors count by their first line; where clarify is not offered the model is told to say what blocks it; 0 is off', () => {
  const error = (ledger: FailureLedger, text: string): string | undefined => ledger.note({ name: 'read_file', args: '{}', result: { content: text, isError: true }, tool: undefined });
  const ledger = new FailureLedger({ askAfter: 2, canAsk: false });
  assert.equal(error(ledger, 'Error: notes.md does not exist'), undefined);
  assert.match(error(ledger, 'Error: todo.md does not exist') ?? '', /2 times in this turn: stop retrying it\. Say in your answer what you tried, what failed and what you need\.\]$/);
  const off = new FailureLedger({ askAfter: 0, canAsk: true });
  for (let i = 0; i < 5; i++) assert.equal(error(off, 'Error: nope'), undefined);
});
