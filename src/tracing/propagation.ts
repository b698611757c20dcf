// W3C trace context in message metadata: `traceparent` (and `tracestate`) are read from a message's
// metadata as an input put them there (e.g. http_server's headers) and written back, so an output
// that sends metadata as headers (http_client, AMQP, NATS, Kafka) carries the trace on. Inputs that
// canonicalise header names as Go does (http_server: `Traceparent`) are read too; what is written
// is the lower-case key W3C names, replacing the canonical one.
import {
  type Context,
  ROOT_CONTEXT,
  type SpanContext,
  type TextMapGetter,
  type TextMapSetter,
  trace,
} from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { Message } from '../message/message.js';

const propagator = new W3CTraceContextPropagator();

const getter: TextMapGetter<Message> = {
  keys: () => ['traceparent', 'tracestate'],
  get(message, key) {
    const value = message.getMeta(key) ?? message.getMeta(canonical(key));
    return typeof value === 'string' ? value : undefined;
  },
};

const setter: TextMapSetter<Message> = {
  set(message, key, value) {
    if (message.getMeta(canonical(key)) !== undefined) message.deleteMeta(canonical(key));
    message.setMeta(key, value);
  },
};

/** `traceparent` -> `Traceparent`, as Go's textproto canonicalises a header name. */
function canonical(key: string): string {
  return key[0]!.toUpperCase() + key.slice(1);
}

/** The context whose span is the message's `traceparent` (the root context when it has none). */
export function contextOf(message: Message): Context {
  if (message.getMeta('traceparent') === undefined && message.getMeta('Traceparent') === undefined)
    return ROOT_CONTEXT;
  return propagator.extract(ROOT_CONTEXT, message, getter);
}

/** Writes `span` as the message's `traceparent` (and `tracestate`, when it has one). */
export function setTraceparent(message: Message, span: SpanContext): void {
  propagator.inject(trace.setSpanContext(ROOT_CONTEXT, span), message, setter);
}
