// TLS on both OTLP transports: the inputs serve TLS from cert_file/key_file; the outputs reach them
// with tls.skip_cert_verify, and fail without it (a self-signed certificate).
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { OtlpGrpcReader } from '../../../src/components/inputs/otlp_grpc.js';
import { OtlpHttpReader } from '../../../src/components/inputs/otlp_http.js';
import { otlpGrpcInputFields, otlpHttpInputFields } from '../../../src/components/otlp/fields.js';
import { spec as grpcOutput } from '../../../src/components/outputs/otlp_grpc.js';
import { spec as httpOutput } from '../../../src/components/outputs/otlp_http.js';
import { Message } from '../../../src/message/message.js';
import { createTestContext } from '../../helpers/context.js';
import { configOf, parsedConfigOf } from '../reference.js';

const ONE_SPAN = {
  resourceSpans: [
    {
      scopeSpans: [
        { spans: [{ traceId: '0102030405060708090a0b0c0d0e0f10', spanId: '0102030405060708', name: 'tls' }] },
      ],
    },
  ],
};

describe('otlp over TLS', () => {
  let dir = '';
  let tls = { enabled: true, cert_file: '', key_file: '' };
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'nekton-otlp-tls-'));
    tls = { enabled: true, cert_file: join(dir, 'cert.pem'), key_file: join(dir, 'key.pem') };
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=localhost'].concat([
        '-addext',
        'subjectAltName=DNS:localhost,IP:127.0.0.1',
        '-keyout',
        tls.key_file,
        '-out',
        tls.cert_file,
      ]),
      { stdio: 'ignore' },
    );
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('otlp_http: https input, output with skip_cert_verify; refused without it', async () => {
    const ctx = createTestContext();
    const reader = new OtlpHttpReader(
      parsedConfigOf(otlpHttpInputFields, ctx, { address: '127.0.0.1:0', tls }),
      ctx,
    );
    await reader.connect();
    const endpoint = `https://127.0.0.1:${reader.boundAddress()?.port}`;
    const trusting = await httpOutput.build(
      configOf(httpOutput, {
        endpoint,
        tls: { enabled: true, skip_cert_verify: true, cert_file: '', key_file: '' },
      }),
      ctx,
    );
    const strict = await httpOutput.build(configOf(httpOutput, { endpoint }), ctx);
    try {
      const written = trusting.write([Message.fromStructured(ONE_SPAN)]);
      const txn = await reader.read();
      assert.equal((txn?.batch[0]?.structured() as { name: string } | undefined)?.name, 'tls');
      await txn?.ack(null);
      await written;
      await assert.rejects(strict.write([Message.fromStructured(ONE_SPAN)]), /certificate/i);
    } finally {
      await trusting.close();
      await strict.close();
      await reader.close();
    }
  });

  it('otlp_grpc: TLS input, output with skip_cert_verify', async () => {
    const ctx = createTestContext();
    const reader = new OtlpGrpcReader(
      parsedConfigOf(otlpGrpcInputFields, ctx, { address: '127.0.0.1:0', tls }),
      ctx,
    );
    await reader.connect();
    const output = await grpcOutput.build(
      configOf(grpcOutput, {
        endpoint: `127.0.0.1:${reader.boundPort()}`,
        tls: { enabled: true, skip_cert_verify: true, cert_file: '', key_file: '' },
      }),
      ctx,
    );
    try {
      const written = output.write([Message.fromStructured(ONE_SPAN)]);
      const txn = await reader.read();
      assert.equal((txn?.batch[0]?.structured() as { name: string } | undefined)?.name, 'tls');
      await txn?.ack(null);
      await written;
    } finally {
      await output.close();
      await reader.close();
    }
  });
});
