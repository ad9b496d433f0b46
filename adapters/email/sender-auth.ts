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

/**
 * Whether the receiving mail server vouches for the From address: an Authentication-Results header from the
 * trusted server (`trustedServer`, or else the topmost header, which the last hop, your own provider, added)
 * with DMARC pass, or DKIM/SPF pass for a domain aligned with the From domain. Without this anyone can put an
 * allowed address in From and talk to the agent. Headers lower down were written by whoever sent the mail and
 * count for nothing.
 */
export function checkSender(params: {
  headerLines: readonly { key: string; line: string }[];
  from: string;
  trustedServer?: string;
}): SenderCheck {
  const fromDomain = domainOf({ value: params.from });
  if (fromDomain === undefined) return { verified: false, reason: 'the mail has no From address' };
  const headers: AuthResults[] = [];
  for (const { key, line } of params.headerLines) {
    if (key.toLowerCase() !== 'authentication-results') continue;
    const parsed = parseAuthResults({ value: line.slice(line.indexOf(':') + 1) });
    if (parsed) headers.push(parsed);
  }
  const trusted = params.trustedServer?.toLowerCase();
  const chosen = trusted === undefined ? headers.slice(0, 1) : headers.filter((h) => h.authservId === trusted);
  if (chosen.length === 0) {
    return {
      verified: false,
      reason: trusted === undefined ? 'no Authentication-Results header (your mail server did not check DKIM/SPF)' : `no Authentication-Results header from ${trusted}`,
    };
  }
  for (const header of chosen) {
    const via = passing({ results: header, fromDomain });
    if (via !== undefined) return { verified: true, via: `${via} by ${header.authservId}` };
  }
  const seen = chosen.flatMap((h) => h.results.map((r) => `${r.method}=${r.result}`)).join(' ') || 'no results';
  return { verified: false, reason: `${fromDomain} is not authenticated by ${chosen[0]?.authservId ?? 'the mail server'} (${seen})` };
}
