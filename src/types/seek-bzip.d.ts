// seek-bzip ships no types. Declared: the whole-buffer decoder, and the block-level steps its own
// decode() loop is made of, which nekton drives one block at a time (src/base/decompression/bzip2.ts).
declare module 'seek-bzip' {
  namespace Bunzip {
    interface BzipInput {
      readByte(): number;
      read(buffer: Uint8Array, offset: number, length: number): number;
      seek(pos: number): void;
    }
    interface BzipOutput {
      writeByte(byte: number): void;
    }
    interface BitReader {
      read(bits: number): number;
    }
    interface BlockCRC {
      updateCRCRun(byte: number, count: number): void;
      getCRC(): number;
    }
    interface BunzipState {
      reader: BitReader;
      streamCRC: number;
      /** The current block after the inverse BWT: each entry a byte (low 8 bits) and the next index. */
      dbuf: Uint32Array;
      writePos: number;
      writeCurrent: number;
      /** Entries of dbuf left to output; -1 after the last block. */
      writeCount: number;
      writeRun: number;
      blockCRC: BlockCRC;
      targetBlockCRC: number;
      /** Reads the next block's header and tables; false at the end-of-stream marker. */
      _init_block(): boolean;
      /** Writes the current block's bytes to the output stream (and checks its CRC). */
      _read_bunzip(): number;
      /** Reads a stream header ("BZh1".."BZh9") from the input. */
      _start_bunzip(input: BzipInput, output: BzipOutput): void;
    }
  }
  const Bunzip: {
    new (input: Bunzip.BzipInput, output: Bunzip.BzipOutput): Bunzip.BunzipState;
    /** Decodes a .bz2 buffer; with `multistream`, concatenated streams decode as one. */
    decode(input: Uint8Array, output?: undefined, multistream?: boolean): Buffer;
  };
  export = Bunzip;
}
