// Hides credentials written inside ordinary text: URL and DSN passwords, `password=...` pairs and
// sensitive header values. Used on config reads, logs, errors and the debug endpoints, so a secret
// given in a non-secret field (a `url`, a `dsn`, a header) never leaves the process either.

export const SCRUBBED = '!!!SECRET_SCRUBBED!!!';

/** A value that is only a `${VAR}` reference: it names the secret without holding it. */
const ENV_REFERENCE = /^\$\{[0-9A-Za-z_.]+(\|[0-9A-Za-z]+)?\}$/;
/** `${VAR:default}`: the default is written in the config, so it is a secret like any literal. */
const ENV_WITH_DEFAULT = /^\$\{([0-9A-Za-z_.]+):((\$\{[^}]+\})|[^}])*\}$/;

export function isEnvReference(text: string): boolean {
  return ENV_REFERENCE.test(text.trim());
}

/** A secret field's value as reads show it: a bare `${VAR}` as is, a default hidden, else scrubbed. */
export function scrubSecretValue(value: string): string {
  if (value === '' || isEnvReference(value)) return value;
  const withDefault = ENV_WITH_DEFAULT.exec(value.trim());
  return withDefault ? `\${${withDefault[1]}:${SCRUBBED}}` : SCRUBBED;
}

// `scheme://user:password@host`: the password runs to the last `@` before the host part.
const URL_USERINFO = /([a-z][a-z0-9+.-]*:\/\/[^\s:/@"'`]*):([^\s/,"'`]*)@/gi;
// Go MySQL DSNs: `user:password@tcp(host:3306)/db`, also `@unix(...)` and a bare `@(...)`.
const GO_DSN = /(^|[\s"'=(,])([^\s:@/"'=(,]+):([^\s@"']*)@((?:tcp|tcp6|unix|udp)?\()/gi;
// Key-value DSNs and query strings: `password=secret`, `sslpassword='x y'`, `Pwd=secret;`.
const SECRET_PAIR =
  /\b((?:ssl)?password|passwd|pwd|secret|client_secret|api[_-]?key|access_token|auth_token|token)(\s*=\s*)('[^']*'|"[^"]*"|[^\s;&,"')]+)/gi;
// `Authorization: Bearer abc` inside a message (a logged request, an error quoting a header).
const HEADER_LINE =
  /\b((?:proxy-)?authorization|(?:set-)?cookie|x-api-key|api-key|x-auth-token|x-access-token)(\s*:\s*)([^\r\n]+)/gi;

const keep = (secret: string) => secret === '' || secret === SCRUBBED || isEnvReference(unquote(secret));

function unquote(text: string): string {
  const first = text[0];
  return (first === "'" || first === '"') && text.endsWith(first) ? text.slice(1, -1) : text;
}

/** The text with every credential it embeds replaced by `!!!SECRET_SCRUBBED!!!`. */
export function scrubSecretText(text: string): string {
  if (text.length < 4) return text;
  let out = text;
  if (out.includes('@')) {
    out = out.replace(URL_USERINFO, (all, head: string, secret: string) =>
      keep(secret) ? all : `${head}:${SCRUBBED}@`,
    );
    out = out.replace(GO_DSN, (all, lead: string, user: string, secret: string, proto: string) =>
      keep(secret) ? all : `${lead}${user}:${SCRUBBED}@${proto}`,
    );
  }
  if (out.includes('=')) {
    out = out.replace(SECRET_PAIR, (all, key: string, eq: string, secret: string) =>
      keep(secret) ? all : `${key}${eq}${SCRUBBED}`,
    );
  }
  if (out.includes(':')) {
    out = out.replace(HEADER_LINE, (all, name: string, sep: string, value: string) =>
      keep(value.trim()) ? all : `${name}${sep}${SCRUBBED}`,
    );
  }
  return out;
}

// Header names and config keys whose value is a credential (`X-Api-Key`, `X-Auth-Token`, `token`).
const SENSITIVE_NAME =
  /^(?:(?:proxy-)?authorization|(?:set-)?cookie)$|api[-_]?key|(?:^|[-_])token$|secret|passw(?:or)?d/i;

export function isSensitiveName(name: string): boolean {
  return SENSITIVE_NAME.test(name);
}

/**
 * A config value (any shape) with embedded credentials scrubbed: strings through scrubSecretText,
 * and the string value of any key named like a credential (a header map's `Authorization`).
 */
export function scrubEmbeddedSecrets(value: unknown): unknown {
  if (typeof value === 'string') return scrubSecretText(value);
  if (Array.isArray(value)) return value.map(scrubEmbeddedSecrets);
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    out[key] =
      typeof item === 'string' && isSensitiveName(key) && !keep(item.trim())
        ? scrubSecretValue(item)
        : scrubEmbeddedSecrets(item);
  }
  return out;
}
