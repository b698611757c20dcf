// The engine's side of tracing: what the builder hands a traced service's components. The
// implementation (OpenTelemetry spans) lives in src/tracing; with no tracer configured the env has
// no `tracing` and nothing is wrapped, so an untraced run pays nothing per message.
import type { Batch } from '../message/message.js';
import type { Input, Output } from './component.js';

/** Which component spans are for: its type (`http_server`), label, config path and stream. */
export interface TracedComponent {
  type: string;
  label: string;
  path: string;
  stream?: string;
}

/** The spans of one processor call, ended with what the processor made. */
export interface OpenSpans {
  end(out: readonly Batch[]): void;
}

export interface ProcessorSpans {
  start(batch: Batch): OpenSpans;
}

export interface EngineTracing {
  /** The input with a span per message read (a child of the message's `traceparent`, if any). */
  input(input: Input, component: TracedComponent): Input;
  /** The output with a span per message written; the message's `traceparent` then names that span. */
  output(output: Output, component: TracedComponent): Output;
  /** Starts a span per message of each batch the processor is given. */
  processor(component: TracedComponent): ProcessorSpans;
}
