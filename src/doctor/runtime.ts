import { line, type CheckLine } from '../core/check-line.js';
import { errorMessage } from '../util/error-text.js';

/** The oldest Node major hermes supports. */
const MIN_NODE_MAJOR = 20;

/** Node is new enough (>= 20). */
export function nodeVersionCheck(params: { version: string }): CheckLine {
  const major = Number.parseInt(params.version.replace(/^v/, ''), 10);
  if (Number.isInteger(major) && major >= MIN_NODE_MAJOR) return line.ok('node', `v${params.version.replace(/^v/, '')}`);
  return line.fail('node', `v${params.version.replace(/^v/, '')} is too old (hermes needs ${MIN_NODE_MAJOR} or newer)`, `Install Node ${MIN_NODE_MAJOR}+ (e.g. \`nvm install ${MIN_NODE_MAJOR}\`), then \`npm rebuild\`.`);
}

/** The better-sqlite3 native module loads, opens an in-memory database and has FTS5 (message search). */
export async function sqliteCheck(): Promise<CheckLine> {
  const name = 'sqlite';
  const rebuild = 'Run `npm rebuild better-sqlite3` in the hermes folder (needs python3, make and a C++ compiler: apt install build-essential python3).';
  let Database: typeof import('better-sqlite3');
  try {
    Database = (await import('better-sqlite3')).default;
  } catch (error) {
    return line.fail(name, `the better-sqlite3 native module does not load (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`, rebuild);
  }
  let db: import('better-sqlite3').Database | undefined;
  try {
    db = new Database(':memory:');
    const version = (db.prepare('select sqlite_version() as v').get() as { v: string }).v;
    try {
      db.exec("create virtual table doctor_fts using fts5(body); insert into doctor_fts(body) values ('hello')");
    } catch (error) {
      return line.fail(name, `SQLite ${version} has no FTS5 (${errorMessage(error)}); message search needs it`, rebuild);
    }
    return line.ok(name, `better-sqlite3 loads, SQLite ${version} with FTS5`);
  } catch (error) {
    return line.fail(name, `better-sqlite3 cannot open a database (${errorMessage(error)})`, rebuild);
  } finally {
    db?.close();
  }
}
