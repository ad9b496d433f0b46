/** C0 control characters but line feed and tab, DEL, and the C1 controls: what starts or ends a terminal escape sequence. */
// eslint-disable-next-line no-control-regex -- control characters are what this removes
const controls = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/**
 * Text from the model or a tool, fit to write to a terminal: its control characters are removed (an ESC or CSI that
 * would start an escape sequence: clearing the screen, setting the clipboard or the window title, moving the cursor
 * over what the chat drew), carriage returns become line breaks; line breaks and tabs stay.
 */
export function terminalSafe(params: { text: string }): string {
  return params.text.replace(/\r\n?/g, '\n').replace(controls, '');
}
