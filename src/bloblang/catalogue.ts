// Loads every function and method file so their registrations run when index.ts is imported.
import './functions/environment.js';
import './functions/general.js';
import './methods/arrays.js';
import './methods/compression.js';
import './methods/encoding.js';
import './methods/hashing.js';
import './methods/json.js';
import './methods/msgpack.js';
import './methods/numbers.js';
import './methods/objects.js';
import './methods/parsing.js';
import './methods/regexp.js';
import './methods/strings.js';
import './methods/time.js';
import './methods/type.js';
import './methods/xml.js';
