// Records nekton itself produces to the `redpanda` section's topics (its log lines): queued without
// ever blocking the caller, sent in batches of up to 50 or after 1 s, as the reference's topic
// logger does, by one kafka_franz producer with the section's connection and producer settings.
// A full queue (100 records, while the brokers are away) drops new records rather than hold the
// process up; a failed batch is sent again after a growing pause.
import { parseInterpolation } from '../../bloblang/index.js';
import { errorMessage } from '../../engine/errors.js';
import { Message } from '../../message/message.js';
import { type KafkaFranzOutputConfig, KafkaFranzWriter, produceSettings } from '../outputs/kafka_franz.js';
import { type KafkaModule, loadKafka } from './client.js';
import type { RedpandaSection } from './redpanda_section.js';

const TOPIC_META = '__connect_topic';
const KEY_META = '__connect_key';

export interface TopicSinkOptions {
  /** Records per produce request. */
  count: number;
  /** How long a record may wait for its batch to fill. */
  periodMs: number;
  /** Records queued at most; more are dropped. */
  capacity: number;
}

const DEFAULTS: TopicSinkOptions = { count: 50, periodMs: 1000, capacity: 100 };
const MAX_PAUSE_MS = 30_000;

export class TopicSink {
  private readonly queue: Message[] = [];
  private readonly writer: KafkaFranzWriter;
  private readonly options: TopicSinkOptions;
  private connected = false;
  private draining: Promise<void> | null = null;
  private timer: NodeJS.Timeout | undefined;
  private pause: { timer: NodeJS.Timeout; resolve: () => void } | undefined;
  private closing = false;
  private stopped = false;
  /** Records dropped because the queue was full (said once per run of drops). */
  dropped = 0;

  constructor(
    section: RedpandaSection,
    /** Where the sink's own failures go; never back into the sink. */
    private readonly report: (message: string) => void,
    /** The client library; tests pass a stand-in, since no broker is reachable for them. */
    load: () => Promise<KafkaModule> = loadKafka,
    options: Partial<TopicSinkOptions> = {},
  ) {
    this.options = { ...DEFAULTS, ...options };
    const config = { ...section, rack_id: '' } as unknown as KafkaFranzOutputConfig;
    const template = {
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
      topic: parseInterpolation('${! @__connect_topic }'),
      // biome-ignore lint/suspicious/noTemplateCurlyInString: Bloblang interpolation
      key: parseInterpolation('${! @__connect_key }'),
      partition: null,
      timestampMs: null,
      timestampSec: null,
      includeMeta: null,
    };
    this.writer = new KafkaFranzWriter(config, template, produceSettings(config), load, 'redpanda section');
  }

  /** Queues one record; never waits. */
  push(topic: string, key: string, value: string): void {
    if (this.closing) return;
    if (this.queue.length >= this.options.capacity) {
      if (this.dropped++ === 0) this.report(`the queue of ${topic} is full: dropping records`);
      return;
    }
    this.dropped = 0;
    const msg = new Message(value);
    msg.setMeta(TOPIC_META, topic);
    msg.setMeta(KEY_META, key);
    this.queue.push(msg);
    if (this.queue.length >= this.options.count) void this.flush();
    else
      this.timer ??= setTimeout(() => {
        this.timer = undefined;
        void this.flush();
      }, this.options.periodMs).unref();
  }

  /** Sends everything queued (one drain at a time); resolves when the queue is empty or the sink stopped. */
  flush(): Promise<void> {
    this.draining ??= this.drain().finally(() => {
      this.draining = null;
    });
    return this.draining;
  }

  /** Sends what is queued within `timeoutMs`, then closes the producer. */
  async close(timeoutMs: number): Promise<void> {
    this.closing = true;
    clearTimeout(this.timer);
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs).unref();
    });
    await Promise.race([this.flush(), expired]);
    clearTimeout(timer);
    // A drain still waiting on the brokers is abandoned (not awaited): closing must not hang on them.
    this.stopped = true;
    this.wake();
    await this.writer.close();
  }

  private async drain(): Promise<void> {
    let pauseMs = 500;
    while (this.queue.length > 0 && !this.stopped) {
      const batch = this.queue.slice(0, this.options.count);
      try {
        if (!this.connected) {
          await this.writer.connect();
          this.connected = true;
        }
        await this.writer.write(batch);
        this.queue.splice(0, batch.length);
        pauseMs = 500;
      } catch (err) {
        this.connected = false;
        this.report(`sending ${batch.length} records failed, retrying: ${errorMessage(err)}`);
        await this.sleep(pauseMs);
        pauseMs = Math.min(pauseMs * 2, MAX_PAUSE_MS);
      }
    }
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.pause = { timer: setTimeout(resolve, ms), resolve };
    });
  }

  private wake(): void {
    if (!this.pause) return;
    clearTimeout(this.pause.timer);
    this.pause.resolve();
    this.pause = undefined;
  }
}
