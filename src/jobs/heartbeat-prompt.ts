/** The answer that means "nothing needs attention"; never delivered. */
export const HEARTBEAT_OK = 'HEARTBEAT_OK';

/** The heartbeat's turn text: the HEARTBEAT.md checklist, framed, with the exact answer for "nothing to report". */
export function heartbeatPrompt(params: { checklist: string }): string {
  return [
    '[Heartbeat] This is a scheduled check-in, not a message from the user. Go through the checklist below (from',
    'HEARTBEAT.md) using your tools as needed. If something needs the user\'s attention, write the short message they',
    `should get. If nothing needs attention, answer exactly ${HEARTBEAT_OK} and nothing else: that answer is not sent.`,
    '',
    '<checklist>',
    params.checklist.trim(),
    '</checklist>',
  ].join('\n');
}

/**
 * True when a heartbeat answer means "nothing needs attention": HEARTBEAT_OK after trimming, tolerant of case, a
 * trailing period or exclamation mark, and markdown around it (bold, italics, code, a quote); anything more is a
 * message to deliver.
 */
export function isHeartbeatOk(text: string): boolean {
  return /^[\s*_`~>"']*heartbeat[_ ]ok[\s*_`~"'.!]*$/i.test(text);
}
