// The playground page's stylesheet: three columns of editors over the full window, monospace text.
export const PAGE_STYLE = `
:root {
  --bg: #f5f6f8; --pane: #ffffff; --border: #d5d9e0; --text: #1d2330; --muted: #687385;
  --accent: #2f6fde; --ok: #1f8a4c; --warn: #a86500; --bad: #c2293b;
  --mono: ui-monospace, 'DejaVu Sans Mono', 'Liberation Mono', Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
html, body { height: 100%; margin: 0; }
body {
  display: flex; flex-direction: column; background: var(--bg); color: var(--text);
  font: 14px/1.4 system-ui, -apple-system, 'Segoe UI', sans-serif;
}
header {
  display: flex; align-items: baseline; gap: 12px; padding: 10px 16px;
  background: #1d2330; color: #fff;
}
header h1 { margin: 0; font-size: 16px; font-weight: 600; }
header span { color: #aab3c2; font-size: 13px; }
main {
  flex: 1; min-height: 0; display: grid; gap: 12px; padding: 12px;
  grid-template-columns: repeat(3, minmax(0, 1fr));
}
.column { display: flex; flex-direction: column; gap: 12px; min-height: 0; }
section {
  display: flex; flex-direction: column; min-height: 0; flex: 1;
  background: var(--pane); border: 1px solid var(--border); border-radius: 6px; overflow: hidden;
}
section.small { flex: 0 0 30%; }
h2 {
  display: flex; justify-content: space-between; align-items: center; margin: 0; padding: 6px 10px;
  border-bottom: 1px solid var(--border); color: var(--muted);
  font-size: 12px; font-weight: 600; letter-spacing: 0.04em; text-transform: uppercase;
}
textarea, pre {
  flex: 1; min-height: 0; width: 100%; margin: 0; padding: 10px; border: 0; outline: 0; resize: none;
  overflow: auto; background: transparent; color: var(--text);
  font: 13px/1.5 var(--mono); tab-size: 2; white-space: pre-wrap; overflow-wrap: anywhere;
}
textarea:focus { background: #fbfcfe; }
textarea.invalid { box-shadow: inset 3px 0 0 var(--bad); }
pre.error { color: var(--bad); }
pre.note { color: var(--muted); font-style: italic; }
#status {
  padding: 1px 8px; border-radius: 10px; background: var(--border); color: var(--text);
  font-size: 11px; letter-spacing: 0; text-transform: none;
}
#status[data-kind='ok'] { background: #dcf3e5; color: var(--ok); }
#status[data-kind='deleted'] { background: #fdf0d9; color: var(--warn); }
#status[data-kind='error'] { background: #fbe1e4; color: var(--bad); }
[hidden] { display: none !important; }
@media (max-width: 900px) {
  main { grid-template-columns: minmax(0, 1fr); grid-auto-rows: minmax(320px, auto); }
}
`;
