// The fixed part of the first model request (system prompt + tool schemas) for a fresh default profile.
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { stringify } from 'yaml';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { pino } from 'pino';
import { profileCreate } from '../src/cli/profile-cmd.js';
import { loadAppConfig } from '../src/app/config-schema.js';
import { buildGateway } from '../src/app/bootstrap.js';
import { resolveProfile } from '../src/home/index.js';
import { Redactor } from '../src/log/redact.js';
import { openStore } from '../src/store/sqlite-store.js';
import type { PromptLayerSize } from '../src/store/types.js';
import { systemClock } from '../src/core/clock.js';
import { isMain } from '../src/util/is-main.js';
import { FakeOpenAI } from '../test/fakes/openai/server.js';
import { generateSkills } from '../test/helpers/skills.js';
import { TestAdapter } from '../test/helpers/test-adapter.js';

/** The goal for system prompt + tools JSON, in bytes (issue 27: the first request ≤ 10 KB). */
export const promptSizeGoalBytes = 10 * 1024;

/** One offered tool's share of the request. */
export interface ToolSize {
  readonly name: string;
  /** UTF-8 bytes of the tool's whole JSON, as sent. */
  readonly bytes: number;
  /** UTF-8 bytes of its description text. */
  readonly descriptionBytes: number;
  /** UTF-8 bytes of its `parameters` JSON Schema as JSON (the argument descriptions in it included). */
  readonly schemaBytes: number;
  /** o200k tokens of the tool's whole JSON (an estimate: providers wrap the tools in their own format). */
  readonly tokens: number;
}

/** What the first request of a fresh default profile carries. */
export interface PromptSizeFigures {
  /** The default model name (it decides the tool-use enforcement block). */
  readonly model: string;
  /** The platform the session was on (its formatting rules are in the prompt). */
  readonly platform: string;
  /** UTF-8 bytes of the system message's text. */
  readonly systemBytes: number;
  /** o200k tokens of the system message's text. */
  readonly systemTokens: number;
  /** UTF-8 bytes of the `tools` array as JSON, as sent. */
  readonly toolsBytes: number;
  /** o200k tokens of the `tools` array as JSON. */
  readonly toolsTokens: number;
  readonly toolCount: number;
  /** Each offered tool's size, in the order sent. */
  readonly toolBytes: readonly ToolSize[];
  /** UTF-8 bytes of the whole request body as JSON (with the one short user message). */
  readonly requestBytes: number;
  /** The stored session prompt's layer sizes in characters. */
  readonly layers: readonly PromptLayerSize[];
}

/**
 * Makes a profile the way `hermes profile create` does (bundled SOUL.md and config template) in a temp HERMES_HOME,
 * points its model at a local fake, sends one message through the real gateway (built-in tools, real openai SDK)
 * and measures the first request the fake received. `cron` offers the `cronjob` tool as `hermes gateway run` does
 * (its scheduler runs); `hermes chat` runs none. Default: on for every platform but terminal.
 */
export async function runPromptSize(params: { platform?: string; skills?: number; cron?: boolean; config?: Record<string, unknown> } = {}): Promise<PromptSizeFigures> {
  const platform = params.platform ?? 'terminal';
  const cron = params.cron ?? platform !== 'terminal';
  const home = mkdtempSync(path.join(os.tmpdir(), 'hermes-bench-prompt-'));
  const fake = new FakeOpenAI();
  await fake.start();
  try {
    const env = { HERMES_HOME: home, HOME: home };
    const sink = new PassThrough().resume();
    profileCreate({ io: { stdout: sink, stderr: sink, stdin: new PassThrough(), env, isTTY: false }, name: 'default-bench' });
    const profile = resolveProfile({ hermesHome: home, name: 'default-bench' });
    if ((params.skills ?? 0) > 0) generateSkills({ dir: profile.skillsDir, count: params.skills ?? 0 });
    if (params.config !== undefined) appendFileSync(profile.configPath, `\n${stringify(params.config)}`);
    const loaded = await loadAppConfig({ profile, env });
    const config = { ...loaded.config, model: { ...loaded.config.model, base_url: fake.baseURL } };
    const redactor = new Redactor({ secrets: loaded.secrets });
    const adapter = new TestAdapter({ clock: systemClock, name: platform });
    const { runner } = buildGateway({
      profile,
      config,
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      adapters: [{ adapter, allow: 'all' }],
      ...(cron ? { cron: { poke: () => undefined } } : {}),
      withHttp: false,
      scrub: (text) => redactor.scrub(text),
      secrets: redactor,
    });
    fake.enqueue({ text: 'ok' });
    await runner.start();
    await adapter.ready();
    await adapter.inject({ text: 'hello' });
    await runner.waitIdle();
    await runner.stop();
    const body = fake.requests[0]?.body;
    if (body === undefined) throw new Error('the gateway sent no model request');
    const system = body.messages?.[0];
    const systemText = system?.['role'] === 'system' ? String(system['content']) : '';
    const store = openStore({ path: profile.dbPath, clock: systemClock });
    let layers: readonly PromptLayerSize[] = [];
    try {
      const [session] = store.listSessions({ limit: 1 });
      layers = session ? (store.sessionPrompt({ sessionId: session.id })?.layers ?? []) : [];
    } finally {
      store.close();
    }
    const toolsJson = JSON.stringify(body.tools ?? []);
    return {
      model: config.model.name,
      platform,
      systemBytes: Buffer.byteLength(systemText, 'utf8'),
      systemTokens: countTokens(systemText),
      toolsBytes: Buffer.byteLength(toolsJson, 'utf8'),
      toolsTokens: countTokens(toolsJson),
      toolCount: body.tools?.length ?? 0,
      toolBytes: (body.tools ?? []).map((tool) => toolSize({ tool })),
      requestBytes: Buffer.byteLength(JSON.stringify(body), 'utf8'),
      layers,
    };
  } finally {
    await fake.close();
    rmSync(home, { recursive: true, force: true });
  }
}

/** The sizes of one tool of the request's `tools` array. */
function toolSize(params: { tool: Record<string, unknown> }): ToolSize {
  const fn = (params.tool['function'] ?? {}) as { name?: unknown; description?: unknown; parameters?: unknown };
  const json = JSON.stringify(params.tool);
  return {
    name: String(fn.name),
    bytes: Buffer.byteLength(json, 'utf8'),
    descriptionBytes: Buffer.byteLength(typeof fn.description === 'string' ? fn.description : '', 'utf8'),
    schemaBytes: Buffer.byteLength(JSON.stringify(fn.parameters ?? {}), 'utf8'),
    tokens: countTokens(json),
  };
}

/** The lines `npm run bench` prints for it. */
export function promptSizeLines(params: { figures: PromptSizeFigures }): string[] {
  const f = params.figures;
  const fixed = f.systemBytes + f.toolsBytes;
  const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
  return [
    `first model request, fresh default profile (model ${f.model}, platform ${f.platform}): system prompt + tools JSON = ${fixed} bytes (${kb(fixed)}); goal ≤ ${kb(promptSizeGoalBytes)} — ${fixed <= promptSizeGoalBytes ? 'within' : 'OVER'}`,
    `  system prompt ${f.systemBytes} bytes (~${f.systemTokens} tokens); tools JSON ${f.toolsBytes} bytes (~${f.toolsTokens} tokens, ${f.toolCount} tools); whole request body ${f.requestBytes} bytes`,
    `  layers (chars): ${f.layers.map((l) => `${l.name} ${l.chars}`).join(', ')}`,
  ];
}

/** The per-tool table: name, bytes of the description and of the parameters schema, the whole tool's bytes and o200k tokens, largest first. */
export function toolTableLines(params: { figures: PromptSizeFigures }): string[] {
  const tools = [...params.figures.toolBytes].sort((a, b) => b.bytes - a.bytes || a.name.localeCompare(b.name));
  const width = Math.max(4, ...tools.map((t) => t.name.length));
  const row = (cells: readonly (string | number)[]): string =>
    `  ${String(cells[0]).padEnd(width)}  ${cells.slice(1).map((c) => String(c).padStart(11)).join('  ')}`;
  return [
    `tools offered on ${params.figures.platform} (bytes of JSON as sent; tokens o200k, an estimate), largest first:`,
    row(['tool', 'description', 'schema', 'total', 'tokens']),
    ...tools.map((t) => row([t.name, t.descriptionBytes, t.schemaBytes, t.bytes, t.tokens])),
    row(['all', tools.reduce((n, t) => n + t.descriptionBytes, 0), tools.reduce((n, t) => n + t.schemaBytes, 0), params.figures.toolsBytes, params.figures.toolsTokens]),
  ];
}

/** The summary lines for several platforms' first requests, each against the goal. */
export function goalLines(params: { figures: readonly PromptSizeFigures[] }): string[] {
  const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
  return [
    `goal: system prompt + tools JSON ≤ ${promptSizeGoalBytes} bytes (${kb(promptSizeGoalBytes)})`,
    ...params.figures.map((f) => {
      const fixed = f.systemBytes + f.toolsBytes;
      return `  ${f.platform.padEnd(9)} ${fixed} bytes (${kb(fixed)}, ~${f.systemTokens + f.toolsTokens} tokens; ${f.toolCount} tools): ${fixed <= promptSizeGoalBytes ? 'within' : 'OVER'}`;
    }),
  ];
}

/** The first request with no skills and with `count` generated ones (the skills index is the only difference). */
export interface SkillsIndexFigures {
  readonly count: number;
  readonly without: PromptSizeFigures;
  readonly with: PromptSizeFigures;
}

/** Measures the first request of a fresh default profile with 0 and with `count` (100) generated skills. */
export async function runSkillsIndexBench(params: { count?: number } = {}): Promise<SkillsIndexFigures> {
  const count = params.count ?? 100;
  return { count, without: await runPromptSize(), with: await runPromptSize({ skills: count }) };
}

/** The lines `npm run bench` prints for the skills index. */
export function skillsIndexLines(params: { figures: SkillsIndexFigures }): string[] {
  const { count, without, with: withSkills } = params.figures;
  const index = withSkills.layers.find((l) => l.name === 'skills')?.chars ?? 0;
  const grew = withSkills.requestBytes - without.requestBytes;
  return [
    `skills index: first request ${without.requestBytes} bytes with 0 skills, ${withSkills.requestBytes} bytes with ${count} generated skills (+${grew}); ` +
      `the skills layer is ${index} chars, ${((100 * index) / withSkills.systemBytes).toFixed(0)}% of the system prompt, ${((100 * index) / withSkills.requestBytes).toFixed(0)}% of the request; ` +
      `tools JSON ${without.toolsBytes === withSkills.toolsBytes ? 'unchanged' : 'CHANGED'}`,
  ];
}

/** The first request on Telegram without MCP servers, with server-everything attached, and trimmed two ways. */
export interface McpPromptFigures {
  readonly none: PromptSizeFigures;
  readonly everything: PromptSizeFigures;
  /** server-everything with `tools.include: [echo, get-sum]` and no resource or prompt wrappers. */
  readonly trimmed: PromptSizeFigures;
  /** The trimmed server with `toolsets` cut to file, terminal, memory, session_search, clarify and mcp-everything. */
  readonly lean: PromptSizeFigures;
}

/** Measures the first Telegram request with server-everything (stdio, from npm) attached, whole and trimmed. */
export async function runMcpPromptBench(): Promise<McpPromptFigures> {
  const server = createRequire(import.meta.url).resolve('@modelcontextprotocol/server-everything/dist/index.js');
  const everything = { command: process.execPath, args: [server, 'stdio'] };
  const trimmedServer = { ...everything, tools: { include: ['echo', 'get-sum'], resources: false, prompts: false } };
  return {
    none: await runPromptSize({ platform: 'telegram' }),
    everything: await runPromptSize({ platform: 'telegram', config: { mcp_servers: { everything } } }),
    trimmed: await runPromptSize({ platform: 'telegram', config: { mcp_servers: { everything: trimmedServer } } }),
    lean: await runPromptSize({ platform: 'telegram', config: { mcp_servers: { everything: trimmedServer }, toolsets: ['file', 'terminal', 'memory', 'session_search', 'clarify', 'mcp-everything'] } }),
  };
}

/** The lines `npm run bench:prompt` prints for the MCP figures. */
export function mcpPromptLines(params: { figures: McpPromptFigures }): string[] {
  const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
  const line = (label: string, f: PromptSizeFigures): string => {
    const fixed = f.systemBytes + f.toolsBytes;
    const mcp = f.toolBytes.filter((t) => t.name.startsWith('mcp_'));
    return `  ${label.padEnd(48)} ${String(fixed).padStart(6)} bytes (${kb(fixed)}, ~${f.systemTokens + f.toolsTokens} tokens), ${f.toolCount} tools (${mcp.length} MCP: ${mcp.reduce((n, t) => n + t.bytes, 0)} bytes)`;
  };
  const { none, everything, trimmed, lean } = params.figures;
  return [
    'first request on telegram with an MCP server (system prompt + tools JSON):',
    line('no MCP server', none),
    line('server-everything, every tool', everything),
    line('trimmed: include echo, get-sum; no wrappers', trimmed),
    line('trimmed + toolsets file, terminal, memory, ...', lean),
  ];
}

if (isMain({ moduleUrl: import.meta.url })) {
  const terminal = await runPromptSize();
  const telegram = await runPromptSize({ platform: 'telegram' });
  for (const figures of [terminal, telegram]) {
    for (const line of [...promptSizeLines({ figures }), ...toolTableLines({ figures })]) console.log(line);
  }
  for (const line of goalLines({ figures: [terminal, telegram] })) console.log(line);
  for (const line of skillsIndexLines({ figures: await runSkillsIndexBench() })) console.log(line);
  for (const line of mcpPromptLines({ figures: await runMcpPromptBench() })) console.log(line);
}
