import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pino, type Logger } from 'pino';
import { stringify } from 'yaml';
import { loadAppConfig } from '../../src/app/config-schema.js';
import type { AppConfig } from '../../src/app/config-schema.js';
import type { AdapterCapabilities } from '../../src/core/adapter.js';
import { buildGateway } from '../../src/app/bootstrap.js';
import type { DiskHealth } from '../../src/gateway/ops/disk-health.js';
import type { AllowList } from '../../src/core/authorize.js';
import type { GatewayRunner } from '../../src/gateway/runtime/runner.js';
import type { AdapterEntry } from '../../src/core/platform.js';
import { resolveProfile, ensureProfileDirs, type Profile } from '../../src/home/index.js';
import { Redactor } from '../../src/log/redact.js';
import { openStore, type OpenStoreParams } from '../../src/store/sqlite-store.js';
import type { Store } from '../../src/store/types.js';
import type { ToolDefinition } from '../../src/tools/tool.js';
import { systemClock, type Clock } from '../../src/core/clock.js';
import { FakeOpenAI } from '../fakes/openai/server.js';
import { TestAdapter } from './test-adapter.js';
import type { McpHub } from '../../src/mcp/hub.js';
import type { ToolRegistry } from '../../src/tools/registry.js';

/** A whole gateway in-process: temp profile, fake model, test platform. */
export interface Harness {
  /** The current gateway (a new one after `restart`). */
  readonly runner: GatewayRunner;
  /** Stops the current gateway (drain) and starts a new one on the same profile and adapters. */
  restart(): Promise<GatewayRunner>;
  readonly adapter: TestAdapter;
  readonly fake: FakeOpenAI;
  readonly profile: Profile;
  readonly config: AppConfig;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The current gateway's MCP servers (what a reloader applies `mcp_servers` to). */
  readonly mcp: McpHub;
  /** The current gateway's tool registry (what a reloader's new agent offers). */
  readonly registry: ToolRegistry;
  /** Opens a second handle on the profile's store (close it after use). */
  readStore(): Store;
  /** Stops the gateway and the fake and removes the temp home. */
  stop(): Promise<void>;
}

/** Deep-merges plain objects (config overrides). */
function merge(base: Record<string, unknown>, extra: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(extra)) {
    const prev = out[key];
    out[key] = isPlain(prev) && isPlain(value) ? merge(prev, value) : value;
  }
  return out;
}

function isPlain(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Starts a gateway on a fresh temp HERMES_HOME with the given config overrides (config.yaml shape). */
export async function startHarness(params: {
  clock?: Clock;
  config?: Record<string, unknown>;
  capabilities?: Partial<AdapterCapabilities>;
  allow?: AllowList;
  /** What unknown DM senders get (default: nothing). */
  unauthorized?: 'pair' | 'ignore';
  extraTools?: readonly ToolDefinition[];
  logger?: Logger;
  /** More adapters besides the test one (a function gets the profile, e.g. for its cache dir). */
  adapters?: readonly AdapterEntry[] | ((params: { profile: Profile; clock: Clock; logger: Logger }) => AdapterEntry[]);
  /** Serve HTTP on a free loopback port. */
  withHttp?: boolean;
  /** The profile's .env (KEY=value lines), written before the config is loaded: its values are the profile's secrets. */
  env?: Readonly<Record<string, string>>;
  /** The gateway's view of the disk (tests give one with a short probe interval). */
  disk?: DiskHealth;
  /** Runs on the store's connection once open (a tiny max_page_count makes a real SQLITE_FULL). */
  configureStore?: OpenStoreParams['configure'];
  /** Offer the `cronjob` tool (its capability over the profile's jobs); `poke` is called after each change. */
  cron?: { poke: () => void };
  /**
   * The test platform's own edit interval (an AdapterEntry override, below stream.edit_interval's 250 ms floor), for
   * tests that run many turns and do not measure pacing; default: stream.edit_interval (1 s here).
   */
  editIntervalMs?: number;
} = {}): Promise<Harness> {
  const clock = params.clock ?? systemClock;
  const fake = new FakeOpenAI();
  await fake.start();
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-e2e-'));
  const profile = resolveProfile({ hermesHome: home, name: 'test' });
  ensureProfileDirs({ profile });
  mkdirSync(profile.workspaceDir, { recursive: true });
  const raw = merge(
    {
      model: { base_url: fake.baseURL, api_key: 'sk-test-harness', name: 'fake-model', max_retries: 2 },
      gateway: { drain_timeout: '5s', http: { enabled: params.withHttp === true, port: 0 } },
      stream: { edit_interval: '1s', cursor: ' ▉' },
    },
    params.config ?? {},
  );
  writeFileSync(profile.configPath, stringify(raw));
  if (params.env) writeFileSync(profile.envPath, Object.entries(params.env).map(([key, value]) => `${key}=${value}\n`).join(''), { mode: 0o600 });
  const { config, secrets } = await loadAppConfig({ profile, env: {} });
  const redactor = new Redactor({ secrets });
  const logger = params.logger ?? pino({ level: 'silent' });
  const adapter = new TestAdapter({ clock, ...(params.capabilities ? { capabilities: params.capabilities } : {}) });
  const more = typeof params.adapters === 'function' ? params.adapters({ profile, clock, logger }) : (params.adapters ?? []);
  let mcp: McpHub | undefined;
  let registry: ToolRegistry | undefined;
  const build = (): GatewayRunner => {
    const built = buildGateway({
      profile,
      config,
      clock,
      logger,
      adapters: [
        {
          adapter,
          allow: params.allow ?? 'all',
          ...(params.unauthorized ? { unauthorized: params.unauthorized } : {}),
          ...(params.editIntervalMs !== undefined ? { editIntervalMs: params.editIntervalMs } : {}),
        },
        ...more,
      ],
      withHttp: params.withHttp === true,
      scrub: (text) => redactor.scrub(text),
      secrets: redactor,
      supervisorBackoff: { baseMs: 50, maxMs: 200 },
      ...(params.disk ? { disk: params.disk } : {}),
      ...(params.configureStore ? { configureStore: params.configureStore } : {}),
      ...(params.extraTools ? { extraTools: params.extraTools } : {}),
      ...(params.cron ? { cron: params.cron } : {}),
      // /reload-mcp reads config.yaml again, as `gateway run` does.
      readMcpServers: async () => (await loadAppConfig({ profile, env: {} })).config.mcp_servers,
    });
    mcp = built.mcp;
    registry = built.registry;
    return built.runner;
  };
  let runner = build();
  await runner.start();
  await adapter.ready();
  let stopped = false;
  return {
    get runner() {
      return runner;
    },
    get mcp(): McpHub {
      if (mcp === undefined) throw new Error('no gateway built');
      return mcp;
    },
    get registry(): ToolRegistry {
      if (registry === undefined) throw new Error('no gateway built');
      return registry;
    },
    restart: async () => {
      await runner.stop();
      runner = build();
      await runner.start();
      return runner;
    },
    adapter,
    fake,
    profile,
    config,
    clock,
    logger,
    readStore: () => openStore({ path: profile.dbPath, clock: systemClock }),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await runner.stop();
      await fake.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
