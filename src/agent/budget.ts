/**
 * How many model calls one turn may make: one unit per call, refundable for cheap rounds.
 * At most `max` units are ever refunded, so a turn makes at most 2 × max calls.
 */
export class IterationBudget {
  /** Units available in total. */
  readonly max: number;
  private spent = 0;
  private refunds = 0;

  constructor(params: { max: number }) {
    if (!Number.isInteger(params.max) || params.max < 1) {
      throw new Error(`IterationBudget max must be a positive integer, got ${params.max}.`);
    }
    this.max = params.max;
  }

  /** Takes one unit; false (and nothing taken) when the budget is used up. */
  tryConsume(): boolean {
    if (this.spent >= this.max) return false;
    this.spent += 1;
    return true;
  }

  /** Gives one unit back unless nothing was taken or `max` refunds were already given; true when refunded. */
  refund(): boolean {
    if (this.spent === 0 || this.refunds >= this.max) return false;
    this.spent -= 1;
    this.refunds += 1;
    return true;
  }

  /** Units taken so far. */
  get used(): number {
    return this.spent;
  }

  /** Units still available. */
  get remaining(): number {
    return this.max - this.spent;
  }
}
