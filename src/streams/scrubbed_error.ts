// An error about to be answered to an API client, with any credential it quotes hidden (a
// connector's "cannot connect to redis://u:p@host" must not hand the password back).
import { scrubSecretText } from '../config/secret_text.js';

export function scrubbedError(err: unknown): unknown {
  if (err instanceof Error) {
    const message = scrubSecretText(err.message);
    if (message !== err.message) err.message = message;
    return err;
  }
  return typeof err === 'string' ? scrubSecretText(err) : err;
}
