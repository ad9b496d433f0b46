import { z } from 'zod';
import { mcpServersSchema } from './mcp-schema.js';
import { isToolsetChoice, TOOLSET_NAMES } from '../core/toolset-names.js';
import { bool, duration, httpUrl, int, num, optionalHttpUrl, optionalString, size } from '../util/config-fields.js';
import type { PlatformBlock } from '../core/platform-descriptor.js';
import { timeZone } from '../util/schedule/time-zone.js';
import { checksSchemaFor, heartbeatSchemaFor } from './unasked-schema.js';

/** model.fallbacks[]: another model tried for the rest of a turn when the primary fails. */
const fallbackModelSchema = z.strictObject({
  base_url: httpUrl().optional(),
  name: z.string().min(1),
  api_key: optionalString(),
  api_keys: z.array(z.string().min(1)).default([]),
});

/** One model's prices in USD per million tokens (/usage's estimated cost); cached_input defaults to input. */
const modelPriceSchema = z.strictObject({
  input: num({ min: 0, max: 1_000_000 }),
  output: num({ min: 0, max: 1_000_000 }),
  cached_input: num({ min: 0, max: 1_000_000 }).optional(),
});

/** model.pricing: one price for every model, or prices by model name. */
const modelPricingSchema = z.union([modelPriceSchema, z.record(z.string().min(1), modelPriceSchema)]);

/** model: the OpenAI-compatible endpoint the agent talks to. */
const modelSchema = z
  .strictObject({
    base_url: httpUrl().default('https://api.openai.com/v1'),
    api_key: optionalString(),
    api_keys: z.array(z.string().min(1)).default([]),
    key_strategy: z.enum(['least_used', 'fill_first', 'round_robin', 'random']).default('least_used'),
    fallbacks: z.array(fallbackModelSchema).default([]),
    name: z.string().min(1).default('gpt-4o-mini'),
    temperature: num({ min: 0, max: 2 }).optional(),
    max_tokens: int({ min: 1 }).optional(),
    context_length: int({ min: 256 }).optional(),
    vision: bool().optional(),
    request_timeout: duration({ defaultValue: '120s', minMs: 1 }),
    max_retries: int({ min: 0, max: 20 }).default(4),
    pricing: modelPricingSchema.optional(),
  })
  .prefault({});

/** agent: the agent loop. */
const agentSchema = z
  .strictObject({
    max_iterations: int({ min: 1 }).default(90),
    delegate_max_iterations: int({ min: 1 }).default(50),
    max_concurrent_children: int({ min: 1, max: 16 }).default(3),
    system_prompt: optionalString(),
    max_parallel_tools: int({ min: 1, max: 32 }).default(8),
    escalate_after_failures: int({ min: 0, max: 20 }).default(3),
    /** Deprecated (issue 12): replaced by compression; still accepted, with a warning. */
    history_max_chars: int({ min: 1000 }).optional(),
    tool_use_enforcement: z.union([z.enum(['auto']), bool(), z.array(z.string().min(1))]).default('auto'),
    current_time: z.enum(['session', 'call']).default('session'),
    context_files: bool().default(true),
    context_file_max_chars: int({ min: 100 }).default(20_000),
  })
  .prefault({});

/** memory: the profile's memories/MEMORY.md and memories/USER.md. */
const memorySchema = z
  .strictObject({
    memory_enabled: bool().default(true),
    user_profile_enabled: bool().default(true),
    memory_char_limit: int({ min: 100 }).default(2200),
    user_char_limit: int({ min: 100 }).default(1375),
    review_interval: int({ min: 1 }).default(10),
  })
  .prefault({});

/** skills: the profile's skills/ folder (SKILL.md procedures), their prompt index and the background review. */
const skillsSchema = z
  .strictObject({
    index_max_chars: int({ min: 200 }).default(8000),
    review: bool().default(true),
    review_interval: int({ min: 1 }).default(10),
    review_notice: bool().default(false),
  })
  .prefault({});

/** auxiliary.model: a cheaper model for side work; unset fields come from `model`. */
const auxiliaryModelSchema = z.strictObject({
  base_url: httpUrl().optional(),
  api_key: optionalString(),
  name: z.string().min(1),
  temperature: num({ min: 0, max: 2 }).optional(),
  max_tokens: int({ min: 1 }).optional(),
  request_timeout: duration({ defaultValue: '60s', minMs: 1 }),
});

/** auxiliary: side work (condensing search results, later summaries and reviews). */
const auxiliarySchema = z
  .strictObject({
    model: auxiliaryModelSchema.optional(),
    vision: auxiliaryModelSchema.optional(),
  })
  .prefault({});

/** compression: how a long conversation is compressed instead of cut (issue 12). */
const compressionSchema = z
  .strictObject({
    threshold: num({ min: 0.05, max: 0.95 }).default(0.5),
    tail_ratio: num({ min: 0.01, max: 0.9 }).default(0.2),
    summary_max_tokens: int({ min: 256 }).default(12_000),
  })
  .prefault({});

/** gateway.http: the local HTTP server (webhooks, /healthz, /metrics). */
const httpSchema = z
  .strictObject({
    enabled: bool().default(true),
    host: z.string().min(1).default('127.0.0.1'),
    port: int({ min: 0, max: 65535 }).default(8787),
    body_limit_bytes: int({ min: 1 }).default(1024 * 1024),
    /** Serve GET /metrics (Prometheus text format); off: 404. */
    metrics: bool().default(false),
  })
  .prefault({});

/** gateway: message handling. */
const gatewaySchema = z
  .strictObject({
    busy_policy: z.enum(['interrupt', 'queue', 'steer']).default('interrupt'),
    drain_timeout: duration({ defaultValue: '30s' }),
    http: httpSchema,
  })
  .prefault({});

/** stream: how streamed replies are shown. */
const streamSchema = z
  .strictObject({
    edit_interval: duration({ defaultValue: '1s', minMs: 250 }),
    cursor: z.string().default(' ▉'),
    typing_interval: duration({ defaultValue: '4s', minMs: 1 }),
  })
  .prefault({});

/** display: what the user sees of the agent's work. */
const displaySchema = z
  .strictObject({
    tool_progress: z.enum(['all', 'new', 'off']).default('new'),
  })
  .prefault({});

/** tools: what the agent's tools may do. */
const toolsSchema = z
  .strictObject({
    workspace: optionalString(),
    confine_to_workspace: bool().default(true),
    approval: z.enum(['manual', 'smart', 'off']).default('manual'),
    approval_timeout: duration({ defaultValue: '5m', minMs: 1_000 }),
    clarify_timeout: duration({ defaultValue: '5m', minMs: 1_000 }),
    code_execution: z
      .strictObject({
        timeout: duration({ defaultValue: '5m', minMs: 1_000 }),
        max_tool_calls: int({ min: 1, max: 1000 }).default(50),
      })
      .prefault({}),
    terminal: z
      .strictObject({
        timeout: duration({ defaultValue: '60s', minMs: 1 }),
        max_output_bytes: int({ min: 1 }).default(65536),
        sandbox: z.enum(['auto', 'bwrap', 'none']).default('auto'),
        network: bool().default(false),
      })
      .prefault({}),
  })
  .prefault({});

/** One toolset list (`toolsets`, a `platform_toolsets` entry): Hermes Agent's set names, `all`, `mcp`, `mcp-<server>`. */
const toolsetList = z.array(
  z.string().refine((name) => isToolsetChoice({ name }), {
    message: `a tool set: all, ${TOOLSET_NAMES.join(', ')}, mcp (every MCP server) or mcp-<server>`,
  }),
);

/** cron: scheduled jobs. */
const cronSchema = z
  .strictObject({
    catch_up_window: duration({ defaultValue: '1h' }),
  })
  .prefault({});

/** The search services web_search can ask. */
export const WEB_SEARCH_BACKENDS = ['searxng', 'brave', 'tavily'] as const;

/** web: the web_search and web_extract tools. */
const webSchema = z
  .strictObject({
    search_backend: z.enum(WEB_SEARCH_BACKENDS).optional(),
    search_url: optionalHttpUrl(),
    search_api_key: optionalString(),
    extract_char_limit: int({ min: 1000, max: 1_000_000 }).default(15_000),
    max_bytes: size({ defaultValue: '5m' }),
    timeout: duration({ defaultValue: '20s', minMs: 1_000 }),
    cache_ttl: duration({ defaultValue: '15m' }),
    allow_private: bool().default(false),
  })
  .superRefine((web, ctx) => {
    if (web.search_backend === 'searxng' && web.search_url === undefined) {
      ctx.addIssue({ code: 'custom', path: ['search_url'], message: "the SearXNG instance's address (e.g. http://127.0.0.1:8888), needed with search_backend: searxng" });
    }
    if ((web.search_backend === 'brave' || web.search_backend === 'tavily') && web.search_api_key === undefined) {
      ctx.addIssue({ code: 'custom', path: ['search_api_key'], message: `the ${web.search_backend} API key (e.g. \${${web.search_backend.toUpperCase()}_API_KEY} from .env), needed with search_backend: ${web.search_backend}` });
    }
  })
  .prefault({});

/** stt: speech to text for voice notes and audio that arrive with a message. */
const sttSchema = z
  .strictObject({
    provider: z.enum(['openai', 'command']).optional(),
    base_url: optionalHttpUrl(),
    api_key: optionalString(),
    model: z.string().min(1).default('whisper-1'),
    language: optionalString(),
    command: optionalString(),
    max_bytes: size({ defaultValue: '20m' }),
    timeout: duration({ defaultValue: '120s', minMs: 1_000 }),
  })
  .superRefine((stt, ctx) => {
    if (stt.provider === 'command' && stt.command === undefined) {
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'the command that transcribes a file, with {input} or {input_wav} (and {output} if it writes a file), needed with provider: command' });
    }
  })
  .prefault({});

/** tts: text to speech for the replies of chats that asked for voice (/voice on, /voice tts). */
const ttsSchema = z
  .strictObject({
    provider: z.enum(['openai', 'command']).optional(),
    base_url: optionalHttpUrl(),
    api_key: optionalString(),
    model: z.string().min(1).default('gpt-4o-mini-tts'),
    voice: z.string().min(1).default('alloy'),
    command: optionalString(),
    chunk_chars: int({ min: 100, max: 4096 }).default(1500),
    max_chunks: int({ min: 1, max: 20 }).default(4),
    timeout: duration({ defaultValue: '60s', minMs: 1_000 }),
  })
  .superRefine((tts, ctx) => {
    if (tts.provider === 'command' && (tts.command === undefined || !tts.command.includes('{output}'))) {
      ctx.addIssue({ code: 'custom', path: ['command'], message: 'the command that speaks {input} (a file with the text) or {text} into the audio file {output}, needed with provider: command' });
    }
  })
  .prefault({});

/** checkpoints: workspace snapshots before the agent changes files, for /rollback (issue 30). */
const checkpointsSchema = z
  .strictObject({
    enabled: bool().default(true),
    max_count: int({ min: 1, max: 1000 }).default(50),
    max_age: duration({ defaultValue: '7d', minMs: 60_000 }),
    max_size: size({ defaultValue: '500m' }),
  })
  .prefault({});

/** media: what arrives with a message (documents now). */
const mediaSchema = z
  .strictObject({
    document_char_limit: int({ min: 1000, max: 1_000_000 }).default(20_000),
    image_max_edge: int({ min: 256, max: 8192 }).default(1568),
    image_max_bytes: size({ defaultValue: '1m' }),
  })
  .prefault({});

/** logging: the profile's logs/gateway.log. */
const loggingSchema = z
  .strictObject({
    level: z.enum(['trace', 'debug', 'info', 'warn', 'error']).default('info'),
    max_size: size({ defaultValue: '10m' }),
    max_files: int({ min: 1, max: 100 }).default(5),
  })
  .prefault({});

/** Every section of config.yaml but `platforms:` (whose blocks come from the platforms' descriptors). */
const sections = {
  model: modelSchema,
  timezone: timeZone(),
  agent: agentSchema,
  memory: memorySchema,
  skills: skillsSchema,
  auxiliary: auxiliarySchema,
  compression: compressionSchema,
  gateway: gatewaySchema,
  stream: streamSchema,
  display: displaySchema,
  tools: toolsSchema,
  mcp_servers: mcpServersSchema,
  toolsets: toolsetList.optional(),
  platform_toolsets: z.record(z.string().min(1), toolsetList).default({}),
  cron: cronSchema,
  web: webSchema,
  media: mediaSchema,
  stt: sttSchema,
  tts: ttsSchema,
  checkpoints: checkpointsSchema,
  // Any platform name here; buildConfigSchema checks targets against the platforms it is given.
  heartbeat: heartbeatSchemaFor({ platforms: [] }),
  checks: checksSchemaFor({ platforms: [] }),
  logging: loggingSchema,
};

/** The core sections' object schema, as a type only (the schema itself is built with the platforms' blocks). */
type SectionsObject = z.ZodObject<typeof sections, z.core.$strict>;

/** The `platforms:` block as the layers below the platforms see it: each block by its config name. */
export type PlatformsConfig = Readonly<Record<string, PlatformBlock>>;

/** What the schema produces, with the platforms' blocks typed `P`: keys keep config.yaml's snake_case names; durations are ms, sizes are bytes. */
export type ParsedConfigOf<P extends PlatformsConfig> = z.output<SectionsObject> & { readonly platforms: P };

/** What the schema produces, platforms generic. */
export type ParsedConfig = ParsedConfigOf<PlatformsConfig>;

/** A schema for the whole config.yaml (see buildConfigSchema). */
export type ConfigSchema<T extends ParsedConfig = ParsedConfig> = z.ZodType<T, unknown>;

/**
 * The whole config.yaml, every key optional (an empty file is valid), with the `platforms:` block made of the given
 * platforms' schemas (src/app/config-schema.ts passes the descriptors' schemas).
 */
export function buildConfigSchema(params: { platforms: Readonly<Record<string, z.ZodType<PlatformBlock, unknown>>> }): ConfigSchema {
  // A heartbeat or check goes to one of these platforms (the home channel of one).
  const targets = { platforms: Object.keys(params.platforms) };
  return z
    .strictObject({
      ...sections,
      heartbeat: heartbeatSchemaFor(targets),
      checks: checksSchemaFor(targets),
      platforms: z.strictObject({ ...params.platforms }).prefault({}),
    })
    .prefault({});
}

/**
 * The effective configuration as loadConfig returns it: the parsed config with `tools.workspace` resolved to an
 * absolute path (the profile's workspace/ unless config.yaml says otherwise).
 */
export type ResolvedConfig<T extends ParsedConfig> = Omit<T, 'tools'> & {
  /** tools: what the agent's tools may do. */
  readonly tools: Omit<T['tools'], 'workspace'> & { readonly workspace: string };
};

/** The effective configuration, platforms generic (what every layer below the platforms takes). */
export type GatewayConfig = ResolvedConfig<ParsedConfig>;

/** A logging level name. */
export type LogLevel = GatewayConfig['logging']['level'];

/** A platform's config name (the platforms themselves are listed in adapters/index.ts). */
export type PlatformName = string;
