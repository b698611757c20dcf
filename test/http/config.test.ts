import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base64Problem, defaultHttpConfig, type HttpConfigInput } from '../../src/http/config.js';
import { HttpServer } from '../../src/http/server.js';
import { parseListenAddress } from '../../src/listener/address.js';

function refusal(config: HttpConfigInput): string {
  try {
    new HttpServer({ config });
  } catch (err) {
    return (err as Error).message;
  }
  return 'accepted';
}

const auth = {
  enabled: true,
  username: 'myuser',
  password_hash: 'Xr4ilOzQ4PCOq3aQ0qbuaQ==',
  algorithm: 'md5',
};

describe('http config startup validation', () => {
  it('has the documented defaults', () => {
    const config = defaultHttpConfig();
    assert.equal(config.address, '0.0.0.0:4195');
    assert.equal(config.root_path, '/nekton');
    assert.equal(config.basic_auth.realm, 'restricted');
    assert.equal(config.basic_auth.algorithm, 'sha256');
  });

  it('wants both cert_file and key_file or neither', () => {
    const message = 'both cert_file and key_file must be specified, or neither';
    assert.equal(refusal({ cert_file: 'c.pem' }), message);
    assert.equal(refusal({ key_file: 'k.pem' }), message);
  });

  it('refuses CORS without origins (scenario 51)', () => {
    assert.match(refusal({ cors: { enabled: true } }), /must specify at least one allowed origin/);
    assert.equal(refusal({ cors: { enabled: false } }), 'accepted');
  });

  it('wants a username and password_hash for basic auth', () => {
    const message = 'both username and password_hash are required';
    assert.equal(refusal({ basic_auth: { enabled: true, password_hash: 'abc=' } }), message);
    assert.equal(refusal({ basic_auth: { enabled: true, username: 'u' } }), message);
  });

  it('names the supported algorithms', () => {
    assert.equal(
      refusal({ basic_auth: { ...auth, algorithm: 'sha1' } }),
      'algorithm should be one of md5, sha256, bcrypt, or scrypt',
    );
  });

  it('wants a valid base64 salt for scrypt', () => {
    assert.equal(refusal({ basic_auth: { ...auth, algorithm: 'scrypt' } }), 'salt is required for scrypt');
    assert.equal(
      refusal({ basic_auth: { ...auth, algorithm: 'scrypt', salt: 'not base64!' } }),
      'invalid salt : illegal base64 data at input byte 3',
    );
    const scryptHash = 'eJ01V0+YCJxHraokLp79ijKS0z1jzVQ3vFtGx5UEEiY=';
    assert.equal(
      refusal({
        basic_auth: {
          ...auth,
          algorithm: 'scrypt',
          password_hash: scryptHash,
          salt: 'EzrwNJYw2wkErVVV1P36FQ==',
        },
      }),
      'accepted',
    );
  });

  it('refuses an address without a usable port', () => {
    assert.match(refusal({ address: 'localhost' }), /missing port/);
    assert.match(refusal({ address: 'localhost:http' }), /invalid port/);
  });
});

describe('parseListenAddress', () => {
  it('reads Go host:port forms', () => {
    assert.deepEqual(parseListenAddress('0.0.0.0:4195'), { host: '0.0.0.0', port: 4195 });
    assert.deepEqual(parseListenAddress(':4195'), { host: undefined, port: 4195 });
    assert.deepEqual(parseListenAddress('[::1]:0'), { host: '::1', port: 0 });
  });
});

describe('base64Problem', () => {
  it('accepts padded standard base64 and reports Go’s first bad byte otherwise', () => {
    assert.equal(base64Problem('K7gNU3sdo+OL0wNhqoVWhr3g6s1xYv72ol/pe/Unols='), undefined);
    assert.equal(base64Problem(''), undefined);
    assert.equal(base64Problem('abc'), 'illegal base64 data at input byte 0');
    assert.equal(base64Problem('ab-_'), 'illegal base64 data at input byte 2');
    assert.equal(base64Problem('ab=c'), 'illegal base64 data at input byte 3');
  });
});
