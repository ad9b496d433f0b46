import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import type { ApprovedSender, PairingRequest, Store } from './types.js';

/** A pairing_requests row as SQLite returns it. */
interface PairingRequestRecord {
  platform: string;
  code: string;
  sender_id: string;
  sender_name: string | null;
  chat_id: string;
  created_at: number;
  expires_at: number;
}

/** An approved_senders row as SQLite returns it. */
interface ApprovedSenderRecord {
  platform: string;
  sender_id: string;
  sender_name: string | null;
  approved_at: number;
}

/** Maps a stored request to the contract's camelCase shape. */
function toPairingRequest(record: PairingRequestRecord): PairingRequest {
  return {
    platform: record.platform,
    code: record.code,
    senderId: record.sender_id,
    senderName: record.sender_name,
    chatId: record.chat_id,
    createdAt: record.created_at,
    expiresAt: record.expires_at,
  };
}

/** Maps a stored approval to the contract's camelCase shape. */
function toApprovedSender(record: ApprovedSenderRecord): ApprovedSender {
  return {
    platform: record.platform,
    senderId: record.sender_id,
    senderName: record.sender_name,
    approvedAt: record.approved_at,
  };
}

/** The sender pairing part of the Store. */
export type PairingQueries = Pick<
  Store,
  | 'createPairingRequest'
  | 'pairingRequests'
  | 'pairingRequestForSender'
  | 'findPairingRequest'
  | 'takePairingRequest'
  | 'approveSender'
  | 'isApprovedSender'
  | 'approvedSenders'
  | 'revokeSender'
  | 'prunePairingRequests'
>;

/** The statement that drops a sender's pending requests (platform, sender id): a new request or an approval replaces them. */
type DropRequestsOf = Database.Statement<[string, string]>;

/** The methods over pending pairing requests: create, list, find, take, prune. */
function createRequestQueries(params: {
  db: Database.Database;
  clock: Clock;
  deleteForSender: DropRequestsOf;
}): Omit<PairingQueries, 'approveSender' | 'isApprovedSender' | 'approvedSenders' | 'revokeSender'> {
  const { db, clock, deleteForSender } = params;
  const oldestFirst = 'ORDER BY created_at, platform, code';
  const byCode = db.prepare<[string, string], PairingRequestRecord>(
    'SELECT * FROM pairing_requests WHERE platform = ? AND code = ?',
  );
  const live = db.prepare<[number], PairingRequestRecord>(`SELECT * FROM pairing_requests WHERE expires_at > ? ${oldestFirst}`);
  const liveOn = db.prepare<[string, number], PairingRequestRecord>(
    `SELECT * FROM pairing_requests WHERE platform = ? AND expires_at > ? ${oldestFirst}`,
  );
  const liveForSender = db.prepare<[string, string, number], PairingRequestRecord>(
    'SELECT * FROM pairing_requests WHERE platform = ? AND sender_id = ? AND expires_at > ?',
  );
  const insertRequest = db.prepare<PairingRequestRecord>(
    `INSERT INTO pairing_requests (platform, code, sender_id, sender_name, chat_id, created_at, expires_at)
     VALUES (@platform, @code, @sender_id, @sender_name, @chat_id, @created_at, @expires_at)`,
  );
  const deleteByCode = db.prepare<[string, string]>('DELETE FROM pairing_requests WHERE platform = ? AND code = ?');
  const deleteExpired = db.prepare<[number]>('DELETE FROM pairing_requests WHERE expires_at <= ?');

  const create = db.transaction((record: PairingRequestRecord): PairingRequest | undefined => {
    if (byCode.get(record.platform, record.code) !== undefined) return undefined;
    deleteForSender.run(record.platform, record.sender_id);
    insertRequest.run(record);
    return toPairingRequest(record);
  });
  const take = db.transaction((platform: string, code: string, now: number): PairingRequest | undefined => {
    const record = byCode.get(platform, code);
    if (record === undefined || record.expires_at <= now) return undefined;
    deleteByCode.run(platform, code);
    return toPairingRequest(record);
  });

  return {
    createPairingRequest: ({ platform, code, senderId, senderName = null, chatId, expiresAt }) =>
      create.immediate({
        platform,
        code,
        sender_id: senderId,
        sender_name: senderName,
        chat_id: chatId,
        created_at: clock.now(),
        expires_at: expiresAt,
      }),
    pairingRequests: ({ platform, now }) =>
      (platform === undefined ? live.all(now) : liveOn.all(platform, now)).map(toPairingRequest),
    pairingRequestForSender: ({ platform, senderId, now }) => {
      const record = liveForSender.get(platform, senderId, now);
      return record === undefined ? undefined : toPairingRequest(record);
    },
    findPairingRequest: ({ platform, code }) => {
      const record = byCode.get(platform, code);
      return record === undefined ? undefined : toPairingRequest(record);
    },
    takePairingRequest: ({ platform, code, now }) => take.immediate(platform, code, now),
    prunePairingRequests: ({ now }) => deleteExpired.run(now).changes,
  };
}

/** The methods over approved senders: approve (dropping the sender's requests), check, list, revoke. */
function createApprovalQueries(params: {
  db: Database.Database;
  clock: Clock;
  deleteForSender: DropRequestsOf;
}): Pick<PairingQueries, 'approveSender' | 'isApprovedSender' | 'approvedSenders' | 'revokeSender'> {
  const { db, clock, deleteForSender } = params;
  const upsertApproval = db.prepare<ApprovedSenderRecord, ApprovedSenderRecord>(
    `INSERT INTO approved_senders (platform, sender_id, sender_name, approved_at)
     VALUES (@platform, @sender_id, @sender_name, @approved_at)
     ON CONFLICT (platform, sender_id) DO UPDATE SET
       sender_name = coalesce(excluded.sender_name, approved_senders.sender_name),
       approved_at = excluded.approved_at
     RETURNING *`,
  );
  const approvalOf = db.prepare<[string, string], number>(
    'SELECT 1 FROM approved_senders WHERE platform = ? AND sender_id = ?',
  ).pluck();
  const approvals = db.prepare<[], ApprovedSenderRecord>('SELECT * FROM approved_senders ORDER BY platform, approved_at, sender_id');
  const approvalsOn = db.prepare<[string], ApprovedSenderRecord>(
    'SELECT * FROM approved_senders WHERE platform = ? ORDER BY approved_at, sender_id',
  );
  const deleteApproval = db.prepare<[string, string]>('DELETE FROM approved_senders WHERE platform = ? AND sender_id = ?');

  const approve = db.transaction((record: ApprovedSenderRecord): ApprovedSender => {
    deleteForSender.run(record.platform, record.sender_id);
    const stored = upsertApproval.get(record);
    if (stored === undefined) throw new Error('INSERT ... RETURNING gave no row for an approved sender');
    return toApprovedSender(stored);
  });

  return {
    approveSender: ({ platform, senderId, senderName = null }) =>
      approve.immediate({ platform, sender_id: senderId, sender_name: senderName, approved_at: clock.now() }),
    isApprovedSender: ({ platform, senderId }) => approvalOf.get(platform, senderId) !== undefined,
    approvedSenders: ({ platform }) => (platform === undefined ? approvals.all() : approvalsOn.all(platform)).map(toApprovedSender),
    revokeSender: ({ platform, senderId }) => deleteApproval.run(platform, senderId).changes > 0,
  };
}

/** Prepares the pairing statements once and returns the methods that use them. */
export function createPairingQueries(params: { db: Database.Database; clock: Clock }): PairingQueries {
  const { db, clock } = params;
  const deleteForSender: DropRequestsOf = db.prepare<[string, string]>('DELETE FROM pairing_requests WHERE platform = ? AND sender_id = ?');
  return {
    ...createRequestQueries({ db, clock, deleteForSender }),
    ...createApprovalQueries({ db, clock, deleteForSender }),
  };
}
