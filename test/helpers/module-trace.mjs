// `node --import ./test/helpers/module-trace.mjs …`: writes every module file the process loads (ES modules through a
// load hook, CommonJS through Module._load), one path per line, to MODULE_TRACE_FILE when it exits. For the test that
// a profile loads only what it uses (test/e2e/lazy-modules.test.ts). Plain JavaScript: it runs before tsx could.
// The first Intl.DateTimeFormat the process makes is noted too, as the line `intl:DateTimeFormat` (the first one
// loads ICU's zone data: ~8 MB of RSS).
import { appendFileSync, writeFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { MessageChannel } from 'node:worker_threads';

const out = process.env['MODULE_TRACE_FILE'];
if (out) {
  writeFileSync(out, '');
  const seen = new Set();
  const note = (file) => {
    if (seen.has(file)) return;
    seen.add(file);
    appendFileSync(out, `${file}\n`);
  };
  const Module = createRequire(import.meta.url)('node:module');
  const load = Module._load;
  Module._load = function traced(request, parent, isMain) {
    try {
      note(Module._resolveFilename(request, parent, isMain));
    } catch {
      note(request);
    }
    return load.apply(this, [request, parent, isMain]);
  };
  const DateTimeFormat = Intl.DateTimeFormat;
  const tracedFormat = function TracedDateTimeFormat(...args) {
    note('intl:DateTimeFormat');
    return new DateTimeFormat(...args);
  };
  tracedFormat.prototype = DateTimeFormat.prototype;
  tracedFormat.supportedLocalesOf = DateTimeFormat.supportedLocalesOf.bind(DateTimeFormat);
  Intl.DateTimeFormat = tracedFormat;
  const { port1, port2 } = new MessageChannel();
  port1.on('message', (url) => note(String(url)));
  port1.unref();
  const hooks = `export let port; export function initialize(data) { port = data.port; }
export async function load(url, context, next) { port.postMessage(url); return next(url, context); }`;
  register(`data:text/javascript,${encodeURIComponent(hooks)}`, { data: { port: port2 }, transferList: [port2] });
}
