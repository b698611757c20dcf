// The entry of a pipeline thread (engine/threads/pool.ts): the engine's thread loop with the
// built-in processors that can run there, which the engine layer may not import itself.
import * as crossing from '../components/thread_components.js';
import { Registry } from '../engine/registry.js';
import { serveThread } from '../engine/threads/run_thread.js';

serveThread(new Registry(Object.values(crossing)));
