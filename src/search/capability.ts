/** Search over the profile's past conversations (never the current one). */
export interface SessionSearchCapability {
  /** Resolves to the text for the model: past sessions with the matching passages, fenced as background. */
  search(params: {
    query: string;
    /** Most sessions returned (default 3, at most 5). */
    limit?: number;
    /** The session asking (the tool context's `sessionId`): never part of the results. */
    excludeSessionId?: string;
    signal: AbortSignal;
  }): Promise<string>;
}
