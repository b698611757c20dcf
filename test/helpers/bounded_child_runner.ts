// The child side of callInChild: imports a module, calls one export, prints its result as JSON.
const [moduleUrl, name, args] = process.argv.slice(2) as [string, string, string];
const module = (await import(moduleUrl)) as Record<string, (...a: unknown[]) => unknown>;
const fn = module[name];
if (typeof fn !== 'function') throw new Error(`${moduleUrl} has no export ${name}`);
process.stdout.write(JSON.stringify(await fn(...(JSON.parse(args) as unknown[]))));
