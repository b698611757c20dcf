// Topics MQTT can never carry (wildcards, NUL, over 65,535 bytes) fail their own message, and the
// messages after them are still published: the broker drops a client that sends such a topic,
// and the output used to reconnect and retry it forever.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { connectAsync, type MqttClient } from 'mqtt';
import { MQTT_URL, requireService, waitFor } from '../../helpers/kit.js';
import { type RunningStream, startStream } from '../amqp/stream_yaml.js';

const base = `nekton-test/${randomBytes(4).toString('hex')}/topics`;

describe('mqtt output with topics it can never publish', () => {
  const clients: MqttClient[] = [];
  const streams: RunningStream[] = [];
  after(async () => {
    for (const s of streams) await s.stop();
    for (const c of clients) c.end(true);
  });

  it('fails a message whose topic holds #, +, NUL or 70 KB, and publishes the ones after it', async (t) => {
    if (!(await requireService(t, 'mqtt'))) return;
    const sub = await connectAsync(MQTT_URL, { reconnectPeriod: 0 });
    sub.on('error', () => undefined);
    clients.push(sub);
    const got: string[] = [];
    sub.on('message', (topic) => got.push(topic));
    await sub.subscribeAsync(`${base}/#`, { qos: 1 });
    // Messages 2 to 5 carry bad topics; 1 and 6 good ones.
    const stream = await startStream(`input:
  generate:
    count: 6
    interval: 1ms
    mapping: 'root = counter().string()'
output:
  mqtt:
    urls: [ tcp://127.0.0.1:1883 ]
    qos: 1
    topic: '\${! match content().string() { "2" => "${base}/bad/#", "3" => "${base}/bad/+/x", "4" => "${base}/bad/" + "\\u0000", "5" => "${base}/" + "x".repeat(70000), _ => "${base}/ok/" + content().string() } }'
`);
    streams.push(stream);
    await waitFor(() => got.includes(`${base}/ok/1`) && got.includes(`${base}/ok/6`), {
      message: 'messages 1 and 6',
      timeoutMs: 20_000,
    });
    assert.deepEqual(
      got.filter((topic) => !topic.startsWith(`${base}/ok/`)),
      [],
    );
  });
});
