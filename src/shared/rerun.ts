/**
 * Work that runs once at a time and catches up: a call while a pass runs shares that run and asks for one more pass
 * after it, so what happened during a pass is seen by the next, and callers never stack up passes of their own.
 */
export class Rerun {
  private current: Promise<void> | null = null;
  private again = false;

  constructor(private readonly pass: () => Promise<void>) {}

  /** The run under way, if any. */
  get running(): Promise<void> | null {
    return this.current;
  }

  /** Starts a run, or joins the one under way (which then makes one more pass); settles when the run ends. */
  run(): Promise<void> {
    if (this.current) {
      this.again = true;
      return this.current;
    }
    this.current = (async () => {
      try {
        do {
          this.again = false;
          await this.pass();
        } while (this.again);
      } finally {
        this.current = null;
      }
    })();
    return this.current;
  }
}
