// A throwaway self-signed certificate (ECDSA P-256), for `tls.self_signed` listeners. Written
// here in ~60 lines of DER with node:crypto rather than taking a dependency tree (the npm
// `selfsigned` package pulls @peculiar/x509, pkijs and their ASN.1 stacks) for one rarely used switch.
import { generateKeyPairSync, randomBytes, sign } from 'node:crypto';

function der(tag: number, ...parts: Buffer[]): Buffer {
  const body = Buffer.concat(parts);
  const n = body.length;
  let length: Buffer;
  if (n < 0x80) length = Buffer.from([n]);
  else if (n < 0x100) length = Buffer.from([0x81, n]);
  else length = Buffer.from([0x82, n >> 8, n & 0xff]);
  return Buffer.concat([Buffer.from([tag]), length, body]);
}

const seq = (...parts: Buffer[]) => der(0x30, ...parts);
const oid = (hex: string) => der(0x06, Buffer.from(hex, 'hex'));
const utf8 = (text: string) => der(0x0c, Buffer.from(text, 'utf8'));

/** UTCTime (YYMMDDHHMMSSZ), valid for dates before 2050. */
function utcTime(date: Date): Buffer {
  const iso = date.toISOString();
  const text = `${iso.slice(2, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
  return der(0x17, Buffer.from(text, 'ascii'));
}

const ECDSA_WITH_SHA256 = seq(oid('2a8648ce3d040302'));
// CN=nekton
const NAME = seq(der(0x31, seq(oid('550403'), utf8('nekton'))));

/** A PEM certificate and key valid from an hour ago for a year. */
export function selfSignedCertificate(): { cert: string; key: string } {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const serial = randomBytes(16);
  serial[0] = (serial[0]! & 0x7f) | 0x01; // positive, no leading zero
  const now = Date.now();
  const tbs = seq(
    der(0xa0, der(0x02, Buffer.from([2]))), // version v3
    der(0x02, serial),
    ECDSA_WITH_SHA256,
    NAME,
    seq(utcTime(new Date(now - 3_600_000)), utcTime(new Date(now + 365 * 86_400_000))),
    NAME,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certDer = seq(tbs, ECDSA_WITH_SHA256, der(0x03, Buffer.from([0]), signature));
  const body = certDer.toString('base64').replace(/.{64}/g, '$&\n');
  return {
    cert: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`,
    key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}
