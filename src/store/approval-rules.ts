import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import type { ApprovalRule, ApprovalStore } from './approval-store.js';

/** An approval_rules row as SQLite returns it. */
interface RuleRecord {
  pattern_id: string;
  description: string;
  example: string;
  created_at: number;
}

function toRule(record: RuleRecord): ApprovalRule {
  return { patternId: record.pattern_id, description: record.description, example: record.example, createdAt: record.created_at };
}

/** Prepares the approval-rule statements once and returns the methods that use them. */
export function createApprovalRuleQueries(params: { db: Database.Database; clock: Clock }): ApprovalStore {
  const { db, clock } = params;
  const all = db.prepare<[], RuleRecord>('SELECT * FROM approval_rules ORDER BY created_at, pattern_id');
  const upsert = db.prepare<RuleRecord>(
    `INSERT INTO approval_rules (pattern_id, description, example, created_at) VALUES (@pattern_id, @description, @example, @created_at)
     ON CONFLICT (pattern_id) DO UPDATE SET description = excluded.description, example = excluded.example`,
  );
  const one = db.prepare<[string], RuleRecord>('SELECT * FROM approval_rules WHERE pattern_id = ?');
  const remove = db.prepare<[string]>('DELETE FROM approval_rules WHERE pattern_id = ?');
  return {
    approvalRules: () => all.all().map(toRule),
    addApprovalRule: ({ patternId, description, example }) => {
      upsert.run({ pattern_id: patternId, description, example, created_at: clock.now() });
      const stored = one.get(patternId);
      if (stored === undefined) throw new Error(`approval rule ${patternId} was not stored`);
      return toRule(stored);
    },
    removeApprovalRule: ({ patternId }) => remove.run(patternId).changes > 0,
  };
}
