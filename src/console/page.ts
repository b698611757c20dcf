// The console's single self-contained HTML page (`/ui` in streams mode): styles and script inline,
// nothing fetched from another site, so it works with no network and under a strict CSP.
import { CONSOLE_STYLE } from './page-style.js';
import { CONSOLE_SCRIPT } from './script.js';

export const CONSOLE_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>nekton console</title>
<style>${CONSOLE_STYLE}</style>
</head>
<body>
<header>
  <h1>nekton</h1>
  <nav>
    <a href="#streams" data-tab="streams">Streams</a>
    <a href="#editor" data-tab="editor">Edit stream</a>
    <a href="#resources" data-tab="resources">Resources</a>
    <a href="#dynamic" data-tab="dynamic">Dynamic outputs</a>
    <a href="#bloblang" data-tab="bloblang">Bloblang</a>
  </nav>
  <span id="flash" role="status"></span>
</header>
<main>
<section class="tab" id="tab-streams">
  <div class="charts">
    <div class="panel chart"><h2>Messages in per second</h2><svg id="chart-received" viewBox="0 0 300 100" preserveAspectRatio="none"></svg><div class="legend" id="legend-received"></div></div>
    <div class="panel chart"><h2>Errors per second</h2><svg id="chart-errors" viewBox="0 0 300 100" preserveAspectRatio="none"></svg><div class="legend" id="legend-errors"></div></div>
    <div class="panel chart"><h2>Output latency, p99 (ms)</h2><svg id="chart-latency" viewBox="0 0 300 100" preserveAspectRatio="none"></svg><div class="legend" id="legend-latency"></div></div>
  </div>
  <div class="panel">
    <div class="row"><h2 style="margin:0">Streams</h2><button id="new-stream" class="primary">New stream</button></div>
    <table><thead><tr><th>id</th><th>state</th><th>uptime</th><th>in/s</th><th>errors/s</th><th>last minute</th><th></th></tr></thead>
    <tbody id="streams-body"></tbody></table>
    <p class="muted" id="streams-empty" hidden>No streams. Create one with “New stream”.</p>
  </div>
</section>
<section class="tab" id="tab-editor">
  <div class="panel">
    <div class="row"><label>Stream id <input type="text" id="stream-id" placeholder="my_stream" spellcheck="false"></label>
      <button id="save-stream" class="primary">Save</button><span id="save-result" class="muted"></span></div>
    <div class="editor"><pre class="gutter" id="gutter" aria-hidden="true"></pre>
      <textarea id="stream-config" spellcheck="false" aria-label="Stream config (YAML or JSON)"></textarea></div>
    <ul class="lints" id="lints" aria-live="polite"></ul>
  </div>
</section>
<section class="tab" id="tab-resources">
  <div class="panel"><h2>Resources</h2>
    <table><thead><tr><th>type</th><th>id</th><th>config</th><th></th></tr></thead><tbody id="resources-body"></tbody></table>
  </div>
  <div class="panel"><h2>Add or replace a resource</h2>
    <div class="row"><select id="resource-type"><option>cache</option><option>input</option><option>output</option><option>processor</option><option>rate_limit</option></select>
      <input type="text" id="resource-id" placeholder="name" spellcheck="false">
      <button id="save-resource" class="primary">Save</button><span id="resource-result" class="muted"></span></div>
    <textarea class="plain" id="resource-config" spellcheck="false" aria-label="Resource config">memory: {}</textarea>
  </div>
</section>
<section class="tab" id="tab-dynamic">
  <div class="panel"><h2>Dynamic outputs</h2><div id="dynamic-list"></div>
    <p class="muted" id="dynamic-empty" hidden>No stream has a <code>dynamic</code> output.</p></div>
</section>
<section class="tab" id="tab-bloblang">
  <div class="grid3">
    <div class="panel"><h2>Input document</h2><textarea class="plain" id="blobl-input" spellcheck="false" aria-label="Input document">{"name":"nekton"}</textarea>
      <h2>Input metadata</h2><textarea class="plain" id="blobl-metadata" spellcheck="false" aria-label="Input metadata">{}</textarea></div>
    <div class="panel"><h2>Mapping</h2><textarea class="plain" id="blobl-mapping" spellcheck="false" aria-label="Mapping" style="height:320px">root.greeting = "hello " + this.name</textarea></div>
    <div class="panel"><h2>Output</h2><pre class="out" id="blobl-result" aria-live="polite"></pre>
      <h2>Output metadata</h2><pre class="out" id="blobl-meta"></pre></div>
  </div>
</section>
</main>
<script>${CONSOLE_SCRIPT}</script>
</body>
</html>
`;
