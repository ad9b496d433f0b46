import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { runCli } from '../../src/cli/main.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { captureIO } from '../helpers/cli.js';

const DIM = '\u001b[2m';
const UNDIM = '\u001b[22m';

/** Runs `hermes chat` in-process on a temp home with one line typed; stdout claims to be a terminal when `tty`. */
async function chatOnce(params: { tty: boolean; config?: string; secret?: string }): Promise<{ code: number; stdout: string; stderr: string }> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-chat-progress-'));
  const fake = new FakeOpenAI();
  await fake.start();
  try {
    const dir = path.join(home, 'profiles', 'me');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, '.env'), `OPENAI_API_KEY=sk-chat-progress-key\n${params.secret ? `DEPLOY_TOKEN=${params.secret}\n` : ''}`);
    writeFileSync(path.join(dir, 'config.yaml'), `model:\n  base_url: ${fake.baseURL}\n  api_key: \${OPENAI_API_KEY}\n  max_retries: 0\n${params.config ?? ''}`);
    fake.enqueue(
      { chunks: ['Let me ', 'look.'], chunkDelayMs: 20, toolCalls: [{ name: 'terminal', arguments: { command: `echo ${params.secret ?? 'hi'}` } }] },
      { toolCalls: [{ name: 'search_files', arguments: { pattern: 'TODO' } }] },
      { chunks: ['Found ', 'nothing.'], chunkDelayMs: 20 },
    );
    const captured = captureIO({ env: { HERMES_HOME: home, HOME: home }, stdin: 'look for todos\n' });
    const code = await runCli({ argv: ['-p', 'me', 'chat'], io: { ...captured.io, isTTY: params.tty } });
    return { code, stdout: captured.stdout(), stderr: captured.stderr() };
  } finally {
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
}

test('hermes chat on a terminal prints tool activity dimmed, each on its own line, apart from the answer', { timeout: 30_000 }, async () => {
  const res = await chatOnce({ tty: true });
  assert.equal(res.code, 0, res.stderr);
  assert.ok(res.stdout.includes(`Let me look.\n${DIM}⚙ terminal: echo hi${UNDIM}\n${DIM}🔎 search_files "TODO"${UNDIM}\n`), JSON.stringify(res.stdout));
  assert.match(res.stdout, /Found nothing\./);
  // The answer text itself carries no dimming and no tool line.
  const answer = res.stdout.slice(res.stdout.lastIndexOf(UNDIM) + UNDIM.length);
  assert.ok(answer.includes('Found nothing.') && !answer.includes('terminal') && !answer.includes(DIM), JSON.stringify(answer));
});

test('hermes chat into a pipe keeps the lines, undimmed; display.tool_progress off leaves them out', { timeout: 30_000 }, async () => {
  const piped = await chatOnce({ tty: false });
  assert.equal(piped.code, 0, piped.stderr);
  assert.ok(piped.stdout.includes('Let me look.\n⚙ terminal: echo hi\n🔎 search_files "TODO"\n'), JSON.stringify(piped.stdout));
  assert.ok(!piped.stdout.includes('\u001b['), 'escape codes in piped output');
  const off = await chatOnce({ tty: true, config: 'display:\n  tool_progress: off\n' });
  assert.equal(off.code, 0, off.stderr);
  assert.match(off.stdout, /Let me look\.[\s\S]*Found nothing\./);
  assert.ok(!off.stdout.includes('terminal') && !off.stdout.includes('search_files') && !off.stdout.includes(DIM), JSON.stringify(off.stdout));
});

test('hermes chat: a secret in a tool argument is not printed in the tool line', { timeout: 30_000 }, async () => {
  const secret = 'dpl-chat-Z9x8C7v6B5n4';
  const res = await chatOnce({ tty: false, secret });
  assert.equal(res.code, 0, res.stderr);
  assert.ok(res.stdout.includes('⚙ terminal: echo ***\n'), JSON.stringify(res.stdout));
  assert.ok(!res.stdout.includes(secret));
});
