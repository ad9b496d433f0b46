import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { codeRuntime } from '../../src/tools/code/runtime.js';
import { runTurn, startCode } from '../helpers/execute-code.js';

const noPython = codeRuntime().python === undefined ? 'python3 is not installed here' : false;

test('a script printing 10 MB comes back capped at the terminal output limit; one reading stdin gets end-of-file at once', { skip: noPython }, async () => {
  const h = await startCode({ config: { tools: { terminal: { max_output_bytes: 4096 } } } });
  try {
    const big = await runTurn(h, { code: ['import sys', 'sys.stdout.write("head-")', 'for _ in range(1000):', '    sys.stdout.write("x" * 10_000)', 'print("-tail")'].join('\n') });
    assert.ok(big.length < 4096 + 400, `${big.length} characters came back`);
    assert.match(big, /^head-x+\n\[output truncated: \d+ of 10000011 bytes omitted; showing the first 2048 and last 2048 bytes\]\nx+-tail\n\[exit code: 0; 0 tool calls\]$/);
    const started = Date.now();
    const stdin = await runTurn(h, { code: 'import sys\nprint("stdin:", repr(sys.stdin.read()))' });
    assert.equal(stdin, "stdin: ''\n[exit code: 0; 0 tool calls]");
    assert.ok(Date.now() - started < 5_000, 'reading stdin waited');
  } finally {
    await h.stop();
  }
});

test('a script making 60 tool calls under the default tools.code_execution.max_tool_calls (50): 50 run, the other 10 get the limit error', { skip: noPython }, async () => {
  const h = await startCode();
  try {
    fs.writeFileSync(path.join(h.profile.workspaceDir, 'a.txt'), 'alpha\n');
    const code = [
      'import hermes_tools',
      'ran, refused = 0, []',
      'for i in range(60):',
      '    try:',
      '        hermes_tools.read_file(path="a.txt")',
      '        ran += 1',
      '    except hermes_tools.ToolCallError as error:',
      '        refused.append(str(error))',
      'print("ran", ran, "refused", len(refused))',
      'print(refused[0])',
    ].join('\n');
    const result = await runTurn(h, { code });
    const [counts, first, status] = result.split('\n');
    assert.equal(counts, 'ran 50 refused 10');
    assert.match(first ?? '', /^this script already made 50 tool calls, the most one execute_code run may make \(tools\.code_execution\.max_tool_calls\); no more run\.$/);
    assert.equal(status, '[exit code: 0; 50 tool calls]');
  } finally {
    await h.stop();
  }
});

test("a script's tool channel is an unnamed socketpair on fd 3: no address, port or socket path another run could connect to", { skip: noPython }, async () => {
  const h = await startCode();
  try {
    const code = [
      'import os, socket, stat',
      'print("fd3 socket:", stat.S_ISSOCK(os.fstat(3).st_mode))',
      's = socket.socket(fileno=os.dup(3))',
      'print("family:", s.family.name, "local:", repr(s.getsockname()), "peer:", repr(s.getpeername()))',
      'print("env:", sorted(k for k in os.environ if "SOCK" in k or "HERMES" in k or "RPC" in k))',
    ].join('\n');
    const result = await runTurn(h, { code });
    const lines = result.split('\n');
    assert.equal(lines[0], 'fd3 socket: True');
    assert.equal(lines[1], "family: AF_UNIX local: '' peer: ''");
    assert.equal(lines[2], 'env: []');
  } finally {
    await h.stop();
  }
});
