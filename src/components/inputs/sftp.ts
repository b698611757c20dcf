// The `sftp` input: reads files from an SFTP server, one after another, through a scanner;
// optionally watches the paths for new files, remembering the ones consumed in a cache resource.
import { defineComponent, field, type RawConfigOf } from '../../config/spec.js';
import type { Input } from '../../engine/component.js';
import { ConfigError } from '../../engine/errors.js';
import { scannerField } from '../scanners/scanner.js';
import { connectionFields, lintConnection } from '../sftp/connection_fields.js';
import { type PathProvider, StaticPaths, WatchedPaths } from '../sftp/path_providers.js';
import { SftpReader } from '../sftp/reader.js';
import { SftpSession } from '../sftp/session.js';
import { CODEC_OPTIONS, scannerResolver } from './scanner_fields.js';

const fields = [
  ...connectionFields(),
  field.int('max_sftp_sessions', 'The maximum number of SFTP sessions.', { default: 10, advanced: true }),
  field.array(
    field.string(
      'paths',
      'A list of paths to consume sequentially. Glob patterns (`*`, `?`, `[a-z]`) are supported.',
      {
        examples: [['/data/in/*.ndjson']],
      },
    ),
  ),
  field.bool('auto_replay_nacks', 'Re-deliver nacked messages inside nekton instead of failing them.', {
    default: true,
  }),
  field.string('codec', 'Deprecated: use `scanner`. How the bytes are split into messages.', {
    optional: true,
    deprecated: true,
    options: CODEC_OPTIONS,
  }),
  field.int('max_buffer', 'Deprecated: the largest message the `codec` accepts.', {
    default: 1000000,
    deprecated: true,
  }),
  scannerField('scanner', 'How each file is split into messages; the whole file is one message by default.', {
    default: { to_the_end: {} },
    optional: true,
  }),
  field.bool('delete_on_finish', 'Whether to delete files from the server once they are processed.', {
    default: false,
    advanced: true,
  }),
  field.object(
    'watcher',
    'An experimental mode whereby the input will periodically scan the target paths for new files and consume them, when all files are consumed the input will continue polling for new files.',
    [
      field.bool('enabled', 'Whether file watching is enabled.', { default: false }),
      field.duration(
        'minimum_age',
        'How long since a file was last updated before it is consumed, avoiding partially written files.',
        { default: '1s', examples: ['10s', '1m', '10m'] },
      ),
      field.duration(
        'poll_interval',
        'The interval between each attempt to scan the target paths for new files.',
        {
          default: '1s',
          examples: ['100ms', '1s'],
        },
      ),
      field.string('cache', 'A cache resource storing the paths of files already consumed.', { default: '' }),
    ],
  ),
] as const;

function lint(config: RawConfigOf<typeof fields>): string[] {
  const problems = lintConnection(config);
  if (config.watcher?.enabled && config.watcher.cache === '')
    problems.push('watcher.cache: a cache resource is required when watcher.enabled is true');
  return problems;
}

export const spec = defineComponent({
  name: 'sftp',
  kind: 'input',
  status: 'stable',
  categories: ['Network'],
  summary: 'Consumes files from an SFTP server.',
  description:
    "Expands `paths` on the server at the first connect (glob patterns as the reference has them: `*`, `?` and `[a-z]` within one path segment) and reads the files one after another, splitting each into messages with the `scanner` (the whole file is one message by default). The input ends once every file is read, unless the watcher is enabled: then it polls the paths every `poll_interval` for files older than `minimum_age` that the `cache` resource does not list yet, and never ends.\n\nEach message carries the metadata `sftp_path` and `sftp_mod_time` (a timestamp). With `delete_on_finish` a file is deleted only once every message of it was delivered. A file whose read breaks off because the server went away is read again from the start once the input has reconnected, so its first messages may arrive twice (at least once). Files are read over one SFTP session, so `max_sftp_sessions` is accepted and not used. Without `host_public_key` or `host_public_key_file` the server's key must be listed in `~/.ssh/known_hosts`.",
  fields,
  lint,
  examples: [
    {
      title: 'JSON lines files of a directory, deleted once delivered',
      config: `input:
  sftp:
    address: sftp.example.com:22
    credentials:
      username: nekton
      password: \${SFTP_PASSWORD}
      host_public_key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIGGyBO2mFw5eQshL1swC6q99PvEJTeICAnnSVdjCaDxI
    paths: [ /exports/*.ndjson ]
    delete_on_finish: true
    scanner:
      lines: {}
output:
  stdout: {}
`,
    },
  ],
  async build(config, ctx): Promise<Input> {
    const session = await SftpSession.resolve(config, 'sftp');
    const scannerFor = await scannerResolver(config, ctx, `${ctx.path}.sftp`);
    let paths: PathProvider;
    if (config.watcher.enabled) {
      if (!ctx.resources.has('cache', config.watcher.cache))
        throw new ConfigError(`sftp: watcher.cache: cache resource '${config.watcher.cache}' was not found`);
      paths = new WatchedPaths(
        config.paths,
        {
          cache: config.watcher.cache,
          pollIntervalMs: config.watcher.poll_interval,
          minimumAgeMs: config.watcher.minimum_age,
        },
        ctx.resources,
        ctx.logger,
      );
    } else paths = new StaticPaths(config.paths, ctx.logger);
    const reader = new SftpReader(session, paths, scannerFor, config.delete_on_finish, ctx.logger);
    return ctx.wrapReader(reader, { autoReplayNacks: config.auto_replay_nacks });
  },
});
