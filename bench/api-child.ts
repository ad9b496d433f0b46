// The built gateway as its own process (`hermes -p bench gateway run`, as a user or systemd runs it) with the HTTP API
// platform on, against a fake model in this process: load comes from outside, so the child's CPU and memory are its own.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { summarySystemPrompt } from '../src/agent/compress/prompt.js';
import { FakeOpenAI } from '../test/fakes/openai/server.js';
import { spawnBuiltGateway, waitReady } from './gateway-ready.js';

/** The key the bench's requests carry (sender key-1, on the allowlist). */
const BENCH_KEY = 'sk-hermes-bench-0123456789abcdef';

/** What the fake model answers every request with (one short text: the reply is one send, no edits). */
export const BENCH_REPLY = 'ok, noted.';

/** A running gateway child taking API requests. */
export interface ApiGatewayChild {
  readonly pid: number;
  /** POST /v1/chat/completions of the child. */
  readonly completionsUrl: string;
  /** The Authorization header's value for it. */
  readonly authorization: string;
  /** GET /metrics of the child (Prometheus text), when started with `metrics`. */
  readonly metricsUrl?: string;
  /** Spawn → /healthz "ok", ms. */
  readonly readyMs: number;
  /** How many compression summaries the child asked the model for so far. */
  summaries(): number;
  /** The child's stderr so far (the last 64 KB), for a failure's message. */
  stderr(): string;
  /** Stops the child (SIGTERM, waiting for its exit), the fake model, and removes its HERMES_HOME; once, however often called. */
  stop(): Promise<void>;
}

/** Extra node options for every bench child from BENCH_CHILD_NODE_ARGS (space-separated: `--max-semi-space-size=4`, say). */
function childNodeArgs(): string[] {
  return (process.env['BENCH_CHILD_NODE_ARGS'] ?? '').split(' ').filter((arg) => arg !== '');
}

/**
 * Extra environment for the child: MALLOC_ARENA_MAX from BENCH_CHILD_MALLOC_ARENA_MAX (glibc's arenas per thread), and
 * BENCH_CHILD_ENV's space-separated NAME=value pairs (`LD_PRELOAD=/usr/lib/x86_64-linux-gnu/libjemalloc.so.2`, say).
 */
function childEnv(): Record<string, string> {
  const arenas = process.env['BENCH_CHILD_MALLOC_ARENA_MAX'];
  const pairs = (process.env['BENCH_CHILD_ENV'] ?? '').split(' ').filter((pair) => pair.includes('='));
  return {
    ...(arenas === undefined ? {} : { MALLOC_ARENA_MAX: arenas }),
    ...Object.fromEntries(pairs.map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)])),
  };
}

/**
 * Spawns the built CLI (`dist/`: `npm run build` first) for a fresh profile with `platforms.api` on (one key) and the
 * gateway's HTTP server on a free loopback port, its model a FakeOpenAI here answering BENCH_REPLY at once; resolves
 * once /healthz says "ok". `nodeArgs` go before the script (`--cpu-prof`, say); `metrics` turns on its /metrics;
 * `contextLength` sets the model's context length (a small one makes long sessions reach compression).
 */
export async function startApiGatewayChild(params: { nodeArgs?: readonly string[]; metrics?: boolean; contextLength?: number } = {}): Promise<ApiGatewayChild> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-api-'));
  const model = new FakeOpenAI();
  let summaries = 0;
  model.setResponder((req) => {
    // The fake keeps every request it got; a burst or a soak would only grow this process.
    model.requests.length = 0;
    const first = req.body.messages?.[0]?.['content'];
    if (typeof first === 'string' && first.startsWith(summarySystemPrompt.slice(0, 40))) summaries++;
    return { text: BENCH_REPLY };
  });
  await model.start();
  const dir = path.join(home, 'profiles', 'bench');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, 'config.yaml'),
    stringify({
      model: { base_url: model.baseURL, api_key: 'sk-bench', ...(params.contextLength === undefined ? {} : { context_length: params.contextLength }) },
      gateway: { http: { enabled: true, port: 0, ...(params.metrics === true ? { metrics: true } : {}) } },
      // warn by default (the figures of every session so far); BENCH_LOG_LEVEL=info measures what a default config logs.
      logging: { level: process.env['BENCH_LOG_LEVEL'] ?? 'warn' },
      platforms: { api: { enabled: true, keys: [BENCH_KEY], allowed_users: ['key-1'] } },
    }),
  );
  const t0 = performance.now();
  const child = spawnBuiltGateway({ home, nodeArgs: [...(params.nodeArgs ?? []), ...childNodeArgs()], env: childEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.setEncoding('utf8');
  child.stderr?.on('data', (chunk: string) => (stderr = (stderr + chunk).slice(-65_536)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let stopped: Promise<void> | undefined;
  const cleanUp = (): Promise<void> =>
    (stopped ??= (async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
      await model.close();
      rmSync(home, { recursive: true, force: true });
    })());
  try {
    const ready = await waitReady({ child, dir, since: t0, timeoutMs: 60_000 });
    const http = ready.state.http;
    if (!http || child.pid === undefined) throw new Error('the gateway has no HTTP address or pid');
    return {
      pid: child.pid,
      completionsUrl: `http://${http.host}:${http.port}/v1/chat/completions`,
      authorization: `Bearer ${BENCH_KEY}`,
      ...(params.metrics === true ? { metricsUrl: `http://${http.host}:${http.port}/metrics` } : {}),
      readyMs: ready.readyMs,
      summaries: () => summaries,
      stderr: () => stderr,
      stop: cleanUp,
    };
  } catch (error) {
    await cleanUp();
    throw new Error(`${error instanceof Error ? error.message : String(error)}\n${stderr}`);
  }
}
