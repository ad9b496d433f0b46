import { Writable } from 'node:stream';
import { pino, type Logger } from 'pino';
import { z } from 'zod';
import { defineTool, type ToolDefinition } from '../../src/tools/tool.js';
import type { CapturedRequest, ScriptedReply } from '../fakes/openai/server.js';
import type { Harness } from './harness.js';

/** Whether a captured request is a background review's (its system prompt is the review instruction). */
export function isReview(req: CapturedRequest): boolean {
  const first = req.body.messages?.[0];
  return typeof first?.['content'] === 'string' && first['content'].includes('quiet background reviewer');
}

/** A pino logger at info whose lines (parsed) land in `lines`. */
export function capturingLogger(): { logger: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').split('\n')) if (line.trim() !== '') lines.push(JSON.parse(line) as Record<string, unknown>);
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** A `probe` tool that answers "probe N ok" (the turns' model calls). */
export function reviewTestTools(): ToolDefinition[] {
  return [defineTool({ name: 'probe', description: 'test probe', input: z.object({ step: z.number() }), parallel: 'safe', handler: async (a) => `probe ${a.step} ok` })];
}

/** The turn's replies: `probes` probe rounds then `final`. */
export function turnScript(params: { probes: number; final: string }): ScriptedReply[] {
  return [...Array.from({ length: params.probes }, (_, i): ScriptedReply => ({ toolCalls: [{ name: 'probe', arguments: { step: i + 1 } }] })), { text: params.final }];
}

/**
 * Answers the fake's requests: the main conversation from `main` (in order), reviews through `review` (given the
 * review's request and its index among reviews). Each review request's moment is recorded as the number of platform
 * calls made so far (a shared order of both fakes).
 */
export function scriptFake(params: { h: Harness; main: ScriptedReply[]; review: (req: CapturedRequest, index: number) => ScriptedReply }): { reviews: { req: CapturedRequest; platformCallsBefore: number }[] } {
  const reviews: { req: CapturedRequest; platformCallsBefore: number }[] = [];
  params.h.fake.setResponder((req) => {
    if (isReview(req)) {
      reviews.push({ req, platformCallsBefore: params.h.adapter.calls.length });
      return params.review(req, reviews.length - 1);
    }
    const next = params.main.shift();
    if (next === undefined) throw new Error('the main conversation ran out of scripted replies');
    return next;
  });
  return { reviews };
}

/** Resolves once `predicate` holds (polling), or rejects after `timeoutMs`. */
export async function until(params: { predicate: () => boolean; what: string; timeoutMs?: number }): Promise<void> {
  const deadline = Date.now() + (params.timeoutMs ?? 5000);
  while (!params.predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${params.what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The "background review" log lines so far. */
export function reviewLines(lines: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  return lines.filter((l) => l['msg'] === 'background review' || l['msg'] === 'background review failed');
}
