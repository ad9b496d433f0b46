// A process that writes the memory files, for the crash and concurrency tests.
//   rounds DIR      replace the "gen=" entry of MEMORY.md with the next generation, forever; prints "wrote N" after each
//   adds DIR TAG N  print "ready", wait for a line on stdin, add entries TAG-1 … TAG-N to MEMORY.md one by one, exit
import { MemoryFiles } from '../../src/memory/files.js';
import { systemClock } from '../../src/core/clock.js';
import { generationOf, generationText } from './memory-generations.js';

const [mode, dir, tag, count] = process.argv.slice(2);
if (dir === undefined) throw new Error('usage: memory-writer.ts rounds|adds DIR [TAG N]');
const files = new MemoryFiles({
  memoriesDir: dir,
  settings: { memoryEnabled: true, userEnabled: true, memoryCharLimit: 10_000_000, userCharLimit: 10_000_000 },
  containsSecret: () => false,
  clock: systemClock,
  lock: { waitMs: 60_000, staleMs: 30_000 },
});
const signal = new AbortController().signal;

if (mode === 'rounds') {
  let generation = files.read({ target: 'memory' }).entries.map((entry) => generationOf({ entry })).find((g) => g !== undefined) ?? 0;
  process.stdout.write('ready\n');
  for (;;) {
    const next = generation + 1;
    await files.write({ action: 'replace', target: 'memory', oldText: 'gen=', content: generationText({ generation: next }), signal });
    generation = next;
    process.stdout.write(`wrote ${generation}\n`);
  }
} else if (mode === 'adds' && tag !== undefined && count !== undefined) {
  process.stdout.write('ready\n');
  await new Promise<void>((resolve) => process.stdin.once('data', () => resolve()));
  process.stdin.pause();
  for (let i = 1; i <= Number(count); i++) await files.write({ action: 'add', target: 'memory', content: `${tag}-${i}`, signal });
  process.stdout.write('done\n');
} else {
  throw new Error(`unknown mode ${String(mode)}`);
}
