import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import OpenAI from 'openai';
import { AIAgent } from '../../../src/agent/agent.js';
import type { ChatMessage } from '../../../src/agent/messages.js';
import type { TokenMeter } from '../../../src/agent/tokens/meter.js';
import type { AgentResult } from '../../../src/agent/types.js';
import type { AgentLogger } from '../../../src/agent/errors.js';
import { ToolRegistry } from '../../../src/tools/registry.js';
import type { ToolContext, ToolDefinition } from '../../../src/tools/tool.js';
import { systemClock, type Clock } from '../../../src/core/clock.js';
import { FakeOpenAI } from '../../fakes/openai/server.js';

/** A started fake, an agent pointed at it and a temp workspace. */
export interface Rig {
  fake: FakeOpenAI;
  workspace: string;
  client: OpenAI;
  agent: AIAgent;
  close: () => Promise<void>;
}

/** One captured run of the agent. */
export interface RunCapture {
  result: AgentResult;
  deltas: string[];
  messages: ChatMessage[];
}

/** Starts a FakeOpenAI and builds an agent over the given tools. */
export async function startRig(params: {
  tools?: ToolDefinition[];
  maxIterations?: number;
  maxRetries?: number;
  maxParallel?: number;
  clock?: Clock;
  apiKey?: string;
  requestTimeoutMs?: number;
  logger?: AgentLogger;
  /** Token accounting handed to the agent. */
  tokenMeter?: TokenMeter;
  /** Sees every HTTP request's abort signal. */
  onRequestSignal?: (signal: AbortSignal) => void;
}): Promise<Rig> {
  const fake = new FakeOpenAI();
  await fake.start();
  const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
  const client = new OpenAI({
    apiKey: params.apiKey ?? 'sk-test-key-123456',
    baseURL: fake.baseURL,
    maxRetries: 0,
    fetch: (input, init) => {
      if (init?.signal) params.onRequestSignal?.(init.signal);
      return fetch(input, init);
    },
  });
  const agent = new AIAgent({
    client,
    model: 'fake-model',
    registry: new ToolRegistry({ tools: params.tools ?? [] }),
    maxIterations: params.maxIterations ?? 10,
    maxRetries: params.maxRetries ?? 0,
    maxParallel: params.maxParallel ?? 8,
    clock: params.clock ?? systemClock,
    requestTimeoutMs: params.requestTimeoutMs ?? 60_000,
    ...(params.logger ? { logger: params.logger } : {}),
    ...(params.tokenMeter ? { tokenMeter: params.tokenMeter } : {}),
  });
  return {
    fake,
    workspace,
    client,
    agent,
    close: async () => {
      await fake.close();
      fs.rmSync(workspace, { recursive: true, force: true });
    },
  };
}

/** Tool context for a workspace. */
export function toolContextFor(params: { workspace: string; clock?: Clock }): Omit<ToolContext, 'signal'> {
  return {
    workspace: params.workspace,
    confineToWorkspace: true,
    clock: params.clock ?? systemClock,
    terminal: { timeoutMs: 5_000, maxOutputBytes: 10_000 },
  };
}

/** Runs one turn and records deltas and messages. */
export async function runTurn(params: {
  rig: Rig;
  userText: string;
  history?: ChatMessage[];
  signal?: AbortSignal;
  clock?: Clock;
  systemPrompt?: string;
  ephemeral?: () => string;
}): Promise<RunCapture> {
  const deltas: string[] = [];
  const messages: ChatMessage[] = [];
  const result = await params.rig.agent.run({
    systemPrompt: params.systemPrompt ?? 'You are a test agent.',
    ...(params.ephemeral ? { ephemeral: params.ephemeral } : {}),
    history: params.history ?? [],
    userText: params.userText,
    signal: params.signal ?? new AbortController().signal,
    onTextDelta: (delta) => deltas.push(delta),
    onMessage: (message) => messages.push(message),
    toolContext: toolContextFor({ workspace: params.rig.workspace, clock: params.clock }),
  });
  return { result, deltas, messages };
}

/** Asserts-friendly check that every tool call has exactly one result after it. Returns problems found. */
export function historyProblems(params: { messages: readonly ChatMessage[] }): string[] {
  const problems: string[] = [];
  const pending = new Set<string>();
  for (const msg of params.messages) {
    if (msg.role === 'assistant') {
      if (pending.size > 0) problems.push(`assistant message while calls ${[...pending].join(',')} lack results`);
      for (const call of msg.tool_calls ?? []) pending.add(call.id);
    } else if (msg.role === 'tool') {
      if (!pending.delete(msg.tool_call_id)) problems.push(`tool result for unknown call ${msg.tool_call_id}`);
    } else if (pending.size > 0) problems.push(`${msg.role} message while calls lack results`);
  }
  if (pending.size > 0) problems.push(`calls without results: ${[...pending].join(',')}`);
  return problems;
}

/** Resolves after `ms` of real time. */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
