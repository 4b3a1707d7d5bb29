export interface BatcherOptions<T> {
  /** Batches written at once; 1 means what arrives while a batch is written waits and forms the next one. */
  inFlightMax: number;
  /** The next batch out of the queue (removing what it takes); the whole queue by default. */
  take?: (queue: T[]) => T[];
  /** Wait one round of I/O before the first batch of an idle batcher, so items finishing together share it. */
  gatherFirst?: boolean;
}

/**
 * Items written in batches, at most `inFlightMax` batches at a time: the items that arrive while a batch is being
 * written form the next, so a batch grows with the load and a lone item goes at once (issue #30). `write` settles
 * each item of its batch itself and must not reject.
 */
export class Batcher<T> {
  private readonly queue: T[] = [];
  private inFlight = 0;
  private gathering = false;

  constructor(
    private readonly write: (batch: T[]) => Promise<void>,
    private readonly options: BatcherOptions<T>,
  ) {}

  add(item: T): void {
    this.queue.push(item);
    if (this.options.gatherFirst && this.inFlight === 0) {
      if (this.gathering) return;
      this.gathering = true;
      setImmediate(() => {
        this.gathering = false;
        this.pump();
      });
      return;
    }
    this.pump();
  }

  private pump(): void {
    while (this.inFlight < this.options.inFlightMax && this.queue.length > 0) {
      const batch = this.options.take ? this.options.take(this.queue) : this.queue.splice(0);
      this.inFlight++;
      void this.write(batch).finally(() => {
        this.inFlight--;
        this.pump();
      });
    }
  }
}
