// The console's stream editor: a YAML (or JSON) config linted by the server as you type, each
// problem marked at its line in the gutter and listed below; Save creates or replaces the stream.
export const SCRIPT_EDITOR = String.raw`
  var LINT_DEBOUNCE_MS = 250;
  var editor = byId('stream-config');
  var gutter = byId('gutter');
  var lintTimer = 0;
  var newestLint = 0;
  var lintsByLine = {};

  var STARTER = 'input:\n  generate:\n    interval: 1s\n    mapping: \'root = {"n": counter()}\'\npipeline:\n  processors:\n    - mapping: root = this\noutput:\n  drop: {}\n';

  function drawGutter() {
    clear(gutter);
    var count = editor.value.split('\n').length;
    for (var line = 1; line <= count; line++) {
      var problem = lintsByLine[line];
      gutter.appendChild(el('span', problem ? { class: 'bad', title: problem, 'data-line': String(line), text: String(line) }
        : { text: String(line) }));
      gutter.appendChild(document.createTextNode('\n'));
    }
    gutter.scrollTop = editor.scrollTop;
  }

  // "(3,1) field nope not recognised" -> line 3.
  function showLints(lints) {
    lintsByLine = {};
    var list = byId('lints');
    clear(list);
    lints.forEach(function (text) {
      var at = /^\((\d+),(\d+)\)\s*/.exec(text);
      if (at) lintsByLine[Number(at[1])] = (lintsByLine[Number(at[1])] ? lintsByLine[Number(at[1])] + '; ' : '') + text.slice(at[0].length);
      list.appendChild(el('li', { text: at ? 'line ' + at[1] + ', column ' + at[2] + ': ' + text.slice(at[0].length) : text }));
    });
    if (!lints.length) list.appendChild(el('li', { class: 'ok', text: 'no problems' }));
    drawGutter();
  }

  function lintNow() {
    var request = ++newestLint;
    var text = editor.value;
    if (text.trim() === '') { showLints([]); return Promise.resolve(); }
    return call('POST', 'ui/lint', text).then(function (reply) {
      if (request !== newestLint) return;
      var lints;
      try { lints = JSON.parse(reply.text).linting_errors; } catch (err) { lints = [reply.text.trim()]; }
      showLints(lints || [reply.text.trim() || 'HTTP ' + reply.status]);
    }, function () { if (request === newestLint) showLints(['the server cannot be reached']); });
  }

  editor.addEventListener('input', function () {
    drawGutter();
    clearTimeout(lintTimer);
    lintTimer = setTimeout(lintNow, LINT_DEBOUNCE_MS);
  });
  editor.addEventListener('scroll', function () { gutter.scrollTop = editor.scrollTop; });
  editor.addEventListener('keydown', function (event) {
    if (event.key !== 'Tab') return;
    event.preventDefault();
    var start = editor.selectionStart;
    editor.setRangeText('  ', start, editor.selectionEnd, 'end');
    editor.dispatchEvent(new Event('input'));
  });

  // The API returns the config as JSON; shown as YAML, which is what people write.
  function toYaml(value, indent) {
    var pad = new Array(indent + 1).join(' ');
    if (Array.isArray(value)) {
      if (!value.length) return ' []';
      return value.map(function (item) {
        var inner = toYaml(item, indent + 2);
        return '\n' + pad + '-' + (inner.charAt(0) === '\n' ? inner.replace(/^\n\s*/, ' ') : inner);
      }).join('');
    }
    if (value !== null && typeof value === 'object') {
      var keys = Object.keys(value);
      if (!keys.length) return ' {}';
      return keys.map(function (key) {
        var name = /^[A-Za-z_][\w.-]*$/.test(key) ? key : JSON.stringify(key);
        return '\n' + pad + name + ':' + toYaml(value[key], indent + 2);
      }).join('');
    }
    if (typeof value === 'string' && value.indexOf('\n') >= 0 && !/^\s/.test(value) && !/[ \t]\n|[ \t]$/.test(value)) {
      var body = value.replace(/\n$/, '');
      return ' |' + (value.charAt(value.length - 1) === '\n' ? '' : '-') + body.split('\n').map(function (line) {
        return '\n' + (line ? pad + line : '');
      }).join('');
    }
    return ' ' + JSON.stringify(value);
  }

  function openEditor(id, text) {
    byId('stream-id').value = id;
    editor.value = text;
    byId('save-result').textContent = '';
    location.hash = '#editor';
    drawGutter();
    lintNow();
  }

  function editStream(id) {
    getJson('streams/' + encodeSegment(id)).then(function (detail) {
      openEditor(id, toYaml(detail.config, 0).replace(/^\n/, '') + '\n');
    }, function (err) { flash('cannot read ' + id + ': ' + err.message); });
  }

  function newStream() { openEditor('', STARTER); }

  byId('save-stream').addEventListener('click', function () {
    var id = byId('stream-id').value.trim();
    if (!id) { byId('save-result').textContent = 'give the stream an id'; return; }
    var exists = Object.prototype.hasOwnProperty.call(knownStreams, id);
    call(exists ? 'PUT' : 'POST', 'streams/' + encodeSegment(id), editor.value).then(function (reply) {
      byId('save-result').textContent = (exists ? 'updated ' : 'created ') + id + ': ' + describeReply(reply);
      if (reply.ok) { knownStreams[id] = {}; flash((exists ? 'updated ' : 'created ') + id); }
    });
  });

  tabs.editor = { show: function () { if (!editor.value) newStream(); else drawGutter(); } };
`;
