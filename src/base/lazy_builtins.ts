// Node built-ins that most streams never use, loaded on first use instead of at start: importing
// node:crypto, node:http and node:https at the top of their modules cost ~8 ms of every start,
// since the component registry loads every component's module (CLI start-up profile).
let crypto: typeof import('node:crypto') | undefined;
let http: typeof import('node:http') | undefined;
let https: typeof import('node:https') | undefined;

export const nodeCrypto = () => (crypto ??= process.getBuiltinModule('node:crypto'));
export const nodeHttp = () => (http ??= process.getBuiltinModule('node:http'));
export const nodeHttps = () => (https ??= process.getBuiltinModule('node:https'));
