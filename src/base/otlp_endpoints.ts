// The reference's OTLP endpoint lists (`http: [{address, url, secure}]`, `grpc: [...]`), as URLs
// the OpenTelemetry exporters take. `address` is the current field and wins over the deprecated
// `url`; both are `host:port`, or a full URL (then kept).

export interface EndpointSettings {
  address?: string;
  url?: string;
  secure?: boolean;
}

/** `http(s)://host:port` for an endpoint, with `path` appended when it named only host and port. */
export function endpointUrl(endpoint: EndpointSettings, fallback: string, path = ''): string {
  const written = (endpoint.address || endpoint.url || fallback).trim();
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(written)) {
    const url = new URL(written);
    if (path && (url.pathname === '/' || url.pathname === '')) url.pathname = path;
    return url.toString();
  }
  return `${endpoint.secure ? 'https' : 'http'}://${written}${path}`;
}
