import OpenAI from 'openai';
import type { Logger } from 'pino';
import { AIAgent } from '../agent/agent.js';
import { buildSystemPrompt } from '../agent/soul.js';
import type { GatewayConfig } from '../config/schema.js';
import type { Profile } from '../home/profile.js';
import { createHttpServer, type GatewayHttp } from '../http/server.js';
import { openStore } from '../store/sqlite-store.js';
import { builtinTools } from '../tools/builtin/index.js';
import { ToolRegistry } from '../tools/registry.js';
import type { ToolDefinition } from '../tools/tool.js';
import type { Clock } from '../util/clock.js';
import { mediaPolicy } from './media-policy.js';
import { modelLabel } from './model-check.js';
import { GatewayRunner, type AdapterEntry } from './runner.js';

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
}): { runner: GatewayRunner; http: GatewayHttp | undefined } {
  const { profile, config, clock, logger } = params;
  const store = openStore({ path: profile.dbPath, clock, logger });
  const workspace = config.tools.workspace ?? profile.workspaceDir;
  const registry = new ToolRegistry();
  for (const tool of [...builtinTools(), ...(params.extraTools ?? [])]) registry.register(tool);
  const client = new OpenAI({
    apiKey: config.model.api_key ?? 'not-needed',
    baseURL: config.model.base_url,
    maxRetries: 0,
    timeout: config.model.request_timeout,
  });
  const agent = new AIAgent({
    client,
    model: config.model.name,
    systemPrompt: buildSystemPrompt({ profile, extra: config.agent.system_prompt, workspace }),
    registry,
    maxIterations: config.agent.max_iterations,
    maxRetries: config.model.max_retries,
    maxParallel: config.agent.max_parallel_tools,
    clock,
    requestTimeoutMs: config.model.request_timeout,
    logger: logger.child({ component: 'agent' }),
    scrub: params.scrub,
    ...(config.model.temperature !== undefined ? { temperature: config.model.temperature } : {}),
    ...(config.model.max_tokens !== undefined ? { maxTokens: config.model.max_tokens } : {}),
  });
  let runner: GatewayRunner | undefined;
  const http = params.withHttp && config.gateway.http.enabled
    ? createHttpServer({
        host: config.gateway.http.host,
        port: config.gateway.http.port,
        bodyLimitBytes: config.gateway.http.body_limit_bytes,
        logger,
        health: () => {
          if (!runner) throw new Error('gateway not built yet');
          return runner.health();
        },
      })
    : undefined;
  // Webhook routes must exist before the server listens.
  if (http) for (const entry of params.adapters) entry.adapter.registerRoutes?.({ app: http.app });
  runner = new GatewayRunner({
    store,
    agent,
    adapters: params.adapters,
    clock,
    logger,
    ...(http ? { http } : {}),
    options: {
      profileName: profile.name,
      busyPolicy: config.gateway.busy_policy,
      drainTimeoutMs: config.gateway.drain_timeout,
      editIntervalMs: config.stream.edit_interval,
      cursor: config.stream.cursor,
      typingIntervalMs: config.stream.typing_interval,
      modelLabel: modelLabel({ config }),
      historyMaxChars: config.agent.history_max_chars,
      mediaPolicy: mediaPolicy({ profile, workspace, confine: config.tools.confine_to_workspace }),
      scrub: params.scrub,
      cacheDir: profile.cacheDir,
      toolContext: {
        workspace,
        confineToWorkspace: config.tools.confine_to_workspace,
        clock,
        terminal: { timeoutMs: config.tools.terminal.timeout, maxOutputBytes: config.tools.terminal.max_output_bytes },
      },
      ...(params.supervisorBackoff ? { supervisorBackoff: params.supervisorBackoff } : {}),
    },
  });
  return { runner, http };
}
