// Runs the shell examples of README.md and docs/guides/*.md in order, as a reader would, against
// the build in dist/, and checks that each prints what the text says (scripts/doc_examples.mjs
// describes the marks). Usage: node scripts/check-docs.mjs [FILE.md...]
//
// Each file runs in one bash session (variables and background jobs carry over from one command
// to the next) in a fresh directory that links to this checkout, so files the examples write stay
// out of it. The ports the examples use, 4195 to 4199, are changed to free ones everywhere
// (commands, expected output, and the copied examples/), so the check runs beside a real nekton.
// Exit status 1 when an example fails or a shell block is neither run nor skipped with a reason.
import { spawn } from 'node:child_process';
import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { findBlocks, isShellBlock, markerAction, matchesExpected, parseConsole } from './doc_examples.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const DOC_PORTS = [4195, 4196, 4197, 4198, 4199];
const COMMAND_LIMIT_MS = Number(process.env.NEKTON_DOC_COMMAND_LIMIT_MS ?? 60_000);

function defaultFiles() {
  const guides = join(root, 'docs', 'guides');
  return [
    join(root, 'README.md'),
    ...readdirSync(guides)
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => join(guides, f)),
  ];
}

function displayName(file) {
  const path = relative(root, file);
  return path.startsWith('..') ? file : path;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Replaces each documented port by its stand-in (4195 -> a free port, ...). */
function portRewriter(ports) {
  const pattern = new RegExp(`\\b(${[...ports.keys()].join('|')})\\b`, 'g');
  return (text) => text.replace(pattern, (port) => String(ports.get(Number(port))));
}

/** A directory that looks like this checkout: links to it, with examples/ copied and rewritten. */
function makeWorkDir(rewrite) {
  const dir = mkdtempSync(join(tmpdir(), 'nekton-docs-'));
  for (const entry of readdirSync(root)) {
    if (entry === '.git' || entry === 'examples') continue;
    symlinkSync(join(root, entry), join(dir, entry));
  }
  cpSync(join(root, 'examples'), join(dir, 'examples'), { recursive: true });
  const rewriteTree = (path) => {
    if (statSync(path).isDirectory()) {
      for (const entry of readdirSync(path)) rewriteTree(join(path, entry));
    } else {
      writeFileSync(path, rewrite(readFileSync(path, 'utf8')));
    }
  };
  rewriteTree(join(dir, 'examples'));
  return dir;
}

/**
 * One bash process; each command is evaluated in it with its output in a file of its own (a
 * background job keeps writing to its own command's file, not into the next command's output).
 */
class Session {
  constructor(cwd) {
    this.cwd = cwd;
    this.outFile = join(cwd, '.doc-test-output');
    const driver = `while IFS= read -r -d '' __cmd; do
  eval "$__cmd" > "$__out" 2>&1 < /dev/null
  printf '%d\\n' "$?"
done`;
    this.bash = spawn('bash', ['-c', driver], {
      cwd,
      detached: true,
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, __out: this.outFile, NO_COLOR: '1' },
    });
    this.pending = null;
    this.buffer = '';
    this.bash.stdout.setEncoding('utf8');
    this.bash.stdout.on('data', (chunk) => {
      this.buffer += chunk;
      const newline = this.buffer.indexOf('\n');
      if (newline >= 0 && this.pending) {
        const status = Number(this.buffer.slice(0, newline));
        this.buffer = this.buffer.slice(newline + 1);
        const done = this.pending;
        this.pending = null;
        done(status);
      }
    });
  }

  /** Runs a command; resolves with its exit status and output, or rejects after the limit. */
  run(command) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending = null;
        reject(new Error(`did not finish within ${COMMAND_LIMIT_MS / 1000} s`));
      }, COMMAND_LIMIT_MS);
      this.pending = (status) => {
        clearTimeout(timer);
        resolve({ status, output: readFileSync(this.outFile, 'utf8') });
      };
      this.bash.stdin.write(`${command}\0`);
    });
  }

  /** Ends the shell and everything it started (background jobs included). */
  close() {
    try {
      process.kill(-this.bash.pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
}

async function checkFile(file) {
  const name = displayName(file);
  const problems = [];
  let ran = 0;
  const blocks = findBlocks(readFileSync(file, 'utf8')).filter((b) => isShellBlock(b) || b.marker);
  const ports = new Map();
  for (const port of DOC_PORTS) ports.set(port, await freePort());
  const rewrite = portRewriter(ports);
  let session;
  let dir;
  try {
    for (const block of blocks) {
      const where = `${name}:${block.line}`;
      if (!block.marker) {
        problems.push(
          `${where}: a ${block.lang} block that is not checked: mark it <!-- doc-test --> (console form) or <!-- doc-test: skip REASON -->`,
        );
        continue;
      }
      let action;
      let steps;
      try {
        action = markerAction(block.marker);
        if (action.run) steps = parseConsole(block.body, block.line + 1);
      } catch (err) {
        problems.push(`${where}: ${err.message}`);
        continue;
      }
      if (!action.run && !action.file) continue;
      if (!session) {
        dir = makeWorkDir(rewrite);
        session = new Session(dir);
      }
      if (action.file) {
        writeFileSync(join(dir, action.file), rewrite(`${block.body.join('\n')}\n`));
        continue;
      }
      for (const step of steps) {
        const command = rewrite(step.command);
        let result;
        try {
          result = await session.run(command);
        } catch (err) {
          problems.push(`${name}:${step.line}: $ ${step.command}\n  ${err.message}`);
          return { problems, ran };
        }
        ran++;
        const expected = step.expected.map(rewrite);
        const ok = expected.length === 0 ? result.status === 0 : matchesExpected(result.output, expected);
        if (!ok) {
          const want = expected.length === 0 ? 'exit status 0' : expected.join('\n    ');
          problems.push(
            `${name}:${step.line}: $ ${step.command}\n  expected:\n    ${want}\n  got (exit ${result.status}):\n    ${result.output.trimEnd().split('\n').join('\n    ')}`,
          );
        }
      }
    }
  } finally {
    session?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
  return { problems, ran };
}

const files = process.argv.length > 2 ? process.argv.slice(2) : defaultFiles();
let failed = false;
for (const file of files) {
  const { problems, ran } = await checkFile(file);
  const name = displayName(file);
  if (problems.length > 0) {
    failed = true;
    console.error(`${name}: ${problems.length} problem(s), ${ran} command(s) run`);
    for (const problem of problems) console.error(`- ${problem}`);
  } else {
    console.log(`${name}: ${ran} command(s) run, every one as documented`);
  }
}
process.exit(failed ? 1 : 0);
