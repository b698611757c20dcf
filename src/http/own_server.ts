// The same client limits on a component's own listener (an http_server input or output with an
// `address`) as the main server's defaults: slow-loris clients and stalled uploads are cut off.

/** Options for createServer: `http.read_header_timeout` / `read_timeout` defaults, checked every 5 s. */
export const OWN_SERVER_OPTIONS = {
  headersTimeout: 10_000,
  requestTimeout: 60_000,
  connectionsCheckingInterval: 5_000,
} as const;
