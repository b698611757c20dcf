// The HTTP face of a `dynamic` input or output (spec §6.3–§6.5): lists, reads, POSTs, deletes and
// times the members under `{prefix}/inputs` or `{prefix}/outputs`. What a POST or DELETE does to the
// running broker is left to hooks, so this layer can be tested on its own (spec §9, 59–61).

import type { IncomingMessage, ServerResponse } from 'node:http';
import { posix } from 'node:path';
import { parse as parseYamlText } from 'yaml';
import { nodeCrypto } from '../../base/lazy_builtins.js';
import { formatDuration } from '../../config/duration.js';
import { scrubSecretText } from '../../config/secret_text.js';
import { idProblem } from '../../config/stream_id.js';
import { errorMessage } from '../../engine/errors.js';
import { type RegisterRoute, registerDeclared } from '../../engine/route_declaration.js';
import { readBody } from '../../listener/body.js';
import { sendError, sendJson } from '../../listener/respond.js';
import { UnknownMemberFields } from './dynamic_member.js';
import { dynamicRoutes } from './dynamic_routes.js';

export interface DynamicHooks {
  /** Builds the member from a POSTed body and installs it (replacing any); throws to answer 502. */
  update(id: string, body: Buffer): Promise<void>;
  /** Stops and removes the member (a no-op for an unknown id); throws to answer 502. */
  remove(id: string): Promise<void>;
}

export type RegisterEndpoint = RegisterRoute;

/** POST bodies larger than this are refused. */
const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** `prefix` joined with `/outputs`, cleaned, always starting with `/` (nekton decision 8). */
export function dynamicBasePath(prefix: string, collection: 'inputs' | 'outputs'): string {
  return posix.join('/', prefix, collection);
}

export class DynamicCrud {
  /** id -> the sanitised config text of its accepted POST (or static entry). */
  private readonly configs = new Map<string, string>();
  /** id -> SHA-256 of the last successful POST body, for the byte-identical no-op. */
  private readonly hashes = new Map<string, string>();
  /** id -> when the current instance started (hrtime ns); absent when not running. */
  private readonly running = new Map<string, bigint>();
  /** Mutations run one at a time, as the reference holds one lock for them. */
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly collection: 'inputs' | 'outputs',
    private readonly hooks: DynamicHooks,
  ) {}

  /** A member started (or was replaced); `config` is its sanitised config text, if any. */
  started(id: string, config?: string): void {
    this.running.set(id, process.hrtime.bigint());
    if (config) this.configs.set(id, config);
  }

  /** A member stopped: it stays listed as `stopped` while its config is stored. */
  stopped(id: string): void {
    this.running.delete(id);
  }

  isRunning(id: string): boolean {
    return this.running.has(id);
  }

  register(register: RegisterEndpoint, prefix: string): void {
    const [list, item, uptime] = dynamicRoutes(dynamicBasePath(prefix, this.collection), this.collection);
    registerDeclared(register, list, (req, res) => this.list(req, res));
    registerDeclared(register, item, (req, res, p) => this.item(req, res, p.id ?? ''));
    registerDeclared(register, uptime, (req, res, p) => this.uptime(req, res, p.id ?? ''));
  }

  list(_req: IncomingMessage, res: ServerResponse): void {
    const ids = [...new Set([...this.running.keys(), ...this.configs.keys()])].sort();
    const body: Record<string, { uptime: string; config: unknown; config_raw: string }> = {};
    try {
      for (const id of ids) {
        const raw = this.configs.get(id) ?? '';
        body[id] = {
          uptime: this.uptimeText(id),
          config: raw === '' ? null : (parseYamlText(raw) ?? null),
          config_raw: raw,
        };
      }
    } catch {
      sendError(res, 502, 'Internal server error');
      return;
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/json');
    res.end(JSON.stringify(body));
  }

  async item(req: IncomingMessage, res: ServerResponse, id: string): Promise<void> {
    switch (req.method) {
      case 'GET': {
        const config = this.configs.get(id);
        if (config === undefined) {
          sendError(res, 404, `Dynamic component '${id}' is not active`);
          return;
        }
        res.statusCode = 200;
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
        res.end(config);
        return;
      }
      case 'POST': {
        // The same id rules as the streams API: an id becomes a path segment and a metric label.
        const problem = idProblem(id);
        if (problem) {
          sendError(
            res,
            400,
            `Error: invalid ${this.collection.slice(0, -1)} id ${JSON.stringify(id.slice(0, 64))}: ${problem}`,
          );
          return;
        }
        return this.answer(res, () => this.post(req, id));
      }
      case 'DELETE':
        return this.answer(res, () => this.delete(id));
      default:
        sendError(res, 502, `Error: verb not supported: ${req.method}`);
        return;
    }
  }

  uptime(_req: IncomingMessage, res: ServerResponse, id: string): void {
    if (!this.running.has(id) && !this.configs.has(id)) {
      sendError(res, 404, `Dynamic component '${id}' is unknown`);
      return;
    }
    res.statusCode = 200;
    res.setHeader('Content-Type', 'text/plain; charset=utf-8');
    res.end(this.uptimeText(id));
  }

  private uptimeText(id: string): string {
    const since = this.running.get(id);
    return since === undefined ? 'stopped' : formatDuration(process.hrtime.bigint() - since);
  }

  private async post(req: IncomingMessage, id: string): Promise<void> {
    const body = await readBody(req, MAX_BODY_BYTES);
    const hash = nodeCrypto().createHash('sha256').update(body).digest('hex');
    await this.serialised(async () => {
      if (this.hashes.get(id) === hash) return;
      await this.hooks.update(id, body);
      this.hashes.set(id, hash);
    });
  }

  private async delete(id: string): Promise<void> {
    await this.serialised(async () => {
      await this.hooks.remove(id);
      this.configs.delete(id);
      this.hashes.delete(id);
    });
  }

  private serialised<T>(work: () => Promise<T>): Promise<T> {
    const run = this.tail.then(work, work);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private async answer(res: ServerResponse, work: () => Promise<void>): Promise<void> {
    try {
      await work();
    } catch (err) {
      if (err instanceof UnknownMemberFields) sendJson(res, 400, { linting_errors: err.lints });
      else sendError(res, 502, `Error: ${scrubSecretText(errorMessage(err))}`);
      return;
    }
    res.statusCode = 200;
    res.end();
  }
}
