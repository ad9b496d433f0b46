import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classifyCommand, linearPattern, matchingPatternIds } from '../../../../src/tools/approval/classify-command.js';
import { DANGER_PATTERNS } from '../../../../src/tools/approval/danger-patterns.js';
import { HARD_BLOCKLIST } from '../../../../src/tools/approval/hard-blocklist.js';
import type { DangerPattern } from '../../../../src/tools/approval/types.js';
import { BLOCK_CASES, DANGER_CASES, type PatternCase } from './cases.js';

const tables: { name: string; table: readonly DangerPattern[]; cases: readonly PatternCase[] }[] = [
  { name: 'DANGER_PATTERNS', table: DANGER_PATTERNS, cases: DANGER_CASES },
  { name: 'HARD_BLOCKLIST', table: HARD_BLOCKLIST, cases: BLOCK_CASES },
];

describe('pattern tables', () => {
  for (const { name, table, cases } of tables) {
    test(`${name}: every entry has a test case with a positive and a benign look-alike, and no case is orphaned`, () => {
      const ids = table.map((e) => e.id);
      for (const id of ids) {
        const c = cases.find((x) => x.id === id);
        assert.ok(c, `${name} entry ${id} has no test case`);
        assert.ok(c.positive.length > 0 && c.benign.length > 0, `${id} needs a positive and a benign case`);
      }
      for (const c of cases) assert.ok(ids.includes(c.id), `test case ${c.id} has no entry in ${name}`);
    });

    test(`${name}: ids are unique kebab-case, descriptions are filled, patterns run on the linear-time engine`, () => {
      assert.equal(new Set(table.map((e) => e.id)).size, table.length);
      for (const entry of table) {
        assert.match(entry.id, /^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        assert.ok(entry.description.length >= 8, entry.id);
        assert.ok(linearPattern({ pattern: entry.pattern }).flags.includes('l'), `${entry.id} is not linear-time`);
      }
    });
  }

  test('both tables are disjoint in ids and the danger table has about 30 entries', () => {
    const all = [...DANGER_PATTERNS, ...HARD_BLOCKLIST].map((e) => e.id);
    assert.equal(new Set(all).size, all.length);
    assert.ok(DANGER_PATTERNS.length >= 30, `only ${DANGER_PATTERNS.length} dangerous patterns`);
  });
});

describe('dangerous patterns: positives and benign look-alikes', () => {
  for (const c of DANGER_CASES) {
    test(c.id, () => {
      for (const command of c.positive) {
        assert.ok(matchingPatternIds({ command, table: DANGER_PATTERNS }).includes(c.id), `${c.id} should match: ${command}`);
        assert.notEqual(classifyCommand({ command }).kind, 'safe', command);
      }
      for (const command of c.benign) {
        assert.ok(!matchingPatternIds({ command, table: DANGER_PATTERNS }).includes(c.id), `${c.id} should not match: ${command}`);
        assert.deepEqual(classifyCommand({ command }), { kind: 'safe' }, `benign look-alike not safe: ${command}`);
      }
    });
  }
});

describe('hard blocklist: positives and benign look-alikes', () => {
  for (const c of BLOCK_CASES) {
    test(c.id, () => {
      for (const command of c.positive) {
        const verdict = classifyCommand({ command });
        assert.equal(verdict.kind, 'blocked', command);
        assert.ok(matchingPatternIds({ command, table: HARD_BLOCKLIST }).includes(c.id), `${c.id} should match: ${command}`);
      }
      for (const command of c.benign) {
        assert.ok(!matchingPatternIds({ command, table: HARD_BLOCKLIST }).includes(c.id), `${c.id} should not match: ${command}`);
        assert.notEqual(classifyCommand({ command }).kind, 'blocked', `benign look-alike blocked: ${command}`);
      }
    });
  }
});
