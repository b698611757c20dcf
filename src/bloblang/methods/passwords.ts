// `compare_bcrypt`: checks a password against a bcrypt hash. A wrong password gives false; a hash
// that is not bcrypt fails the mapping with Go's wording, as the reference does.
import { createRequire } from 'node:module';
import { fail, method, p, targetString } from './support.js';

const require = createRequire(import.meta.url);
// Loaded on first use: most mappings never compare passwords.
let bcrypt: typeof import('bcryptjs') | undefined;

const BCRYPT_HASH = /^\$2[abxy]?\$(\d\d)\$[./A-Za-z0-9]{53}$/;

function checkHash(hash: string): void {
  if (hash.length < 59) throw fail('crypto/bcrypt: hashedSecret too short to be a bcrypted password');
  if (hash[0] !== '$')
    throw fail(
      `crypto/bcrypt: bcrypt hashes must start with '$', but hashedSecret started with '${hash[0]}'`,
    );
  const match = BCRYPT_HASH.exec(hash);
  if (!match) throw fail('crypto/bcrypt: hashedSecret is not a bcrypt hash');
  const cost = Number(match[1]);
  if (cost < 4 || cost > 31) throw fail(`crypto/bcrypt: cost ${cost} is outside allowed range (4,31)`);
}

method('compare_bcrypt', [p.str('hashed_secret')], (target, args) => {
  const password = targetString(target);
  const hash = args[0] as string;
  checkHash(hash);
  bcrypt ??= require('bcryptjs') as typeof import('bcryptjs');
  return bcrypt.compareSync(password, hash);
});
