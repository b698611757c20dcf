// Settling deliveries with the broker for the amqp_0_9 input: runs of acks go out as one multiple ack.
import type { Channel, ConsumeMessage } from 'amqplib';

/**
 * Settles deliveries with the broker. Acks that extend the run of settled tags from the lowest
 * up are sent together as one `multiple` ack once the current callbacks are done (next tick: the
 * confirms of one reply settle several groups at once), as a hand-written consumer acks a prefetch
 * window; others go one by one at once, so a delivery still in flight
 * is never covered by a multiple ack and a slow one never holds back the acks of the rest.
 */
export class Settler {
  /** Every delivery tag up to here is settled with the broker. */
  private sent = 0;
  /** The highest delivery of the acks waiting for the flush: they are exactly (sent, its tag]. */
  private runEnd: ConsumeMessage | null = null;
  /** Tags above `sent` settled one by one. */
  private readonly above = new Set<number>();
  private flushing = false;

  constructor(
    private readonly channel: Channel,
    private readonly onError: (err: unknown) => void,
  ) {}

  /** `deliveries` are distinct and unsettled; `requeue` undefined acks, else nacks. */
  settle(deliveries: readonly ConsumeMessage[], requeue?: boolean): void {
    if (requeue === undefined && this.extendRun(deliveries)) return;
    for (const d of deliveries) {
      if (requeue === undefined) this.channel.ack(d);
      else this.channel.nack(d, false, requeue);
      this.above.add(d.fields.deliveryTag);
    }
    if (!this.runEnd) this.advance();
  }

  /** Sends the pending multiple ack now (before the channel closes). */
  flush(): void {
    const end = this.runEnd;
    if (!end) return;
    this.runEnd = null;
    this.channel.ack(end, true);
    this.sent = end.fields.deliveryTag;
    this.advance();
  }

  /** Adds the deliveries to the pending run when they continue it without a gap. */
  private extendRun(deliveries: readonly ConsumeMessage[]): boolean {
    let low = Number.POSITIVE_INFINITY;
    let high = deliveries[0]!;
    for (const d of deliveries) {
      const tag = d.fields.deliveryTag;
      if (tag < low) low = tag;
      if (tag > high.fields.deliveryTag) high = d;
    }
    const edge = this.runEnd ? this.runEnd.fields.deliveryTag : this.sent;
    if (low !== edge + 1 || high.fields.deliveryTag - low !== deliveries.length - 1) return false;
    this.runEnd = high;
    if (!this.flushing) {
      this.flushing = true;
      process.nextTick(() => {
        this.flushing = false;
        try {
          this.flush();
        } catch (err) {
          this.onError(err);
        }
      });
    }
    return true;
  }

  private advance(): void {
    while (this.above.delete(this.sent + 1)) this.sent++;
  }
}
