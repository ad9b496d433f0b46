import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { builtinTools } from '../../../src/tools/builtin/index.js';
import { ToolRegistry, type ToolResult } from '../../../src/tools/registry.js';
import type { ToolContext } from '../../../src/tools/tool.js';
import { systemClock } from '../../../src/core/clock.js';

/** A tool context for tools that touch no files (the OS temp dir as workspace, a real clock, small terminal limits). */
export function bareToolContext(): ToolContext {
  return {
    workspace: os.tmpdir(),
    confineToWorkspace: true,
    signal: new AbortController().signal,
    clock: systemClock,
    terminal: { timeoutMs: 1000, maxOutputBytes: 1000 },
  };
}

/** A temp root holding a workspace and a sibling directory outside it. */
export interface Sandbox {
  /** The workspace tools run in. */
  workspace: string;
  /** A directory next to the workspace (outside it). */
  outside: string;
  /** Tool context for the workspace. */
  ctx: ToolContext;
  /** Registry with the built-in tools. */
  registry: ToolRegistry;
  /** Runs a built-in tool with JSON-able arguments. */
  call: (name: string, args: object, signal?: AbortSignal) => Promise<ToolResult>;
  /** Removes everything. */
  cleanup: () => void;
}

/** Creates a sandbox; `terminal` overrides the terminal limits. */
export function makeSandbox(params: { terminal?: ToolContext['terminal'] } = {}): Sandbox {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'hermes-'));
  const workspace = path.join(root, 'ws');
  const outside = path.join(root, 'outside');
  fs.mkdirSync(workspace);
  fs.mkdirSync(outside);
  const ctx: ToolContext = {
    workspace,
    confineToWorkspace: true,
    signal: new AbortController().signal,
    clock: systemClock,
    terminal: params.terminal ?? { timeoutMs: 5_000, maxOutputBytes: 10_000 },
  };
  const registry = new ToolRegistry({ tools: builtinTools() });
  let seq = 0;
  return {
    workspace,
    outside,
    ctx,
    registry,
    call: (name, args, signal) =>
      registry.execute({
        call: { id: `t${++seq}`, name, arguments: JSON.stringify(args) },
        ctx: signal ? { ...ctx, signal } : ctx,
      }),
    cleanup: () => fs.rmSync(root, { recursive: true, force: true }),
  };
}
