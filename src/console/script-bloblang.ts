// The console's Bloblang tab: the playground's mapping runner (`ui/execute`) on three text areas.
export const SCRIPT_BLOBLANG = String.raw`
  var blobl = { input: byId('blobl-input'), metadata: byId('blobl-metadata'), mapping: byId('blobl-mapping') };
  var bloblTimer = 0;
  var newestRun = 0;

  function runMapping() {
    var request = ++newestRun;
    call('POST', 'ui/execute', JSON.stringify({
      mapping: blobl.mapping.value, input: blobl.input.value, metadata: blobl.metadata.value
    }), 'application/json').then(function (reply) {
      if (request !== newestRun) return;
      var result = byId('blobl-result');
      var meta = byId('blobl-meta');
      var body = null;
      try { body = JSON.parse(reply.text); } catch (err) { body = { request_error: reply.text.trim() }; }
      if (!reply.ok) body = { request_error: reply.text.trim() || 'HTTP ' + reply.status };
      result.classList.toggle('error', Boolean(body.parse_error || body.exec_error || body.metadata_error || body.request_error));
      meta.textContent = body.metadata ? JSON.stringify(body.metadata, null, 2) : '';
      if (body.parse_error) {
        result.textContent = 'Parse error at line ' + body.parse_error.line + ', column ' + body.parse_error.column + '\n' + body.parse_error.message;
      } else if (body.exec_error) result.textContent = 'Execution error\n' + body.exec_error;
      else if (body.metadata_error) result.textContent = 'Metadata error\n' + body.metadata_error;
      else if (body.request_error) result.textContent = body.request_error;
      else if (body.deleted) result.textContent = '(the mapping deleted the message)';
      else result.textContent = body.result;
    });
  }

  Object.keys(blobl).forEach(function (name) {
    blobl[name].addEventListener('input', function () {
      clearTimeout(bloblTimer);
      bloblTimer = setTimeout(runMapping, 150);
    });
  });

  tabs.bloblang = { show: runMapping };
`;
