// The entry of a pipeline thread (engine/threads/pool.ts): the engine's thread loop with the
// built-in components, which the engine layer may not import itself.
import { registry } from '../components/registry.js';
import { serveThread } from '../engine/threads/run_thread.js';

serveThread(registry);
