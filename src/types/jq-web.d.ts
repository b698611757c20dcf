// jq-web ships no types: its export is a promise of jq compiled to WebAssembly (jq 1.7); the
// shape nekton uses is JqModule in src/components/processors/jq_runtime.ts.
declare module 'jq-web' {
  const jq: Promise<unknown>;
  export = jq;
}
