// The console's Streams tab: every stream with its state, uptime and rates from `/metrics`, two
// charts of the last minutes, and pause, resume, edit and delete buttons.
export const SCRIPT_STREAMS = String.raw`
  var HISTORY = 60;
  var COLORS = ['#2f6fde', '#1f8a4c', '#a86500', '#c2293b', '#7a3fd1', '#0f8a8a', '#6b7280'];
  var previous = null;
  var history = {};
  var knownStreams = {};

  // Sums the counters the charts need per stream label from Prometheus text.
  function parseMetrics(text) {
    var totals = {};
    text.split('\n').forEach(function (line) {
      var match = /^(input_received|output_error|processor_error|output_latency_ns)\{([^}]*)\}\s+(\S+)/.exec(line);
      if (!match) return;
      var stream = /(?:^|,)stream="((?:[^"\\]|\\.)*)"/.exec(match[2]);
      if (!stream) return;
      var id = stream[1].replace(/\\(.)/g, '$1');
      var entry = totals[id] || (totals[id] = { received: 0, errors: 0, latency: 0 });
      var value = Number(match[3]) || 0;
      if (match[1] === 'output_latency_ns') {
        // The slowest output's p99 over the exporter's window, in milliseconds.
        if (/quantile="0\.99"/.test(match[2])) entry.latency = Math.max(entry.latency, value / 1e6);
      } else if (match[1] === 'input_received') entry.received += value;
      else entry.errors += value;
    });
    return totals;
  }

  function rates(totals, now) {
    var out = {};
    Object.keys(totals).forEach(function (id) {
      var before = previous && previous.totals[id];
      var seconds = previous ? (now - previous.at) / 1000 : 0;
      out[id] = before && seconds > 0 ? {
        received: Math.max(0, (totals[id].received - before.received) / seconds),
        errors: Math.max(0, (totals[id].errors - before.errors) / seconds),
        latency: totals[id].latency
      } : { received: 0, errors: 0, latency: totals[id].latency };
    });
    previous = { at: now, totals: totals };
    return out;
  }

  function record(id, rate) {
    var h = history[id] || (history[id] = { received: [], errors: [], latency: [] });
    h.received.push(rate.received); h.errors.push(rate.errors); h.latency.push(rate.latency || 0);
    if (h.received.length > HISTORY) { h.received.shift(); h.errors.shift(); h.latency.shift(); }
  }

  function polyline(values, max, color, width, height) {
    var step = width / (HISTORY - 1);
    var offset = HISTORY - values.length;
    var points = values.map(function (v, i) {
      return ((offset + i) * step).toFixed(1) + ',' + (height - (v / max) * (height - 4) - 2).toFixed(1);
    }).join(' ');
    var line = document.createElementNS('http://www.w3.org/2000/svg', 'polyline');
    line.setAttribute('points', points);
    line.setAttribute('fill', 'none');
    line.setAttribute('stroke', color);
    line.setAttribute('stroke-width', '1.5');
    line.setAttribute('vector-effect', 'non-scaling-stroke');
    return line;
  }

  function drawChart(svgId, legendId, ids, key, unit) {
    var svg = byId(svgId);
    clear(svg);
    var max = 1;
    ids.forEach(function (id) { (history[id] ? history[id][key] : []).forEach(function (v) { if (v > max) max = v; }); });
    var legend = ids.map(function (id, i) {
      var values = history[id] ? history[id][key] : [];
      svg.appendChild(polyline(values, max, COLORS[i % COLORS.length], 300, 100));
      var latest = values.length ? values[values.length - 1] : 0;
      return id + ' ' + latest.toFixed(1) + unit;
    });
    svg.setAttribute('data-max', String(max));
    byId(legendId).textContent = ids.length ? legend.join('   ') + '   (scale 0 to ' + max.toFixed(1) + unit + ')' : '';
  }

  function sparkline(values, color) {
    var svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('viewBox', '0 0 120 24');
    svg.setAttribute('preserveAspectRatio', 'none');
    var max = 1;
    values.forEach(function (v) { if (v > max) max = v; });
    svg.appendChild(polyline(values, max, color, 120, 24));
    return svg;
  }

  function uptimeText(seconds) {
    if (typeof seconds !== 'number') return '';
    var s = Math.floor(seconds);
    if (s < 60) return s + 's';
    if (s < 3600) return Math.floor(s / 60) + 'm ' + (s % 60) + 's';
    if (s < 86400) return Math.floor(s / 3600) + 'h ' + Math.floor((s % 3600) / 60) + 'm';
    return Math.floor(s / 86400) + 'd ' + Math.floor((s % 86400) / 3600) + 'h';
  }

  function stateOf(detail) {
    if (!detail) return { label: 'unknown', why: '' };
    if (detail.state === 'running' && detail.not_ready && detail.not_ready.length) {
      var first = detail.not_ready[0];
      return { label: 'not-ready', why: first.component + (first.error ? ': ' + first.error : ' is not connected') };
    }
    return { label: detail.state, why: detail.status && detail.status.last_error ? detail.status.last_error : '' };
  }

  function lifecycle(id, action) {
    return call('POST', 'streams/' + encodeSegment(id) + '/' + action).then(function (reply) {
      flash(action + ' ' + id + ': ' + describeReply(reply));
      return refreshStreams();
    });
  }

  function removeStream(id) {
    if (!window.confirm('Delete stream ' + id + '?')) return;
    call('DELETE', 'streams/' + encodeSegment(id)).then(function (reply) {
      flash('delete ' + id + ': ' + describeReply(reply));
      delete history[id];
      return refreshStreams();
    });
  }

  function row(id, summary, detail, rate, index) {
    var state = stateOf(detail);
    var paused = detail && detail.state === 'paused';
    var color = COLORS[index % COLORS.length];
    return el('tr', { 'data-stream': id }, [
      el('td', { text: id }),
      el('td', {}, [el('span', { class: 'state ' + state.label, text: state.label.replace('-', ' ') }),
        state.why ? el('div', { class: 'why', text: state.why }) : null]),
      el('td', { text: uptimeText(summary.uptime), title: summary.uptime_str || '' }),
      el('td', { class: 'num received', text: rate.received.toFixed(1) }),
      el('td', { class: 'num errors', text: rate.errors.toFixed(1) }),
      el('td', {}, [sparkline(history[id] ? history[id].received : [], color)]),
      el('td', {}, [
        el('button', { text: 'Edit', 'data-action': 'edit', onclick: function () { editStream(id); } }),
        el('button', { text: paused ? 'Resume' : 'Pause', 'data-action': paused ? 'resume' : 'pause',
          onclick: function () { lifecycle(id, paused ? 'resume' : 'pause'); } }),
        el('button', { text: 'Delete', class: 'danger', 'data-action': 'delete', onclick: function () { removeStream(id); } })
      ])
    ]);
  }

  var refreshing = null;
  function refreshStreams() {
    if (refreshing) return refreshing;
    refreshing = Promise.all([getJson('streams'), call('GET', 'metrics')]).then(function (both) {
      var list = both[0];
      var ids = Object.keys(list).sort();
      knownStreams = list;
      var current = rates(both[1].ok ? parseMetrics(both[1].text) : {}, Date.now());
      ids.forEach(function (id) { record(id, current[id] || { received: 0, errors: 0, latency: 0 }); });
      return Promise.all(ids.map(function (id) {
        return getJson('streams/' + encodeSegment(id)).catch(function () { return null; });
      })).then(function (details) {
        var body = byId('streams-body');
        clear(body);
        ids.forEach(function (id, i) {
          body.appendChild(row(id, list[id], details[i], current[id] || { received: 0, errors: 0 }, i));
        });
        byId('streams-empty').hidden = ids.length > 0;
        drawChart('chart-received', 'legend-received', ids, 'received', '/s');
        drawChart('chart-errors', 'legend-errors', ids, 'errors', '/s');
        drawChart('chart-latency', 'legend-latency', ids, 'latency', ' ms');
      });
    }).catch(function (err) {
      flash('cannot read the streams: ' + err.message);
    }).then(function () { refreshing = null; });
    return refreshing;
  }

  tabs.streams = { show: refreshStreams };
  byId('new-stream').addEventListener('click', function () { newStream(); });
  setInterval(function () { if (byId('tab-streams').classList.contains('active')) refreshStreams(); }, POLL_MS);
`;
