// jq-web ships no types: its export is a promise of jq compiled to WebAssembly (jq 1.7).
declare module 'jq-web' {
  interface JqModule {
    /** Runs jq over `input` as `echo input | jq flags filter`; returns stdout, throws on a non-zero exit. */
    raw(input: string, filter: string, flags?: string[]): string | undefined;
    json(value: unknown, filter: string): unknown;
  }
  const jq: Promise<JqModule>;
  export = jq;
}
