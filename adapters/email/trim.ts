/** A line that introduces quoted history ("On Mon, 1 Jan 2024, Alice <a@b.c> wrote:"), in a few languages. */
const attribution = /^(?:on|am|le|el|il|op|den|em)\s.*(?:wrote|schrieb|a écrit|escribió|ha scritto|schreef|skrev|escreveu)(?:\s.*)?:\s*$/i;
/** The first half of an attribution a client wrapped onto two lines. */
const attributionStart = /^(?:on|am|le|el|il|op|den|em)\s.{4,}$/i;
/** The second half of a wrapped attribution. */
const attributionEnd = /^.*(?:wrote|schrieb|a écrit|escribió|ha scritto|schreef|skrev|escreveu)(?:\s.*)?:\s*$/i;
/** Outlook's and others' markers for the start of the original message. */
const originalMarker = /^(?:-{2,}\s*(?:original message|ursprüngliche nachricht|message d'origine|mensaje original|messaggio originale)\s*-{2,}|_{10,})\s*$/i;
/** A forwarded-header block as Outlook writes it below its separator. */
const outlookHeader = /^(?:from|von|de|da):\s.+$/i;
/** The conventional signature separator ("-- ", some clients drop the space). */
const signature = /^-- ?$/;

/**
 * The new part of a reply: quoted history (an "On ... wrote:" line and everything after it, Outlook's
 * "-----Original Message-----" block, "> " lines) and the signature (from a "-- " line) are cut off.
 * Text that is nothing but a quote is kept as it was, so a message is never emptied by trimming alone.
 */
export function trimReply(params: { text: string }): string {
  const lines = params.text.replace(/\r\n?/g, '\n').split('\n');
  const kept: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? '';
    const trimmed = line.trim();
    if (signature.test(line.trimEnd()) || originalMarker.test(trimmed)) break;
    if (attribution.test(trimmed)) break;
    if (attributionStart.test(trimmed) && attributionEnd.test(lines[i + 1]?.trim() ?? '') && !attributionStart.test(lines[i + 1]?.trim() ?? '')) break;
    if (outlookHeader.test(trimmed) && kept.length > 0 && kept[kept.length - 1]?.trim() === '' && /^(?:sent|gesendet|envoyé|enviado|inviato|date|to|an|à|para|a):\s/i.test(lines[i + 1]?.trim() ?? '')) break;
    if (/^>/.test(line)) continue;
    kept.push(line);
  }
  const result = kept.join('\n').trim();
  return result === '' ? params.text.trim() : result;
}
