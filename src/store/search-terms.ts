/** The words of a search query, folded the way the FTS5 tokenizer folds them (unicode61, remove_diacritics 2). */

/** One word of a query; `prefix` when it was written `word*`. */
export interface QueryTerm {
  readonly text: string;
  readonly prefix: boolean;
}

/** FTS5 operators, which are not words to look for. */
const operators = new Set(['AND', 'OR', 'NOT', 'NEAR']);

/** Lower case without diacritics, as unicode61 with remove_diacritics 2 compares text. */
export function foldText(params: { text: string }): string {
  return params.text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

/** The words a query looks for (operators, column filters and syntax left out), deduplicated, in query order. */
export function queryTerms(params: { query: string }): QueryTerm[] {
  const seen = new Set<string>();
  const terms: QueryTerm[] = [];
  const pattern = /([\p{L}\p{N}]+)(\*?)(:?)/gu;
  for (const match of params.query.matchAll(pattern)) {
    const word = match[1] ?? '';
    if (match[3] === ':' || operators.has(word)) continue;
    const text = foldText({ text: word });
    for (const part of text.split(/[^\p{L}\p{N}]+/u)) {
      if (part === '') continue;
      const prefix = match[2] === '*';
      const id = `${part}${prefix ? '*' : ''}`;
      if (seen.has(id)) continue;
      seen.add(id);
      terms.push({ text: part, prefix });
    }
  }
  return terms;
}

/** The words of a text as the tokenizer sees them (folded, split on anything that is not a letter or digit). */
export function textTokens(params: { text: string }): string[] {
  return foldText({ text: params.text }).split(/[^\p{L}\p{N}]+/u).filter((token) => token !== '');
}

/** Whether a folded token is what `term` looks for. */
export function tokenMatches(params: { token: string; term: QueryTerm }): boolean {
  return params.term.prefix ? params.token.startsWith(params.term.text) : params.token === params.term.text;
}

/** Turns free text into an FTS5 query that cannot be a syntax error: each term becomes a quoted phrase. */
export function quoteTerms(params: { query: string }): string {
  return params.query
    .split(/\s+/)
    .filter((term) => term.length > 0)
    .map((term) => `"${term.replaceAll('"', '""')}"`)
    .join(' ');
}
