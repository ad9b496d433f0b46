import { createHash, timingSafeEqual } from 'node:crypto';

/** What an Authorization header gave: the index of the key it names, or why not. */
export type KeyCheck = { readonly kind: 'ok'; readonly index: number } | { readonly kind: 'missing' } | { readonly kind: 'wrong' };

/** SHA-256 of a key: equal-length digests, so comparing them takes the same time whatever the key's length. */
function digest(params: { text: string }): Buffer {
  return createHash('sha256').update(params.text, 'utf8').digest();
}

/**
 * The configured API keys, compared in constant time: a presented key is hashed and compared with every configured
 * key's hash (no early exit), so neither its content nor which key it matched shows in the answer's timing.
 */
export class ApiKeys {
  private readonly digests: readonly Buffer[];

  constructor(params: { keys: readonly string[] }) {
    this.digests = params.keys.map((text) => digest({ text }));
  }

  /** Checks an `Authorization: Bearer <key>` header value. */
  check(params: { header: string | undefined }): KeyCheck {
    const match = /^\s*Bearer\s+(\S+)\s*$/i.exec(params.header ?? '');
    const presented = match?.[1];
    if (presented === undefined) return { kind: 'missing' };
    const given = digest({ text: presented });
    let found = -1;
    for (const [index, known] of this.digests.entries()) {
      if (timingSafeEqual(given, known) && found < 0) found = index;
    }
    return found < 0 ? { kind: 'wrong' } : { kind: 'ok', index: found };
  }
}
