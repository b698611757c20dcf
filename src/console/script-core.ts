// The console script's shared helpers: DOM building (text only, never HTML from the server), calls
// to the API by relative path (so `http.root_path` works), tabs, and a flash line for results.
// Plain ES2017 text for the browser: no backticks or `${`, and no backslashes (this is not String.raw).
export const SCRIPT_CORE = `
  var byId = function (id) { return document.getElementById(id); };
  var params = new URLSearchParams(location.search);
  var POLL_MS = Math.max(250, Number(params.get('poll')) || 2000);
  var tabs = {};

  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (key) {
      if (key === 'text') node.textContent = attrs[key];
      else if (key === 'onclick') node.addEventListener('click', attrs[key]);
      else node.setAttribute(key, attrs[key]);
    });
    (children || []).forEach(function (child) { if (child) node.appendChild(child); });
    return node;
  }

  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  // Paths are relative to the page (/ui), so a root_path prefix carries over.
  function call(method, path, body, type) {
    var init = { method: method, headers: {} };
    if (body !== undefined) { init.body = body; init.headers['Content-Type'] = type || 'application/yaml'; }
    return fetch(path, init).then(function (res) {
      return res.text().then(function (text) { return { status: res.status, ok: res.ok, text: text }; });
    });
  }

  function getJson(path) {
    return call('GET', path).then(function (reply) {
      if (!reply.ok) throw new Error(reply.text.trim() || 'HTTP ' + reply.status);
      return JSON.parse(reply.text);
    });
  }

  function flash(text) { byId('flash').textContent = text; }

  function describeReply(reply) {
    if (reply.ok) return 'done';
    try {
      var body = JSON.parse(reply.text);
      if (body && body.linting_errors) return body.linting_errors.join('; ');
    } catch (err) { /* not JSON: the text is the message */ }
    return (reply.text.trim() || 'HTTP ' + reply.status);
  }

  function showTab(name) {
    if (!tabs[name]) name = 'streams';
    Object.keys(tabs).forEach(function (key) {
      byId('tab-' + key).classList.toggle('active', key === name);
    });
    document.querySelectorAll('nav a').forEach(function (a) {
      a.classList.toggle('active', a.getAttribute('data-tab') === name);
    });
    if (tabs[name].show) tabs[name].show();
  }

  function encodeSegment(text) { return encodeURIComponent(text); }
`;
