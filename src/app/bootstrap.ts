import { ModelList } from '../gateway/commands/model-list.js';
import { sharedTokenMeter } from '../agent/tokens/meter.js';
import { ModelContext } from '../agent/tokens/model-context.js';
import type { Logger } from 'pino';
import { AIAgent } from '../agent/agent.js';
import { promptSource } from '../agent/prompt/source.js';
import type { CredentialStateStore } from '../agent/route/pool.js';
import { routeFromConfig } from '../agent/route/from-config.js';
import type { GatewayConfig } from '../config/schema.js';
import type { Profile } from '../home/profile.js';
import { createHttpServer, type GatewayHttp } from '../gateway/http/server.js';
import { GatewayMetrics } from '../gateway/ops/metrics.js';
import { openStore, type OpenStoreParams } from '../store/sqlite-store.js';
import { builtinTools } from '../tools/builtin/index.js';
import { cronCapability } from '../jobs/cron-capability.js';
import { ToolRegistry } from '../tools/registry.js';
import type { SecretGuard } from '../secrets/guard.js';
import type { ToolDefinition } from '../tools/tool.js';
import { auxiliaryClient, mainModelClient } from '../agent/auxiliary/client.js';
import type { Summarise } from '../agent/compress/index.js';
import { profileTimeZone } from '../util/schedule/time-zone.js';
import { sessionRecall } from '../search/session-recall.js';
import type { Store } from '../store/types.js';
import type { SessionSearchCapability } from '../search/capability.js';
import type { Clock } from '../core/clock.js';
import { MemoryFiles } from '../memory/files.js';
import { memoryReport } from '../memory/report.js';
import { anyMemoryEnabled, memorySettingsFrom } from '../memory/settings.js';
import { skillsCapability } from '../skills/capability.js';
import { gatewayCommandWords } from '../core/commands.js';
import { DiskHealth } from '../gateway/ops/disk-health.js';
import { mediaPolicy } from '../gateway/delivery/media-policy.js';
import { mediaStager } from '../gateway/delivery/media-stage.js';
import { modelEndpointCheck } from '../doctor/model.js';
import { modelLabel } from '../gateway/ops/model-check.js';
import { GatewayRunner, type RunnerOptions } from '../gateway/runtime/runner.js';
import { type AdapterEntry } from '../core/platform.js';
import { reviewOptionsFrom } from '../gateway/review/options.js';
import { formattingRules } from '../../adapters/index.js';
import { terminalSandboxFor, warnIfUnconfined } from '../tools/sandbox/terminal-sandbox.js';
import { sensesFrom } from './senses.js';
import { checkpointsFrom } from './checkpoints.js';
import { visionToolOffered } from '../media/vision.js';
import { McpHub } from '../mcp/hub.js';
import { ToolsetPolicy } from '../tools/toolsets.js';

/** Most characters of earlier conversation sent per model call when a runner has no compression (never, from a config). */
const HISTORY_MAX_CHARS = 200_000;

/** Builds one profile's gateway from its config: store, agent, tools, HTTP server and runner. Nothing is started. */
export function buildGateway(params: {
  profile: Profile;
  config: GatewayConfig;
  clock: Clock;
  logger: Logger;
  adapters: readonly AdapterEntry[];
  /** Serve HTTP (webhooks, /healthz); `hermes chat` does not. */
  withHttp: boolean;
  supervisorBackoff?: { baseMs?: number; maxMs?: number };
  /** Tools beyond the built-in ones (a host program's own, or a test's probes). */
  extraTools?: readonly ToolDefinition[];
  /** Redacts the profile's secrets (see log/redact.ts); applied to everything sent to a platform. */
  scrub: (text: string) => string;
  /** The profile's secrets (the Redactor): streamed text held back while it could become one, attachments checked for them. */
  secrets: SecretGuard;
  /** What the writers (log file, store, state file) report about the disk; one is made when not given. */
  disk?: DiskHealth;
  /** Runs on the store's connection once it is open (tests make the store small enough to fill). */
  configureStore?: OpenStoreParams['configure'];
  /** Offer the `cronjob` tool over the profile's jobs; `poke` wakes the scheduler after a change (tests; the scheduler's wiring). */
  cron?: { poke: () => void };
  /** Reads `mcp_servers` from config.yaml again (what /reload-mcp applies); absent: /reload-mcp reconnects the servers as they are. */
  readMcpServers?: () => Promise<GatewayConfig['mcp_servers']>;
}): { runner: GatewayRunner; http: GatewayHttp | undefined; registry: ToolRegistry; store: Store; mcp: McpHub } {
  const { profile, config, clock, logger } = params;
  const disk = params.disk ?? new DiskHealth({ clock });
  const store = openStore({ path: profile.dbPath, clock, logger, disk, ...(params.configureStore ? { configure: params.configureStore } : {}) });
  const registry = new ToolRegistry();
  const memory = anyMemoryEnabled({ settings: memorySettingsFrom({ config }) });
  for (const tool of [...builtinTools({ memory, skills: true, cron: params.cron !== undefined, web_search: config.web.search_backend !== undefined, vision: visionToolOffered({ config }) }), ...(params.extraTools ?? [])]) registry.register(tool);
  const agent = buildAgent({ profile, config, registry, clock, logger, scrub: params.scrub, store });
  // Loads the MCP SDK only when config.yaml names a server.
  const mcp = new McpHub({ servers: config.mcp_servers, clock, logger, scrub: params.scrub, ...(params.readMcpServers === undefined ? {} : { reread: params.readMcpServers }) });
  warnIfUnconfined({ resolution: terminalSandboxFor({ profile, config }), logger });
  // /healthz asks the runner, built after the server: until then it answers that the gateway is not built yet.
  const built: { runner?: GatewayRunner } = {};
  const metrics = params.withHttp && config.gateway.http.enabled && config.gateway.http.metrics ? new GatewayMetrics() : undefined;
  const http = params.withHttp && config.gateway.http.enabled
    ? createHttpServer({
        host: config.gateway.http.host,
        port: config.gateway.http.port,
        bodyLimitBytes: config.gateway.http.body_limit_bytes,
        logger,
        clock,
        ...(metrics === undefined ? {} : { metrics }),
        health: () => {
          if (!built.runner) throw new Error('gateway not built yet');
          return built.runner.health();
        },
      })
    : undefined;
  // Each adapter's webhook routes go into its platform's own scope (replaceable on reload); listen waits for them and
  // reports a failed mount (WebhookMounts.settled), so the promise itself is not awaited here.
  if (http) for (const entry of params.adapters) void mountWebhooks({ http, entry });
  const runner = new GatewayRunner({
    store,
    agent,
    adapters: params.adapters,
    clock,
    logger,
    disk,
    ...(http ? { http } : {}),
    options: runnerOptionsFrom({ profile, config, clock, logger, scrub: params.scrub, secrets: params.secrets, supervisorBackoff: params.supervisorBackoff, store, toolNames: registry.list().map((tool) => tool.name), registry, mcp, ...(params.cron ? { cronPoke: params.cron.poke } : {}) }),
  });
  built.runner = runner;
  return { runner, http, registry, store, mcp };
}

/** The agent for a config: model client, tools, budgets (the system prompt comes per session, see runnerOptionsFrom). */
export function buildAgent(params: {
  profile: Profile;
  config: GatewayConfig;
  registry: ToolRegistry;
  clock: Clock;
  logger: Logger;
  scrub: (text: string) => string;
  /** Where the credential pool keeps key counts and cooldowns (in memory when absent). */
  store?: CredentialStateStore | undefined;
}): AIAgent {
  const { config, clock } = params;
  const logger = params.logger.child({ component: 'agent' });
  const route = routeFromConfig({ config, clock, store: params.store, logger });
  return new AIAgent({
    route,
    model: config.model.name,
    registry: params.registry,
    maxIterations: config.agent.max_iterations,
    maxRetries: config.model.max_retries,
    maxParallel: config.agent.max_parallel_tools,
    escalateAfterFailures: config.agent.escalate_after_failures,
    clock,
    requestTimeoutMs: config.model.request_timeout,
    logger,
    scrub: params.scrub,
    tokenMeter: sharedTokenMeter,
    ...(config.model.temperature !== undefined ? { temperature: config.model.temperature } : {}),
    ...(config.model.max_tokens !== undefined ? { maxTokens: config.model.max_tokens } : {}),
  });
}

/** The runner's behaviour knobs for a config. */
export function runnerOptionsFrom(params: {
  profile: Profile;
  config: GatewayConfig;
  clock: Clock;
  logger: Logger;
  scrub: (text: string) => string;
  secrets: SecretGuard;
  supervisorBackoff?: { baseMs?: number; maxMs?: number } | undefined;
  /** The profile's store: the `session_search` tool searches it (no tool context slot without it). */
  store?: Store | undefined;
  /** The names of the registered tools (the prompt's tool guidance covers memory and session_search when they work). */
  toolNames: readonly string[];
  /** The registered tools: the background review picks its tools from them (no review without it). */
  registry?: ToolRegistry | undefined;
  /** Wakes the scheduler after a job changed; with a store, fills the `cronjob` tool's capability (absent: no jobs). */
  cronPoke?: (() => void) | undefined;
  /** The profile's MCP servers (kept across reloads: a reload applies its `mcp_servers` to the same hub). */
  mcp?: McpHub | undefined;
}): RunnerOptions {
  const { profile, config, clock } = params;
  const workspace = config.tools.workspace ?? profile.workspaceDir;
  const memory = memoryFilesFor({ profile, config, clock, secrets: params.secrets, logger: params.logger });
  // A registered tool whose capability is off (memory turned off by a reload) gets no guidance in new prompts.
  const toolNames = params.toolNames.filter((name) => (name !== 'memory' || memory !== undefined) && (name !== 'session_search' || params.store !== undefined));
  const modelContext = new ModelContext({ model: config.model, clock });
  const { toolsets, toolsOf } = toolChoices({ config, modelContext, toolNames, registry: params.registry });
  const senses = sensesFrom({ config, modelContext, cacheDir: profile.cacheDir, clock, scrub: params.scrub });
  const checkpoints = checkpointsFrom({ profile, config, workspace, clock, logger: params.logger });
  return {
    profileName: profile.name,
    busyPolicy: config.gateway.busy_policy,
    drainTimeoutMs: config.gateway.drain_timeout,
    editIntervalMs: config.stream.edit_interval,
    cursor: config.stream.cursor,
    toolProgress: config.display.tool_progress,
    typingIntervalMs: config.stream.typing_interval,
    modelLabel: modelLabel({ config }),
    // agent.history_max_chars is deprecated and ignored: compression replaces the cut.
    historyMaxChars: HISTORY_MAX_CHARS,
    compression: compressionOptionsFrom({ config }),
    mediaPolicy: mediaPolicy({ profile, workspace, confine: config.tools.confine_to_workspace, secrets: params.secrets }),
    stageMedia: mediaStager({ cacheDir: profile.cacheDir, secrets: params.secrets }),
    scrub: params.scrub,
    safeLength: (input) => params.secrets.safeLength(input),
    secretList: () => params.secrets.secrets,
    cacheDir: profile.cacheDir,
    skillsDir: profile.skillsDir,
    toolContext: {
      workspace,
      confineToWorkspace: config.tools.confine_to_workspace,
      clock,
      terminal: {
        timeoutMs: config.tools.terminal.timeout,
        maxOutputBytes: config.tools.terminal.max_output_bytes,
        sandbox: terminalSandboxFor({ profile, config }).spec,
      },
      codeExecution: { timeoutMs: config.tools.code_execution.timeout, maxToolCalls: config.tools.code_execution.max_tool_calls },
      ...senses.tools,
      ...(memory ? { memory } : {}),
      ...(params.store ? { sessionSearch: sessionSearchFor({ config, store: params.store, scrub: params.scrub, logger: params.logger }) } : {}),
      skills: skillsCapability({
        dir: profile.skillsDir,
        reservedNames: gatewayCommandWords,
        logger: params.logger.child({ component: 'skills' }),
      }),
      ...(params.store && params.cronPoke ? { cron: cronCapability({ store: params.store, get timeZone() { return profileTimeZone({ config }); }, clock, poke: params.cronPoke, scrub: params.scrub }) } : {}),
    },
    prompts: promptSource({ profile, config, clock, scrub: params.scrub, logger: params.logger.child({ component: 'prompt' }), toolNames: toolsOf, formatting: formattingRules }),
    toolsets,
    ...(memory ? { memoryReport: () => memoryReport({ read: (target) => memory.read(target) }) } : {}),
    ...(params.supervisorBackoff ? { supervisorBackoff: params.supervisorBackoff } : {}),
    modelProbe: ({ signal }) => modelEndpointCheck({ config, profile, clock, signal }),
    modelContext,
    modelList: new ModelList({ baseUrl: config.model.base_url, apiKey: config.model.api_key ?? config.model.api_keys[0], clock }),
    ...(config.model.pricing === undefined ? {} : { pricing: config.model.pricing }),
    ...(params.mcp === undefined ? {} : { mcp: params.mcp }),
    jobs: { catchUpWindowMs: config.cron.catch_up_window },
    delegation: { maxIterations: config.agent.delegate_max_iterations, maxConcurrentChildren: config.agent.max_concurrent_children },
    clarifyTimeoutMs: config.tools.clarify_timeout,
    ...senses.options,
    ...(checkpoints === undefined ? {} : { checkpoints }),
    approval: { mode: config.tools.approval, timeoutMs: config.tools.approval_timeout, ...(config.tools.approval === 'smart' ? { judge: summariserFor({ config }) } : {}) },
    ...(params.registry ? { review: reviewOptionsFrom({ config, registry: params.registry, clock, logger: params.logger, scrub: params.scrub, store: params.store }) } : {}),
  };
}

/** How long conversations are compressed (config `compression`), summarised by summariserFor. */
function compressionOptionsFrom(params: { config: GatewayConfig }): RunnerOptions['compression'] {
  const { compression } = params.config;
  return { threshold: compression.threshold, tailRatio: compression.tail_ratio, summaryMaxTokens: compression.summary_max_tokens, summarise: summariserFor(params) };
}

/** The profile's tool sets, and the names of the tools each platform's prompt is built for. */
function toolChoices(params: { config: GatewayConfig; modelContext: ModelContext; toolNames: readonly string[]; registry: ToolRegistry | undefined }): { toolsets: ToolsetPolicy; toolsOf: (platform: string) => readonly string[] } {
  const { config, modelContext, toolNames, registry } = params;
  const toolsets = new ToolsetPolicy({ toolsets: config.toolsets, platforms: config.platform_toolsets, contextTokens: () => modelContext.current().tokens });
  const toolsOf = (platform: string): readonly string[] => {
    if (registry === undefined) return toolNames;
    const offered = new Set(toolsets.registryFor({ base: registry, platform }).list().map((tool) => tool.name));
    return toolNames.filter((name) => offered.has(name));
  };
  return { toolsets, toolsOf };
}

/**
 * The compression summariser: auxiliary.model when set (whatever model the session talks to), else the main model (the
 * session's /model choice when the request names one); one non-streaming call, no retries.
 */
function summariserFor(params: { config: GatewayConfig }): Summarise {
  const { config } = params;
  const aux = auxiliaryClient({ config });
  if (aux !== undefined) return (request) => aux({ ...request, model: undefined });
  return mainModelClient({ config });
}

/** The profile's memory files for the `memory` tool and `/memory`; undefined when both are off. */
function memoryFilesFor(params: { profile: Profile; config: GatewayConfig; clock: Clock; secrets: SecretGuard; logger: Logger | undefined }): MemoryFiles | undefined {
  const settings = memorySettingsFrom({ config: params.config });
  if (!anyMemoryEnabled({ settings })) return undefined;
  const { secrets } = params;
  // An entry holding a secret would go into every future prompt: the guard's scrub changing the text means it holds one.
  return new MemoryFiles({
    memoriesDir: params.profile.memoriesDir,
    settings,
    clock: params.clock,
    containsSecret: (text) => secrets.scrub(text) !== text,
    ...(params.logger ? { logger: params.logger.child({ component: 'memory' }) } : {}),
  });
}

/**
 * The `session_search` capability for a config: the store, dates in the config's time zone, the auxiliary model when
 * set. The zone is a getter: asking the host for its zone loads ICU's data (~8 MB of RSS), which an idle gateway
 * does not need before its first turn.
 */
function sessionSearchFor(params: { config: GatewayConfig; store: Store; scrub: (text: string) => string; logger: Logger | undefined }): SessionSearchCapability {
  const complete = auxiliaryClient({ config: params.config });
  const logger = params.logger?.child({ component: 'session-search' });
  return sessionRecall({
    store: params.store,
    scrub: params.scrub,
    get timeZone(): string {
      return profileTimeZone({ config: params.config });
    },
    ...(complete ? { complete } : {}),
    logger: logger ?? { warn: () => undefined },
  });
}

/**
 * Mounts an adapter's webhook routes (if it has any) as its platform's current routes. Throws at once when the
 * adapter refuses its config; resolves to whether routes were mounted.
 */
export function mountWebhooks(params: { http: GatewayHttp; entry: AdapterEntry }): Promise<boolean> {
  const { adapter } = params.entry;
  if (!adapter.registerRoutes) return Promise.resolve(false);
  return params.http.webhooks.mount({ name: adapter.name, register: (routes) => adapter.registerRoutes?.(routes) });
}
