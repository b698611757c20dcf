// JWT bearer authentication: the claims signed with the private key of `jwt.private_key_file`.
// The reference signs again for every request; its claims and headers are static and the
// signatures it allows (RSASSA-PKCS1-v1_5, Ed25519) are deterministic, so the token is the same
// every time: it is signed once here.
import { createPrivateKey, type KeyObject, sign } from 'node:crypto';
import { readFile } from 'node:fs/promises';

/** The signing methods the reference accepts, with the key type and digest each needs. */
export const JWT_METHODS: Record<string, { keyType: string; digest: string | null }> = {
  RS256: { keyType: 'rsa', digest: 'sha256' },
  RS384: { keyType: 'rsa', digest: 'sha384' },
  RS512: { keyType: 'rsa', digest: 'sha512' },
  EdDSA: { keyType: 'ed25519', digest: null },
};

export interface JwtSettings {
  private_key_file: string;
  signing_method: string;
  claims: Record<string, unknown>;
  headers: Record<string, unknown>;
}

const b64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** Reads and checks the key; every error names the field it comes from. */
export async function loadJwtKey(settings: JwtSettings): Promise<KeyObject> {
  const method = JWT_METHODS[settings.signing_method];
  if (!method)
    throw new Error(
      `jwt.signing_method: ${JSON.stringify(settings.signing_method)} is not one of ${Object.keys(JWT_METHODS).join(', ')}`,
    );
  let pem: Buffer;
  try {
    pem = await readFile(settings.private_key_file);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    throw new Error(`jwt.private_key_file: cannot read ${settings.private_key_file} (${code})`);
  }
  let key: KeyObject;
  try {
    key = createPrivateKey(pem);
  } catch {
    throw new Error(`jwt.private_key_file: ${settings.private_key_file} is not a PEM private key`);
  }
  if (key.asymmetricKeyType !== method.keyType)
    throw new Error(
      `jwt.private_key_file: ${settings.signing_method} needs an ${method.keyType} key, ${settings.private_key_file} holds ${key.asymmetricKeyType}`,
    );
  return key;
}

/** The compact JWS of the claims: `header.payload.signature`. */
export function signJwt(settings: JwtSettings, key: KeyObject): string {
  const method = JWT_METHODS[settings.signing_method];
  if (!method) throw new Error(`jwt.signing_method: ${settings.signing_method} is not supported`);
  // As the reference: typ and alg first, then the configured headers (which may replace them).
  const header = { typ: 'JWT', alg: settings.signing_method, ...settings.headers };
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(settings.claims))}`;
  return `${input}.${b64url(sign(method.digest, Buffer.from(input), key))}`;
}
