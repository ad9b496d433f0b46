// Where a child's CPU went within a time window, from the .cpuprofile `node --cpu-prof` wrote: the share of its model
// client (the openai SDK and the fetch under it), of GC, and the costliest functions.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface CallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
}

interface ProfileNode {
  readonly id: number;
  readonly callFrame: CallFrame;
  readonly children?: readonly number[];
}

/** The parts of V8's .cpuprofile read here (times in µs of the monotonic clock). */
interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly startTime: number;
  readonly endTime: number;
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

/** Shares of the samples taken within the window (idle samples left out). */
export interface ProfileShares {
  readonly samples: number;
  /** Samples with an openai SDK frame or Node's fetch (undici) on the stack: the gateway's model client. */
  readonly modelClient: number;
  /** Samples in V8's garbage collector. */
  readonly gc: number;
  /** The functions with the most samples of their own (self time), share of the samples. */
  readonly topSelf: readonly { readonly name: string; readonly share: number }[];
  /** The gateway's own functions (dist/) by inclusive time (on the stack at all, callees included), share of the samples. */
  readonly topOwn: readonly { readonly name: string; readonly share: number }[];
}

/** The monotonic clock in µs, as V8's profiles give their times (both CLOCK_MONOTONIC on Linux). */
export function monotonicMicros(): number {
  return Number(process.hrtime.bigint() / 1000n);
}

/** The one .cpuprofile in `dir`. */
export function readProfile(params: { dir: string }): CpuProfile {
  const files = readdirSync(params.dir).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length !== 1 || files[0] === undefined) throw new Error(`expected one .cpuprofile in ${params.dir}, found ${files.length}`);
  return JSON.parse(readFileSync(path.join(params.dir, files[0]), 'utf8')) as CpuProfile;
}

/** A frame's short name: `function file:line`. */
function frameName(params: { frame: CallFrame }): string {
  const { frame } = params;
  const file = frame.url.includes('node_modules/') ? (frame.url.split('node_modules/').pop() ?? '') : path.basename(frame.url);
  return `${frame.functionName || '(anonymous)'}${file ? ` ${file}:${frame.lineNumber + 1}` : ''}`;
}

/** The `count` largest entries of a tally, as shares of `total`. */
function top(params: { tally: Map<string, number>; total: number; count: number }): { name: string; share: number }[] {
  return [...params.tally.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, params.count)
    .map(([name, n]) => ({ name, share: n / params.total }));
}

/** Shares of the samples between `fromUs` and `toUs` (monotonicMicros of this process). */
export function profileShares(params: { profile: CpuProfile; fromUs: number; toUs: number }): ProfileShares {
  const { profile } = params;
  if (params.toUs < profile.startTime || params.fromUs > profile.endTime) throw new Error('the window is outside the profile: its clock is not this process’s monotonic clock');
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (leaf: { id: number }): ProfileNode[] => {
    const out: ProfileNode[] = [];
    for (let at: number | undefined = leaf.id; at !== undefined; at = parent.get(at)) {
      const node = nodes.get(at);
      if (node) out.push(node);
    }
    return out;
  };
  const self = new Map<string, number>();
  const own = new Map<string, number>();
  let samples = 0;
  let modelClient = 0;
  let gc = 0;
  let t = profile.startTime;
  profile.samples.forEach((id, i) => {
    t += profile.timeDeltas[i] ?? 0;
    const leaf = nodes.get(id);
    if (leaf === undefined || t < params.fromUs || t > params.toUs || leaf.callFrame.functionName === '(idle)') return;
    samples += 1;
    const frames = stackOf({ id });
    if (frames.some((f) => f.callFrame.url.includes('/node_modules/openai/') || f.callFrame.url.startsWith('node:internal/deps/undici'))) modelClient += 1;
    if (leaf.callFrame.functionName === '(garbage collector)') gc += 1;
    const selfName = frameName({ frame: leaf.callFrame });
    self.set(selfName, (self.get(selfName) ?? 0) + 1);
    const owned = new Set(frames.filter((f) => f.callFrame.url.includes('/dist/')).map((f) => frameName({ frame: f.callFrame })));
    for (const name of owned) own.set(name, (own.get(name) ?? 0) + 1);
  });
  return { samples, modelClient: modelClient / samples, gc: gc / samples, topSelf: top({ tally: self, total: samples, count: 10 }), topOwn: top({ tally: own, total: samples, count: 25 }) };
}
