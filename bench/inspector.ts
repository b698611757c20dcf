// A tiny DevTools-protocol client for a process started with `--inspect=127.0.0.1:0`: forces a full
// GC before memory is read, so a memory figure measures what is held, not what is not yet collected.
import WebSocket from 'ws';
import { type Background, sleep } from './processes.js';

export class Inspector {
  private nextId = 1;
  private readonly pending = new Map<number, (result: unknown) => void>();

  private constructor(private readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const msg = JSON.parse(String(data)) as { id?: number; result?: unknown };
      if (msg.id !== undefined) this.pending.get(msg.id)?.(msg.result);
    });
  }

  /** Connects to the inspector URL the process printed on stderr. */
  static async attach(proc: Background, timeoutMs = 10_000): Promise<Inspector> {
    const deadline = Date.now() + timeoutMs;
    let url: string | undefined;
    while (!url && Date.now() < deadline) {
      url = /Debugger listening on (ws:\/\/\S+)/.exec(proc.stderr())?.[1];
      if (!url) await sleep(50);
    }
    if (!url) throw new Error(`no inspector URL on stderr: ${proc.stderr().slice(-300)}`);
    const socket = new WebSocket(url);
    await new Promise((resolve, reject) => {
      socket.once('open', resolve);
      socket.once('error', reject);
    });
    return new Inspector(socket);
  }

  call(method: string, params: Record<string, unknown> = {}): Promise<unknown> {
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, resolve);
      this.socket.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Full GC, then the JS heap in use (bytes). */
  async collectAndMeasure(): Promise<number> {
    await this.call('HeapProfiler.collectGarbage');
    const usage = (await this.call('Runtime.getHeapUsage')) as { usedSize: number };
    return usage.usedSize;
  }

  /**
   * Where the JS heap's memory is now (bytes; call after collectAndMeasure): V8's code space in use
   * (compiled code) and the heap's resident pages. Read inside the process (node:v8), since the
   * protocol's heap usage has no per-space split.
   */
  async heapBreakdown(): Promise<{ code: number; physical: number }> {
    const expression = `(() => {
      const v8 = process.getBuiltinModule('node:v8');
      const heap = v8.getHeapStatistics();
      const code = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'code_space');
      return { code: code ? code.space_used_size : 0, physical: heap.total_physical_size };
    })()`;
    const answer = (await this.call('Runtime.evaluate', { expression, returnByValue: true })) as {
      result?: { value?: { code: number; physical: number } };
    };
    const value = answer.result?.value;
    if (!value) throw new Error(`heap statistics unavailable: ${JSON.stringify(answer).slice(0, 200)}`);
    return value;
  }

  close(): void {
    this.socket.close();
  }
}
