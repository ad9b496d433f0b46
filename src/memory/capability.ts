/** Which memory file a write goes to: the agent's notes (MEMORY.md) or what it knows about its owner (USER.md). */
export type MemoryTarget = 'memory' | 'user';

/** One change to a memory file, as the `memory` tool's arguments name it. */
export interface MemoryWrite {
  readonly action: 'add' | 'replace' | 'remove';
  readonly target: MemoryTarget;
  /** The new entry (add, replace). */
  readonly content?: string;
  /** A substring of exactly one existing entry (replace, remove). */
  readonly oldText?: string;
}

/** The profile's memory files. Implementations persist each write at once and atomically. */
export interface MemoryCapability {
  /** Applies one write; resolves to the text for the model (what changed, usage figures). Throws ToolError when refused. */
  write(params: MemoryWrite & { signal: AbortSignal }): Promise<string>;
}
