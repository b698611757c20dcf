// A constant-time, fixed-precision latency distribution: log-spaced buckets, 8 per power of two (each
// ~9% wide, so any quantile is within ~4.5%). Observing costs one log2 and one array increment.

const BUCKETS_PER_OCTAVE = 8;
const INITIAL_WIDTH = 32;

export class LogHistogram {
  count = 0;
  sum = 0;
  min = Number.POSITIVE_INFINITY;
  max = Number.NEGATIVE_INFINITY;
  /** counts[i] is the number of observations in bucket `offset + i`; allocated on first use. */
  private counts: Float64Array | undefined;
  private offset = 0;

  /** Records `value`, `times` times over (same as that many observe(value) calls). */
  observe(value: number, times = 1): void {
    this.count += times;
    this.sum += value * times;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    const bucket = bucketOf(value);
    let counts = this.counts;
    if (counts === undefined || bucket < this.offset || bucket >= this.offset + counts.length) {
      counts = this.cover(bucket);
    }
    counts[bucket - this.offset] += times;
  }

  /** Forgets every observation (the logger exporter's `flush_metrics`). */
  reset(): void {
    this.count = 0;
    this.sum = 0;
    this.min = Number.POSITIVE_INFINITY;
    this.max = Number.NEGATIVE_INFINITY;
    this.counts = undefined;
  }

  /** The value at quantile q (0..1), or 0 with no observations. */
  quantile(q: number): number {
    const counts = this.counts;
    if (counts === undefined || this.count === 0) return 0;
    const rank = Math.max(1, q * this.count);
    let seen = 0;
    for (let i = 0; i < counts.length; i++) {
      seen += counts[i];
      if (seen >= rank) return Math.min(this.max, Math.max(this.min, bucketMidpoint(this.offset + i)));
    }
    return this.max;
  }

  /** Grows (or creates) the bucket window so it includes `bucket`, keeping existing counts. */
  private cover(bucket: number): Float64Array {
    const old = this.counts;
    if (old === undefined) {
      this.offset = Math.max(0, bucket - INITIAL_WIDTH / 2);
      this.counts = new Float64Array(INITIAL_WIDTH);
      return this.counts;
    }
    const low = Math.max(0, Math.min(this.offset, bucket - 4));
    const high = Math.max(this.offset + old.length, bucket + 5);
    const grown = new Float64Array(high - low);
    grown.set(old, this.offset - low);
    this.offset = low;
    this.counts = grown;
    return grown;
  }
}

function bucketOf(value: number): number {
  return value < 1 ? 0 : Math.floor(Math.log2(value) * BUCKETS_PER_OCTAVE) + 1;
}

/** The geometric middle of a bucket (bucket 0 holds everything below 1). */
function bucketMidpoint(bucket: number): number {
  return bucket === 0 ? 0 : 2 ** ((bucket - 0.5) / BUCKETS_PER_OCTAVE);
}
