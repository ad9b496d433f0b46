// The wired compression path (issue 12): compressHistory, the prompt rebuild and the session switch in the store (one
// transaction: end, new session with its parent, summary and tail appended and indexed, prompt stored), no model call.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { PassThrough } from 'node:stream';
import { countTokens as countTextTokens } from 'gpt-tokenizer';
import { pino } from 'pino';
import { promptSource } from '../src/agent/prompt/source.js';
import { profileCreate } from '../src/cli/profile-cmd.js';
import { loadAppConfig } from '../src/app/config-schema.js';
import { compressSession } from '../src/gateway/sessions/compress.js';
import { toStoredMessage } from '../src/gateway/sessions/history.js';
import { resolveProfile } from '../src/home/index.js';
import { openStore } from '../src/store/sqlite-store.js';
import { systemClock } from '../src/core/clock.js';
import { isMain } from '../src/util/is-main.js';
import { benchHistory, cachedCounter, compressGoalMs } from './compress.js';
import { formattingRules } from '../adapters/index.js';
import { percentile } from './stats.js';

/** Figures of the wired bench. */
export interface WiredCompressFigures {
  readonly messages: number;
  readonly tokens: number;
  /** The whole wired path per run (forced through step 3, instant summariser, counts cached). */
  readonly totalMs: readonly number[];
  /** The prompt rebuild alone per run (SOUL.md, memory, skills index, context files, runtime facts). */
  readonly promptMs: readonly number[];
  /** Messages the new session starts with, and its estimated tokens. */
  readonly kept: number;
  readonly after: number;
}

/** Runs the wired compression `runs` times on a profile made like `hermes profile create`, with a file-backed store. */
export async function runWiredCompressBench(params: { runs: number }): Promise<WiredCompressFigures> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-compress-'));
  const logger = pino({ level: 'silent' });
  try {
    const env = { HERMES_HOME: home, HOME: home };
    const sink = new PassThrough().resume();
    profileCreate({ io: { stdout: sink, stderr: sink, stdin: new PassThrough(), env, isTTY: false }, name: 'compress-bench' });
    const profile = resolveProfile({ hermesHome: home, name: 'compress-bench' });
    const { config } = await loadAppConfig({ profile, env });
    const built = promptSource({ profile, config, clock: systemClock, scrub: (t) => t, logger, toolNames: ['memory', 'session_search', 'read_file', 'terminal'], formatting: formattingRules });
    const promptMs: number[] = [];
    const prompts = {
      build: (p: { platform: string; startedAt: number }) => {
        const t = performance.now();
        const prompt = built.build(p);
        promptMs.push(performance.now() - t);
        return prompt;
      },
    };
    const store = openStore({ path: profile.dbPath, clock: systemClock });
    try {
      const history = benchHistory({ messages: 200, seed: 12 });
      const { countTokens } = cachedCounter();
      const tokens = history.reduce((sum, m) => sum + countTokens(m), 0);
      let session = store.createSession({ key: 'bench' });
      for (const message of history) store.appendMessage({ ...toStoredMessage({ message, sessionId: session.id, inboxId: 0 }), inboxId: null });
      const note = `## Task\n${'the user works on the store module; tests pass. '.repeat(200)}`;
      const deps = { threshold: 0.5, tailRatio: 0.2, summaryMaxTokens: 12_000, contextLength: () => 200_000, summarise: async (): Promise<string> => note };
      const overheadTokens = countTextTokens(built.build({ platform: 'terminal', startedAt: systemClock.now() }).text);
      promptMs.length = 0;
      const totalMs: number[] = [];
      let kept = 0;
      let after = 0;
      for (let i = 0; i < params.runs + 1; i++) {
        const t = performance.now();
        const done = await compressSession({
          store, session, platform: 'terminal', prompts, deps, messages: history, overheadTokens, countTokens,
          force: true, inboxId: null, turnMessages: 0, signal: new AbortController().signal, scrub: (s) => s, clock: systemClock, logger,
        });
        // The first run warms the statements and the page cache; it is not counted.
        if (i > 0) totalMs.push(performance.now() - t);
        session = done.session;
        kept = done.messages.length;
        after = done.after;
      }
      return { messages: history.length, tokens, totalMs, promptMs: promptMs.slice(1), kept, after };
    } finally {
      store.close();
    }
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}

/** The bench's printed lines. */
export function wiredCompressLines(params: { figures: WiredCompressFigures }): string[] {
  const f = params.figures;
  const p = (values: readonly number[], at: number): string => percentile({ sorted: [...values].sort((x, y) => x - y), p: at }).toFixed(1);
  const within = Math.max(...f.totalMs) <= compressGoalMs ? 'within' : 'OVER';
  return [
    `wired compression of the same ${f.messages} messages (~${f.tokens.toLocaleString('en')} tokens): compressHistory forced through step 3 + prompt rebuild + session switch in the SQLite store (one transaction), no model call:`,
    `  total: p50 ${p(f.totalMs, 50)} ms, max ${p(f.totalMs, 100)} ms over ${f.totalMs.length} runs — ${within} the ${compressGoalMs} ms goal; of which the prompt rebuild p50 ${p(f.promptMs, 50)} ms; the new session starts with ${f.kept} messages, ~${f.after.toLocaleString('en')} tokens`,
  ];
}

if (isMain({ moduleUrl: import.meta.url })) {
  for (const line of wiredCompressLines({ figures: await runWiredCompressBench({ runs: 20 }) })) console.log(line);
}
