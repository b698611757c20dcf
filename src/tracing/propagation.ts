// W3C trace context in message metadata: `traceparent` (and `tracestate`) are read from a message's
// metadata as an input put them there (e.g. http_server's headers) and written back, so an output
// that sends metadata as headers (http_client, AMQP, NATS, Kafka) carries the trace on.
import { type Context, ROOT_CONTEXT, type SpanContext, type TextMapGetter, type TextMapSetter, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import type { Message } from '../message/message.js';

const propagator = new W3CTraceContextPropagator();

const getter: TextMapGetter<Message> = {
  keys: () => ['traceparent', 'tracestate'],
  get(message, key) {
    const value = message.getMeta(key);
    return typeof value === 'string' ? value : undefined;
  },
};

const setter: TextMapSetter<Message> = {
  set: (message, key, value) => message.setMeta(key, value),
};

/** The context whose span is the message's `traceparent` (the root context when it has none). */
export function contextOf(message: Message): Context {
  if (message.getMeta('traceparent') === undefined) return ROOT_CONTEXT;
  return propagator.extract(ROOT_CONTEXT, message, getter);
}

/** Writes `span` as the message's `traceparent` (and `tracestate`, when it has one). */
export function setTraceparent(message: Message, span: SpanContext): void {
  propagator.inject(trace.setSpanContext(ROOT_CONTEXT, span), message, setter);
}
