// Start-up: the stored streams and resources come back as they were posted, through the same
// checks as an API request (`${VAR}` expanded now, with this process's environment). Config files
// keep precedence: a stream or resource a file defines is not replaced by its stored copy. One
// that no longer builds is logged and left in the store, so the others still start.
import type { Logger } from 'pino';
import { stringify } from 'yaml';
import { readStreamBodySliced } from '../../config/api_body_sliced.js';
import { interpolateEnv } from '../../config/env_interpolation.js';
import { errorMessage } from '../../engine/errors.js';
import type { ResourceKind } from '../../engine/resources.js';
import { TimeSlicer } from '../../engine/time_slicer.js';
import type { StreamsApiContext } from '../api_context.js';
import { installResource } from '../api_resources.js';
import type { StreamDefinition } from '../manager.js';
import type { StoredRecord } from './store.js';

/** Streams restored at once: enough to overlap connects, few enough not to flood a broker. */
const STREAM_CONCURRENCY = 16;

export async function restoreStored(
  records: readonly StoredRecord[],
  ctx: StreamsApiContext,
  logger: Logger,
  { streams: startStreams = true }: { streams?: boolean } = {},
): Promise<{ streams: number; resources: number }> {
  let resources = 0;
  for (const record of records) {
    if (!record.section.endsWith('_resources')) continue;
    const kind = record.section.slice(0, -'_resources'.length) as ResourceKind;
    if (ctx.resources.has(kind, record.id)) {
      logger.warn(`${kind} resource '${record.id}': the config files define it; its stored copy is not used`);
      continue;
    }
    const text = storedText(record, ctx, logger);
    const env = record.value.interpolate ? ctx.env : undefined;
    try {
      await installResource(ctx, kind, record.id, text, { chilled: true, env });
      resources++;
    } catch (err) {
      logger.error(`stored ${kind} resource '${record.id}' was not restored: ${errorMessage(err)}`);
    }
  }
  // In a fleet the coordinator starts each stream on the one node holding its lease.
  if (!startStreams) return { streams: 0, resources };
  const streams = records.filter((r) => r.section === 'streams');
  let restored = 0;
  for (let i = 0; i < streams.length; i += STREAM_CONCURRENCY) {
    const batch = streams.slice(i, i + STREAM_CONCURRENCY);
    const results = await Promise.all(batch.map((record) => restoreStream(record, ctx, logger)));
    restored += results.filter(Boolean).length;
  }
  return { streams: restored, resources };
}

async function restoreStream(record: StoredRecord, ctx: StreamsApiContext, logger: Logger): Promise<boolean> {
  if (ctx.manager.has(record.id)) {
    logger.warn(`stream '${record.id}': a stream file defines it; its stored copy is not used`);
    return false;
  }
  try {
    await ctx.manager.create(record.id, await storedDefinition(record, ctx, logger));
    return true;
  } catch (err) {
    logger.error(`stored stream '${record.id}' was not restored: ${errorMessage(err)}`);
    return false;
  }
}

/** A stored stream config read back through the API's checks (`${VAR}` expanded now when it was posted so). */
export async function storedDefinition(
  record: StoredRecord,
  ctx: StreamsApiContext,
  logger: Logger,
): Promise<StreamDefinition> {
  const text = storedText(record, ctx, logger);
  const env = record.value.interpolate ? ctx.env : undefined;
  // Chilled: the config passed the lint gate (or was posted chilled) when it was stored.
  const options = { provider: ctx.provider, env, chilled: true, bloblang: ctx.bloblang };
  const result = await readStreamBodySliced(text, options, new TimeSlicer());
  if (!result.ok) throw new Error(result.lints.join('\n'));
  return { config: result.config, raw: result.raw, posted: result.posted };
}

/** The stored config as a body; names the `${VAR}`s this environment lacks (they expand to ""). */
export function storedText(record: StoredRecord, ctx: StreamsApiContext, logger: Logger): string {
  const text = stringify(record.value.config ?? {});
  if (record.value.interpolate) {
    const { missing } = interpolateEnv(text, ctx.env);
    if (missing.length > 0)
      logger.warn(
        `stored ${record.section} '${record.id}': unset variables ${missing.join(', ')} expand to ""`,
      );
  }
  return text;
}
