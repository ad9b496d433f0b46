import path from 'node:path';
import { canonicalPath, pathsOverlap } from './paths.js';
import type { ToolCallRequest, ToolRegistry, ToolResult } from './registry.js';
import type { PathAccess, ToolContext } from './tool.js';

/** Most calls run at once when nothing else limits it. */
export const DEFAULT_MAX_PARALLEL = 8;

/** Result text for a call that never started because the turn was interrupted. */
export const INTERRUPTED_RESULT = 'Interrupted: this tool call did not run because the user interrupted the turn.';

/** How long running tools get to honour an abort before they are reported as interrupted anyway. */
const DEFAULT_ABORT_GRACE_MS = 2_000;

/** A call paired with what it produced. */
export interface CallOutcome {
  /** The call as the model sent it. */
  call: ToolCallRequest;
  /** Its result. */
  result: ToolResult;
}

/** How one call may share a batch, with its paths already resolved. */
type Access = { kind: 'never' } | { kind: 'safe' } | { kind: 'paths'; paths: PathAccess[] };

/**
 * Splits one round's calls into consecutive batches that may each run concurrently, keeping order:
 * `never` tools run alone, `safe` tools run with anything, path-scoped tools share a batch only when
 * no two calls touch overlapping paths with a writer among them; at most `maxParallel` per batch.
 */
export function planBatches(params: {
  calls: ToolCallRequest[];
  registry: ToolRegistry;
  workspace: string;
  maxParallel?: number;
}): ToolCallRequest[][] {
  const maxParallel = Math.max(1, params.maxParallel ?? DEFAULT_MAX_PARALLEL);
  const batches: ToolCallRequest[][] = [];
  let current: { call: ToolCallRequest; access: Access }[] = [];
  const flush = (): void => {
    if (current.length > 0) batches.push(current.map((entry) => entry.call));
    current = [];
  };
  for (const call of params.calls) {
    const access = accessOf({ call, registry: params.registry, workspace: params.workspace });
    if (access.kind === 'never') {
      flush();
      batches.push([call]);
      continue;
    }
    const fits = current.length < maxParallel && current.every((other) => compatible(other.access, access));
    if (!fits) flush();
    current.push({ call, access });
  }
  flush();
  return batches;
}

function accessOf(params: { call: ToolCallRequest; registry: ToolRegistry; workspace: string }): Access {
  const parsed = params.registry.parse(params.call);
  // A call that cannot be parsed only produces an error message, so it never conflicts.
  if (!parsed.ok) return { kind: 'safe' };
  const policy = parsed.tool.parallel;
  if (policy === 'safe' || policy === 'never') return { kind: policy };
  try {
    const paths = policy.paths(parsed.args).map((access) => ({
      path: canonicalPath({ path: path.resolve(params.workspace, access.path) }),
      write: access.write,
    }));
    return { kind: 'paths', paths };
  } catch {
    return { kind: 'never' };
  }
}

function compatible(a: Access, b: Access): boolean {
  if (a.kind === 'never' || b.kind === 'never') return false;
  if (a.kind === 'safe' || b.kind === 'safe') return true;
  return a.paths.every((x) =>
    b.paths.every((y) => !((x.write || y.write) && pathsOverlap({ a: x.path, b: y.path }))),
  );
}

/**
 * Runs batches one after another, the calls of a batch concurrently. After an abort, running calls
 * see it through `ctx.signal` and calls not yet started get INTERRUPTED_RESULT. `onResult` is called
 * in the original call order; the returned outcomes are in that order too.
 */
export async function runBatches(params: {
  batches: ToolCallRequest[][];
  registry: ToolRegistry;
  ctx: Omit<ToolContext, 'signal'>;
  signal: AbortSignal;
  onResult?: (outcome: CallOutcome) => void;
  abortGraceMs?: number;
}): Promise<CallOutcome[]> {
  const { registry, signal } = params;
  const ctx: ToolContext = { ...params.ctx, signal };
  const graceMs = params.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS;
  const outcomes: CallOutcome[] = [];
  for (const batch of params.batches) {
    const results = signal.aborted
      ? batch.map((): ToolResult => ({ content: INTERRUPTED_RESULT, isError: true }))
      : await Promise.all(
          batch.map((call) => runOne({ run: registry.execute({ call, ctx }), ctx, graceMs, name: call.name })),
        );
    batch.forEach((call, i) => {
      const outcome: CallOutcome = { call, result: results[i] ?? { content: INTERRUPTED_RESULT, isError: true } };
      outcomes.push(outcome);
      params.onResult?.(outcome);
    });
  }
  return outcomes;
}

/** Waits for a call, but stops waiting `graceMs` after an abort if the tool ignores it. */
async function runOne(params: {
  run: Promise<ToolResult>;
  ctx: ToolContext;
  graceMs: number;
  name: string;
}): Promise<ToolResult> {
  const { ctx } = params;
  const settled = new AbortController();
  const gaveUp = new Promise<ToolResult>((resolve) => {
    const onAbort = (): void => {
      ctx.clock.sleep(params.graceMs, settled.signal).then(
        () =>
          resolve({
            content:
              `Interrupted: ${params.name} was still running when the user interrupted the turn; ` +
              'it may have partly completed.',
            isError: true,
          }),
        () => undefined,
      );
    };
    if (ctx.signal.aborted) onAbort();
    else ctx.signal.addEventListener('abort', onAbort, { once: true, signal: settled.signal });
  });
  try {
    return await Promise.race([params.run, gaveUp]);
  } finally {
    settled.abort();
  }
}
