// The mqtt input and output against the local Mosquitto: round trip through the engine with
// metadata, acknowledgement only after delivery (a nack is redelivered by a persistent session),
// reconnect after the broker drops nekton's connection, and clear errors for bad addresses and
// credentials (a private Mosquitto with a password file).
import assert from 'node:assert/strict';
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { connectAsync, type IPublishPacket, type MqttClient } from 'mqtt';
import { freePort, isReachable, MQTT_URL, requireService, waitFor } from '../../helpers/kit.js';
import { type RunningStream, startStream } from '../amqp/stream_yaml.js';

const URL = 'tcp://127.0.0.1:1883';
const run = randomBytes(4).toString('hex');
const base = `nekton-test/${run}`;

const clients: MqttClient[] = [];
let streams: RunningStream[] = [];

async function client(options: { clientId?: string; clean?: boolean } = {}): Promise<MqttClient> {
  const c = await connectAsync(MQTT_URL, { reconnectPeriod: 0, ...options });
  c.on('error', () => undefined);
  clients.push(c);
  return c;
}

/** Subscribes a test client and collects what arrives. */
async function collect(topic: string, qos: 0 | 1 | 2 = 1): Promise<IPublishPacket[]> {
  const got: IPublishPacket[] = [];
  const c = await client();
  c.on('message', (_t, _p, packet) => got.push(packet));
  await c.subscribeAsync(topic, { qos });
  return got;
}

async function start(yaml: string): Promise<RunningStream> {
  const s = await startStream(yaml);
  streams.push(s);
  return s;
}

async function stop(s: RunningStream): Promise<void> {
  await s.stop();
  streams = streams.filter((x) => x !== s);
}

/** Removes the persistent session a test left on the shared broker. */
async function forgetSession(clientId: string): Promise<void> {
  const c = await connectAsync(MQTT_URL, { clientId, clean: true, reconnectPeriod: 0 });
  await c.endAsync();
}

describe('mqtt input and output (Mosquitto)', () => {
  const sessions: string[] = [];

  after(async () => {
    for (const s of streams) await s.stop();
    for (const c of clients) c.end(true);
    if (await isReachable('mqtt')) for (const id of sessions) await forgetSession(id).catch(() => undefined);
  });

  it('round-trips through the engine with metadata, retained messages included', async (t) => {
    if (!(await requireService(t, 'mqtt'))) return;
    const pub = await client();
    // A retained message is there before nekton subscribes; it arrives with mqtt_retained.
    await pub.publishAsync(`${base}/rt/in/kept`, 'retained-one', { qos: 1, retain: true });
    const got = await collect(`${base}/rt/out/#`, 2);
    const s = await start(`input:
  mqtt:
    urls: [ ${URL} ]
    topics: [ ${base}/rt/in/# ]
    qos: 1
pipeline:
  processors:
    - mapping: |
        root.body = content().string()
        root.topic = @mqtt_topic
        root.qos = @mqtt_qos
        root.retained = @mqtt_retained
        root.duplicate = @mqtt_duplicate
        root.has_id = @mqtt_message_id > 0
output:
  mqtt:
    urls: [ ${URL} ]
    topic: '${base}/rt/out/\${! @mqtt_topic.split("/").index(-1) }'
    qos: 2
`);
    await waitFor(() => got.length >= 1, { message: 'the retained message' });
    for (let i = 0; i < 10; i++) await pub.publishAsync(`${base}/rt/in/d${i}`, `m${i}`, { qos: 1 });
    await waitFor(() => got.length >= 11, { message: '11 messages out' });
    const bodies = got.map((p) => JSON.parse(p.payload.toString()));
    assert.deepEqual(bodies[0], {
      body: 'retained-one',
      topic: `${base}/rt/in/kept`,
      qos: 1,
      retained: true,
      duplicate: false,
      has_id: true,
    });
    const d3 = bodies.find((b) => b.body === 'm3');
    assert.equal(d3.retained, false);
    assert.equal(d3.topic, `${base}/rt/in/d3`);
    assert.equal((got.find((p) => p.payload.includes('"m3"')) as IPublishPacket).topic, `${base}/rt/out/d3`);
    assert.equal(got[1]?.qos, 2, 'published with QoS 2');
    assert.ok(s.stream.isReady());
    await stop(s);
    await pub.publishAsync(`${base}/rt/in/kept`, '', { qos: 1, retain: true }); // clear the retained one
  });

  for (const qos of [1, 2] as const) {
    it(`acknowledges only delivered QoS ${qos} messages: a nack is redelivered by the persistent session`, async (t) => {
      if (!(await requireService(t, 'mqtt'))) return;
      const clientId = `nekton-in-q${qos}-${run}`;
      sessions.push(clientId);
      const pub = await client();
      const topic = `${base}/nack${qos}`;
      const got = await collect(`${topic}/out`);
      // The first attempt at "poison" fails; the input drops the connection unacknowledged and
      // the broker delivers it again on the resumed session (QoS 1: PUBLISH again with dup set;
      // QoS 2: PUBREL again, the message kept by the input across connections).
      const config = `input:
  mqtt:
    urls: [ ${URL} ]
    topics: [ ${topic}/in ]
    client_id: ${clientId}
    clean_session: false
    qos: ${qos}
    auto_replay_nacks: false
output:
  switch:
    cases:
      - check: 'content().string() == "poison" && count("poison-${run}-${qos}") == 1'
        output:
          reject: 'first attempt fails'
      - output:
          mqtt:
            urls: [ ${URL} ]
            topic: ${topic}/out
          processors:
            - mapping: 'root = content().string() + if @mqtt_duplicate { " (dup)" } else { "" }'
`;
      const s = await start(config);
      await waitFor(() => s.stream.isReady(), { message: 'connected' });
      for (const body of ['before', 'poison', 'after']) await pub.publishAsync(`${topic}/in`, body, { qos });
      await waitFor(() => got.length >= 3, { message: 'all three delivered' });
      const seen = got.map((p) => p.payload.toString());
      assert.ok(seen.includes(qos === 1 ? 'poison (dup)' : 'poison'), `redelivered: ${seen}`);
      // 'after' may come flagged as a duplicate: the broker had already sent it (unread, behind
      // the held poison) on the dropped connection. 'before' was acknowledged: it comes once.
      assert.equal(seen.filter((b) => b.startsWith('before')).length, 1, `delivered: ${seen}`);
      assert.ok(seen.includes('before') && seen.some((b) => b.startsWith('after')), `delivered: ${seen}`);
      await stop(s);

      // Everything delivered was acknowledged: the same session, resumed, gets only what is new.
      got.length = 0;
      const again = await start(config);
      await waitFor(() => again.stream.isReady(), { message: 'reconnected' });
      await pub.publishAsync(`${topic}/in`, 'marker', { qos });
      await waitFor(() => got.length >= 1, { message: 'the marker' });
      assert.deepEqual(
        got.map((p) => p.payload.toString()),
        ['marker'],
        'nothing acknowledged came again',
      );
      await stop(again);
    });
  }

  it('reconnects after the broker drops its connections and loses nothing (persistent session)', async (t) => {
    if (!(await requireService(t, 'mqtt'))) return;
    const inId = `nekton-rc-in-${run}`;
    const outId = `nekton-rc-out-${run}`;
    sessions.push(inId, outId);
    const pub = await client();
    const got = await collect(`${base}/rc/out`);
    const s = await start(`input:
  mqtt:
    urls: [ ${URL} ]
    topics: [ ${base}/rc/in ]
    client_id: ${inId}
    clean_session: false
output:
  mqtt:
    urls: [ ${URL} ]
    client_id: ${outId}
    topic: ${base}/rc/out
`);
    await waitFor(() => s.stream.isReady(), { message: 'connected' });
    for (let i = 0; i < 5; i++) await pub.publishAsync(`${base}/rc/in`, `a${i}`, { qos: 1 });
    await waitFor(() => got.length >= 5, { message: 'first 5' });
    // A client with the same id takes the session over: Mosquitto closes nekton's connections
    // only. nekton reconnects, which closes the usurpers in turn.
    const usurpers = [await client({ clientId: inId, clean: false }), await client({ clientId: outId })];
    await waitFor(() => !usurpers[0]?.connected, {
      message: 'the input reconnected and took its session back',
    });
    for (let i = 0; i < 5; i++) await pub.publishAsync(`${base}/rc/in`, `b${i}`, { qos: 1 });
    await waitFor(() => new Set(got.map((p) => p.payload.toString())).size >= 10, {
      message: 'all 10 after reconnecting',
      timeoutMs: 20_000,
    });
    assert.equal(usurpers[1]?.connected, false, 'the output reconnected and took its id back');
    await waitFor(() => s.stream.isReady(), { message: 'ready again' });
    await stop(s);
  });

  it('reconnects after its broker is killed and restarted: not ready meanwhile, then delivers again (private Mosquitto)', async (t) => {
    if (!(await requireService(t, 'mqtt'))) return;
    const dir = mkdtempSync(join(tmpdir(), 'nekton-mosq-'));
    const port = await freePort();
    const conf = join(dir, 'mosquitto.conf');
    writeFileSync(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
    const startBroker = async () => {
      const b: ChildProcess = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
      await waitFor(() => portOpen(port), { message: 'the private broker' });
      return b;
    };
    const killBroker = async (b: ChildProcess) => {
      if (b.exitCode !== null || b.signalCode !== null) return;
      const gone = new Promise((r) => b.once('exit', r));
      b.kill('SIGKILL');
      await gone;
    };
    let broker = await startBroker();
    const url = `mqtt://127.0.0.1:${port}`;
    const own: MqttClient[] = [];
    const collectPrivate = async (got: string[]) => {
      const c = await connectAsync(url, { reconnectPeriod: 0 });
      c.on('error', () => undefined);
      c.on('message', (_t, p) => got.push(p.toString()));
      await c.subscribeAsync(`${base}/pk/out`, { qos: 1 });
      own.push(c);
      return c;
    };
    try {
      const got: string[] = [];
      await collectPrivate(got);
      const s = await start(`input:
  mqtt:
    urls: [ tcp://127.0.0.1:${port} ]
    topics: [ ${base}/pk/in ]
output:
  mqtt:
    urls: [ tcp://127.0.0.1:${port} ]
    topic: ${base}/pk/out
`);
      await waitFor(() => s.stream.isReady(), { message: 'connected' });
      let pub = await connectAsync(url, { reconnectPeriod: 0 });
      own.push(pub);
      for (let i = 0; i < 3; i++) await pub.publishAsync(`${base}/pk/in`, `a${i}`, { qos: 1 });
      await waitFor(() => got.length >= 3, { message: 'the first 3' });

      await killBroker(broker);
      await waitFor(() => !s.stream.isReady(), { message: 'not ready while the broker is down' });
      const down = s.stream.statuses().find((st) => st.error)?.error ?? '';
      assert.match(down, new RegExp(`127\\.0\\.0\\.1:${port}`), `the error names the address: ${down}`);
      assert.ok(s.stream.active, 'the stream stays up');
      // The output has written nothing since the kill, and reports the outage all the same.
      await waitFor(
        () => s.stream.statuses().find((st) => st.path.startsWith('output'))?.connected === false,
        { message: 'the idle output to report the outage' },
      );

      broker = await startBroker();
      // Both reconnect by themselves: the output too, although nothing was written since the kill.
      await waitFor(() => s.stream.isReady(), { message: 'ready again without a write', timeoutMs: 20_000 });
      await collectPrivate(got);
      pub = await connectAsync(url, { reconnectPeriod: 0 });
      own.push(pub);
      for (let i = 0; i < 3; i++) await pub.publishAsync(`${base}/pk/in`, `b${i}`, { qos: 1 });
      await waitFor(() => got.filter((b) => b.startsWith('b')).length >= 3, {
        message: 'the next 3 after the restart',
        timeoutMs: 20_000,
      });
      assert.deepEqual(got.filter((b) => b.startsWith('b')).sort(), ['b0', 'b1', 'b2']);
      await waitFor(() => s.stream.isReady(), { message: 'ready' });
      await stop(s);
    } finally {
      for (const c of own) c.end(true);
      await killBroker(broker);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a wrong address clearly, stays up and not ready', async (t) => {
    if (!(await requireService(t, 'mqtt'))) return;
    const s = await start(`input:
  mqtt:
    urls: [ tcp://127.0.0.1:1 ]
    topics: [ x ]
output:
  mqtt:
    urls: [ tcp://127.0.0.1:1 ]
    topic: x
`);
    const statuses = await waitFor(
      () => {
        const st = s.stream.statuses();
        return st.every((x) => x.error) ? st : null;
      },
      { message: 'both errors' },
    );
    for (const st of statuses) assert.match(st.error ?? '', /tcp:\/\/127\.0\.0\.1:1.*ECONNREFUSED/);
    assert.equal(s.stream.isReady(), false);
    assert.ok(s.stream.active);
    await stop(s);
  });

  it('reports wrong credentials naming the address, without the password (private Mosquitto)', async (t) => {
    if (!(await requireService(t, 'mqtt'))) return;
    const dir = mkdtempSync(join(tmpdir(), 'nekton-mosq-'));
    const port = await freePort();
    const passwords = join(dir, 'passwd');
    writeFileSync(passwords, '');
    execFileSync('mosquitto_passwd', ['-b', passwords, 'alice', 'secret']);
    // Started as root, Mosquitto drops to its own user, which must be able to read the file.
    chmodSync(dir, 0o755);
    chmodSync(passwords, 0o644);
    writeFileSync(
      join(dir, 'mosquitto.conf'),
      `listener ${port} 127.0.0.1\nallow_anonymous false\npassword_file ${passwords}\npersistence false\n`,
    );
    const broker: ChildProcess = spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' });
    try {
      await waitFor(() => portOpen(port), { message: 'the private broker' });
      const s = await start(`input:
  mqtt:
    urls: [ tcp://127.0.0.1:${port} ]
    topics: [ x ]
    user: alice
    password: wrong-password
output:
  mqtt:
    urls: [ tcp://127.0.0.1:${port} ]
    topic: x
    user: alice
    password: secret
`);
      const [input] = await waitFor(() => (s.stream.statuses()[0]?.error ? s.stream.statuses() : null), {
        message: 'the input error',
      });
      assert.match(input?.error ?? '', /tcp:\/\/127\.0\.0\.1:\d+.*Not authorized/i);
      assert.doesNotMatch(input?.error ?? '', /wrong-password/);
      await waitFor(() => s.stream.statuses()[1]?.connected, {
        message: 'the output connected with the right password',
      });
      assert.equal(s.stream.isReady(), false);
      await stop(s);
    } finally {
      broker.kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

function portOpen(port: number): Promise<boolean> {
  return connectAsync(`mqtt://127.0.0.1:${port}`, { reconnectPeriod: 0, connectTimeout: 500 }).then(
    (c) => {
      c.end(true);
      return true;
    },
    (err: Error) => /Not authorized/i.test(err.message),
  );
}
