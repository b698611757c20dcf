// The config body readers of api_body.ts for the API handlers: the same results, but parsing,
// the lint's Bloblang checks and conversion pause for the event loop between time slices, so a
// big body (1 MiB of mappings is seconds of CPU) never stops the server answering.
import type { ComponentConfig } from '../engine/context.js';
import type { TimeSlicer } from '../engine/time_slicer.js';
import {
  type BodyOptions,
  type BodyResult,
  convertComponent,
  convertStreams,
  interpolated,
  type StreamEntry,
  streamsLints,
} from './api_body.js';
import { type BloblangChecker, bloblangChecker } from './bloblang_check.js';
import { lintInSlices } from './bloblang_precheck.js';
import { formatApiLint, type Lint } from './lint.js';
import { lintComponentConfig, lintStreamConfig, lintStreamsBody } from './lint_config.js';
import type { ConfigKind } from './schema.js';
import { type StreamConfig, toStreamConfig } from './service_config.js';
import { buildLineIndex, yamlToValue } from './yaml_document.js';
import { parseYamlSliced } from './yaml_sliced.js';

/** readStreamBody in time slices. */
export async function readStreamBodySliced(
  text: string,
  options: BodyOptions,
  slicer: TimeSlicer,
): Promise<BodyResult<StreamConfig>> {
  const parsed = await parseYamlSliced(interpolated(text, options), slicer);
  await slicer.pause();
  const lints = await lintUnlessChilled(options, slicer, (bloblang) =>
    lintStreamConfig(parsed, { ...options, bloblang }),
  );
  if (lints.length > 0) return { ok: false, lints: lints.map(formatApiLint) };
  await slicer.pause();
  const raw = yamlToValue(parsed);
  await slicer.pause();
  const lines = buildLineIndex(parsed);
  await slicer.pause();
  const config = toStreamConfig(raw, { provider: options.provider, lines });
  return withPosted({ ok: true, config, raw }, text, options, slicer);
}

/** readComponentBody in time slices. */
export async function readComponentBodySliced(
  text: string,
  kind: ConfigKind,
  options: BodyOptions,
  slicer: TimeSlicer,
): Promise<BodyResult<ComponentConfig>> {
  const parsed = await parseYamlSliced(interpolated(text, options), slicer);
  await slicer.pause();
  const lints = await lintUnlessChilled(options, slicer, (bloblang) =>
    lintComponentConfig(parsed, kind, { ...options, bloblang }),
  );
  if (lints.length > 0) return { ok: false, lints: lints.map(formatApiLint) };
  await slicer.pause();
  return withPosted(convertComponent(parsed, kind, options), text, options, slicer);
}

/** readStreamsBody in time slices. */
export async function readStreamsBodySliced(
  text: string,
  options: Omit<BodyOptions, 'env'>,
  slicer: TimeSlicer,
): Promise<BodyResult<Map<string, StreamEntry>>> {
  const parsed = await parseYamlSliced(text, slicer);
  await slicer.pause();
  if (!options.chilled) {
    const lints = streamsLints(
      await lintInSlices(
        (bloblang) => lintStreamsBody(parsed, { ...options, bloblang }),
        options.bloblang ?? bloblangChecker,
        slicer,
      ),
    );
    if (lints.length > 0) return { ok: false, lints };
  }
  await slicer.pause();
  return convertStreams(parsed, options);
}

function lintUnlessChilled(
  options: Pick<BodyOptions, 'chilled' | 'bloblang'>,
  slicer: TimeSlicer,
  lint: (bloblang: BloblangChecker) => Lint[],
): Promise<Lint[]> {
  if (options.chilled) return Promise.resolve([]);
  return lintInSlices(lint, options.bloblang ?? bloblangChecker, slicer);
}

/** The body as posted (`${VAR}` unexpanded) when it differs, as readStreamBody gives it. */
async function withPosted<C>(
  result: BodyResult<C>,
  text: string,
  options: BodyOptions,
  slicer: TimeSlicer,
): Promise<BodyResult<C>> {
  if (!result.ok || !options.env || !text.includes('${')) return result;
  let posted: unknown;
  try {
    posted = yamlToValue(await parseYamlSliced(text, slicer));
  } catch {
    posted = null;
  }
  return { ...result, posted };
}
