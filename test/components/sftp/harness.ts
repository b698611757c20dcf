// Streams for the sftp tests: the shared capture harness (resources first: the watcher's cache).
import type { RunningStream } from '../../helpers/capture_stream.js';

export { Capture, startStream } from '../../helpers/capture_stream.js';
export type SftpStream = RunningStream;
