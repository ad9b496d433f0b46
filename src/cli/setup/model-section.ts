import { UserFacingError } from '../../core/errors.js';
import type { Ask, Choice } from './ask.js';
import { listModels, testModel, type ModelList } from './endpoint.js';
import type { SetupFiles } from './files.js';
import type { SectionContext, SectionResult } from './section.js';

/** The variable the key goes to in .env unless --api-key-env names another (the OpenAI SDK's own name). */
export const DEFAULT_KEY_ENV = 'OPENAI_API_KEY';

/** Well-known OpenAI-compatible endpoints offered first. */
const providers: readonly Choice[] = [
  { value: 'https://api.openai.com/v1', label: 'OpenAI', hint: 'api.openai.com' },
  { value: 'https://openrouter.ai/api/v1', label: 'OpenRouter', hint: 'openrouter.ai' },
  { value: 'http://127.0.0.1:11434/v1', label: 'Ollama on this machine', hint: 'no key needed' },
];
const OTHER = 'other';

/** What `hermes setup model` was given on the command line. */
export interface ModelFlags {
  /** --base-url: the OpenAI-compatible endpoint. */
  readonly baseUrl?: string;
  /** --api-key: the key itself. */
  readonly apiKey?: string;
  /** --api-key-env: the variable holding the key (also its name in .env). */
  readonly apiKeyEnv?: string;
  /** --model: the model name. */
  readonly model?: string;
}

/** What is wrong with `text` as a base URL, or undefined. */
export function baseUrlProblem(text: string): string | undefined {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? undefined : `"${text}" is a ${url.protocol} URL; the endpoint needs http:// or https://`;
  } catch {
    return `"${text}" is not a URL; write it with its scheme, e.g. http://127.0.0.1:11434/v1`;
  }
}

/** A plain string value from config.yaml (not a `${VAR}` reference), or undefined. */
function plain(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' && !value.includes('${') ? value : undefined;
}

/** The model settings the profile has now (`${VAR}`s filled in; the key falls back to OPENAI_API_KEY), or undefined when it does not load. */
function currentModel(params: { files: SetupFiles; ctx: SectionContext }): { baseUrl: string; name: string; key: string | undefined } | undefined {
  try {
    const { model } = params.files.candidate({ env: params.ctx.env, schema: params.ctx.schema });
    const key = model.api_key ?? model.api_keys[0] ?? (params.ctx.env[DEFAULT_KEY_ENV] || params.files.envValue({ name: DEFAULT_KEY_ENV }));
    return { baseUrl: model.base_url, name: model.name, key };
  } catch {
    return undefined;
  }
}

/** Sets a model key unless it already says that (a `${VAR}` that resolves to the chosen value stays). */
function setChanged(params: { files: SetupFiles; key: 'base_url' | 'name'; value: string; now: string | undefined }): void {
  if (params.value !== params.now || params.files.get({ keyPath: ['model', params.key] }) === undefined) params.files.set({ keyPath: ['model', params.key], value: params.value });
}

/** The base URL: the flag, the owner's pick, or (without questions) what config.yaml has. */
async function chooseBaseUrl(params: { flags: ModelFlags; ask: Ask | undefined; current: string }): Promise<string> {
  const { flags, ask, current } = params;
  const chosen = flags.baseUrl ?? (ask === undefined ? current : await askBaseUrl({ ask, current }));
  const problem = baseUrlProblem(chosen);
  if (problem !== undefined) throw new UserFacingError({ message: problem, hint: 'Pass --base-url with the endpoint, e.g. https://api.openai.com/v1.', exitCode: 64 });
  return chosen.replace(/\/+$/, '');
}

async function askBaseUrl(params: { ask: Ask; current: string }): Promise<string> {
  const { ask, current } = params;
  const known = providers.some((p) => p.value === current);
  const choices = known ? [...providers] : [{ value: current, label: current, hint: 'now in config.yaml' }, ...providers];
  const picked = await ask.select({ message: 'Which model provider?', choices: [...choices, { value: OTHER, label: 'Another OpenAI-compatible server', hint: 'type its URL' }], initial: current });
  if (picked !== OTHER) return picked;
  return ask.text({ message: 'Base URL of the server (with /v1 if it has one)', placeholder: 'http://127.0.0.1:8080/v1', validate: baseUrlProblem });
}

/** The key: --api-key, $NAME for --api-key-env NAME, or typed (masked); undefined keeps the current one. */
async function chooseKey(params: { flags: ModelFlags; ask: Ask | undefined; ctx: SectionContext; hasKey: boolean }): Promise<string | undefined> {
  const { flags, ask, ctx } = params;
  if (flags.apiKey !== undefined && flags.apiKeyEnv !== undefined) {
    throw new UserFacingError({ message: '--api-key and --api-key-env cannot both be given', hint: '--api-key-env NAME reads the key from $NAME (it stays out of the process list).', exitCode: 64 });
  }
  if (flags.apiKey !== undefined) return flags.apiKey;
  if (flags.apiKeyEnv !== undefined) {
    const value = ctx.env[flags.apiKeyEnv];
    if (value === undefined || value === '') throw new UserFacingError({ message: `--api-key-env ${flags.apiKeyEnv}: the variable is not set`, hint: `Export ${flags.apiKeyEnv}=... before running setup.`, exitCode: 64 });
    return value;
  }
  if (ask === undefined) return undefined;
  const typed = await ask.secret({ message: params.hasKey ? 'API key (Enter keeps the current one)' : 'API key (Enter for none, e.g. for a local server)' });
  return typed === '' ? undefined : typed;
}

/** The model: the flag, picked from the list (or typed when there is none), or what config.yaml has. */
async function chooseModel(params: { flags: ModelFlags; ask: Ask | undefined; list: ModelList; current: string | undefined }): Promise<string> {
  const { flags, ask, list, current } = params;
  if (flags.model !== undefined) return flags.model;
  if (ask === undefined) {
    if (current !== undefined) return current;
    throw new UserFacingError({ message: 'no model name: pass --model NAME', hint: list.ok ? `The endpoint lists: ${list.ids.slice(0, 8).join(', ')}` : undefined, exitCode: 64 });
  }
  if (list.ok && list.ids.length > 0) {
    const choices: Choice[] = [...list.ids.map((id) => ({ value: id, label: id })), { value: OTHER, label: 'Another name', hint: 'type it' }];
    const picked = await ask.select({ message: `Which model? (${list.ids.length} listed)`, choices, ...(current !== undefined && list.ids.includes(current) ? { initial: current } : {}) });
    if (picked !== OTHER) return picked;
  } else {
    ask.info({ text: list.ok ? 'The endpoint lists no models.' : `Could not list the models (${list.reason}).` });
  }
  return ask.text({ message: 'Model name', ...(current !== undefined ? { initial: current } : {}), validate: (value) => (value.trim() === '' ? 'a model name, e.g. gpt-4o-mini' : undefined) });
}

/**
 * `hermes setup model`: base URL, key (to .env, never to config.yaml), the model picked from GET /models, one tiny
 * test request; config.yaml's model.base_url, model.name (and model.api_key as `${NAME}`) are written only when it answers.
 */
export async function modelSection(params: { files: SetupFiles; ctx: SectionContext; flags: ModelFlags }): Promise<SectionResult> {
  const { files, ctx, flags } = params;
  const ask = ctx.ask;
  const now = currentModel({ files, ctx });
  const existingKey = now?.key;
  const baseUrl = await chooseBaseUrl({ flags, ask, current: plain(files.get({ keyPath: ['model', 'base_url'] })) ?? now?.baseUrl ?? 'https://api.openai.com/v1' });
  const newKey = await chooseKey({ flags, ask, ctx, hasKey: existingKey !== undefined });
  const key = newKey ?? existingKey;
  if (key !== undefined) ctx.secrets.add(key);
  const list = await listModels({ baseUrl, apiKey: key });
  const model = await chooseModel({ flags, ask, list, current: plain(files.get({ keyPath: ['model', 'name'] })) ?? now?.name });
  setChanged({ files, key: 'base_url', value: baseUrl, now: now?.baseUrl.replace(/\/+$/, '') });
  setChanged({ files, key: 'name', value: model, now: now?.name });
  const envName = flags.apiKeyEnv ?? DEFAULT_KEY_ENV;
  if (newKey !== undefined) {
    files.setEnv({ name: envName, value: newKey });
    files.set({ keyPath: ['model', 'api_key'], value: `\${${envName}}` });
  }
  const config = files.candidate({ env: ctx.env, schema: ctx.schema });
  ctx.progress({ text: `Testing ${model} at ${baseUrl} with one tiny request...` });
  const tested = await testModel({ baseUrl: config.model.base_url, apiKey: config.model.api_key ?? config.model.api_keys[0], model: config.model.name, now: ctx.now });
  if (!tested.ok) return { ok: false, detail: tested.detail, hint: tested.hint };
  const listed = list.ok && list.ids.length > 0 && !list.ids.includes(model) ? ` (not in the endpoint's list of ${list.ids.length})` : '';
  return {
    ok: true,
    detail: `${model} at ${baseUrl} answered in ${tested.ms} ms${listed}`,
    wrote: ['model.base_url', 'model.name', ...(newKey !== undefined ? [`model.api_key (\${${envName}}, the key itself in .env)`] : [])],
  };
}
