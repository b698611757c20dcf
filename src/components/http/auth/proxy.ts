// `proxy_url`: HTTP requests go to the proxy in absolute form, HTTPS and websocket connections
// through a CONNECT tunnel, as Go's http.ProxyURL does. The agents come from the proxy-agents
// packages, loaded only when a proxy is configured.
import type { AgentOptions, Agent as HttpAgent } from 'node:http';
import { ConfigError } from '../../../engine/errors.js';
import { redactUrl } from '../../connection/urls.js';

/** The proxy as a URL, or a ConfigError naming `proxy_url`; lint runs the same check. */
export function parseProxyUrl(raw: string, path: string): URL {
  const problem = proxyUrlProblem(raw);
  if (problem) throw new ConfigError(`${path}: ${problem}`);
  return new URL(raw);
}

export function proxyUrlProblem(raw: string): string | undefined {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return `proxy_url: ${JSON.stringify(redactUrl(raw))} is not a URL`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return `proxy_url: only http:// and https:// proxies are supported, not ${url.protocol}//`;
  return undefined;
}

/** Agents for plain and TLS targets; TLS options of the target go with each request. */
export async function proxyAgents(
  proxy: URL,
  options: AgentOptions,
): Promise<{ http: HttpAgent; https: HttpAgent }> {
  const [{ HttpProxyAgent }, { HttpsProxyAgent }] = await Promise.all([
    import('http-proxy-agent'),
    import('https-proxy-agent'),
  ]);
  return { http: new HttpProxyAgent(proxy, options), https: new HttpsProxyAgent(proxy, options) };
}

/** A CONNECT tunnel for any target (websockets use one for ws:// too). */
export async function tunnelAgent(proxy: URL): Promise<HttpAgent> {
  const { HttpsProxyAgent } = await import('https-proxy-agent');
  return new HttpsProxyAgent(proxy);
}
