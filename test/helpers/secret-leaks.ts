/**
 * An independent check that a text shows no piece of a secret: no `minLength` consecutive characters of one,
 * read as it is, reversed, with every separator (anything but a letter or digit) taken out, or after decoding
 * each base64/base64url run (at every offset) and each hex run. Returns the first piece found, or undefined.
 */
export function leakedPiece(params: { text: string; secrets: readonly string[]; minLength?: number }): string | undefined {
  const n = params.minLength ?? 8;
  const views = readings({ text: params.text });
  for (const secret of params.secrets) {
    const raw = pieces({ text: secret, n });
    const letters = pieces({ text: alnum(secret), n });
    for (const view of views) {
      const hit = [...raw].find((p) => view.includes(p)) ?? [...letters].find((p) => alnum(view).includes(p));
      if (hit !== undefined) return hit;
    }
  }
  return undefined;
}

/** Every n-character run of `text`. */
function pieces(params: { text: string; n: number }): Set<string> {
  const out = new Set<string>();
  for (let i = 0; i + params.n <= params.text.length; i++) out.add(params.text.slice(i, i + params.n));
  return out;
}

function alnum(text: string): string {
  return text.replace(/[^\p{L}\p{N}]/gu, '');
}

function reverse(text: string): string {
  return [...text].reverse().join('');
}

/** The text, reversed, and its base64 and hex decodings (each also reversed). */
function readings(params: { text: string }): string[] {
  const { text } = params;
  const out = [text];
  for (const run of text.match(/[A-Za-z0-9+/_-]{6,}/g) ?? []) {
    for (let shift = 0; shift < 4; shift++) out.push(Buffer.from(run.slice(shift), 'base64').toString('latin1'));
  }
  for (const run of text.match(/[0-9A-Fa-f](?:(?:[^0-9A-Fa-f\p{L}]|[xX]){0,3}[0-9A-Fa-f])+/gu) ?? []) {
    const digits = run.replace(/[^0-9A-Fa-f]/g, '');
    for (let shift = 0; shift < 2; shift++) out.push(Buffer.from(digits.slice(shift, shift + Math.floor((digits.length - shift) / 2) * 2), 'hex').toString('latin1'));
  }
  return [...out, ...out.map(reverse)];
}
