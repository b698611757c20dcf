// The NATS client packages, loaded on first connect: importing them costs ~50 ms of start-up,
// which every config would otherwise pay whether it uses NATS or not.
import { makeHeaderLookupLinear } from './linear_headers.js';

type Transport = typeof import('@nats-io/transport-node');
type JetStream = typeof import('@nats-io/jetstream');
type Kv = typeof import('@nats-io/kv');

export interface NatsLibrary {
  transport: Transport;
  jetstream: JetStream;
  kv: Kv;
}

let loaded: NatsLibrary | undefined;
let loading: Promise<NatsLibrary> | undefined;

/** Loads the NATS packages once. */
export function loadNats(): Promise<NatsLibrary> {
  loading ??= Promise.all([
    import('@nats-io/transport-node'),
    import('@nats-io/jetstream'),
    import('@nats-io/kv'),
  ]).then(([transport, jetstream, kv]) => {
    makeHeaderLookupLinear(transport.MsgHdrsImpl, transport.Match.Exact);
    loaded = { transport, jetstream, kv };
    return loaded;
  });
  return loading;
}

/** The packages, once loadNats() resolved (every NATS code path starts with a connect, which loads them). */
export function nats(): NatsLibrary {
  if (!loaded) throw new Error('the NATS client is not loaded yet (connect first)');
  return loaded;
}
