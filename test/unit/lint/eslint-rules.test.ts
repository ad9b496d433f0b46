import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ESLint, type Linter } from 'eslint';

/** The project's eslint rules (`npm run lint`), run on a small tree of deliberately wrong files. */
describe('eslint rules (scripts/lint/eslint.config.js)', () => {
  let root = '';
  let found: Map<string, string[]>;

  /** A function of exactly `lines` lines. */
  const longFunction = (lines: number): string => `export function long(): number {\n  let n = 0;\n${'  n += 1;\n'.repeat(lines - 4)}  return n;\n}\n`;

  const files: Readonly<Record<string, string>> = {
    'src/clean.ts': 'export async function fetchOne(): Promise<number> {\n  return Promise.resolve(1);\n}\nexport async function caller(): Promise<number> {\n  return fetchOne();\n}\n',
    'src/any.ts': 'export function loose(value: any): string {\n  return String(value);\n}\n',
    'src/floating.ts': 'async function work(): Promise<void> {\n  await Promise.resolve();\n}\nexport function caller(): void {\n  work();\n}\n',
    'src/misused.ts': "import { EventEmitter } from 'node:events';\nexport function listen(emitter: EventEmitter): void {\n  emitter.on('x', async () => {\n    await Promise.resolve();\n  });\n}\n",
    'src/long-function.ts': longFunction(81),
    'src/fits.ts': longFunction(80),
    'src/long-file.ts': Array.from({ length: 401 }, (_, i) => `export const v${i} = ${i};`).join('\n') + '\n',
  };

  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'hermes-eslint-'));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    }
    writeFileSync(
      path.join(root, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, skipLibCheck: true, types: ['node'], typeRoots: [path.resolve('node_modules/@types')] }, include: ['src/**/*.ts'] }),
    );
    // Loaded by URL: the config is plain JavaScript, with no declarations for the type checker.
    const configUrl = new URL('../../../scripts/lint/eslint.config.js', import.meta.url).href;
    const config = (await import(configUrl)) as { default: Linter.Config[] };
    // The project's config with the tree's own folder as the base and its own tsconfig as the program.
    const ownProgram: Linter.Config = { languageOptions: { parserOptions: { project: ['tsconfig.json'], tsconfigRootDir: root } } };
    const eslint = new ESLint({ cwd: root, overrideConfigFile: true, baseConfig: [...config.default, ownProgram] });
    const results = await eslint.lintFiles(['src']);
    found = new Map(results.map((r) => [path.relative(root, r.filePath), r.messages.map((m) => m.ruleId ?? `fatal: ${m.message}`)]));
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('a clean file and a function of exactly 80 lines pass', () => {
    assert.deepEqual(found.get('src/clean.ts'), []);
    assert.deepEqual(found.get('src/fits.ts'), []);
  });

  test('an explicit any is refused', () => {
    assert.deepEqual(found.get('src/any.ts'), ['@typescript-eslint/no-explicit-any']);
  });

  test('a floating promise and a promise where a callback returns void are refused (type-checked rules)', () => {
    assert.deepEqual(found.get('src/floating.ts'), ['@typescript-eslint/no-floating-promises']);
    assert.deepEqual(found.get('src/misused.ts'), ['@typescript-eslint/no-misused-promises']);
  });

  test('a function over 80 lines and a file over 400 lines are refused', () => {
    assert.deepEqual(found.get('src/long-function.ts'), ['max-lines-per-function']);
    assert.deepEqual(found.get('src/long-file.ts'), ['max-lines']);
  });
});
