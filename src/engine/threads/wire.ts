// How batches cross between the main thread and a pipeline thread: every message's bytes copied
// into one ArrayBuffer, a layout of Int32s (batch sizes, each message's byte range, metadata and
// error indices), and the distinct metadata maps and error texts. One postMessage per group, the
// two buffers transferred, not cloned; messages decoded on the other side are views on the data.
import type { Batch, Message } from '../../message/message.js';
import { Message as Msg } from '../../message/message.js';

/** A group of batches (or a pipeline's results for one) as posted between threads. */
export interface Packet {
  layout: Int32Array;
  data: ArrayBuffer;
  /** Distinct metadata maps, as entry lists; a message without metadata has index -1. */
  metas: Array<Array<[string, unknown]>>;
  /** Distinct error texts; a message without an error has index -1. */
  errors: string[];
}

/** Builds a packet: batches (or result lists of batches) appended in order. */
export class PacketWriter {
  private layout = new Int32Array(256);
  private at = 0;
  /** What goes into the data, in order: a message's own bytes, or a structured value's JSON text. */
  private readonly pieces: Array<Message | string> = [];
  /** Where each JSON text's size goes in the layout (known once it is written into the data). */
  private readonly textSizeAt: number[] = [];
  private textChars = 0;
  private readonly metaIndex = new Map<ReadonlyMap<string, unknown>, number>();
  private readonly metas: Array<Array<[string, unknown]>> = [];
  private readonly errorIndex = new Map<Error, number>();
  private readonly errors: string[] = [];
  private lastMeta: ReadonlyMap<string, unknown> | null = null;
  private lastMetaIndex = -1;
  private bytes = 0;

  /** content false: each message goes as empty bytes (its metadata and error still go). */
  constructor(private readonly content = true) {}

  int(n: number): void {
    if (this.at === this.layout.length) {
      const grown = new Int32Array(this.layout.length * 2);
      grown.set(this.layout);
      this.layout = grown;
    }
    this.layout[this.at++] = n;
  }

  /** An error text's index (for a failed batch). */
  error(err: Error): number {
    let i = this.errorIndex.get(err);
    if (i === undefined) {
      i = this.errors.length;
      this.errors.push(err.message);
      this.errorIndex.set(err, i);
    }
    return i;
  }

  /**
   * `texts` (from a pipeline thread): for each message, its structured value as JSON text, or
   * null to send its bytes.
   */
  batch(batch: Batch, texts?: ReadonlyArray<string | null>): void {
    this.int(batch.length);
    for (let i = 0; i < batch.length; i++) {
      const msg = batch[i]!;
      const text = texts?.[i] ?? null;
      if (!this.content) this.int(0);
      else if (text === null) {
        const size = msg.byteSize();
        this.pieces.push(msg);
        this.int(size);
        this.bytes += size;
      } else {
        this.pieces.push(text);
        this.textSizeAt.push(this.at);
        this.int(0);
        this.textChars += text.length;
      }
      const meta = msg.metadata();
      let m = -1;
      if (meta.size > 0) {
        // Processors copy metadata maps (copy on write): one equal to the last is sent as it.
        if (meta === this.lastMeta || (this.lastMeta !== null && sameEntries(meta, this.lastMeta)))
          m = this.lastMetaIndex;
        else {
          m = this.metaIndex.get(meta) ?? -1;
          if (m === -1) {
            m = this.metas.length;
            this.metas.push([...meta]);
            this.metaIndex.set(meta, m);
          }
          this.lastMeta = meta;
          this.lastMetaIndex = m;
        }
      }
      this.int(m);
      this.int(msg.error ? this.error(msg.error) : -1);
    }
  }

  /** The packet, with the buffers to transfer. */
  finish(): { packet: Packet; transfer: ArrayBuffer[] } {
    // JSON texts take at most 3 bytes a UTF-16 unit; written straight into the data, no Buffer each.
    const data = new ArrayBuffer(this.bytes + this.textChars * 3);
    const view = Buffer.from(data);
    let at = 0;
    let text = 0;
    for (const piece of this.pieces) {
      if (typeof piece === 'string') {
        const size = view.write(piece, at, 'utf8');
        this.layout[this.textSizeAt[text++]!] = -size - 1;
        at += size;
      } else at += piece.copyBytesTo(view, at);
    }
    const layout = this.layout.slice(0, this.at);
    return {
      packet: { layout, data, metas: this.metas, errors: this.errors },
      transfer: [data, layout.buffer as ArrayBuffer],
    };
  }
}

function sameEntries(a: ReadonlyMap<string, unknown>, b: ReadonlyMap<string, unknown>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (!Object.is(b.get(k), v) || (v === undefined && !b.has(k))) return false;
  return true;
}

/** Reads a packet in the order it was written. */
export class PacketReader {
  private at = 0;
  private offset = 0;
  private readonly data: Buffer;
  private readonly metas: Array<Map<string, unknown> | undefined>;
  private readonly errors: Array<Error | undefined>;

  constructor(private readonly packet: Packet) {
    this.data = Buffer.from(packet.data);
    this.metas = new Array(packet.metas.length);
    this.errors = new Array(packet.errors.length);
  }

  int(): number {
    return this.packet.layout[this.at++]!;
  }

  error(i: number): Error {
    let err = this.errors[i];
    if (!err) {
      err = new Error(this.packet.errors[i]!);
      this.errors[i] = err;
    }
    return err;
  }

  batch(): Batch {
    const n = this.int();
    const batch: Batch = new Array(n);
    for (let i = 0; i < n; i++) {
      const sized = this.int();
      const m = this.int();
      const e = this.int();
      // Negative: a structured value's JSON text (see Message.ofStructureText).
      const size = sized < 0 ? -sized - 1 : sized;
      const msg =
        sized < 0
          ? Msg.ofStructureText(this.data, this.offset, this.offset + size)
          : Msg.ofChunk(this.data, this.offset, this.offset + size);
      this.offset += size;
      if (m >= 0) {
        let meta = this.metas[m];
        if (!meta) {
          meta = new Map(this.packet.metas[m]!);
          this.metas[m] = meta;
        }
        // Shared by the messages that shared it on the other side: copied on their first write.
        msg.shareMetadata(meta);
      }
      if (e >= 0) msg.error = this.error(e);
      batch[i] = msg;
    }
    return batch;
  }
}

/** A group of batches as a packet (main thread -> pipeline thread). */
export function writeGroup(batches: readonly Batch[]): { packet: Packet; transfer: ArrayBuffer[] } {
  const w = new PacketWriter();
  w.int(batches.length);
  for (const b of batches) w.batch(b);
  return w.finish();
}

export function readGroup(packet: Packet): Batch[] {
  const r = new PacketReader(packet);
  const n = r.int();
  const out: Batch[] = new Array(n);
  for (let i = 0; i < n; i++) out[i] = r.batch();
  return out;
}

/** What the pipeline made of each batch of a group: its batches, or the error that failed it. */
export type Outcome = Batch[] | Error;

/** For each batch of each outcome, each message's JSON text or null (see PacketWriter.batch). */
export type OutcomeTexts = Array<Array<Array<string | null>> | null>;

/** `content` false: the messages go without their content (see PacketWriter). */
export function writeOutcomes(
  outcomes: readonly Outcome[],
  texts?: OutcomeTexts,
  content = true,
): { packet: Packet; transfer: ArrayBuffer[] } {
  const w = new PacketWriter(content);
  w.int(outcomes.length);
  for (let i = 0; i < outcomes.length; i++) {
    const o = outcomes[i]!;
    if (o instanceof Error) {
      w.int(-1);
      w.int(w.error(o));
      continue;
    }
    w.int(o.length);
    const t = texts?.[i];
    for (let j = 0; j < o.length; j++) w.batch(o[j]!, t?.[j]);
  }
  return w.finish();
}

/**
 * A message's structured value as JSON text, when JSON.stringify writes exactly that value back
 * (plain objects and arrays, strings, finite numbers, booleans, null): cheaper to send than the
 * process's own serialisation (sorted keys, Go's escapes), which is made where bytes are needed.
 * Null when the message must go as its bytes.
 */
export function structureText(msg: Message): string | null {
  if (!msg.unserialised) return null;
  const value = msg.structured();
  if (typeof value !== 'object' || value === null || !plainJson(value, 0)) return null;
  return JSON.stringify(value);
}

function plainJson(v: unknown, depth: number): boolean {
  switch (typeof v) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(v);
    case 'object': {
      if (v === null) return true;
      if (depth > 64) return false;
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) if (!plainJson(v[i], depth + 1)) return false;
        return true;
      }
      const proto = Object.getPrototypeOf(v);
      if (proto !== Object.prototype && proto !== null) return false;
      for (const key in v) if (!plainJson((v as Record<string, unknown>)[key], depth + 1)) return false;
      return true;
    }
    default:
      return false;
  }
}

export function readOutcomes(packet: Packet): Outcome[] {
  const r = new PacketReader(packet);
  const n = r.int();
  const out: Outcome[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const batches = r.int();
    if (batches === -1) {
      out[i] = r.error(r.int());
      continue;
    }
    const made: Batch[] = new Array(batches);
    for (let j = 0; j < batches; j++) made[j] = r.batch();
    out[i] = made;
  }
  return out;
}
