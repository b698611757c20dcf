// Starting a `dynamic` input or output: its static members set, then its CRUD endpoints served;
// if any of that fails the half-built component is closed before the error goes on.
import type { BuildContext, ComponentConfig } from '../../engine/context.js';
import type { DynamicCrud } from './dynamic_crud.js';
import { staticMember } from './dynamic_member.js';

interface DynamicComponent {
  readonly crud: DynamicCrud;
  set(id: string, config: ComponentConfig, stored: string): Promise<unknown>;
  close(): Promise<void>;
}

export async function startDynamic<D extends DynamicComponent>(
  dynamic: D,
  kind: 'input' | 'output',
  members: Record<string, ComponentConfig>,
  prefix: string,
  ctx: BuildContext,
  /** Runs after the static members are set, before the endpoints are served. */
  afterStatic?: (dynamic: D) => Promise<void>,
): Promise<D> {
  try {
    for (const [id, cc] of Object.entries(members)) {
      const member = staticMember(kind, cc, ctx.schemas);
      await dynamic.set(id, member.config, member.stored);
    }
    await afterStatic?.(dynamic);
    dynamic.crud.register(
      (path, description, handler, doc) => ctx.registerEndpoint(path, description, handler, doc),
      prefix,
    );
  } catch (err) {
    await dynamic.close();
    throw err;
  }
  return dynamic;
}
