// The console's stylesheet: a tab bar over one pane at a time, tables, charts and editors.
export const CONSOLE_STYLE = `
:root {
  --bg: #f5f6f8; --pane: #ffffff; --border: #d5d9e0; --text: #1d2330; --muted: #687385;
  --accent: #2f6fde; --ok: #1f8a4c; --warn: #a86500; --bad: #c2293b;
  --mono: ui-monospace, 'DejaVu Sans Mono', 'Liberation Mono', Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
html, body { margin: 0; }
body { background: var(--bg); color: var(--text); font: 14px/1.4 system-ui, -apple-system, 'Segoe UI', sans-serif; }
header { display: flex; align-items: center; gap: 16px; padding: 8px 16px; background: #1d2330; color: #fff; }
header h1 { margin: 0; font-size: 16px; font-weight: 600; }
nav { display: flex; gap: 4px; }
nav a { color: #aab3c2; text-decoration: none; padding: 6px 10px; border-radius: 4px; }
nav a.active, nav a:hover { color: #fff; background: #2d3547; }
#flash { margin-left: auto; font-size: 13px; color: #ffd27a; }
main { padding: 16px; }
section.tab { display: none; }
section.tab.active { display: block; }
h2 { font-size: 15px; margin: 0 0 8px; }
.panel { background: var(--pane); border: 1px solid var(--border); border-radius: 6px; padding: 12px; margin-bottom: 16px; }
.charts { display: grid; grid-template-columns: repeat(auto-fit, minmax(320px, 1fr)); gap: 16px; }
.chart svg { width: 100%; height: 120px; display: block; }
.chart .legend { font-size: 12px; color: var(--muted); }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--border); vertical-align: middle; }
th { font-size: 12px; color: var(--muted); font-weight: 600; }
td.num { font-variant-numeric: tabular-nums; text-align: right; }
td svg { width: 120px; height: 24px; display: block; }
.state { font-weight: 600; }
.state.running { color: var(--ok); } .state.paused { color: var(--warn); }
.state.failed, .state.not-ready { color: var(--bad); } .state.finished { color: var(--muted); }
.why { font-size: 12px; color: var(--bad); }
button { font: inherit; padding: 3px 10px; border: 1px solid var(--border); border-radius: 4px; background: #fff; cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
button.danger { color: var(--bad); }
input[type=text], select { font: inherit; padding: 4px 6px; border: 1px solid var(--border); border-radius: 4px; }
.editor { display: flex; border: 1px solid var(--border); border-radius: 4px; background: #fff; height: 360px; }
.editor pre.gutter { margin: 0; padding: 8px 6px; min-width: 3.2em; text-align: right; color: var(--muted);
  background: #eef0f4; font: 13px/1.5 var(--mono); overflow: hidden; user-select: none; }
.editor pre.gutter span.bad { color: #fff; background: var(--bad); border-radius: 3px; padding: 0 3px; }
.editor textarea { flex: 1; border: 0; resize: none; padding: 8px; font: 13px/1.5 var(--mono); outline: none; white-space: pre; }
textarea.plain { width: 100%; height: 140px; font: 13px/1.5 var(--mono); border: 1px solid var(--border); border-radius: 4px; padding: 8px; }
ul.lints { margin: 8px 0 0; padding: 0; list-style: none; font: 13px/1.5 var(--mono); }
ul.lints li { color: var(--bad); }
ul.lints li.ok { color: var(--ok); }
.row { display: flex; gap: 8px; align-items: center; margin-bottom: 8px; flex-wrap: wrap; }
pre.out { margin: 0; padding: 8px; min-height: 60px; background: #fff; border: 1px solid var(--border); border-radius: 4px;
  font: 13px/1.5 var(--mono); white-space: pre-wrap; word-break: break-word; }
pre.out.error { color: var(--bad); }
.grid3 { display: grid; grid-template-columns: repeat(3, 1fr); gap: 12px; }
.muted { color: var(--muted); font-size: 12px; }
`;
