// Passes node's TAP output through line by line and, before the closing summary, lists the failed tests again.
//
// CI shows only the end of a run's output; on a suite of ~1,900 tests a failure's own `not ok` block is far above it.
// So the summary lines (`# tests`, `# pass`, `# fail`, …) are held back while the stream runs, and at its end each
// failed test (not the suites and files that fail only because a test inside them did) is printed as a TAP comment
// with its location and the first line of its error, followed by the summary. The stream stays valid TAP.
import { createInterface } from 'node:readline';

const SUMMARY = /^# (tests|suites|pass|fail|cancelled|skipped|todo|duration_ms) /;
const NOT_OK = /^(\s*)not ok \d+ - (.*)$/;

/**
 * Copies `input` (a readable TAP stream) to `output`, holding the summary back; resolves when the input ends, after
 * writing the recap and the summary.
 * @param {{ input: NodeJS.ReadableStream, output: NodeJS.WritableStream }} params
 * @returns {Promise<void>}
 */
export async function passWithRecap(params) {
  /** @type {string[]} */
  const summary = [];
  /** @type {{ name: string, location: string, error: string }[]} */
  const failed = [];
  /** The `not ok` whose YAML block is being read, with the indent its block's lines start at. */
  let open = null;
  for await (const line of createInterface({ input: params.input, crlfDelay: Infinity })) {
    if (SUMMARY.test(line)) {
      summary.push(line);
      continue;
    }
    params.output.write(`${line}\n`);
    const notOk = NOT_OK.exec(line);
    if (notOk) {
      open = { indent: `${notOk[1]}  `, name: notOk[2], location: '', error: '', parent: false };
      continue;
    }
    if (!open) continue;
    if (line === `${open.indent}...`) {
      if (!open.parent) failed.push({ name: open.name, location: open.location, error: open.error });
      open = null;
      continue;
    }
    const field = line.slice(open.indent.length);
    if (open.error === '|-') open.error = field.trim();
    else if (field.startsWith("failureType: 'subtestsFailed'")) open.parent = true;
    else if (field.startsWith('location: ')) open.location = field.slice('location: '.length).replace(/^'|'$/g, '');
    else if (field.startsWith('error: ') && !open.error) open.error = field.slice('error: '.length).replace(/^'|'$/g, '');
  }
  if (failed.length > 0) {
    params.output.write(`# ${failed.length} failed test${failed.length === 1 ? '' : 's'} (each block is above):\n`);
    for (const f of failed) {
      params.output.write(`#   ${f.name}\n#     at ${f.location || 'an unknown place'}\n`);
      if (f.error) params.output.write(`#     ${f.error.slice(0, 300)}\n`);
    }
  }
  for (const line of summary) params.output.write(`${line}\n`);
}
