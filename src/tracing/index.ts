// The service's tracer, started from its `tracer` section. OpenTelemetry's SDK and exporters are
// imported only when a tracer is configured: `tracer: none` (the default) loads none of them and
// wraps no component.
import type { Logger } from 'pino';
import type { ComponentConfig } from '../engine/context.js';
import type { EngineTracing } from '../engine/tracing.js';

export interface PendingTracer {
  /** The components' tracing once the SDK is loaded; undefined when the tracer builds nothing. */
  readonly ready: Promise<EngineTracing | undefined>;
  /** Sends the spans still buffered and stops the exporters. */
  close(): Promise<void>;
}

/** Starts loading the tracer `section` names; null for `none`. */
export function startTracer(section: ComponentConfig, logger: Logger): PendingTracer | null {
  if (section.type === 'none') return null;
  const built = import('./sdk.js').then((sdk) => sdk.buildTracer(section, logger));
  built.catch(() => undefined);
  return {
    ready: built.then((tracer) => tracer?.tracing),
    async close() {
      const tracer = await built.catch(() => null);
      await tracer?.close();
    },
  };
}
