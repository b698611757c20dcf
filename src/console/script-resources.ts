// The console's Resources and Dynamic outputs tabs: list, add or replace, delete (a resource that
// streams use is refused by the server with 409, whose message is shown).
export const SCRIPT_RESOURCES = String.raw`
  function refreshResources() {
    return getJson('resources').then(function (all) {
      var body = byId('resources-body');
      clear(body);
      Object.keys(all).sort().forEach(function (type) {
        Object.keys(all[type]).sort().forEach(function (id) {
          body.appendChild(el('tr', { 'data-resource': type + '/' + id }, [
            el('td', { text: type }), el('td', { text: id }),
            el('td', {}, [el('code', { text: JSON.stringify(all[type][id]) })]),
            el('td', {}, [
              el('button', { text: 'Edit', onclick: function () {
                byId('resource-type').value = type; byId('resource-id').value = id;
                var config = Object.assign({}, all[type][id]); delete config.label;
                byId('resource-config').value = toYaml(config, 0).replace(/^\n/, '') + '\n';
              } }),
              el('button', { text: 'Delete', class: 'danger', 'data-action': 'delete', onclick: function () {
                call('DELETE', 'resources/' + encodeSegment(type) + '/' + encodeSegment(id)).then(function (reply) {
                  byId('resource-result').textContent = 'delete ' + type + ' ' + id + ': ' + describeReply(reply);
                  return refreshResources();
                });
              } })
            ])
          ]));
        });
      });
    }).catch(function (err) { flash('cannot read the resources: ' + err.message); });
  }

  byId('save-resource').addEventListener('click', function () {
    var type = byId('resource-type').value;
    var id = byId('resource-id').value.trim();
    if (!id) { byId('resource-result').textContent = 'give the resource a name'; return; }
    call('POST', 'resources/' + encodeSegment(type) + '/' + encodeSegment(id), byId('resource-config').value)
      .then(function (reply) {
        byId('resource-result').textContent = 'save ' + type + ' ' + id + ': ' + describeReply(reply);
        return refreshResources();
      });
  });

  // A dynamic output's list route says so in /endpoints; paths there start at the server root.
  function refreshDynamic() {
    return getJson('endpoints').then(function (endpoints) {
      var bases = Object.keys(endpoints).filter(function (path) {
        return /\/outputs$/.test(path) && /^List the dynamic outputs/.test(endpoints[path]);
      }).sort();
      var holder = byId('dynamic-list');
      clear(holder);
      byId('dynamic-empty').hidden = bases.length > 0;
      return Promise.all(bases.map(function (base) {
        var path = base.replace(/^\//, '');
        return getJson(path).then(function (members) { holder.appendChild(dynamicPanel(path, members)); });
      }));
    }).catch(function (err) { flash('cannot read the dynamic outputs: ' + err.message); });
  }

  function dynamicPanel(path, members) {
    var rows = Object.keys(members).sort().map(function (id) {
      return el('tr', { 'data-member': id }, [
        el('td', { text: id }), el('td', { text: members[id].uptime }),
        el('td', {}, [el('code', { text: members[id].config_raw })]),
        el('td', {}, [el('button', { text: 'Delete', class: 'danger', 'data-action': 'delete', onclick: function () {
          call('DELETE', path + '/' + encodeSegment(id)).then(function (reply) {
            flash('delete output ' + id + ': ' + describeReply(reply));
            return refreshDynamic();
          });
        } })])
      ]);
    });
    var idInput = el('input', { type: 'text', placeholder: 'output id', spellcheck: 'false', class: 'member-id' });
    var configInput = el('textarea', { class: 'plain member-config', spellcheck: 'false', 'aria-label': 'Output config' });
    configInput.value = 'drop: {}\n';
    var result = el('span', { class: 'muted' });
    var add = el('button', { text: 'Add or replace', class: 'primary', onclick: function () {
      var id = idInput.value.trim();
      if (!id) { result.textContent = 'give the output an id'; return; }
      call('POST', path + '/' + encodeSegment(id), configInput.value).then(function (reply) {
        result.textContent = 'save ' + id + ': ' + describeReply(reply);
        if (reply.ok) refreshDynamic();
      });
    } });
    return el('div', { class: 'dynamic', 'data-path': path }, [
      el('h2', { text: '/' + path }),
      el('table', {}, [el('thead', {}, [el('tr', {}, [el('th', { text: 'id' }), el('th', { text: 'uptime' }),
        el('th', { text: 'config' }), el('th', {})])]), el('tbody', {}, rows)]),
      el('div', { class: 'row', style: 'margin-top:8px' }, [idInput, add, result]), configInput
    ]);
  }

  tabs.resources = { show: refreshResources };
  tabs.dynamic = { show: refreshDynamic };
`;
