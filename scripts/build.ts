// `npm run build`: the `hermes` CLI bundled with esbuild into dist/ (entry dist/src/cli/main.js, the package's bin).
// ESM with code splitting, so each command's modules still load only when it runs (the dynamic imports in
// src/cli/program.ts become chunks). Bundled: our own code, the small pure-JS packages the everyday commands load
// (commander, zod, yaml, dotenv, croner, vfile), the four every gateway start loads (openai, fastify, grammy, pino),
// and the Discord, Slack, email and Twilio SDKs with the mail parser and composer and Slack's Markdown converter: a few
// files instead of ~900, which cut the CPU of a Telegram gateway's start by about a third (resolving and reading each
// file of a package costs more than compiling it; bench/README "Start-up"), and the five-platform start by ~0.5 s and
// ~10 MB (one copy of what the SDKs share: pino, iconv-lite, libmime; bench/README, issue 27's fourth session). Each
// platform's code still loads only when a profile enables it (its adapter is a dynamic import, so a chunk of its own);
// test/e2e/built-platforms runs the built gateway on all five. zod without its 1.6 MB of unused locales, yaml from its
// ESM build (tree-shaken). Every other package stays external, loaded from node_modules: the native ones
// (better-sqlite3, node-pty) and the lazily loaded ones (gpt-tokenizer, prom-client, pino-pretty, whose worker-thread
// transports pino is never asked for). A package that an external one and a bundled one both use loads twice
// (test/e2e/built-platforms fails then): twilio and slackify-markdown are bundled for semver, debug and unist's
// helpers. Type checking is `npm run typecheck` (part of `npm test`); tsc no longer emits anything. The entry starts
// with the launcher of src/cli/node-flags.ts (node with the project's V8 options and malloc settings) instead of a node
// hashbang.
// `--outDir DIR` writes elsewhere (test/e2e/install.test.ts builds into a copy of the package).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { launcherLines } from '../src/cli/node-flags.js';
import { isMain } from '../src/util/is-main.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The packages bundled into dist/; every other dependency is imported from node_modules at run time. */
export const BUNDLED_PACKAGES: readonly string[] = ['commander', 'zod', 'yaml', 'dotenv', 'croner', 'vfile', 'vfile-matter', 'openai', 'fastify', 'grammy', 'pino', 'discord.js', '@slack/socket-mode', '@slack/web-api', '@slack/bolt', 'imapflow', 'mailparser', 'nodemailer', 'twilio', 'slackify-markdown'];

/** The output folder: `--outDir DIR` (as tsc took it), else dist/ in the repository. */
function outDir(params: { argv: readonly string[] }): string {
  const at = params.argv.findIndex((a) => a === '--outDir' || a.startsWith('--outDir='));
  if (at === -1) return path.join(root, 'dist');
  const arg = params.argv[at] ?? '';
  const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : params.argv[at + 1];
  if (value === undefined || value === '') throw new Error('--outDir needs a folder');
  return path.resolve(value);
}

/** Every dependency of package.json (dev ones too) not in BUNDLED_PACKAGES, with its subpaths: left to node. */
function externals(): string[] {
  const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> };
  const names = [...Object.keys(manifest.dependencies ?? {}), ...Object.keys(manifest.devDependencies ?? {})].filter((n) => !BUNDLED_PACKAGES.includes(n));
  return names.flatMap((n) => [n, `${n}/*`]);
}

/**
 * zod's `z` namespace re-exports every locale (`z.locales`), which no bundler can drop; hermes never switches
 * locale, and zod registers English itself (classic/schemas.js imports locales/en.js), so the index that gathers
 * the other 50-odd is replaced by one that exports English alone.
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(b) {
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]zod[\\/]v4[\\/](classic|core)[\\/]?$/.test(args.resolveDir) ? { path: path.join(args.resolveDir, '..', 'locales', 'index.js'), namespace: 'zod-locales' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({ contents: 'export { default as en } from "./en.js";\n', resolveDir: path.dirname(args.path), loader: 'js' }));
  },
};

/**
 * yaml's `node` export is its CommonJS build, which a bundler keeps whole (278 kB); its ESM build (the `default`
 * export, the same code but for warnings going to console.warn instead of process.emitWarning) lets esbuild drop what
 * hermes does not use (214 kB), and it needs no CommonJS wrapper: `status` on a configured profile costs ~15% less CPU.
 */
const yamlEsm: Plugin = {
  name: 'yaml-esm',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, async (args) => {
      if (args.pluginData === 'yaml-esm') return undefined;
      const cjs = await b.resolve('yaml', { kind: args.kind, resolveDir: args.resolveDir, pluginData: 'yaml-esm' });
      return cjs.errors.length > 0 ? undefined : { path: path.join(path.dirname(cjs.path), '..', 'browser', 'index.js') };
    });
  },
};

/**
 * The build's id (src/util/build-id.ts): a hash of package.json, the lockfile and every file under src/ and adapters/,
 * so that anything keyed by it (`hermes status`'s note that a config loaded) is not trusted across a change of code.
 */
function sourceHash(): string {
  const files = ['package.json', 'package-lock.json', ...['src', 'adapters'].flatMap((dir) => readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' }).map((f) => path.join(dir, f)))];
  const hash = createHash('sha256');
  for (const file of files.sort()) {
    const full = path.join(root, file);
    if (!statSync(full).isFile()) continue;
    hash.update(`${file}\0`).update(readFileSync(full)).update('\0');
  }
  return hash.digest('hex').slice(0, 32);
}

/** Builds the CLI into `dir` (emptied first); resolves when the files are written. */
export async function buildCli(params: { dir: string }): Promise<void> {
  const dir = path.resolve(params.dir);
  // Emptied first, so no chunk of an older build (or tsc's one file per module) is left beside the new ones: never
  // the repository itself, a folder above it or a package.
  const repoOrAbove = path.resolve(root) === dir || root.startsWith(dir + path.sep);
  if (repoOrAbove || existsSync(path.join(dir, 'package.json'))) throw new Error(`refusing to empty ${dir} for the build`);
  rmSync(dir, { recursive: true, force: true });
  await build({
    absWorkingDir: root,
    entryPoints: { 'src/cli/main': 'src/cli/main.ts' },
    outdir: dir,
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    // No comments or indentation: V8 keeps each module's source text in memory for as long as it runs, and one
    // non-ASCII character in a comment stores a whole chunk as two bytes per character (~20 MB of RSS less at ready,
    // measured; bench/README). Names are kept, so stack traces still name functions; the .map files map positions.
    minifyWhitespace: true,
    external: externals(),
    plugins: [zodEnglishOnly, yamlEsm],
    define: { __HERMES_BUILD_ID__: JSON.stringify(sourceHash()) },
    // The bundled CommonJS packages (commander, dotenv) call require() for node's own modules: ESM has none, so each file
    // gets one of its own.
    banner: { js: "import { createRequire as __hermesCreateRequire } from 'node:module';\nconst require = __hermesCreateRequire(import.meta.url);" },
    logLevel: 'warning',
  });
  useLauncher({ dir });
}

/**
 * Starts the built entry through the launcher (src/cli/node-flags.ts), so `hermes` runs node with the project's V8
 * options; its source map gets one more (empty) line at the top to keep pointing at the right lines.
 */
function useLauncher(params: { dir: string }): void {
  const entry = path.join(params.dir, 'src', 'cli', 'main.js');
  const code = readFileSync(entry, 'utf8');
  const hashbang = '#!/usr/bin/env node\n';
  if (!code.startsWith(hashbang)) throw new Error(`the built ${entry} does not start with ${JSON.stringify(hashbang)}`);
  writeFileSync(entry, launcherLines() + code.slice(hashbang.length));
  const mapFile = `${entry}.map`;
  const map = JSON.parse(readFileSync(mapFile, 'utf8')) as { mappings: string };
  writeFileSync(mapFile, JSON.stringify({ ...map, mappings: `;${map.mappings}` }));
}

if (isMain({ moduleUrl: import.meta.url })) await buildCli({ dir: outDir({ argv: process.argv.slice(2) }) });
