// A test case's `environment:` is set in the process while the case is built and run (Bloblang's
// env() reads it then), and put back as it was afterwards, as the reference does.

export async function withEnvironment<T>(
  vars: Record<string, string> | undefined,
  work: () => Promise<T>,
): Promise<T> {
  if (!vars) return work();
  const saved = new Map<string, string | undefined>();
  for (const [name, value] of Object.entries(vars)) {
    saved.set(name, process.env[name]);
    process.env[name] = value;
  }
  try {
    return await work();
  } finally {
    for (const [name, value] of saved) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}
