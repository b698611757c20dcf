// What lint can check of the auth and proxy fields without a network or the key file: a config
// that passes can be built (the key file itself is read at build, naming its field).

import { redactUrl } from '../../connection/urls.js';
import { JWT_METHODS } from './jwt.js';
import { proxyUrlProblem } from './proxy.js';

export interface AuthLintConfig {
  oauth2?: { enabled?: boolean; token_url?: string; endpoint_params?: Record<string, unknown> };
  jwt?: { enabled?: boolean; signing_method?: string; private_key_file?: string };
  proxy_url?: string;
}

export function authLint(config: AuthLintConfig): string[] {
  const problems: string[] = [];
  const { oauth2, jwt } = config;
  if (oauth2?.enabled) {
    const url = oauth2.token_url ?? '';
    if (!isHttpUrl(url))
      problems.push(
        `oauth2.token_url: ${url ? JSON.stringify(redactUrl(url)) : 'an empty value'} is not an http(s) URL`,
      );
  }
  // The reference's lint rule: each endpoint parameter is a list of strings.
  for (const [k, v] of Object.entries(oauth2?.endpoint_params ?? {})) {
    if (!Array.isArray(v) || v.some((s) => typeof s !== 'string'))
      problems.push(`oauth2.endpoint_params.${k}: must be a list of strings`);
  }
  if (jwt?.enabled) {
    const method = jwt.signing_method ?? '';
    if (!JWT_METHODS[method])
      problems.push(
        `jwt.signing_method: ${JSON.stringify(method)} is not one of ${Object.keys(JWT_METHODS).join(', ')}`,
      );
    if (!jwt.private_key_file) problems.push('jwt.private_key_file: a key file is required');
  }
  if (config.proxy_url) {
    const problem = proxyUrlProblem(config.proxy_url);
    if (problem) problems.push(problem);
  }
  return problems;
}

function isHttpUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}
