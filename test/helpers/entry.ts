/**
 * The node arguments that start one of the project's TypeScript files (`src/cli/main.ts`, a helper script) in a child
 * process. Under test/run.mjs the checkout is compiled once (this module is then .js), so the child runs the compiled
 * .js beside it with plain node; from source (a test file run through tsx), the child goes through tsx too.
 */
export function nodeArgsFor(script: string): string[] {
  return compiledRun ? [script.replace(/\.ts$/, '.js')] : ['--import', 'tsx', script];
}

/** True when the tests run compiled (test/run.mjs): this file was loaded as JavaScript. */
const compiledRun = import.meta.url.endsWith('.js');
