import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { codeRuntime } from '../../src/tools/code/runtime.js';
import { choiceOf, lastToolResult, makeBuild, startApprovals, waitQuestion } from '../helpers/approvals.js';
import { bwrapAvailability } from '../helpers/bwrap.js';
import { runTurn, startCode } from '../helpers/execute-code.js';
import { processesWith } from '../helpers/processes.js';

const python = codeRuntime().python;
const noPython = python === undefined ? 'python3 is not installed here' : false;

test('a Python script calling read_file 5 times and search_files once: one model round, 6 tool executions, no budget spent', { skip: noPython }, async () => {
  // max_iterations 1: the final answer's model call is the only one the budget has room for.
  const h = await startCode({ config: { agent: { max_iterations: 1 } } });
  try {
    for (let i = 1; i <= 5; i++) fs.writeFileSync(path.join(h.profile.workspaceDir, `n${i}.txt`), `note ${i}: needle-${i * 7}\n`);
    const code = [
      'from hermes_tools import read_file, search_files',
      'texts = [read_file(f"n{i}.txt") for i in range(1, 6)]',
      'print("read", sum("needle-" in t for t in texts), "files")',
      'print(search_files(pattern="needle-35", glob="*.txt"))',
    ].join('\n');
    const result = await runTurn(h, { code }, 'five notes read');
    assert.match(result, /^read 5 files\n/);
    assert.match(result, /n5\.txt:1:note 5: needle-35/);
    assert.doesNotMatch(result, /needle-28/, 'search_files matched only n5.txt');
    assert.match(result, /\[exit code: 0; 6 tool calls\]$/);
    // One model round for the script (its request and the final answer's), and the model saw one tool result, not six.
    assert.equal(h.fake.requests.length, 2);
    const second = h.fake.requests[1]?.body.messages ?? [];
    assert.equal(second.filter((m) => m['role'] === 'tool').length, 1);
    assert.equal(h.adapter.shown().at(-1)?.text, 'five notes read');
    // The tool is offered with its Python helpers listed.
    const offered = (h.fake.requests[0]?.body.tools ?? []).map((t) => t['function'] as { name: string; description: string }).find((f) => f.name === 'execute_code');
    assert.match(offered?.description ?? '', / Python 3: from hermes_tools import read_file, write_file, patch, search_files, terminal, session_search, web_extract, skills_list, skill_view \(keyword arguments as the tool's; .*\)\. language 'javascript': /);
  } finally {
    await h.stop();
  }
});

test('the same turn without execute_code (a read_file round) runs out of budget at max_iterations 1', async () => {
  const h = await startCode({ config: { agent: { max_iterations: 1 } } });
  try {
    h.fake.enqueue({ toolCalls: [{ name: 'read_file', arguments: { path: 'n1.txt' } }] }, { text: 'never sent' });
    await h.adapter.inject({ text: 'go' });
    await h.runner.waitIdle();
    assert.equal(h.fake.requests.length, 1);
    assert.match(h.adapter.shown().map((m) => m.text).join('\n'), /iteration budget/);
  } finally {
    await h.stop();
  }
});

test('a script calling delegate_task (or memory, clarify, send_message, or an unknown tool) gets a clear error; max_tool_calls caps a run', { skip: noPython }, async () => {
  const h = await startCode({ config: { tools: { code_execution: { max_tool_calls: 2 } } } });
  try {
    fs.writeFileSync(path.join(h.profile.workspaceDir, 'a.txt'), 'alpha\n');
    const code = [
      'import hermes_tools',
      'from hermes_tools import delegate_task, read_file',
      'for attempt in (lambda: delegate_task(goal="summarise the repo"), lambda: hermes_tools.memory(action="add", target="memory", content="x"), lambda: hermes_tools.clarify(question="which?"), lambda: hermes_tools.send_message(action="list"), lambda: hermes_tools.no_such_tool()):',
      '    try:',
      '        attempt()',
      '    except hermes_tools.ToolCallError as error:',
      '        print("refused:", error)',
      'for i in range(3):',
      '    try:',
      '        print("read:", read_file("a.txt").strip())',
      '    except hermes_tools.ToolCallError as error:',
      '        print("limit:", error)',
    ].join('\n');
    const result = await runTurn(h, { code });
    const lines = result.split('\n');
    assert.match(lines[0] ?? '', /^refused: delegate_task cannot be called from execute_code \(send_message, delegate_task, clarify, memory and execute_code are only for you to call directly/);
    assert.match(lines[0] ?? '', /Callable here: read_file, write_file, patch, search_files, terminal, session_search/);
    assert.match(lines[1] ?? '', /^refused: memory cannot be called from execute_code/);
    assert.match(lines[2] ?? '', /^refused: clarify cannot be called from execute_code \(send_message, delegate_task, clarify/);
    assert.match(lines[3] ?? '', /^refused: send_message cannot be called from execute_code \(send_message, delegate_task, clarify/);
    assert.match(lines[4] ?? '', /^refused: no_such_tool is not a tool that execute_code can call/);
    assert.deepEqual(lines.slice(5, 7), ['read: 1\talpha', 'read: 1\talpha']);
    assert.match(lines[7] ?? '', /^limit: this script already made 2 tool calls, the most one execute_code run may make \(tools\.code_execution\.max_tool_calls\)/);
    assert.match(result, /\[exit code: 0; 2 tool calls\]$/);
  } finally {
    await h.stop();
  }
});

test('a script running past tools.code_execution.timeout is killed with its process group (its grandchild sleep too)', { skip: noPython }, async () => {
  const h = await startCode({ config: { tools: { code_execution: { timeout: '1s' } } } });
  try {
    const marker = `${400 + Math.floor(Math.random() * 500)}.25`;
    const code = [
      'import subprocess, time',
      `subprocess.Popen(["sh", "-c", "sleep ${marker}; echo survived"])`,
      'print("started", flush=True)',
      'time.sleep(600)',
    ].join('\n');
    const started = Date.now();
    const result = await runTurn(h, { code });
    assert.ok(Date.now() - started < 8_000, 'the script ran far past its timeout');
    assert.match(result, /^started\n\[timed out after 1 s: the script and its child processes were killed; 0 tool calls\]$/);
    assert.deepEqual(processesWith(`sleep\0${marker}`), [], 'the grandchild sleep is gone');
    assert.deepEqual(processesWith(`sleep ${marker}`), [], 'its shell is gone');
  } finally {
    await h.stop();
  }
});

test("a script's terminal(\"rm -rf build\") goes to the approval gate: with no owner it is denied and the script sees why", { skip: noPython }, async () => {
  const h = await startCode({ allow: 'all' });
  try {
    const build = path.join(h.profile.workspaceDir, 'build');
    fs.mkdirSync(path.join(build, 'out'), { recursive: true });
    const code = ['from hermes_tools import terminal', 'print("terminal said:", terminal("rm -rf build"))'].join('\n');
    const result = await runTurn(h, { code });
    assert.match(result, /^terminal said: Not run: no one can approve commands here: test has no owner \(set its allowed_users in config\)\./);
    assert.ok(fs.existsSync(build), 'build/ is still there');
    // A hard-blocked command is refused to the script as an error.
    const blocked = await runTurn(h, { code: ['import hermes_tools', 'try:', '    hermes_tools.terminal(command="rm -rf /")', 'except hermes_tools.ToolCallError as e:', '    print("blocked:", e)'].join('\n') });
    assert.match(blocked, /^blocked: Error: refused: .* is never run, whatever the approval setting/);
  } finally {
    await h.stop();
  }
});

test("with an owner, a script's terminal(\"rm -rf build\") waits for the owner's answer; Allow once runs it and the script goes on", { skip: noPython }, async () => {
  const h = await startApprovals();
  try {
    const build = makeBuild(h);
    const code = ['from hermes_tools import terminal', 'print("terminal said:", terminal("rm -rf build"))', 'print("after")'].join('\n');
    h.fake.enqueue({ toolCalls: [{ name: 'execute_code', arguments: { code } }] }, { text: 'cleaned' });
    await h.adapter.inject({ text: 'clean up' });
    const q = await waitQuestion(h);
    assert.match(q.text, /^⚠️ The agent wants to run a dangerous command \(terminal\):\n`rm -rf build`\n/);
    assert.ok(fs.existsSync(build), 'it ran before the answer');
    await h.adapter.press({ messageId: q.id, choiceId: choiceOf(q, 'Allow once') });
    await h.runner.waitIdle();
    assert.equal(fs.existsSync(build), false, 'the allowed command did not run');
    assert.equal(lastToolResult(h), 'terminal said: (no output)\n[exit code: 0]\nafter\n[exit code: 0; 1 tool call]');
  } finally {
    await h.stop();
  }
});

test('secrets are scrubbed twice: from what a helper returns to the script, and from what the script prints', { skip: noPython }, async () => {
  const h = await startCode();
  try {
    fs.writeFileSync(path.join(h.profile.workspaceDir, 'leak.txt'), 'key=sk-test-harness\n');
    const code = [
      'from hermes_tools import read_file',
      'text = read_file("leak.txt")',
      'print("helper saw the key:", "sk-test-harness" in text, "|", text.strip())',
      'print("printed: sk-test-" + "harness")',
    ].join('\n');
    const result = await runTurn(h, { code });
    assert.match(result, /^helper saw the key: False \| 1\tkey=\*\*\*\nprinted: \*\*\*\n/);
    assert.ok(!result.includes('sk-test-harness'));
  } finally {
    await h.stop();
  }
});

test('the JavaScript path: an ES module importing async helpers from hermes_tools', async () => {
  const h = await startCode();
  try {
    fs.writeFileSync(path.join(h.profile.workspaceDir, 'a.txt'), 'alpha\nbeta\n');
    const code = [
      "import { read_file, search_files, delegate_task, ToolCallError } from 'hermes_tools';",
      "const [text, found] = await Promise.all([read_file({ path: 'a.txt', offset: 2 }), search_files({ pattern: 'alph' })]);",
      "console.log(JSON.stringify({ text, found }));",
      "try { await delegate_task({ goal: 'x' }); } catch (error) { console.log(error instanceof ToolCallError, error.message.split(' (')[0]); }",
      "await read_file({ path: 'missing.txt' }).catch((error) => console.log('missing:', error.message));",
    ].join('\n');
    const result = await runTurn(h, { code, language: 'javascript' });
    const [json, refused, missing, status] = result.split('\n');
    assert.deepEqual(JSON.parse(json ?? ''), { text: '     2\tbeta', found: 'a.txt:1:alpha' });
    assert.equal(refused, 'true delegate_task cannot be called from execute_code');
    assert.match(missing ?? '', /^missing: Error: .*missing\.txt/);
    assert.equal(status, '[exit code: 0; 3 tool calls]');
  } finally {
    await h.stop();
  }
});

/** Whether a process is still running (a zombie, dead but not yet reaped, is not). */
function running(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

test('a background process the script starts (a fork holding its output, a detached sleep) does not outlive the run', { skip: noPython }, async () => {
  const h = await startCode();
  try {
    const marker = `${700 + Math.floor(Math.random() * 200)}.75`;
    const code = [
      'import os, subprocess, time, hermes_tools',
      `sleeper = subprocess.Popen(["sleep", "${marker}"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)`,
      'pid = os.fork()',
      'if pid == 0:',
      '    time.sleep(3)',
      '    hermes_tools.write_file(path="late.txt", content="the fork outlived the run")',
      '    os._exit(0)',
      'print("background:", sleeper.pid, pid)',
    ].join('\n');
    const result = await runTurn(h, { code });
    const [, sleeper, fork] = /^background: (\d+) (\d+)\n\[exit code: 0; 0 tool calls\]$/.exec(result) ?? [];
    assert.ok(sleeper !== undefined && fork !== undefined, result);
    const deadline = Date.now() + 3_000;
    while ((running(Number(sleeper)) || running(Number(fork))) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    assert.equal(running(Number(sleeper)), false, 'the detached sleep outlived the run');
    assert.equal(running(Number(fork)), false, 'the fork outlived the run');
    assert.deepEqual(processesWith(`sleep\0${marker}`), []);
  } finally {
    await h.stop();
  }
});

test('what a process that left the run\'s process group (setsid) asks after the run ends never reaches the tools', { skip: noPython }, async () => {
  const h = await startCode();
  try {
    const code = [
      'import os, time, hermes_tools',
      'if os.fork() == 0:',
      '    os.setsid()',
      '    time.sleep(1.5)',
      '    try:',
      '        hermes_tools.write_file(path="late.txt", content="written after the run")',
      '        outcome = "reached"',
      '    except hermes_tools.ToolCallError as error:',
      '        outcome = "refused: %s" % error',
      '    with open("late-outcome.txt", "w") as f:',
      '        f.write(outcome)',
      '    os._exit(0)',
      'print("parent done")',
    ].join('\n');
    const result = await runTurn(h, { code });
    assert.match(result, /^parent done\n\[exit code: 0; 0 tool calls\]$/);
    const outcomeFile = path.join(h.profile.workspaceDir, 'late-outcome.txt');
    const deadline = Date.now() + 10_000;
    // The fork opens the file before it writes it: wait for its content, not just the file.
    const outcome = (): string => (fs.existsSync(outcomeFile) ? fs.readFileSync(outcomeFile, 'utf8') : '');
    while (outcome() === '' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.match(outcome(), /^refused: the tool channel is closed/);
    assert.ok(!fs.existsSync(path.join(h.profile.workspaceDir, 'late.txt')), 'the late write_file ran');
  } finally {
    await h.stop();
  }
});

const { skip: noBwrap } = bwrapAvailability();

test('under bwrap a script runs (python3 and node) but cannot see the profile: ../.env is not there', { skip: noBwrap || noPython }, async () => {
  const secret = 'sk-EXECcodeSBX0h4Jd8Lq2Vx6Nc1Rg5';
  const h = await startCode({ env: { MODEL_KEY: secret }, config: { model: { api_key: '${MODEL_KEY}' }, tools: { approval: 'off', terminal: { sandbox: 'bwrap' } } } });
  try {
    assert.ok(fs.existsSync(path.join(h.profile.dir, '.env')), 'the .env exists on the host');
    fs.writeFileSync(path.join(h.profile.workspaceDir, 'a.txt'), 'alpha\n');
    const code = [
      'import os, hermes_tools',
      'print("parent:", sorted(os.listdir("..")))',
      'try:',
      '    print(open("../.env").read())',
      'except OSError as error:',
      '    print("open:", type(error).__name__)',
      'print("terminal:", hermes_tools.terminal(command="cat ../.env").strip())',
      'print("read_file:", hermes_tools.read_file("a.txt").strip())',
    ].join('\n');
    const result = await runTurn(h, { code });
    const lines = result.split('\n');
    assert.equal(lines[0], "parent: ['workspace']");
    assert.equal(lines[1], 'open: FileNotFoundError');
    assert.match(lines[2] ?? '', /^terminal: cat: \.\.\/\.env: No such file or directory/);
    assert.equal(lines[4], 'read_file: 1\talpha');
    assert.ok(!result.includes(secret.slice(3, 15)), 'the secret leaked');
    const js = await runTurn(h, { language: 'javascript', code: "import fs from 'node:fs';\nconsole.log(fs.readdirSync('..').join(','), fs.existsSync('../.env'));" });
    assert.match(js, /^workspace false\n\[exit code: 0; 0 tool calls\]$/);
  } finally {
    await h.stop();
  }
});
