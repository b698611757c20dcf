// Types for doc_mapping.mjs, so the bench can embed the same function in the Node-RED flow.
export function mapDocument(d: unknown): Record<string, unknown>;
