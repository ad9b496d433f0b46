/** A seeded pseudo-random source (mulberry32): the same seed gives the same payloads, so a failure reproduces. */
export class Prng {
  private state: number;

  constructor(params: { seed: number }) {
    this.state = params.seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  /** One of `items`. */
  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }
}

/** Numbers that break careless code; none is a small id a test allows (so a mutated sender never becomes the owner). */
const oddNumbers = [0, -1, 1.5, -0.5, 1e308, -1e308, 2 ** 53 + 1, 2 ** 64, 4294967296, 7];

/** Strings that break careless code. */
const oddStrings = ['', ' ', '\u0000', '\ud800', '😀'.repeat(3), '<@U0BOT>', '@', '/start', 'x'.repeat(5000), '1e309', 'null', '{}', '%00', '\n\t'];

/** A JSON value of any type, nested up to `depth`. */
export function junk(params: { rng: Prng; depth?: number }): unknown {
  const { rng } = params;
  const depth = params.depth ?? 2;
  switch (rng.int(depth > 0 ? 8 : 5)) {
    case 0:
      return null;
    case 1:
      return rng.pick(oddNumbers);
    case 2:
      return rng.pick(oddStrings);
    case 3:
      return rng.int(2) === 0;
    case 4:
      return rng.pick([[], {}]);
    case 5:
      return Array.from({ length: 1 + rng.int(3) }, () => junk({ rng, depth: depth - 1 }));
    case 6:
      return Object.fromEntries(Array.from({ length: 1 + rng.int(3) }, (_, i) => [`k${i}`, junk({ rng, depth: depth - 1 })]));
    default: {
      // Deep nesting: [[[[...]]]] or {"a":{"a":...}}.
      let value: unknown = rng.pick(oddStrings);
      for (let i = 0; i < 60; i++) value = rng.int(2) === 0 ? [value] : { a: value };
      return value;
    }
  }
}

type Path = readonly (string | number)[];

/** Every path into a JSON value (the root is []). */
function pathsOf(params: { value: unknown; prefix?: Path }): Path[] {
  const prefix = params.prefix ?? [];
  const out: Path[] = [prefix];
  const { value } = params;
  if (Array.isArray(value)) value.forEach((item, i) => out.push(...pathsOf({ value: item, prefix: [...prefix, i] })));
  else if (typeof value === 'object' && value !== null) for (const [key, item] of Object.entries(value)) out.push(...pathsOf({ value: item, prefix: [...prefix, key] }));
  return out;
}

/** The container holding the value at `path`, and its key; undefined for the root. */
function parentOf(params: { root: unknown; path: Path }): { holder: Record<string | number, unknown>; key: string | number } | undefined {
  const { path } = params;
  if (path.length === 0) return undefined;
  let holder = params.root as Record<string | number, unknown>;
  for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>;
  const key = path[path.length - 1];
  return key === undefined ? undefined : { holder, key };
}

/**
 * A structurally mutated copy of a JSON payload: one to three of null, a wrong type, a missing field, an array for an
 * object (and back), a huge or fractional number, an odd string, nested junk, an extra field.
 */
export function mutateJson(params: { rng: Prng; value: unknown }): unknown {
  const { rng } = params;
  let root: unknown = structuredClone(params.value);
  const count = 1 + rng.int(3);
  for (let n = 0; n < count; n++) {
    const paths = pathsOf({ value: root });
    const path = rng.pick(paths);
    const at = parentOf({ root, path });
    const current = at ? at.holder[at.key] : root;
    let next: unknown;
    let remove = false;
    switch (rng.int(9)) {
      case 0:
        next = null;
        break;
      case 1:
        remove = at !== undefined && !Array.isArray(at.holder);
        next = junk({ rng, depth: 0 });
        break;
      case 2:
        next = typeof current === 'object' && current !== null ? (Array.isArray(current) ? Object.assign({}, current) : Object.values(current)) : [current];
        break;
      case 3:
        next = rng.pick(oddNumbers);
        break;
      case 4:
        next = rng.pick(oddStrings);
        break;
      case 5:
        next = typeof current === 'number' ? String(current) : typeof current === 'string' ? Number(current) || rng.pick(oddNumbers) : rng.int(2) === 0;
        break;
      case 6:
        next = junk({ rng, depth: 3 });
        break;
      case 7:
        next = typeof current === 'object' && current !== null && !Array.isArray(current) ? { ...current, [rng.pick(['type', 'id', 'text', 'extra', 'user', 'from'])]: junk({ rng }) } : junk({ rng });
        break;
      default:
        next = rng.pick([[], {}, [null], '']);
    }
    if (!at) root = next;
    else if (remove) delete at.holder[at.key];
    else at.holder[at.key] = next;
  }
  return root;
}

/** A mutated copy of form fields (all strings, as Twilio posts them): missing, empty, odd or huge values, extra fields. */
export function mutateForm(params: { rng: Prng; fields: Readonly<Record<string, string>> }): Record<string, string> {
  const { rng } = params;
  const out: Record<string, string> = { ...params.fields };
  const count = 1 + rng.int(3);
  for (let n = 0; n < count; n++) {
    const keys = Object.keys(out);
    const key = keys.length > 0 && rng.int(5) > 0 ? rng.pick(keys) : rng.pick(['NumMedia', 'MediaUrl0', 'MediaContentType0', 'MediaUrl9', 'ErrorCode', 'MessageStatus', `X${rng.int(100)}`]);
    switch (rng.int(6)) {
      case 0:
        delete out[key];
        break;
      case 1:
        out[key] = '';
        break;
      case 2:
        out[key] = rng.pick(oddStrings);
        break;
      case 3:
        out[key] = String(rng.pick(oddNumbers));
        break;
      case 4:
        out[key] = rng.pick(['-1', 'NaN', '99999', '1e9', '0x10', ' 3 ', 'http://', 'https://api.twilio.com/../../etc/passwd', 'ftp://x', 'javascript:1']);
        break;
      default:
        out[key] = JSON.stringify(junk({ rng }));
    }
  }
  return out;
}

/** Runs `work` for each of `count` items, `concurrency` at a time, in order of index. */
export async function pool(params: { count: number; concurrency: number; work: (index: number) => Promise<void> }): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < params.count; i = next++) await params.work(i);
  };
  await Promise.all(Array.from({ length: params.concurrency }, () => worker()));
}
