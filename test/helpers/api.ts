import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import OpenAI from 'openai';
import type { Stream } from 'openai/streaming';
import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import { pino, type Logger } from 'pino';
import { ApiAdapter } from '../../adapters/api/adapter.js';
import { apiSchema } from '../../adapters/api/config-schema.js';
import { apiFactory } from '../../adapters/api/factory.js';
import { appConfigSchema } from '../../src/app/config-schema.js';
import type { Clock } from '../../src/core/clock.js';
import type { ContractPlatform, ShownBotMessage } from '../contract/platform.js';
import { startHarness, type Harness } from './harness.js';
import { gatewayFacts } from './gateway-facts.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

/** The keys tests use: the first is on the allowlist (sender key-1), the second is not (key-2). */
export const apiKeys = { owner: 'sk-hermes-test-owner-0123456789abcdef', stranger: 'sk-hermes-test-stranger-0123456789ab' } as const;

/** The streaming cursor the harness configures (stream.cursor), which the adapter cuts off streamed text. */
const HARNESS_CURSOR = ' ▉';

/** An API adapter for a harness (overrides are `platforms.api` keys). */
export function apiAdapter(params: { clock: Clock; logger: Logger; overrides?: Record<string, unknown> }): ApiAdapter {
  return new ApiAdapter({
    config: apiSchema.parse({ enabled: true, keys: [apiKeys.owner, apiKeys.stranger], allowed_users: ['key-1'], ...params.overrides }),
    modelId: 'hermes-test',
    cursor: HARNESS_CURSOR,
    httpEnabled: true,
    clock: params.clock,
    logger: params.logger,
  });
}

/** An OpenAI client pointed at the gateway. */
export function apiClient(params: { port: number; apiKey: string }): OpenAI {
  return new OpenAI({ apiKey: params.apiKey, baseURL: `http://127.0.0.1:${params.port}/v1`, maxRetries: 0 });
}

/**
 * The API as a contract platform: each message is a streamed chat completion made with the official `openai` client
 * (with an Idempotency-Key, so a redelivery is the same request); a chat's bot messages are the answers its requests
 * got (growing as they stream, one per completion id) and what its outbox held (collected in the background, an edit
 * replacing the text of the message it edits).
 */
export async function apiPlatform(): Promise<ContractPlatform> {
  let adapter: ApiAdapter | undefined;
  let port: number | undefined;
  const shown = new Map<string, Map<string, ShownBotMessage>>();
  const keyOf: Record<string, string> = { 'key-1': apiKeys.owner, 'key-2': apiKeys.stranger };
  let last: { user: string; text: string; idempotencyKey: string } | undefined;
  let stopped = false;
  const streams = new Set<Promise<void>>();
  const show = (chatId: string, id: string, text: string): void => {
    const chat = shown.get(chatId) ?? new Map<string, ShownBotMessage>();
    shown.set(chatId, chat);
    chat.set(id, { text });
  };
  const ask = async (params: { chatId: string; text: string; idempotencyKey: string }): Promise<void> => {
    assert.ok(port !== undefined, 'the gateway listens');
    const client = apiClient({ port, apiKey: keyOf[params.chatId] ?? '' });
    let stream: Stream<ChatCompletionChunk>;
    try {
      stream = await client.chat.completions.create({ model: 'hermes-test', messages: [{ role: 'user', content: params.text }], stream: true }, { headers: { 'Idempotency-Key': params.idempotencyKey } });
    } catch (error) {
      // A sender the gateway does not let talk is refused (403): the person sees no answer.
      if (error instanceof OpenAI.APIError && error.status === 403) return;
      throw error;
    }
    const reading = (async () => {
      let text = '';
      for await (const chunk of stream) {
        text += chunk.choices[0]?.delta.content ?? '';
        show(params.chatId, chunk.id, text);
      }
    })();
    streams.add(reading);
    void reading.finally(() => streams.delete(reading));
  };
  const poll = async (): Promise<void> => {
    while (!stopped) {
      if (port !== undefined) {
        for (const [chatId, apiKey] of Object.entries(keyOf)) {
          const answer = await fetch(`http://127.0.0.1:${port}/v1/hermes/outbox`, { headers: { authorization: `Bearer ${apiKey}` } }).catch(() => undefined);
          if (answer?.status !== 200) continue;
          const body = (await answer.json()) as { data: { id: string; content: string }[] };
          for (const message of body.data) show(chatId, message.id, message.content);
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };
  const polling = poll();
  return {
    owner: { id: 'key-1', chatId: 'key-1' },
    stranger: { id: 'key-2', chatId: 'key-2' },
    needsHttp: true,
    wholeReplies: true,
    noFiles: true,
    useGateway: (gateway) => {
      port = gateway.port;
    },
    entry: ({ clock, logger }) => {
      adapter ??= apiAdapter({ clock, logger });
      return { adapter, allow: ['key-1'], unauthorized: 'ignore', editIntervalMs: 250 };
    },
    userSays: async ({ user, text, file }) => {
      if (file !== undefined) throw new Error('the API takes text only');
      last = { user: user.chatId, text, idempotencyKey: randomUUID() };
      await ask({ chatId: user.chatId, text, idempotencyKey: last.idempotencyKey });
    },
    redeliverLast: async () => {
      assert.ok(last, 'a message was sent before');
      await ask({ chatId: last.user, text: last.text, idempotencyKey: last.idempotencyKey });
    },
    botMessages: ({ chatId }) => [...(shown.get(chatId)?.values() ?? [])],
    visibleLength: ({ text }) => text.length,
    close: async () => {
      stopped = true;
      await polling;
      await Promise.allSettled([...streams]);
    },
  };
}

/** A gateway with the API adapter built by its factory from a `platforms.api` block, on a free loopback port. */
export interface ApiGateway {
  readonly h: Harness;
  readonly port: number;
  /** Every log line of the gateway, parsed. */
  readonly logs: Record<string, unknown>[];
  /** An OpenAI client with `apiKey` (default: the owner's key). */
  client(params?: { apiKey?: string }): OpenAI;
  /** POSTs a raw body (or JSON of `json`) to /v1/chat/completions. */
  post(params: { body?: string; json?: unknown; headers?: Record<string, string> }): Promise<Response>;
  stop(): Promise<void>;
}

/** Starts the gateway with `platforms.api` (keys: owner, stranger; plus `overrides`) and captured logs. */
export async function startApiGateway(
  params: { overrides?: Record<string, unknown>; config?: Record<string, unknown>; harness?: Pick<Parameters<typeof startHarness>[0] & object, 'disk' | 'configureStore'> } = {},
): Promise<ApiGateway> {
  const logs: Record<string, unknown>[] = [];
  const logger: Logger = pino({ level: 'debug' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const parsed = configSchema.parse({ platforms: { api: { enabled: true, keys: [apiKeys.owner, apiKeys.stranger], ...params.overrides } }, gateway: { http: { enabled: true, port: 0 } } });
  const h = await startHarness({
    withHttp: true,
    logger,
    ...params.harness,
    ...(params.config ? { config: params.config } : {}),
    adapters: ({ profile, clock }) => [apiFactory({ config: parsed.platforms.api, cacheDir: profile.cacheDir, skillCommands: () => [], gateway: gatewayFacts({ profile, config: parsed }), clock, logger })],
  });
  const address = h.runner.httpAddress;
  assert.ok(address, 'the gateway HTTP server listens');
  const { port } = address;
  return {
    h,
    port,
    logs,
    client: (p = {}) => apiClient({ port, apiKey: p.apiKey ?? apiKeys.owner }),
    post: (p) =>
      fetch(`http://127.0.0.1:${port}/v1/chat/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKeys.owner}`, ...p.headers },
        body: p.body ?? JSON.stringify(p.json),
      }),
    stop: () => h.stop(),
  };
}
