// The playground's single self-contained HTML page: styles and script inline, no external assets.
import { PAGE_SCRIPT } from './page-script.js';
import { PAGE_STYLE } from './page-style.js';

const EXAMPLE_INPUT = `{
  "id": "a7f3",
  "name": "nekton",
  "tags": ["stream", "bloblang"]
}`;

const EXAMPLE_METADATA = `{
  "topic": "greetings"
}`;

const EXAMPLE_MAPPING = `root.id = this.id
root.greeting = "hello " + this.name
root.tags = this.tags.map_each(tag -> tag.uppercase())
root.topic = @topic
meta seen_by = "playground"`;

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function editor(id: string, text: string, label: string): string {
  return `<textarea id="${id}" spellcheck="false" autocomplete="off" aria-label="${label}">${escapeHtml(text)}</textarea>`;
}

/** Texts the page starts with; from `--input-file`/`--mapping-file` they win over the browser's saved edits. */
export interface InitialTexts {
  input?: string;
  mapping?: string;
}

export function playgroundPage(initial: InitialTexts = {}): string {
  const fromFiles = initial.input !== undefined || initial.mapping !== undefined;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Bloblang playground · nekton</title>
<style>${PAGE_STYLE}</style>
</head>
<body${fromFiles ? ' data-from-files="true"' : ''}>
<header><h1>Bloblang playground</h1><span>nekton · the output updates as you type</span></header>
<main>
  <div class="column">
    <section><h2>Input document</h2>${editor('input', initial.input ?? EXAMPLE_INPUT, 'Input document')}</section>
    <section class="small"><h2>Input metadata (JSON object)</h2>${editor('metadata', EXAMPLE_METADATA, 'Input metadata')}</section>
  </div>
  <div class="column">
    <section><h2>Mapping</h2>${editor('mapping', initial.mapping ?? EXAMPLE_MAPPING, 'Mapping')}</section>
  </div>
  <div class="column">
    <section><h2>Output <span id="status">running</span></h2>
      <pre id="result" aria-live="polite"></pre><pre id="error" class="error" hidden></pre></section>
    <section class="small"><h2>Output metadata</h2><pre id="output-metadata" class="note"></pre></section>
  </div>
</main>
<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}

export const PLAYGROUND_PAGE = playgroundPage();
