/**
 * What one builder (the owner of apps; the operator's apps each count as one of their own) may take of an instance's
 * webhook work, so that one builder's slow or failing endpoints cannot delay another builder's deliveries
 * (docs/webhooks.md, "Endpoints are independent"): at most `cap` of their endpoints worked at once, and at most `cap`
 * of their deliveries on the wire at once, across all their endpoints. Those waiting for a delivery's turn are served
 * in the order they asked.
 */
export class BuilderShares {
  private readonly shares = new Map<number, { endpoints: number; sending: number; waiting: Array<() => void> }>();

  constructor(private readonly cap: number) {}

  private of(builder: number) {
    let share = this.shares.get(builder);
    if (!share) {
      share = { endpoints: 0, sending: 0, waiting: [] };
      this.shares.set(builder, share);
    }
    return share;
  }

  private forget(builder: number): void {
    const share = this.shares.get(builder);
    if (share && share.endpoints === 0 && share.sending === 0 && share.waiting.length === 0)
      this.shares.delete(builder);
  }

  /** Whether the builder may have one more endpoint worked now, beside `pending` about to be. */
  mayWork(builder: number, pending = 0): boolean {
    return (this.shares.get(builder)?.endpoints ?? 0) + pending < this.cap;
  }

  /** Counts an endpoint of the builder worked until the returned function is called. */
  work(builder: number): () => void {
    this.of(builder).endpoints++;
    return () => {
      this.of(builder).endpoints--;
      this.forget(builder);
    };
  }

  /** Runs `send` once fewer than `cap` of the builder's deliveries are on the wire. */
  async send<T>(builder: number, send: () => Promise<T>): Promise<T> {
    const share = this.of(builder);
    if (share.sending >= this.cap) await new Promise<void>((resolve) => share.waiting.push(resolve));
    else share.sending++;
    try {
      return await send();
    } finally {
      // The turn passes straight to the next waiting delivery, if any (its count already taken).
      const next = share.waiting.shift();
      if (next) next();
      else share.sending--;
      this.forget(builder);
    }
  }
}
