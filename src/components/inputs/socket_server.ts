// The `socket_server` input: listens on tcp, tls, unix or udp and splits what clients send into
// messages with a scanner.
import { defineComponent, field } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import { ConfigError, errorMessage } from '../../engine/errors.js';
import { parseListenAddress } from '../../listener/address.js';
import { scannerFields, scannerResolver } from './scanner_fields.js';
import { type ClientAuth, SocketServerReader } from './socket_server_reader.js';

const NO_UNIXGRAM = 'network unixgram is not supported by nekton (Node.js has no unix datagram sockets)';
const NO_REUSE_PORT = 'tcp.reuse_port is not supported by nekton on Node.js 20';

export const spec = defineComponent({
  name: 'socket_server',
  kind: 'input',
  status: 'stable',
  categories: ['Network'],
  summary: 'Creates a server that receives a stream of messages over a TCP, TLS, UDP or Unix socket.',
  description: `Each connection is split into messages by the \`scanner\` (one message per line by default). Connections are read concurrently; a connection that resets, or sends a message longer than the scanner accepts, is dropped on its own and the server goes on. The final line of a connection needs no newline when the client closes it cleanly; an unfinished line of a connection that resets is dropped.

A socket cannot be told that a message failed, so messages are acknowledged once read; with \`auto_replay_nacks\` (the default) a failed message is retried inside nekton instead of being dropped. What the server holds is bounded: a connection is not read while 1024 scanned messages wait, so a fast client is slowed down by TCP; over UDP, datagrams that arrive while 4096 wait are dropped (and counted in a warning).

With \`address_cache\` the bound address (useful with port \`0\`) is written to that cache under \`<label>_address\`, or \`socket_server_address\` without a label. \`network: tls\` needs \`tls.cert_file\` and \`tls.key_file\`, or \`tls.self_signed\` for a throwaway certificate. \`unixgram\` is not supported.`,
  fields: [
    field.enum('network', 'A network type to accept.', ['unix', 'tcp', 'udp', 'tls', 'unixgram']),
    field.string('address', 'The address to listen from.', {
      examples: ['/tmp/benthos.sock', '0.0.0.0:6000'],
    }),
    field.string('address_cache', 'A cache in which to store the bound address once listening.', {
      optional: true,
    }),
    field.object(
      'tcp',
      'TCP listener socket options.',
      [
        field.bool('reuse_addr', 'Set SO_REUSEADDR (Node.js always sets it on TCP listeners).', {
          default: false,
          advanced: true,
        }),
        field.bool('reuse_port', 'Set SO_REUSEPORT (not supported by nekton on Node.js 20).', {
          default: false,
          advanced: true,
        }),
      ],
      { optional: true, advanced: true },
    ),
    field.object(
      'tls',
      'TLS settings, used when `network` is `tls`.',
      [
        field.string('cert_file', 'A PEM certificate file.', { optional: true }),
        field.string('key_file', 'The PEM private key file of `cert_file`.', { optional: true }),
        field.bool('self_signed', 'Generate a self-signed certificate when no files are given.', {
          default: false,
        }),
        field.enum(
          'client_auth',
          'How client certificates are handled.',
          ['no', 'request', 'require_any', 'require_valid', 'verify_if_given'],
          { default: 'no' },
        ),
      ],
      { optional: true },
    ),
    field.bool('auto_replay_nacks', 'Re-deliver nacked messages inside nekton instead of dropping them.', {
      default: true,
    }),
    ...scannerFields(),
  ],
  examples: [
    {
      title: 'Lines over TCP',
      config: `input:
  socket_server:
    network: tcp
    address: 127.0.0.1:6000
output:
  stdout: {}
`,
    },
  ],
  lint: (config) => {
    const problems: string[] = [];
    if (config.network === 'unixgram') problems.push(NO_UNIXGRAM);
    if (config.tcp?.reuse_port) problems.push(NO_REUSE_PORT);
    if (['tcp', 'tls', 'udp'].includes(config.network)) {
      try {
        parseListenAddress(config.address);
      } catch (err) {
        problems.push(errorMessage(err));
      }
    }
    const tls = config.tls;
    if (config.network === 'tls' && !(tls?.cert_file && tls.key_file) && !tls?.self_signed)
      problems.push('network tls needs tls.cert_file and tls.key_file, or tls.self_signed');
    return problems;
  },
  async build(config, ctx): Promise<Input> {
    if (config.network === 'unixgram') throw new ConfigError(NO_UNIXGRAM);
    const scanner = await (await scannerResolver(config, ctx, `${ctx.path}.socket_server`))('');
    const cacheName = config.address_cache;
    const key = `${ctx.label || 'socket_server'}_address`;
    const reader = new SocketServerReader({
      network: config.network,
      address: config.address,
      scanner,
      logger: ctx.logger,
      tls: config.tls && {
        certFile: config.tls.cert_file,
        keyFile: config.tls.key_file,
        selfSigned: config.tls.self_signed,
        clientAuth: config.tls.client_auth as ClientAuth,
      },
      onListening: cacheName
        ? async (address) => {
            try {
              await ctx.resources.useCache(cacheName, (cache) => cache.set(key, Buffer.from(address)));
            } catch (err) {
              ctx.logger.error(`Failed to set address in cache: ${errorMessage(err)}`);
            }
          }
        : undefined,
    });
    return ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
  },
});
