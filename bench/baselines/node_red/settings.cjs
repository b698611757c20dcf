// Node-RED settings for the W3 baseline: the editor and admin API off, quiet logs, port from env.
module.exports = {
  uiHost: '127.0.0.1',
  uiPort: Number(process.env.NODE_RED_PORT),
  httpAdminRoot: false,
  httpNodeRoot: '/',
  flowFile: process.env.NODE_RED_FLOWS,
  userDir: process.env.NODE_RED_USER_DIR,
  credentialSecret: false,
  logging: { console: { level: 'warn', metrics: false, audit: false } },
  externalModules: { autoInstall: false },
  telemetry: { enabled: false },
  diagnostics: { enabled: false },
  editorTheme: { tours: false },
};
