import type { FileScan } from './file-scan.js';

/** What the gateway needs of the profile's secrets (the Redactor is one): scrub text, hold back a streamed end, check files. */
export interface SecretGuard {
  /** The secrets themselves, as now known (a reload may add some). */
  readonly secrets: readonly string[];
  /** `text` with every secret replaced by "***". */
  scrub(text: string): string;
  /** How much of a still-growing text may be shown now; the rest could be the start of a secret. */
  safeLength(params: { text: string }): number;
  /** Whether a file's bytes hold a secret. */
  scanFile(params: { path: string; signal?: AbortSignal }): Promise<FileScan>;
}
