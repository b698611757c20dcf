// A message: raw bytes, metadata and an error flag, with its parsed JSON cached so a chain of
// processors parses once. Bytes are produced lazily from the structure after a mapping sets it.
import { parseJson, stringifyJson } from './json.js';

export type Metadata = Map<string, unknown>;

const NOT_PARSED: unique symbol = Symbol('not parsed');
// Buffer.from is faster than TextEncoder for the short strings messages mostly are (pooled memory).
const encode = (text: string): Uint8Array => Buffer.from(text, 'utf8');
/**
 * A structured value still as the JSON.stringify text a pipeline thread sent it as
 * (engine/threads/wire.ts): parsed on first use. Its bytes are not this text but what this
 * process serialises from the value, as for any structured message.
 */
class StructureText {
  constructor(
    readonly chunk: Buffer,
    readonly start: number,
    readonly end: number,
  ) {}

  parse(): unknown {
    return JSON.parse(this.chunk.toString('utf8', this.start, this.end));
  }
}

/** String.prototype.isWellFormed (Node 20; not in the ES2023 lib this project compiles against). */
const isWellFormed = (text: string): boolean =>
  (text as unknown as { isWellFormed(): boolean }).isWellFormed();

/** Shared by every message created without metadata; copied on the first write (no Map per message). */
const NO_METADATA: Metadata = new Map();

/**
 * Where a `sync_response` output leaves results for the request a message came from (an
 * `http_server` request waiting for its answer); see components/sync_response_store.ts.
 */
export interface ResponseSink {
  add(batch: Message[]): void;
  messages(): Message[];
}

export class Message {
  private rawBytes: Uint8Array | null;
  /**
   * Content still inside the chunk a scanner read (`ofChunk`): the view on it is made only when
   * asked for, so a line costs no Uint8Array while it waits in flight (W1: a third of the bytes
   * allocated per line, and the part that survived into garbage collections).
   */
  private chunk: Buffer | null = null;
  private chunkStart = 0;
  private chunkEnd = 0;
  private structure: unknown | typeof NOT_PARSED = NOT_PARSED;
  /**
   * Content set as text (`setBytes` of a string) and not encoded yet: most such text is read as
   * text again or written by outputs that take strings, and `drop` reads nothing. When set, it is
   * the content, and `rawBytes` (once made) is its UTF-8.
   */
  private pendingText: string | null = null;
  private meta: Metadata;
  private metaShared: boolean;
  /** Set when a processor failed on this message; `catch`/`try` and error-aware outputs read it. */
  error: Error | null = null;
  /**
   * The request this message answers to (sync_response_store.ts reads and sets it; copies do not
   * inherit it, the engine passes it on). A field, not a WeakMap entry: ephemeron bookkeeping cost
   * ~1 µs per HTTP request in the garbage collector and write barriers.
   */
  responseSink: ResponseSink | null = null;

  constructor(bytes: Uint8Array | string | null = null, metadata?: Metadata, metaShared = false) {
    this.rawBytes = typeof bytes === 'string' ? encode(bytes) : bytes;
    this.meta = metadata ?? NO_METADATA;
    this.metaShared = metadata === undefined || metaShared;
  }

  /** A message whose content is chunk[start, end), without a view on it until one is needed. */
  static ofChunk(chunk: Buffer, start: number, end: number): Message {
    const msg = new Message(null);
    msg.chunk = chunk;
    msg.chunkStart = start;
    msg.chunkEnd = end;
    return msg;
  }

  /** A message whose content is a structured value; bytes are serialised only when asked for. */
  static fromStructured(value: unknown, metadata?: Metadata): Message {
    const msg = new Message(null, metadata);
    msg.structure = value;
    return msg;
  }

  /**
   * A message whose content is a structured value sent by a pipeline thread as JSON text
   * (chunk[start, end)); see StructureText.
   */
  static ofStructureText(chunk: Buffer, start: number, end: number): Message {
    const msg = new Message(null);
    msg.structure = new StructureText(chunk, start, end);
    return msg;
  }

  /** The content is a structured value only: no bytes were made of it yet. */
  get unserialised(): boolean {
    return (
      this.rawBytes === null &&
      this.pendingText === null &&
      this.chunk === null &&
      this.structure !== NOT_PARSED
    );
  }

  bytes(): Uint8Array {
    if (this.rawBytes === null) {
      if (this.pendingText !== null) {
        this.rawBytes = encode(this.pendingText);
        return this.rawBytes;
      }
      if (this.chunk !== null) {
        this.rawBytes = this.chunk.subarray(this.chunkStart, this.chunkEnd);
        this.chunk = null;
        return this.rawBytes;
      }
      if (this.structure instanceof StructureText) this.structure = this.structure.parse();
      const s = this.structure;
      this.rawBytes =
        s instanceof Uint8Array
          ? s
          : encode(typeof s === 'string' ? s : stringifyJson(s === NOT_PARSED ? null : s));
    }
    return this.rawBytes;
  }

  /** The content as a UTF-8 string. */
  text(): string {
    if (this.pendingText !== null) return this.pendingText;
    if (this.rawBytes === null) {
      if (this.chunk !== null) return this.chunk.toString('utf8', this.chunkStart, this.chunkEnd);
      if (typeof this.structure === 'string') return this.structure;
    }
    const bytes = this.bytes();
    // Scanned and encoded payloads are Buffers already: decode without a second view.
    if (Buffer.isBuffer(bytes)) return bytes.toString('utf8');
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  }

  setBytes(bytes: Uint8Array | string): void {
    // Text with a lone surrogate is encoded now: its UTF-8 (U+FFFD) does not read back as the same text.
    if (typeof bytes === 'string' && isWellFormed(bytes)) {
      this.pendingText = bytes;
      this.rawBytes = null;
    } else {
      this.pendingText = null;
      this.rawBytes = typeof bytes === 'string' ? encode(bytes) : bytes;
    }
    this.chunk = null;
    this.structure = NOT_PARSED;
  }

  /** The content parsed as JSON (cached). Throws a SyntaxError when the bytes are not JSON. */
  structured(): unknown {
    if (this.structure === NOT_PARSED) this.structure = parseJson(this.text());
    else if (this.structure instanceof StructureText) this.structure = this.structure.parse();
    return this.structure;
  }

  /** True when the parsed structure is already cached (no parse cost to read it). */
  hasStructure(): boolean {
    return this.structure !== NOT_PARSED && !(this.structure instanceof StructureText);
  }

  /** Replaces the content with a structured value; the caller must not mutate it afterwards. */
  setStructured(value: unknown): void {
    this.structure = value;
    this.rawBytes = null;
    this.pendingText = null;
    this.chunk = null;
  }

  getMeta(key: string): unknown {
    return this.meta.get(key);
  }

  setMeta(key: string, value: unknown): void {
    this.ownMeta().set(key, value);
  }

  deleteMeta(key: string): void {
    if (this.meta.has(key)) this.ownMeta().delete(key);
  }

  /** Read-only view of every metadata entry. */
  metadata(): ReadonlyMap<string, unknown> {
    return this.meta;
  }

  /**
   * Uses `metadata` as this message's metadata without copying it, until the message writes to it.
   * Lets a source give every message of one file or connection the same entries at no cost.
   */
  shareMetadata(metadata: Metadata): void {
    this.meta = metadata;
    this.metaShared = true;
  }

  replaceMetadata(metadata: Metadata): void {
    this.meta = metadata;
    this.metaShared = false;
  }

  /** A copy sharing bytes, structure and metadata until either side writes (copy on write). */
  copy(): Message {
    const out = new Message(this.rawBytes, this.meta, true);
    out.chunk = this.chunk;
    out.chunkStart = this.chunkStart;
    out.chunkEnd = this.chunkEnd;
    out.structure = this.structure;
    out.pendingText = this.pendingText;
    out.error = this.error;
    this.metaShared = true;
    return out;
  }

  /** Payload size in bytes, as batching policies and bounds checks count it. */
  byteSize(): number {
    if (this.rawBytes === null && this.chunk !== null) return this.chunkEnd - this.chunkStart;
    if (this.rawBytes === null && this.pendingText !== null)
      return Buffer.byteLength(this.pendingText, 'utf8');
    return this.bytes().byteLength;
  }

  /**
   * The bytes of content this message holds, without serialising anything: 0 for a structured value
   * that was never bytes (the stream's byte budget counts what inputs read).
   */
  heldBytes(): number {
    if (this.rawBytes !== null) return this.rawBytes.byteLength;
    if (this.chunk !== null) return this.chunkEnd - this.chunkStart;
    if (this.pendingText !== null) return this.pendingText.length;
    return 0;
  }

  /** The chunk holding the content while no view on it was made (see ofChunk), else null. */
  get sourceChunk(): Buffer | null {
    return this.rawBytes === null ? this.chunk : null;
  }

  /** Where the content starts in `sourceChunk`. */
  get sourceStart(): number {
    return this.chunkStart;
  }

  /** Where the content ends in `sourceChunk` (exclusive). */
  get sourceEnd(): number {
    return this.chunkEnd;
  }

  /** Copies the content into `target` at `at` (no view made of a chunk's content); returns the bytes copied. */
  copyBytesTo(target: Uint8Array, at: number): number {
    if (this.rawBytes === null && this.chunk !== null)
      return this.chunk.copy(target, at, this.chunkStart, this.chunkEnd);
    const bytes = this.bytes();
    target.set(bytes, at);
    return bytes.byteLength;
  }

  /** Whether the content ends with `suffix` (false for an empty suffix). */
  endsWith(suffix: Uint8Array): boolean {
    const n = suffix.length;
    if (n === 0) return false;
    let source: Uint8Array;
    let end: number;
    if (this.rawBytes === null && this.chunk !== null) {
      source = this.chunk;
      end = this.chunkEnd;
      if (end - this.chunkStart < n) return false;
    } else {
      source = this.bytes();
      end = source.length;
      if (end < n) return false;
    }
    for (let i = 0; i < n; i++) if (source[end - n + i] !== suffix[i]) return false;
    return true;
  }

  private ownMeta(): Metadata {
    if (this.metaShared) {
      this.meta = new Map(this.meta);
      this.metaShared = false;
    }
    return this.meta;
  }
}

/** Messages travel in batches; most inputs produce batches of one. */
export type Batch = Message[];

/** Copies of every message (copy on write: cheap until either side changes one). */
export function copyBatch(batch: Batch): Batch {
  return batch.map((msg) => msg.copy());
}

/**
 * Serialises every message's content now (bytes are cached), throwing the error of the first
 * that cannot be (a structure holding NaN, say). For writers that hand bytes to a callback or
 * a timer later, where a throw would be uncaught: they fail the write up front instead.
 */
export function serialiseBatch(batch: Batch): void {
  for (let i = 0; i < batch.length; i++) batch[i]!.bytes();
}
