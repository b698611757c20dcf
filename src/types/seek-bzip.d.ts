// seek-bzip ships no types; only the whole-buffer decoder nekton calls is declared.
declare module 'seek-bzip' {
  const Bunzip: {
    /** Decodes a .bz2 buffer; with `multistream`, concatenated streams decode as one. */
    decode(input: Uint8Array, output?: undefined, multistream?: boolean): Buffer;
  };
  export = Bunzip;
}
