// Address lists and how addresses appear in logs and errors, for every client component.
import { scrubSecretText } from '../../config/secret_text.js';

/** URLs as configured, with comma-separated entries expanded (one definition: `field.urlList`'s). */
export { expandUrls } from '../../config/spec.js';

/** The URL with its password replaced, for logs and errors (the one scrubber's rules). */
export function redactUrl(text: string): string {
  return scrubSecretText(text);
}
