// The playground page's browser script, kept as plain ES2017 text (no build step, no imports).
// It re-runs the mapping shortly after every edit and shows only the reply to the newest request.
// String.raw so backslashes reach the browser as written; the code avoids backticks and `${`.
export const PAGE_SCRIPT = String.raw`
(function () {
  'use strict';
  var DEBOUNCE_MS = 150;
  var STORAGE_KEY = 'nekton-blobl-playground';
  var byId = function (id) { return document.getElementById(id); };
  var editors = { input: byId('input'), metadata: byId('metadata'), mapping: byId('mapping') };
  var view = {
    status: byId('status'), result: byId('result'), error: byId('error'), meta: byId('output-metadata')
  };
  var timer = 0;
  var newest = 0;

  restore();
  Object.keys(editors).forEach(function (name) {
    editors[name].addEventListener('input', function () {
      clearTimeout(timer);
      timer = setTimeout(run, DEBOUNCE_MS);
      save();
    });
  });
  editors.mapping.addEventListener('keydown', indentOnTab);
  run();

  async function run() {
    var request = ++newest;
    var reply;
    try {
      var res = await fetch('execute', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          mapping: editors.mapping.value, input: editors.input.value, metadata: editors.metadata.value
        })
      });
      reply = res.ok ? await res.json() : { request_error: (await res.text()).trim() || 'HTTP ' + res.status };
    } catch (err) {
      reply = { request_error: 'the playground server cannot be reached' };
    }
    // A slower, older reply must not overwrite a newer one.
    if (request === newest) show(reply);
  }

  function show(reply) {
    editors.mapping.classList.toggle('invalid', Boolean(reply.parse_error));
    editors.metadata.classList.toggle('invalid', Boolean(reply.metadata_error));
    view.result.hidden = true;
    view.error.hidden = true;
    view.meta.textContent = '';
    view.meta.className = 'note';
    if (reply.parse_error) {
      var p = reply.parse_error;
      fail('parse error', 'Parse error at line ' + p.line + ', column ' + p.column + '\n' + p.message +
        excerpt(editors.mapping.value, p.line, p.column));
    } else if (reply.exec_error) {
      fail('execution error', 'Execution error\n' + reply.exec_error);
    } else if (reply.metadata_error) {
      fail('metadata error', 'Input metadata error\n' + reply.metadata_error);
    } else if (reply.request_error) {
      fail('request failed', reply.request_error);
    } else if (reply.deleted) {
      setStatus('deleted', 'deleted');
      view.result.hidden = false;
      view.result.className = 'note';
      view.result.textContent = 'The mapping deleted the message.';
    } else {
      setStatus('ok', 'ok');
      view.result.hidden = false;
      view.result.className = '';
      view.result.textContent = reply.result;
      view.meta.className = '';
      view.meta.textContent = JSON.stringify(reply.metadata || {}, null, 2);
    }
  }

  function fail(status, text) {
    setStatus('error', status);
    view.error.hidden = false;
    view.error.textContent = text;
  }

  function setStatus(kind, text) {
    view.status.dataset.kind = kind;
    view.status.textContent = text;
  }

  // The offending mapping line with a caret under the column.
  function excerpt(text, line, column) {
    var source = text.split('\n')[line - 1];
    if (source === undefined || column < 1) return '';
    return '\n\n' + source + '\n' + ' '.repeat(column - 1) + '^';
  }

  function indentOnTab(event) {
    if (event.key !== 'Tab' || event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return;
    event.preventDefault();
    document.execCommand('insertText', false, '  ');
  }

  function save() {
    try {
      localStorage.setItem(STORAGE_KEY, JSON.stringify({
        input: editors.input.value, metadata: editors.metadata.value, mapping: editors.mapping.value
      }));
    } catch (err) { /* storage is a convenience only */ }
  }

  function restore() {
    // Texts loaded from files (blobl server --mapping-file / --input-file) win over saved edits.
    if (document.body.dataset.fromFiles) return;
    try {
      var saved = JSON.parse(localStorage.getItem(STORAGE_KEY) || 'null');
      if (!saved) return;
      Object.keys(editors).forEach(function (name) {
        if (typeof saved[name] === 'string') editors[name].value = saved[name];
      });
    } catch (err) { /* a corrupt entry just means the defaults */ }
  }
})();
`;
