// StreamBuilder end to end in this process: a producer function, YAML processors, a consumer
// function; acks and nacks reach the sender; a config is linted like a file.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pino from 'pino';
import { ConfigError, type Message, StreamBuilder } from '../../src/api/index.js';

const quiet = 'logger: { level: NONE }\n';

describe('StreamBuilder', () => {
  it('runs producer -> mapping -> consumer and resolves each send once consumed', async () => {
    const builder = new StreamBuilder().setYaml(
      [
        quiet,
        'pipeline:',
        '  processors:',
        '    - mapping: |',
        '        root = this.n * 10',
        '        meta seen = "yes"',
        '',
      ].join('\n'),
    );
    const send = builder.addProducerFunc();
    const received: Array<{ content: string; seen: unknown; origin: unknown }> = [];
    builder.addConsumerFunc(async (message: Message) => {
      received.push({
        content: message.asString(),
        seen: message.metadata('seen'),
        origin: message.metadata('origin'),
      });
    });
    const stream = await builder.build();
    const running = stream.run();
    await stream.ready();
    await send({ n: 1 }, { origin: 'test' });
    await send('{"n":2}');
    send.end();
    await running;
    assert.deepEqual(received, [
      { content: '10', seen: 'yes', origin: 'test' },
      { content: '20', seen: 'yes', origin: undefined },
    ]);
  });

  it('rejects a send when the consumer rejects (nack)', async () => {
    const builder = new StreamBuilder().setYaml(quiet);
    const send = builder.addProducerFunc();
    builder.addConsumerFunc(async (message) => {
      if (message.asString() === 'bad') throw new Error('refused by consumer');
    });
    const stream = await builder.build();
    const running = stream.run();
    await send('good');
    await assert.rejects(send('bad'), /refused by consumer/);
    send.end();
    await running;
  });

  it('lints the config like a file: errors name their line', async () => {
    const builder = new StreamBuilder().setYaml(
      `${quiet}pipeline:\n  processors:\n    - no_such_thing: {}\n`,
    );
    builder.addProducerFunc();
    await assert.rejects(builder.build(), (err: unknown) => {
      assert.ok(err instanceof ConfigError);
      assert.match(err.message, /^stream\.yaml\(4,\d+\) .*no_such_thing/m);
      return true;
    });
  });

  it('takes a config object and runs a finite input to the end', async () => {
    const builder = new StreamBuilder().setConfig({
      logger: { level: 'NONE' },
      input: { generate: { count: 3, interval: '', mapping: 'root = counter()' } },
    });
    const received: string[] = [];
    builder.addConsumerFunc((message) => {
      received.push(message.asString());
    });
    await (await builder.build()).run();
    assert.deepEqual(received, ['1', '2', '3']);
  });

  it('refuses a producer function beside a configured input', async () => {
    const builder = new StreamBuilder().setYaml(`${quiet}input:\n  stdin: {}\n`);
    builder.addProducerFunc();
    await assert.rejects(builder.build(), /has an input and the stream has a producer function/);
  });

  it('stop() ends a stream whose producer never ends', async () => {
    const builder = new StreamBuilder().setYaml(quiet);
    const send = builder.addProducerFunc();
    let consumed = 0;
    builder.addConsumerFunc(() => {
      consumed += 1;
    });
    const stream = await builder.build();
    const running = stream.run();
    await send('one');
    await stream.stop(1000);
    await running;
    assert.equal(consumed, 1);
    assert.equal(stream.isReady(), false);
  });

  it('logs through the logger given and counts through the metrics sink given', async () => {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    const counted = new Map<string, number>();
    const builder = new StreamBuilder()
      .setYaml(`pipeline:\n  processors:\n    - log: { message: 'hello from ${'$'}{! content() }' }\n`)
      .setLogger(logger)
      .setMetrics({
        counter: (name) => ({ inc: (n = 1) => counted.set(name, (counted.get(name) ?? 0) + n) }),
        timer: () => ({ observeNs: () => {} }),
        gauge: () => ({ set: () => {} }),
      });
    const send = builder.addProducerFunc();
    builder.addConsumerFunc(() => {});
    const stream = await builder.build();
    const running = stream.run();
    await send('abc');
    send.end();
    await running;
    assert.ok(
      lines.some((line) => line.includes('hello from abc')),
      lines.join(''),
    );
    assert.ok((counted.get('output_sent') ?? 0) >= 1, JSON.stringify([...counted]));
  });
});
