// The test kit: one import for waiting, ports, local services (addresses, the CI rule, clients, a
// private server to kill) and recording outputs.

export { listenerLeakWarnings } from './listener_warnings.js';
export { closedPort, freePort } from './ports.js';
export { PrivateServer } from './private_server.js';
export { batchText, CallRecorder, GroupCallRecorder } from './recording_outputs.js';
export { postgresPool } from './service_clients.js';
export {
  AMQP_URL,
  BEANSTALKD_ADDRESS,
  isReachable,
  MARIADB_DSN,
  MEMCACHED_ADDRESS,
  MQTT_URL,
  NATS_URL,
  POSTGRES_DSN,
  REDIS_URL,
  requireListening,
  requireService,
  SERVICES,
  type ServiceName,
} from './services.js';
export { TcpProxy } from './tcp_proxy.js';
export { type WaitOptions, waitFor } from './wait.js';
