import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { cruise, type ICruiseResult, type IConfiguration } from 'dependency-cruiser';

const require = createRequire(import.meta.url);
const rules = require('../../../scripts/lint/dependency-rules.cjs') as IConfiguration;

/** A small tree shaped like the project's, each file importing what the map says. */
const tree: Readonly<Record<string, readonly string[]>> = {
  'src/core/vocabulary.ts': [],
  'src/core/leaks-up.ts': ['../gateway/runner.js'],
  'src/util/helper.ts': ['../core/vocabulary.js'],
  'src/store/store.ts': ['../util/helper.js'],
  'src/store/reaches-up.ts': ['../gateway/runner.js'],
  'src/tools/tool.ts': ['../store/store.js'],
  'src/tools/reaches-agent.ts': ['../agent/agent.js'],
  'src/agent/agent.ts': ['../tools/tool.js'],
  'src/jobs/cycle-a.ts': ['./cycle-b.js'],
  'src/jobs/cycle-b.ts': ['./cycle-a.js'],
  'src/gateway/runner.ts': ['../agent/agent.js', '../jobs/cycle-a.js'],
  'adapters/kit/burst.ts': ['../../src/core/vocabulary.js'],
  'adapters/kit/reaches-gateway.ts': ['../../src/gateway/runner.js'],
  'adapters/chat/adapter.ts': ['../../src/core/vocabulary.js', '../../src/util/helper.js', '../kit/burst.js', './inbound.js'],
  'adapters/chat/inbound.ts': [],
  'adapters/chat/reaches-gateway.ts': ['../../src/gateway/runner.js'],
  'adapters/chat/reaches-other.ts': ['../mail/adapter.js'],
  'adapters/mail/adapter.ts': ['../../src/core/vocabulary.js'],
  'src/app/bootstrap.ts': ['../../adapters/chat/adapter.js', '../gateway/runner.js'],
  'src/cli/main.ts': ['../app/bootstrap.js'],
};

let root = '';
let result: ICruiseResult;

/** The violations found, as "rule from -> to" lines. */
function violations(): string[] {
  return result.summary.violations.map((v) => `${v.rule.name} ${v.from} -> ${v.to}`).sort();
}

describe('dependency rules (scripts/lint/dependency-rules.cjs)', () => {
  before(async () => {
    root = mkdtempSync(path.join(os.tmpdir(), 'hermes-deps-'));
    for (const [file, imports] of Object.entries(tree)) {
      mkdirSync(path.join(root, path.dirname(file)), { recursive: true });
      const body = imports.map((spec, i) => `import type { x as x${i} } from '${spec}';`).join('\n');
      writeFileSync(path.join(root, file), `${body}\nexport type x = string;\n`);
    }
    writeFileSync(path.join(root, 'tsconfig.json'), JSON.stringify({ compilerOptions: { module: 'NodeNext', moduleResolution: 'NodeNext', strict: true } }));
    const options = rules.options ?? {};
    const output = await cruise(['src', 'adapters'], { ...options, baseDir: root, validate: true, ruleSet: { forbidden: rules.forbidden ?? [] }, tsConfig: { fileName: path.join(root, 'tsconfig.json') } });
    assert.equal(typeof output.output, 'object');
    result = output.output as ICruiseResult;
  });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('every file of the tree was read (type-only imports count)', () => {
    assert.equal(result.modules.filter((m) => !m.coreModule).length, Object.keys(tree).length);
    const runner = result.modules.find((m) => m.source === 'src/gateway/runner.ts');
    assert.deepEqual(runner?.dependencies.map((d) => d.resolved).sort(), ['src/agent/agent.ts', 'src/jobs/cycle-a.ts']);
  });

  test('catches each deliberately wrong import and nothing else', () => {
    assert.deepEqual(violations(), [
      'adapter-kit-sees-core-util adapters/kit/reaches-gateway.ts -> src/gateway/runner.ts',
      'adapter-sees-core-util-kit-own-folder adapters/chat/reaches-gateway.ts -> src/gateway/runner.ts',
      'adapter-sees-core-util-kit-own-folder adapters/chat/reaches-other.ts -> adapters/mail/adapter.ts',
      'core-imports-no-project-code src/core/leaks-up.ts -> src/gateway/runner.ts',
      'layer-core src/core/leaks-up.ts -> src/gateway/runner.ts',
      'layer-store src/store/reaches-up.ts -> src/gateway/runner.ts',
      'layer-tools src/tools/reaches-agent.ts -> src/agent/agent.ts',
      'no-circular src/jobs/cycle-a.ts -> src/jobs/cycle-b.ts',
    ]);
  });
});
