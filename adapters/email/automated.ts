/** Local parts of addresses that only ever send machine mail. */
const robotLocalPart = /^(?:no[-_.]?reply|do[-_.]?not[-_.]?reply|mailer[-_.]daemon|postmaster|bounces?)(?:[-_.+].*)?$/i;

/** The raw headers of a mail by lowercase name (first occurrence), values unfolded. */
export type RawHeaders = ReadonlyMap<string, string>;

/** Reads raw header lines ("Name: value", possibly folded) into a map by lowercase name. */
export function rawHeaders(params: { lines: readonly { key: string; line: string }[] }): RawHeaders {
  const map = new Map<string, string>();
  for (const { key, line } of params.lines) {
    const name = key.toLowerCase();
    if (map.has(name)) continue;
    const colon = line.indexOf(':');
    map.set(name, (colon === -1 ? '' : line.slice(colon + 1)).replace(/\r?\n[ \t]+/g, ' ').trim());
  }
  return map;
}

/**
 * Why a mail must never be answered (it was sent by a machine, a list, or the bot itself), or undefined for
 * mail a person wrote. Answering such mail is how reply loops and list spam start (RFC 3834).
 */
export function automatedReason(params: { headers: RawHeaders; from: string; ownAddress: string }): string | undefined {
  const { headers } = params;
  const from = params.from.trim().toLowerCase();
  if (from === '') return 'no sender address';
  if (from === params.ownAddress.trim().toLowerCase()) return 'sent by this bot';
  const autoSubmitted = headers.get('auto-submitted');
  if (autoSubmitted !== undefined && autoSubmitted.split(';')[0]?.trim().toLowerCase() !== 'no') return `Auto-Submitted: ${autoSubmitted}`;
  const precedence = headers.get('precedence')?.trim().toLowerCase();
  if (precedence === 'bulk' || precedence === 'list' || precedence === 'junk' || precedence === 'auto_reply') return `Precedence: ${precedence}`;
  // RFC 3834 §2: never answer mail with a null return path (bounces, delivery and read notifications).
  if (/^<\s*>$/.test(headers.get('return-path') ?? '')) return 'a bounce or notification (Return-Path: <>)';
  if (/^multipart\/report\b/i.test(headers.get('content-type') ?? '')) return 'a delivery or read report (multipart/report)';
  if (headers.has('list-unsubscribe')) return 'a mailing list (List-Unsubscribe)';
  if (headers.has('list-id')) return 'a mailing list (List-Id)';
  if (headers.has('x-autoreply') || headers.has('x-autorespond')) return 'an auto-reply (X-Autoreply)';
  const localPart = from.slice(0, from.lastIndexOf('@'));
  if (robotLocalPart.test(localPart)) return `a machine sender (${from})`;
  return undefined;
}
