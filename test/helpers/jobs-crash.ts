import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { openStore } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import type { JobRow } from '../../src/store/job-types.js';
import { systemClock } from '../../src/core/clock.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { LoopbackPlatform } from '../fakes/loopback/server.js';
import { startGatewayProcess, until, type GatewayProcess } from './gateway-process.js';

/** The fakes (model, loopback platform) and a profile home `crash` for `gateway run` children that a test kills. */
export interface CrashRig {
  readonly fake: FakeOpenAI;
  readonly platform: LoopbackPlatform;
  readonly home: string;
  readonly dbPath: string;
  /** Starts a `gateway run` child of the profile against the fakes. */
  spawn(): GatewayProcess;
  /** Kills `proc` (the last child), closes the fakes and removes the home. */
  close(proc: GatewayProcess): Promise<void>;
}

/** Starts the fakes and writes the profile's config (the fake model, a free HTTP port, a 5 s drain, UTC). */
export async function startCrashRig(params: { tmpPrefix: string }): Promise<CrashRig> {
  const fake = new FakeOpenAI();
  const platform = new LoopbackPlatform();
  await fake.start();
  await platform.start();
  const home = mkdtempSync(path.join(os.tmpdir(), params.tmpPrefix));
  const profileDir = path.join(home, 'profiles', 'crash');
  mkdirSync(profileDir, { recursive: true });
  writeFileSync(
    path.join(profileDir, 'config.yaml'),
    stringify({ model: { base_url: fake.baseURL, api_key: 'sk-jobs-crash', name: 'fake' }, gateway: { http: { port: 0 }, drain_timeout: '5s' }, timezone: 'UTC' }),
  );
  return {
    fake,
    platform,
    home,
    dbPath: path.join(profileDir, 'state.db'),
    spawn: () => startGatewayProcess({ home, profile: 'crash', loopbackUrl: platform.baseURL }),
    close: async (proc) => {
      proc.proc.kill('SIGKILL');
      await fake.close();
      await platform.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** Runs `fn` on a second handle of the store at `dbPath`. */
export function withStoreAt<T>(dbPath: string, fn: (store: Store) => T): T {
  const store = openStore({ path: dbPath, clock: systemClock });
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

/** A one-shot job at `atMs` to the loopback chat c1, made in the store at `dbPath` (named `name`, default "Crash job"). */
export function oneShotJob(params: { dbPath: string; atMs: number; prompt: string; name?: string }): JobRow {
  return withStoreAt(params.dbPath, (store) =>
    store.createJob({
      name: params.name ?? 'Crash job',
      prompt: params.prompt,
      scheduleText: 'once',
      schedule: { kind: 'once', atMs: params.atMs },
      timeZone: 'UTC',
      targets: [{ kind: 'chat', platform: 'loopback', chat: { id: 'c1', kind: 'dm' }, origin: true }],
      nextRunAt: params.atMs,
    }),
  );
}

/** Waits until the job's newest run is delivered, then half a second longer (for any stray send). */
export async function waitDelivered(params: { proc: GatewayProcess; dbPath: string; jobId: string; what: string; timeoutMs: number }): Promise<void> {
  await until({ what: params.what, timeoutMs: params.timeoutMs, output: params.proc.output, check: () => withStoreAt(params.dbPath, (s) => s.runsOf({ jobId: params.jobId, limit: 5 })[0]?.outcome === 'delivered') });
  await new Promise((r) => setTimeout(r, 500));
}
