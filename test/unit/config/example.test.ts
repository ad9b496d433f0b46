import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describeFound, valueAt } from '../../../src/config/describe-issue.js';
import { interpolateTree } from '../../../src/config/interpolate.js';
import { appConfigSchema } from '../../../src/app/config-schema.js';
import { leafPaths } from '../../../src/config/schema-walk.js';
import { validateConfig } from '../../../src/config/validate.js';
import { parseConfigText } from '../../../src/config/yaml-file.js';

/** The app's config schema (every platform's block), loaded once. */
const configSchema = await appConfigSchema();

const examplePath = fileURLToPath(new URL('../../../config.example.yaml', import.meta.url));
const exampleText = fs.readFileSync(examplePath, 'utf8');

/** The example with its commented-out optional keys ("  # key: value") switched on. */
function uncommented(text: string): string {
  return text.replace(/^(\s*)# ([a-z_]+: .*)$/gm, '$1$2');
}

/** Every ${NAME} the text references, set to a placeholder. */
function placeholderEnv(text: string): Record<string, string> {
  return Object.fromEntries([...text.matchAll(/\$\{([A-Z0-9_]+)/g)].map((m) => [m[1] ?? '', 'placeholder']));
}

/** Loads YAML text the way loadConfig does. */
function validate(text: string) {
  const tree = interpolateTree({ tree: parseConfigText({ text, file: examplePath }), env: placeholderEnv(text), file: examplePath, envFile: '.env' });
  return { tree, ...validateConfig({ schema: configSchema,  tree, file: examplePath }) };
}

describe('config.example.yaml', () => {
  test('is valid, has no unknown keys, and shows exactly the defaults', () => {
    const example = validate(exampleText);
    assert.deepEqual(example.warnings, []);
    assert.deepEqual(example.config, validateConfig({ schema: configSchema,  tree: {}, file: 'empty' }).config);
  });

  test('documents every key of the schema (optional ones commented out), each valid', () => {
    const full = validate(uncommented(exampleText));
    assert.deepEqual(full.warnings, []);
    const missing = leafPaths({ schema: configSchema }).filter((path) => valueAt({ tree: full.tree, path }) === undefined);
    assert.deepEqual(missing, [], 'keys missing from config.example.yaml');
  });

  test('every key has a comment line directly above it', () => {
    const lines = uncommented(exampleText).split('\n');
    lines.forEach((line, index) => {
      if (/^\s*[a-z_]+:/.test(line)) {
        assert.match(lines[index - 1] ?? '', /^\s*#/, `no comment above "${line.trim()}" (line ${index + 1})`);
      }
    });
  });

  test('the commented mcp_servers example is valid as written, every key of a server in it', () => {
    const lines = exampleText.split('\n');
    const start = lines.indexOf('# mcp_servers:');
    assert.ok(start > 0, 'no "# mcp_servers:" example');
    const block: string[] = [];
    for (let i = start; lines[i]?.startsWith('#') === true; i++) block.push((lines[i] ?? '').replace(/^# ?/, ''));
    const example = validate(block.join('\n'));
    assert.deepEqual(example.warnings, []);
    const servers = example.config.mcp_servers;
    assert.deepEqual(Object.keys(servers), ['files', 'github']);
    assert.deepEqual(servers['files']?.tools.exclude, ['write_*', 'move_file']);
    assert.equal(servers['github']?.headers['Authorization'], 'Bearer placeholder');
    const written = (block.find((line) => line.startsWith('  files:')) === undefined ? [] : block).join('\n');
    for (const key of ['command', 'args', 'env', 'cwd', 'enabled', 'timeout', 'connect_timeout', 'include', 'exclude', 'resources', 'prompts', 'approval', 'url', 'headers']) {
      assert.match(written, new RegExp(`^\\s+${key}:`, 'm'), `${key} is not in the example`);
    }
  });

  test('describeFound never shows secret values', () => {
    assert.equal(describeFound({ value: 'abc', secret: true }), '***');
    assert.equal(describeFound({ value: 'has sk-1234 inside', secret: false, secrets: new Set(['sk-1234']) }), '***');
  });
});
