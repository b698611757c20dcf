// The console's browser script: its parts joined in one function scope (they share helpers).
import { SCRIPT_BLOBLANG } from './script-bloblang.js';
import { SCRIPT_CORE } from './script-core.js';
import { SCRIPT_EDITOR } from './script-editor.js';
import { SCRIPT_RESOURCES } from './script-resources.js';
import { SCRIPT_STREAMS } from './script-streams.js';

export const CONSOLE_SCRIPT = `
(function () {
  'use strict';
${SCRIPT_CORE}
${SCRIPT_STREAMS}
${SCRIPT_EDITOR}
${SCRIPT_RESOURCES}
${SCRIPT_BLOBLANG}
  window.addEventListener('hashchange', function () { showTab(location.hash.slice(1)); });
  showTab(location.hash.slice(1));
})();
`;
