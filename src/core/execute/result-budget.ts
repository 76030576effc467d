/**
 * 4 MiB: four return values of the largest size a harness sends (1 MiB), or all 100 cases of a
 * request each returning about 40 KiB with output; far beyond what a correct solution to a test
 * case returns. Reading it costs the host at most about 0.4 s of one core (lossless JSON, about
 * 100 ms per MiB, most of it in the JSON worker), and the response stays under about 5 MiB.
 */
const DEFAULT_RESULT_BUDGET_BYTES = 4 * 1024 * 1024;

/** The error of every case left without a result once an execution's budget is used up. */
function budgetMessage(limitBytes: number): string {
  return `result budget of ${limitBytes} bytes used up: the values returned so far are too large`;
}

/**
 * The bytes one execution may send back (return values, captured output and errors together, as
 * the frames and stray output carry them), counted as they arrive, across all its containers.
 */
export class ResultBudget {
  private used = 0;

  constructor(readonly limitBytes: number = DEFAULT_RESULT_BUDGET_BYTES) {}

  get usedBytes(): number {
    return this.used;
  }

  get exhausted(): boolean {
    return this.used > this.limitBytes;
  }

  get message(): string {
    return budgetMessage(this.limitBytes);
  }

  /** Counts `bytes`; false once the total is past the limit. */
  spend(bytes: number): boolean {
    this.used += bytes;
    return !this.exhausted;
  }
}
