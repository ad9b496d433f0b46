import { readdirSync, readFileSync } from 'node:fs';
import { classifyCommand } from '../src/tools/approval/classify-command.js';

// Dangerous-command classification cost (src/tools/approval/): `node --import tsx bench/classify-command.ts`.
// classifyCommand runs on the gateway's event loop for every terminal call, so crafted input must not stall it.
// Prints the CPU time of one call (process.cpuUsage, user + system: time the process is scheduled out on a shared
// machine does not count; the best of `BENCH_CLASSIFY_RUNS` calls, default 7, after a warm-up call) for each input
// shape at 1, 4, 16 and 64 KiB (the scan cap), and its ratio to a 1 KiB plain command; asserts nothing.

/** An input shape: a name and a command of about `bytes` characters. */
interface Shape {
  name: string;
  make: (bytes: number) => string;
}

/** `unit` repeated until the string is `bytes` long (cut to length). */
const fill = (unit: string, bytes: number): string => unit.repeat(Math.ceil(bytes / unit.length)).slice(0, bytes);

/** A shell heredoc of about `bytes` characters: a config file written by cat, then a few commands. */
function heredoc(bytes: number): string {
  const body = fill('server_name example.org; listen 443 ssl; root /srv/www/$HOST; # "quoted" `tick` $(x)\n', bytes - 120);
  return `cat > /tmp/site.conf <<'EOF'\n${body}\nEOF\nnginx -t && systemctl reload nginx`;
}

/** This repository's TypeScript sources (quotes, template literals, regexes, apostrophes in comments), concatenated. */
const SOURCE = ((): string => {
  const dir = new URL('../src/tools/builtin/', import.meta.url);
  let text = '';
  for (const name of readdirSync(dir).sort()) {
    if (name.endsWith('.ts') && text.length < 64 * 1024) text += readFileSync(new URL(name, dir), 'utf8');
  }
  return text;
})();

/** The agent writing a source file with a quoted heredoc, as it does to create a file, then compiling it. */
const sourceHeredoc = (bytes: number): string => `cat > /tmp/tool.ts <<'EOF'\n${SOURCE.repeat(2).slice(0, bytes - 60)}\nEOF\nnpx tsc --noEmit /tmp/tool.ts`;

const SHAPES: readonly Shape[] = [
  { name: 'plain: git log | grep …; ls -la', make: (b) => fill('git log --oneline | grep -i fix; ls -la src && echo done\n', b) },
  { name: "'$('.repeat(n)", make: (b) => fill('$(', b) },
  { name: "'rm ' + '-r '.repeat(n)", make: (b) => `rm ${fill('-r ', b - 3)}` },
  { name: "'a | '.repeat(n)", make: (b) => fill('a | ', b) },
  { name: `'"a" '.repeat(n)`, make: (b) => fill('"a" ', b) },
  { name: "'echo $(' nested, closed", make: (b) => `${fill('echo $(', b / 2)}${fill(')', b / 2)}` },
  { name: "'`' backticks", make: (b) => fill('a`', b) },
  { name: "'a;'.repeat(n)", make: (b) => fill('a;', b) },
  { name: "'sh -c ' nested quotes", make: (b) => fill(`sh -c "sh -c 'sh -c eval `, b) },
  { name: "'eval '.repeat(n)", make: (b) => fill('eval ', b) },
  { name: "'('.repeat(n)", make: (b) => fill('(', b) },
  { name: "'echo rm | sh | '.repeat(n)", make: (b) => fill('echo rm | sh | ', b) },
  { name: "'{'.repeat(n) unmatched braces", make: (b) => fill('{a,', b) },
  { name: "'{a,b}'.repeat(n) brace groups", make: (b) => `echo ${fill('{a,b}', b - 5)}` },
  { name: 'heredoc (config file)', make: heredoc },
  { name: 'heredoc (TypeScript source)', make: sourceHeredoc },
];

const SIZES = [1024, 4 * 1024, 16 * 1024, 64 * 1024];
const runs = Number.parseInt(process.env['BENCH_CLASSIFY_RUNS'] ?? '7', 10);

/** The least CPU time in ms of `runs` classifications of `command`, after one warm-up call. */
function measure(command: string): number {
  classifyCommand({ command });
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const start = process.cpuUsage();
    classifyCommand({ command });
    const used = process.cpuUsage(start);
    best = Math.min(best, (used.user + used.system) / 1000);
  }
  return best;
}

const plain = SHAPES[0]?.make(1024) ?? '';
const reference = Math.min(measure(plain), measure(plain), measure(plain));
console.log(`node ${process.version}, CPU ms per call, best of ${runs}; ×ratio to the 1 KiB plain command (${reference.toFixed(3)} ms)`);
console.log(`${'shape'.padEnd(34)}${SIZES.map((s) => `${s / 1024} KiB`.padStart(20)).join('')}`);
for (const shape of SHAPES) {
  const cells = SIZES.map((size) => {
    const ms = measure(shape.make(size));
    return `${ms.toFixed(2)} ms ×${(ms / reference).toFixed(0)}`.padStart(20);
  });
  console.log(`${shape.name.padEnd(34)}${cells.join('')}`);
}
