/** How much a mail's From address is to be believed. */
export type SenderCheck =
  | { readonly verified: true; readonly via: string }
  | { readonly verified: false; readonly reason: string };

/** One method's result in an Authentication-Results header ("dkim=pass header.d=example.com"). */
interface MethodResult {
  readonly method: string;
  readonly result: string;
  readonly props: ReadonlyMap<string, string>;
}

/** One parsed Authentication-Results header (RFC 8601). */
interface AuthResults {
  readonly authservId: string;
  readonly results: readonly MethodResult[];
}

/** Removes RFC 5322 comments ("(google.com: domain of ...)"), nested ones included, and unfolds lines. */
function withoutComments(params: { value: string }): string {
  let out = '';
  let depth = 0;
  for (const char of params.value.replace(/\r?\n[ \t]+/g, ' ')) {
    if (char === '(') depth += 1;
    else if (char === ')' && depth > 0) depth -= 1;
    else if (depth === 0) out += char;
  }
  return out;
}

/** Parses the value of one Authentication-Results header; undefined when it has no authserv-id. */
export function parseAuthResults(params: { value: string }): AuthResults | undefined {
  const [head, ...parts] = withoutComments({ value: params.value }).split(';');
  const authservId = head?.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  if (authservId === '') return undefined;
  const results: MethodResult[] = [];
  for (const part of parts) {
    const [first, ...rest] = part.trim().split(/\s+/);
    const match = /^([a-z0-9_-]+)(?:\/[0-9]+)?=([a-z]+)$/i.exec(first ?? '');
    if (!match) continue;
    const props = new Map<string, string>();
    for (const token of rest) {
      const eq = token.indexOf('=');
      if (eq > 0) props.set(token.slice(0, eq).toLowerCase(), token.slice(eq + 1).replace(/^"|"$/g, '').toLowerCase());
    }
    results.push({ method: (match[1] ?? '').toLowerCase(), result: (match[2] ?? '').toLowerCase(), props });
  }
  return { authservId, results };
}

/** The domain part of an address or of a DKIM identity ("@example.com"). */
function domainOf(params: { value: string | undefined }): string | undefined {
  const value = params.value?.trim().toLowerCase();
  if (!value) return undefined;
  const at = value.lastIndexOf('@');
  const domain = (at === -1 ? value : value.slice(at + 1)).replace(/\.$/, '');
  return domain === '' ? undefined : domain;
}

/**
 * Relaxed alignment (DMARC): the authenticated domain and the From domain are the same, or one is a
 * subdomain of the other. (The organizational-domain rule needs the public suffix list; this is the safe subset.)
 */
function aligned(params: { authenticated: string | undefined; from: string }): boolean {
  const { authenticated, from } = params;
  if (authenticated === undefined) return false;
  return authenticated === from || from.endsWith(`.${authenticated}`) || authenticated.endsWith(`.${from}`);
}

/** Why one header's results authenticate the From domain, or undefined when they do not. */
function passing(params: { results: AuthResults; fromDomain: string }): string | undefined {
  const { results, fromDomain } = params;
  for (const r of results.results) {
    if (r.method === 'dmarc' && r.result === 'pass' && aligned({ authenticated: domainOf({ value: r.props.get('header.from') }) ?? fromDomain, from: fromDomain })) return 'dmarc=pass';
  }
  for (const r of results.results) {
    if (r.method !== 'dkim' || r.result !== 'pass') continue;
    const signer = domainOf({ value: r.props.get('header.d') ?? r.props.get('header.i') });
    if (aligned({ authenticated: signer, from: fromDomain })) return `dkim=pass (${signer ?? ''})`;
  }
  for (const r of results.results) {
    if (r.method !== 'spf' || r.result !== 'pass') continue;
    const envelope = domainOf({ value: r.props.get('smtp.mailfrom') ?? r.props.get('smtp.helo') });
    if (aligned({ authenticated: envelope, from: fromDomain })) return `spf=pass (${envelope ?? ''})`;
  }
  return undefined;
}

/** Whether one header says the From domain failed DMARC (the server's own verdict, which a pass elsewhere cannot undo). */
function failsDmarc(params: { results: AuthResults; fromDomain: string }): boolean {
  const { results, fromDomain } = params;
  return results.results.some(
    (r) => r.method === 'dmarc' && r.result === 'fail' && aligned({ authenticated: domainOf({ value: r.props.get('header.from') }) ?? fromDomain, from: fromDomain }),
  );
}

/** The Authentication-Results headers whose verdict counts, or why none does. */
type Counted = { readonly headers: readonly AuthResults[] } | { readonly none: string };

/** Header fields a message is written with (RFC 5322 section 3.6, MIME): receiving servers add trace fields above them, never these. */
const ORIGINATION_FIELDS: ReadonlySet<string> = new Set([
  'from', 'sender', 'reply-to', 'to', 'cc', 'bcc', 'date', 'message-id', 'in-reply-to', 'references', 'subject', 'mime-version', 'content-type',
]);

/** An Authentication-Results field (parsed, or undefined when it has no authserv-id), or a field that ends a run of them. */
type Field = { readonly kind: 'auth'; readonly parsed: AuthResults | undefined } | { readonly kind: 'origination' };

/**
 * The headers that count (RFC 8601 section 5: each MTA adds its header at the top, so only the headers your own
 * server added, above everything the sender wrote, can be believed). With `trusted`: the topmost contiguous run of
 * Authentication-Results headers with that authserv-id. It must start at the topmost Authentication-Results header
 * and ends at a gap: one from another server, one without an authserv-id, or a field the message was written with
 * (From, Subject, ...: what follows is the sender's). Headers with the trusted id below a gap are ignored. Trace
 * fields between them (Received, DKIM-Filter, ...) are no gap: real servers interleave them. Without `trusted`,
 * only the topmost header counts, as before (no id to tell a run from the sender's headers right below it).
 */
function countedHeaders(params: { headerLines: readonly { key: string; line: string }[]; trusted: string | undefined }): Counted {
  const { trusted } = params;
  const fields: Field[] = [];
  for (const { key, line } of params.headerLines) {
    const name = key.toLowerCase();
    if (name === 'authentication-results') fields.push({ kind: 'auth', parsed: parseAuthResults({ value: line.slice(line.indexOf(':') + 1) }) });
    else if (ORIGINATION_FIELDS.has(name)) fields.push({ kind: 'origination' });
  }
  const auth = fields.flatMap((f) => (f.kind === 'auth' ? [f.parsed] : []));
  if (trusted === undefined) {
    const top = auth.find((f) => f !== undefined);
    return top === undefined ? { none: 'no Authentication-Results header (your mail server did not check DKIM/SPF)' } : { headers: [top] };
  }
  const run: AuthResults[] = [];
  const topmost = fields.findIndex((f) => f.kind === 'auth');
  for (const field of topmost === -1 ? [] : fields.slice(topmost)) {
    if (field.kind === 'origination' || field.parsed === undefined || field.parsed.authservId !== trusted) break;
    run.push(field.parsed);
  }
  if (run.length > 0) return { headers: run };
  if (!auth.some((f) => f?.authservId === trusted)) return { none: `no Authentication-Results header from ${trusted}` };
  const top = auth[0]?.authservId ?? 'a header without an authserv-id';
  return { none: `the topmost Authentication-Results header is from ${top}, not ${trusted}; headers from ${trusted} below it were not added by your server` };
}

/**
 * The counted headers with each method (dkim, spf, dmarc, ...) kept only from the topmost header that reports it:
 * the top one is always the server's own, but a forged header with its id can sit right below it (nothing tells
 * them apart), so a lower header may add a method the ones above did not report, never overturn one they did.
 */
function firstPerMethod(params: { headers: readonly AuthResults[] }): AuthResults[] {
  const reported = new Set<string>();
  return params.headers.map((header) => {
    const results = header.results.filter((r) => !reported.has(r.method));
    for (const r of header.results) reported.add(r.method);
    return { authservId: header.authservId, results };
  });
}

/**
 * Whether the receiving mail server vouches for the From address: the Authentication-Results headers that count
 * (see `countedHeaders`: the trusted server's topmost run, or else the topmost header, which the last hop, your
 * own provider, added; per method only the topmost header reporting it) have DMARC pass, or DKIM/SPF pass for a domain aligned with the From domain, and none of
 * them says DMARC fail for it. Without this anyone can put an allowed address in From and talk to the agent.
 * Headers lower down were written by whoever sent the mail and count for nothing.
 */
export function checkSender(params: {
  headerLines: readonly { key: string; line: string }[];
  from: string;
  trustedServer?: string;
}): SenderCheck {
  const fromDomain = domainOf({ value: params.from });
  if (fromDomain === undefined) return { verified: false, reason: 'the mail has no From address' };
  const counted = countedHeaders({ headerLines: params.headerLines, trusted: params.trustedServer?.toLowerCase() });
  if ('none' in counted) return { verified: false, reason: counted.none };
  const chosen = firstPerMethod({ headers: counted.headers });
  const failed = chosen.some((header) => failsDmarc({ results: header, fromDomain }));
  for (const header of failed ? [] : chosen) {
    const via = passing({ results: header, fromDomain });
    if (via !== undefined) return { verified: true, via: `${via} by ${header.authservId}` };
  }
  const seen = chosen.flatMap((h) => h.results.map((r) => `${r.method}=${r.result}`)).join(' ') || 'no results';
  return { verified: false, reason: `${fromDomain} is not authenticated by ${chosen[0]?.authservId ?? 'the mail server'} (${seen})` };
}
