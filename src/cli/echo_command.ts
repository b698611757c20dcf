// `nekton echo [config]`: the config after `${VAR}` substitution, `--set` and `-e` files, with
// every default filled in and secrets scrubbed as the HTTP API's reads do (the reference's `echo`,
// which also prints a config with lint problems: it is for finding them).
import { stringify } from 'yaml';
import { registry } from '../components/registry.js';
import { loadConfigFile } from '../config/loader.js';
import { schemaProvider } from '../config/schema.js';
import { scrubServiceConfig } from '../config/scrub.js';
import { SERVICE_FIELDS } from '../config/service_spec.js';
import { withDefaults } from '../config/with_defaults.js';
import { ConfigError } from '../engine/errors.js';
import type { GlobalOptions } from './main.js';

export async function echoConfig(file: string | undefined, options: GlobalOptions): Promise<number> {
  if (!file) {
    process.stderr.write(
      'nekton echo: no config given: use `nekton echo config.yaml` or `nekton -c config.yaml echo`\n',
    );
    return 1;
  }
  const provider = schemaProvider(registry);
  let raw: unknown;
  try {
    ({ raw } = await loadConfigFile(file, { provider, sets: options.set, envFiles: options.envFile }));
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    process.stderr.write(`configuration file read error: ${err.message}\n`);
    return 1;
  }
  const filled =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw)
      ? withDefaults(SERVICE_FIELDS, raw as Record<string, unknown>, { provider })
      : raw;
  process.stdout.write(toYaml(scrubServiceConfig(filled, provider)));
  return 0;
}

/** Four-space indents and no line folding, as the reference prints configs. */
export function toYaml(value: unknown): string {
  return stringify(value, { indent: 4, indentSeq: true, lineWidth: 0 });
}
