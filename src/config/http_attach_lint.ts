// An `http_server` input or output without its own `address` serves on the shared HTTP server; with
// `http.enabled: false` there is none, so the stream would wait for requests that can never come
// (and the run would end as a stall). That is a config mistake, reported where the component is.
import { isMap, isScalar, type Node, type Pair } from 'yaml';
import type { ConfigLinter } from './linter.js';

const SERVER_COMPONENTS = new Set(['input/http_server', 'output/http_server']);

/** The value of `key` in a YAML map (undefined when not a map or no such key). */
export function entryOf(map: Node | null | undefined, key: string): Node | null | undefined {
  if (!isMap(map)) return undefined;
  const pair = (map.items as Pair<Node, Node | null>[]).find((p) => isScalar(p.key) && p.key.value === key);
  return pair?.value;
}

function httpDisabled(root: Node | null): boolean {
  const enabled = entryOf(entryOf(root, 'http'), 'enabled');
  return isScalar(enabled) && (enabled.value === false || String(enabled.value).toLowerCase() === 'false');
}

function hasOwnAddress(settings: Node | null): boolean {
  const address = entryOf(settings, 'address');
  return isScalar(address) && address.value !== null && String(address.value).trim() !== '';
}

export function lintHttpAttachment(linter: ConfigLinter): void {
  if (!httpDisabled(linter.root)) return;
  for (const c of linter.components) {
    if (!SERVER_COMPONENTS.has(`${c.kind}/${c.name}`) || hasOwnAddress(c.settings)) continue;
    linter.report(
      c.node,
      `${c.name} ${c.kind} has no server to attach to: http.enabled is false and it sets no address (set an address or enable http)`,
    );
  }
}
