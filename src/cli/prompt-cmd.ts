import { buildSessionPrompt } from '../agent/prompt/builder.js';
import { formattingRules } from '../../adapters/index.js';
import type { PromptLogger } from '../agent/prompt/types.js';
import { UserFacingError } from '../core/errors.js';
import { shortSessionId } from '../store/session-id.js';
import type { SessionPrompt, SessionRow, Store } from '../store/types.js';
import { systemClock } from '../core/clock.js';
import { loadExistingProfile, type GlobalOptions } from './context.js';
import { println, type CliIO } from './output.js';
import { withProfileStore } from './profile-store.js';
import type { ChatCompletionFunctionTool } from 'openai/resources/chat/completions';
import type { AppConfig } from '../app/config-schema.js';
import { contextBreakdownLines } from '../agent/context-breakdown.js';
import type { ChatMessage } from '../agent/messages.js';
import { TokenMeter } from '../agent/tokens/meter.js';
import { sessionHistory } from '../gateway/sessions/history.js';
import { parseSnapshot } from '../mcp/snapshot.js';
import { platformOfSessionKey } from '../core/session-key.js';
import { profileTools } from './profile-tools.js';

/** Most sessions looked through for a short id. */
const shortIdScan = 100_000;

/**
 * `hermes prompt show [--session ID] [--platform NAME]`: the stored system prompt of a session (full or short id),
 * or the one a new session on the platform (default terminal) would get now; each layer's size first, then the text.
 */
export async function promptShow(params: { options: GlobalOptions; io: CliIO; session?: string; platform?: string; context?: boolean }): Promise<number> {
  const { io } = params;
  const loaded = await loadExistingProfile({ options: params.options, io });
  const { profile, config, redactor } = loaded;
  const scrub = (text: string): string => redactor.scrub(text);
  let prompt: SessionPrompt;
  let heading: string;
  let history: ChatMessage[] = [];
  let platform = params.platform ?? 'terminal';
  let model = config.model.name;
  if (params.session !== undefined) {
    const wanted = params.session.trim();
    const found = withProfileStore({
      profile,
      clock: systemClock,
      missing: 'sessions',
      hint: 'Talk to the agent first: `hermes chat` or `hermes gateway run`.',
      use: (store) => {
        const session = findSession({ store, id: wanted });
        return { session, prompt: store.sessionPrompt({ sessionId: session.id }), history: sessionHistory({ store, sessionId: session.id }), model: store.sessionModel({ sessionId: session.id }) };
      },
    });
    if (found.prompt === undefined) {
      throw new UserFacingError({
        message: `session ${shortSessionId({ id: found.session.id })} has no stored system prompt yet`,
        hint: 'A session gets its prompt at its first turn; `hermes prompt show` without --session shows what a new one gets.',
      });
    }
    prompt = found.prompt;
    history = found.history;
    model = found.model ?? model;
    platform = platformOfKey({ key: found.session.key }) ?? platform;
    heading = `session ${shortSessionId({ id: found.session.id })} (${found.session.key}), started ${new Date(found.session.startedAt).toISOString()}`;
  } else {
    if (!Object.hasOwn(formattingRules, platform)) {
      throw new UserFacingError({ message: `unknown platform "${platform}"`, hint: `Use one of: ${Object.keys(formattingRules).join(', ')}.`, exitCode: 64 });
    }
    const logger: PromptLogger = { warn: (_obj, msg) => println({ stream: io.stderr, text: `warning: ${scrub(msg ?? 'prompt warning')}` }) };
    // The tools a gateway of this config offers on the platform (the built-in ones its tool sets enable).
    const { toolsets, builtin } = profileTools({ config });
    const toolNames = toolsets.registryFor({ base: builtin, platform }).list().map((tool) => tool.name);
    prompt = buildSessionPrompt({ profile, config, platform, startedAt: systemClock.now(), scrub, logger, toolNames, formatting: formattingRules });
    heading = `a new ${platform} session of profile ${profile.name} now`;
  }
  if (params.context === true) {
    println({ stream: io.stdout, text: `the next request of ${heading}` });
    for (const text of requestLines({ config, platform, prompt, history, model })) println({ stream: io.stdout, text });
    return 0;
  }
  println({ stream: io.stdout, text: `system prompt of ${heading}` });
  for (const line of layerLines({ prompt })) println({ stream: io.stdout, text: line });
  println({ stream: io.stdout, text: '' });
  println({ stream: io.stdout, text: scrub(prompt.text) });
  return 0;
}

/**
 * The request's parts in tokens (gpt-tokenizer's count: this is a one-off command): the built-in tools the platform's
 * tool sets offer and the MCP tools the session was given (their schemas as the servers listed them).
 */
function requestLines(params: { config: AppConfig; platform: string; prompt: SessionPrompt; history: readonly ChatMessage[]; model: string }): string[] {
  const { config, platform, prompt } = params;
  const { context, toolsets, builtin } = profileTools({ config });
  const snapshot = prompt.extraTools === undefined ? undefined : parseSnapshot({ text: prompt.extraTools });
  const mcp = (snapshot?.tools ?? []).map((tool): ChatCompletionFunctionTool => ({ type: 'function', function: { name: tool.name, description: tool.description, parameters: tool.inputSchema } }));
  const meter = new TokenMeter();
  const lines = contextBreakdownLines({
    model: params.model,
    prompt,
    tools: [...toolsets.registryFor({ base: builtin, platform }).toOpenAITools(), ...mcp],
    history: params.history,
    contextTokens: context.current({ model: params.model }).tokens,
    count: (request) => meter.estimate({ request }).tokens,
  });
  const note = prompt.extraTools === undefined && Object.keys(config.mcp_servers).length > 0 ? ["(MCP servers' tools are counted for a conversation that has started: --session)"] : [];
  return [...lines, ...note];
}

/** The platform of a session key, when it names one known here. */
function platformOfKey(params: { key: string }): string | undefined {
  const platform = platformOfSessionKey(params);
  return Object.hasOwn(formattingRules, platform) ? platform : undefined;
}

/** One line per layer with its size in characters, then the total. */
export function layerLines(params: { prompt: SessionPrompt }): string[] {
  const { prompt } = params;
  const width = Math.max(5, ...prompt.layers.map((l) => l.name.length));
  const size = (n: number): string => `${n.toLocaleString('en-US').padStart(8)} chars`;
  return [...prompt.layers.map((l) => `  ${l.name.padEnd(width)} ${size(l.chars)}`), `  ${'total'.padEnd(width)} ${size(prompt.text.length)}`];
}

/** A session by full id or by the short id `hermes sessions list` shows; a clear error when none or several match. */
function findSession(params: { store: Store; id: string }): SessionRow {
  const { store, id } = params;
  const exact = store.getSession({ sessionId: id });
  if (exact !== undefined) return exact;
  const short = id.toLowerCase().replace(/-/g, '');
  const matches = /^[0-9a-f]{4,}$/.test(short) ? store.listSessions({ limit: shortIdScan }).filter((s) => s.id.replace(/-/g, '').endsWith(short)) : [];
  const [only, ...more] = matches;
  if (only !== undefined && more.length === 0) return only;
  if (only === undefined) {
    throw new UserFacingError({ message: `no session "${id}"`, hint: '`hermes sessions list` shows the sessions and their short ids.' });
  }
  throw new UserFacingError({
    message: `"${id}" matches ${matches.length} sessions (${matches.slice(0, 5).map((s) => shortSessionId({ id: s.id })).join(', ')})`,
    hint: 'Give more of the id (the full id is unique).',
  });
}
