/** A line that opens or closes a ``` code fence (at most three spaces of indentation, as in CommonMark). */
const FENCE_LINE = /^ {0,3}```/;
/** A line that can close an open fence: backticks only, no info string. */
const CLOSING_FENCE_LINE = /^ {0,3}```+[ \t]*$/;

/** The fence state after `line` (without its line break): the open fence's line, or null when outside a fence. */
export function nextFenceState(params: { line: string; open: string | null }): string | null {
  const line = params.line.replace(/\r$/, '');
  if (params.open !== null) return CLOSING_FENCE_LINE.test(line) ? null : params.open;
  return FENCE_LINE.test(line) ? line.trim() : null;
}

/** True when `line` (without its line break) would close an open fence. */
export function isClosingFence(params: { line: string }): boolean {
  return CLOSING_FENCE_LINE.test(params.line.replace(/\r$/, ''));
}

/** The fence state at the end of `text`, starting from `open`. */
export function fenceStateAfter(params: { text: string; open: string | null }): string | null {
  let open = params.open;
  for (const line of params.text.split('\n')) open = nextFenceState({ line, open });
  return open;
}
