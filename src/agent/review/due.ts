/** What a background review looks at: skills (procedures), memory (lasting facts), or both in one run. */
export interface ReviewKinds {
  readonly skills: boolean;
  readonly memory: boolean;
}

/** The review settings (skills.review, skills.review_interval, memory.review_interval). */
export interface ReviewSchedule {
  /** skills.review: false turns every background review off (the memory review too). */
  readonly enabled: boolean;
  /** Model calls of a session between two skill reviews. */
  readonly skillInterval: number;
  /** User turns of a session between two memory reviews. */
  readonly memoryInterval: number;
}

/** What the store says about the session once a turn was delivered. */
export interface ReviewCounts {
  /** The session's stored model calls before this turn. */
  readonly callsBefore: number;
  /** The session's stored model calls now (this turn's included). */
  readonly callsAfter: number;
  /** The session's user turns now (this turn's included). */
  readonly userTurns: number;
  /**
   * Whether the agent itself called skill_manage within the last `skillInterval` model calls: asked only when this
   * turn crossed an interval (it reads the store, and most turns cross none).
   */
  readonly skillManagedInWindow: () => boolean;
  /** Whether the review tools for each kind exist (skill_manage for skills, memory for memory). */
  readonly tools: ReviewKinds;
}

/** Whether a review is due after a turn, and why. */
export type ReviewDue = { readonly due: false } | { readonly due: true; readonly kinds: ReviewKinds; readonly reason: string };

/**
 * Decides after a delivered turn whether a background review is due. Counts come from the store, so a restart
 * changes nothing: a skill review is due when this turn's calls crossed a multiple of the interval (unless the agent
 * used skill_manage in that window), a memory review when the session's user turns reached a multiple of its interval.
 */
export function reviewDue(params: { schedule: ReviewSchedule; counts: ReviewCounts }): ReviewDue {
  const { schedule, counts } = params;
  if (!schedule.enabled) return { due: false };
  const crossed = Math.floor(counts.callsAfter / schedule.skillInterval) > Math.floor(Math.max(0, counts.callsBefore) / schedule.skillInterval);
  const skills = counts.tools.skills && crossed && !counts.skillManagedInWindow();
  const memory = counts.tools.memory && counts.userTurns > 0 && counts.userTurns % schedule.memoryInterval === 0;
  if (!skills && !memory) return { due: false };
  const reason = skills && memory ? 'skills+memory' : skills ? 'skills' : 'memory';
  return { due: true, kinds: { skills, memory }, reason };
}
