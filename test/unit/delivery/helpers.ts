import type { FakeClock } from '../../helpers/fake-clock.js';

/** Advances the fake clock in steps until `promise` settles; fails after `maxMs` of fake time. */
export async function settle<T>(params: { clock: FakeClock; promise: Promise<T>; stepMs?: number; maxMs?: number }): Promise<T> {
  let done = false;
  const markDone = (): void => {
    done = true;
  };
  params.promise.then(markDone, markDone);
  const step = params.stepMs ?? 50;
  for (let elapsed = 0; !done; elapsed += step) {
    if (elapsed > (params.maxMs ?? 600_000)) throw new Error(`promise did not settle within ${params.maxMs ?? 600_000} ms of fake time`);
    await params.clock.advance(step);
  }
  return params.promise;
}

/** Lines that are ``` fences. */
export function fenceLines(text: string): string[] {
  return text.split('\n').filter((line) => /^ {0,3}```/.test(line));
}

/**
 * Removes the fence lines the splitter added: a chunk's trailing ``` that the next chunk answers by
 * reopening with a fence line. Valid for texts where a code block never directly follows another one.
 */
export function stripAddedFences(chunks: readonly string[]): string[] {
  const out = [...chunks];
  for (let i = 0; i + 1 < out.length; i++) {
    const current = out[i] ?? '';
    const next = out[i + 1] ?? '';
    if (current.endsWith('\n```') && /^```[^\n]*\n/.test(next)) {
      out[i] = current.slice(0, -4);
      out[i + 1] = next.replace(/^```[^\n]*\n/, '');
    }
  }
  return out;
}

/** Collapses every run of whitespace to one space, so texts can be compared up to chunk boundaries. */
export function normalizeSpace(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
