import type { Logger } from 'pino';
import { identityLayer } from '../agent/prompt/identity.js';
import { anyMemoryEnabled, memorySettingsFrom } from '../memory/settings.js';
import { memoryTool } from '../tools/builtin/memory.js';
import { ConfigError } from '../config/errors.js';
import { loadAppConfig, type AppConfig, type PlatformName } from './config-schema.js';
import type { EnvSnapshot } from '../home/hermes-home.js';
import type { Profile } from '../home/profile.js';
import type { GatewayHttp } from '../gateway/http/server.js';
import type { Redactor } from '../log/redact.js';
import type { ToolRegistry } from '../tools/registry.js';
import type { Store } from '../store/types.js';
import type { Clock } from '../core/clock.js';
import { buildAgent, mountWebhooks, runnerOptionsFrom } from './bootstrap.js';
import { UserFacingError } from '../core/errors.js';
import { assertNoClashes } from './clashes.js';
import { buildAdapterEntry, type PlatformLoaders } from './platforms.js';
import { appliedConfig, planReload } from './reload-plan.js';
import type { GatewayRunner } from '../gateway/runtime/runner.js';
import type { AdapterEntry } from '../core/platform.js';
import { errorMessage } from '../util/error-text.js';
import type { UnaskedLoops } from '../gateway/inject/unasked-loops.js';
import type { McpHub } from '../mcp/hub.js';

/** What a reload did (also written to gateway.json for `hermes gateway reload`). */
export type ReloadOutcome =
  | {
      readonly ok: true;
      readonly restarted: readonly string[];
      readonly started: readonly string[];
      readonly stopped: readonly string[];
      readonly kept: readonly string[];
      /** Changed settings the next turns use. */
      readonly live: readonly string[];
      /** Changed settings that wait for a restart. */
      readonly restartNeeded: readonly string[];
      /** Platforms whose new config could not be used (they keep running with the old one). */
      readonly failed: readonly string[];
    }
  | { readonly ok: false; readonly error: string };

/** Everything a reload needs besides the files: the running pieces and how they were built. */
export interface ReloaderParams {
  readonly profile: Profile;
  /** The environment the gateway started with (the profile's .env is read again on top of it). */
  readonly env: EnvSnapshot;
  /** The config the gateway runs with now. */
  readonly config: AppConfig;
  readonly runner: GatewayRunner;
  readonly http: GatewayHttp | undefined;
  readonly registry: ToolRegistry;
  /** The logger's redactor: a reloaded config's new secrets are added before anything is logged. */
  readonly redactor: Redactor;
  readonly logger: Logger;
  readonly clock: Clock;
  readonly supervisorBackoff?: { baseMs?: number; maxMs?: number };
  /** The scheduler's wake-up, as given to buildGateway's `cron`: the `cronjob` tool keeps its capability across reloads. */
  readonly cronPoke?: () => void;
  /** The gateway's store (buildGateway returns it): the reloaded tool context's session search reads it. */
  readonly store?: Store;
  /** The profile's MCP servers (buildGateway returns them): a reload applies its `mcp_servers` to them. */
  readonly mcp?: McpHub;
  /** The daemon's heartbeat and checks: a reload applies its config to them (restarted when their sections changed). */
  readonly unasked?: Pick<UnaskedLoops, 'apply'>;
  /** Platform factories (default: the built-in ones, loaded on first use). */
  readonly factories?: PlatformLoaders;
}

/**
 * Changed keys (or sections) that go into a session's system prompt: a new session's prompt is built with them,
 * a running session keeps the prompt it was built with.
 */
const promptKeys: readonly string[] = [
  'SOUL.md',
  'model.name',
  'timezone',
  'memory',
  'agent.system_prompt',
  'agent.tool_use_enforcement',
  'agent.current_time',
  'agent.context_files',
  'agent.context_file_max_chars',
  'tools.workspace',
  'toolsets',
  'platform_toolsets',
];

/** What a reload asked for while the gateway stops gets. */
const stopping: ReloadOutcome = { ok: false, error: 'the gateway is stopping; it reads the config again when it starts' };

/**
 * Re-reads config.yaml and .env (SIGHUP, `hermes gateway reload`) and applies the difference: adapters whose
 * platform section changed are replaced, newly enabled ones start, disabled ones stop, the rest keep running
 * untouched; model/agent/tool settings apply to the next turns, and what goes into the system prompt to sessions started
 * after the reload (a session keeps the prompt it was built with). An invalid config changes nothing.
 */
export class GatewayReloader {
  private config: AppConfig;
  /** The identity layer (SOUL.md) the running config's sessions are built with. */
  private identity: string;
  private running: Promise<ReloadOutcome> | null = null;
  private again: Promise<ReloadOutcome> | null = null;
  private closed = false;
  private readonly params: ReloaderParams;
  private readonly factories: PlatformLoaders | undefined;

  constructor(params: ReloaderParams) {
    this.params = params;
    this.config = params.config;
    this.factories = params.factories;
    this.identity = identityLayer({ profile: params.profile }).text;
  }

  /**
   * Refuses further reloads and resolves once the one in progress (and one queued behind it) has finished, so the
   * gateway stops only after a reload has swapped its adapters completely (and nothing logs after the log closes).
   */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.allSettled([this.running, this.again]);
  }

  /** Reloads now, or once more after the reload in progress (requests meanwhile share that one). */
  request(): Promise<ReloadOutcome> {
    if (this.closed) return Promise.resolve(stopping);
    if (!this.running) return this.start();
    this.again ??= this.running.then(() => {
      this.again = null;
      return this.closed ? stopping : this.start();
    });
    return this.again;
  }

  private start(): Promise<ReloadOutcome> {
    const run = this.reload().catch((error: unknown) => this.rejected({ error })).finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  private async reload(): Promise<ReloadOutcome> {
    const { logger, profile } = this.params;
    logger.info({ configFile: profile.configPath }, 'reloading config');
    let next: AppConfig;
    try {
      const loaded = await loadAppConfig({ profile, env: this.params.env });
      this.params.redactor.add({ secrets: loaded.secrets });
      // The same rule as at start: a bot account or fixed port another profile uses is refused.
      await assertNoClashes({ profile, config: loaded.config, env: this.params.env, logger });
      next = loaded.config;
    } catch (error) {
      return this.rejected({ error });
    }
    const plan = planReload({ current: this.config, next });
    const { entries, failed } = await this.prepare({ names: [...plan.restart, ...plan.start], config: next });
    const restarted = plan.restart.filter((name) => !failed.includes(name));
    const started = plan.start.filter((name) => !failed.includes(name));
    await this.params.runner.replaceAdapters({ stop: [...restarted, ...plan.stop], start: entries });
    for (const name of plan.stop) await this.params.http?.webhooks.unmount({ name });
    const identity = identityLayer({ profile }).text;
    const live = identity === this.identity ? [...plan.live] : [...plan.live, 'SOUL.md'];
    this.applyLive({ config: next });
    if (live.some((key) => key === 'mcp_servers' || key.startsWith('mcp_servers.'))) await this.applyMcp({ config: next });
    this.identity = identity;
    await this.params.unasked?.apply({ config: next });
    const promptChanges = live.filter((key) => promptKeys.some((k) => key === k || key.startsWith(`${k}.`)));
    if (promptChanges.length > 0) {
      logger.info(
        { changed: promptChanges },
        `config reload: the system prompt changes (${promptChanges.join(', ')}); sessions started from now on get the new one, running sessions keep theirs until /new`,
      );
    }
    this.config = appliedConfig({ current: this.config, next, keepFromCurrent: [...plan.restartNeeded, ...failed.map((name) => `platforms.${name}`)] });
    const outcome: ReloadOutcome = { ok: true, restarted, started, stopped: [...plan.stop], kept: [...plan.keep], live, restartNeeded: [...plan.restartNeeded], failed };
    for (const key of plan.restartNeeded) logger.warn({ key }, `config reload: restart needed for ${key} (the running gateway keeps the old value)`);
    logger.info(
      { restarted, started, stopped: plan.stop, keptRunning: plan.keep, live, restartNeeded: plan.restartNeeded, failed },
      `config reloaded: ${describeOutcome({ outcome })}`,
    );
    return outcome;
  }

  /** Builds the new adapters and mounts their webhook routes; a platform that refuses its config keeps its old adapter. */
  private async prepare(params: { names: readonly PlatformName[]; config: AppConfig }): Promise<{ entries: AdapterEntry[]; failed: PlatformName[] }> {
    const { logger, profile, clock, http } = this.params;
    const entries: AdapterEntry[] = [];
    const failed: PlatformName[] = [];
    for (const name of params.names) {
      try {
        const entry = await buildAdapterEntry({ name, config: params.config, profile, clock, logger, ...(this.factories ? { loaders: this.factories } : {}) });
        if (!entry) throw new Error(`this version of hermes has no ${name} adapter`);
        if (http) await mountWebhooks({ http, entry });
        else if (entry.adapter.registerRoutes) logger.warn({ platform: name }, `the HTTP server is off (gateway.http.enabled: false), so ${name}'s webhook routes are not served`);
        entries.push(entry);
      } catch (error) {
        failed.push(name);
        logger.error({ platform: name, err: error }, `config reload: platforms.${name} could not be applied (${errorMessage(error)}); the running ${name} adapter keeps its old config`);
      }
    }
    return { entries, failed };
  }

  /** Model, agent, tool and stream settings for the next turns; the log level at once. */
  private applyLive(params: { config: AppConfig }): void {
    const { config } = params;
    const { profile, clock, logger, registry, redactor } = this.params;
    const scrub = (text: string): string => redactor.scrub(text);
    // Memory turned on by this reload: the tool is offered from the next model call on (turned off, it stays and refuses).
    if (anyMemoryEnabled({ settings: memorySettingsFrom({ config }) }) && registry.get(memoryTool.name) === undefined) registry.register(memoryTool);
    const agent = buildAgent({ profile, config, registry, clock, logger, scrub, store: this.params.store });
    const options = runnerOptionsFrom({ profile, config, clock, logger, scrub, secrets: redactor, supervisorBackoff: this.params.supervisorBackoff, store: this.params.store, toolNames: registry.list().map((tool) => tool.name), registry, cronPoke: this.params.cronPoke, mcp: this.params.mcp });
    // The edit interval lives in the adapters' pacers: it changes with a restart.
    this.params.runner.reconfigure({ agent, options: { ...options, editIntervalMs: this.config.stream.edit_interval } });
    logger.level = config.logging.level;
  }

  /** A changed `mcp_servers`: changed servers restart, new ones start, removed or disabled ones stop (new sessions see it). */
  private async applyMcp(params: { config: AppConfig }): Promise<void> {
    const done = await this.params.mcp?.apply({ servers: params.config.mcp_servers });
    if (done === undefined) return;
    const parts = [
      done.restarted.length > 0 ? `restarted ${done.restarted.join(', ')}` : '',
      done.started.length > 0 ? `started ${done.started.join(', ')}` : '',
      done.stopped.length > 0 ? `stopped ${done.stopped.join(', ')}` : '',
    ].filter((part) => part !== '');
    this.params.logger.info({ ...done }, `config reload: MCP servers ${parts.join('; ') || 'unchanged'}; conversations started from now on get their tools, running ones keep theirs until /new`);
  }

  /** An unusable config: logged like `config validate` shows it, nothing changes. */
  private rejected(params: { error: unknown }): ReloadOutcome {
    const { error } = params;
    const message = errorMessage(error);
    const details = error instanceof ConfigError
      ? { file: error.file, keyPath: error.keyPath, problems: error.problems.map((p) => p.message), hint: error.hint }
      : error instanceof UserFacingError ? { hint: error.hint } : { err: error };
    this.params.logger.error(details, `config reload failed: ${message}; the gateway keeps running with the previous config`);
    return { ok: false, error: message };
  }
}

/** One line about a successful reload, e.g. "restarted telegram; kept running slack". */
export function describeOutcome(params: { outcome: Extract<ReloadOutcome, { ok: true }> }): string {
  const { outcome } = params;
  const parts = [
    outcome.restarted.length > 0 ? `restarted ${outcome.restarted.join(', ')}` : '',
    outcome.started.length > 0 ? `started ${outcome.started.join(', ')}` : '',
    outcome.stopped.length > 0 ? `stopped ${outcome.stopped.join(', ')}` : '',
    outcome.kept.length > 0 ? `kept running ${outcome.kept.join(', ')}` : '',
    outcome.live.length > 0 ? `applied ${outcome.live.join(', ')}` : '',
    outcome.restartNeeded.length > 0 ? `restart needed for ${outcome.restartNeeded.join(', ')}` : '',
    outcome.failed.length > 0 ? `could not apply ${outcome.failed.map((name) => `platforms.${name}`).join(', ')}` : '',
  ].filter((part) => part !== '');
  return parts.length > 0 ? parts.join('; ') : 'nothing changed';
}
