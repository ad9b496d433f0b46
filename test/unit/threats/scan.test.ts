import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { threatPatterns } from '../../../src/threats/patterns.js';
import { findThreats, nonLinearPatternIds, scanForThreats } from '../../../src/threats/scan.js';
import { threatCases, withZeroWidth } from './cases.js';

const ids = (text: string): string[] => findThreats({ text }).map((f) => f.id);

describe('threat table', () => {
  test('every row has a test case with positives and benign near-misses, and every case names a row', () => {
    const caseIds = threatCases.map((c) => c.id);
    for (const row of threatPatterns) {
      const found = threatCases.find((c) => c.id === row.id);
      assert.ok(found, `row ${row.id} has no test case in test/unit/threats/cases.ts`);
      assert.ok(found.positive.length > 0 && found.benign.length > 0, `row ${row.id} needs a positive and a benign case`);
    }
    assert.deepEqual(caseIds.filter((id) => !threatPatterns.some((r) => r.id === id)), [], 'cases for rows that do not exist');
    assert.equal(new Set(threatPatterns.map((r) => r.id)).size, threatPatterns.length, 'row ids are unique');
  });

  test('every row runs on the linear-time engine (no input can make it backtrack)', () => {
    assert.deepEqual(nonLinearPatternIds(), []);
  });

  test('anchors, run on the ordinary engine, have no quantifiers (so they cannot backtrack either)', () => {
    for (const row of threatPatterns) {
      const unescaped = row.anchor.source.replace(/\\./g, '').replace(/\(\?:/g, '(');
      assert.doesNotMatch(unescaped, /[*+?{}]/, `${row.id}: anchor ${row.anchor.source}`);
      assert.equal(row.anchor.flags, '', `${row.id}: anchor flags`);
    }
  });
});

for (const c of threatCases) {
  const row = threatPatterns.find((r) => r.id === c.id);
  describe(`pattern ${c.id}`, () => {
    test('finds its positives (and the first finding, the reason given, is of its category)', () => {
      for (const text of c.positive) {
        assert.ok(ids(text).includes(c.id), `${c.id} should find ${JSON.stringify(text)}; found ${JSON.stringify(ids(text))}`);
        assert.equal(scanForThreats({ text, source: 'memory' })?.category, row?.category, JSON.stringify(text));
      }
    });
    test('passes its benign near-misses (no row finds them)', () => {
      for (const text of c.benign) assert.deepEqual(ids(text), [], `${JSON.stringify(text)} should be clean`);
    });
    if (row !== undefined && row.view !== 'raw') {
      test('finds its positives with zero-width characters inserted (and reports them too)', () => {
        for (const text of c.positive) {
          const hidden = withZeroWidth({ text });
          assert.ok(ids(hidden).includes(c.id), `${c.id} should find ${JSON.stringify(hidden)}; found ${JSON.stringify(ids(hidden))}`);
          assert.ok(ids(hidden).includes('zero-width'));
          // The phrase is the reason given, not only the invisible characters.
          assert.notEqual(scanForThreats({ text: hidden, source: 'memory' })?.category, 'invisible-unicode');
        }
      });
    }
  });
}
