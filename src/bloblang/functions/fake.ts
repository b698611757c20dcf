// `fake(function)`: random test data in the shapes go-faker gives (the reference's faker
// function names; the name is case-insensitive, "" gives a random word). The word lists are
// short, built in: the values are plausible, not go-faker's own lists.
import { nodeCrypto } from '../../base/lazy_builtins.js';
import { registerFunction } from '../library.js';
import { argString, fail, p } from '../methods/support.js';

const rand = (n: number): number => Math.floor(Math.random() * n);
const pick = <T>(list: readonly T[]): T => list[rand(list.length)]!;
const digits = (n: number): string => Array.from({ length: n }, () => rand(10)).join('');
const hex = (bytes: number): string => nodeCrypto().randomBytes(bytes).toString('hex');

const FIRST_MALE = [
  'James',
  'John',
  'Robert',
  'Michael',
  'William',
  'David',
  'Richard',
  'Joseph',
  'Thomas',
  'Charles',
];
const FIRST_FEMALE = [
  'Mary',
  'Patricia',
  'Jennifer',
  'Linda',
  'Elizabeth',
  'Barbara',
  'Susan',
  'Jessica',
  'Sarah',
  'Karen',
];
const LAST = [
  'Smith',
  'Johnson',
  'Williams',
  'Brown',
  'Jones',
  'Garcia',
  'Miller',
  'Davis',
  'Rodriguez',
  'Martinez',
];
const CHINESE_FIRST = ['Wei', 'Fang', 'Xiu', 'Min', 'Jing', 'Li', 'Qiang', 'Yan', 'Jun', 'Lei'];
const CHINESE_LAST = ['Wang', 'Li', 'Zhang', 'Liu', 'Chen', 'Yang', 'Huang', 'Zhao', 'Wu', 'Zhou'];
const WORDS = [
  'alias',
  'consequatur',
  'aut',
  'perferendis',
  'sit',
  'voluptatem',
  'accusantium',
  'doloremque',
  'aperiam',
  'eaque',
  'ipsa',
  'quae',
  'ab',
  'illo',
  'inventore',
  'veritatis',
  'et',
  'quasi',
  'architecto',
  'beatae',
  'vitae',
  'dicta',
  'sunt',
  'explicabo',
];
const TLDS = ['com', 'net', 'org', 'biz', 'info', 'ru', 'io'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const ZONES = [
  'Europe/London',
  'America/New_York',
  'Asia/Tokyo',
  'Australia/Sydney',
  'Africa/Cairo',
  'America/Sao_Paulo',
  'Asia/Kolkata',
];
const CC_TYPES = ['VISA', 'MasterCard', 'American Express', 'Discover', 'JCB', 'Diners Club'];
const CURRENCIES = ['USD', 'EUR', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'CNY', 'INR', 'BRL'];

const word = () => pick(WORDS);
const sentence = () => {
  const s = Array.from({ length: 5 + rand(6) }, word).join(' ');
  return `${s[0]!.toUpperCase()}${s.slice(1)}.`;
};
const domain = () => `${word()}${word()}.${pick(TLDS)}`;
const username = () => `${word()}${word()}${rand(100)}`;
const unixTime = () => rand(1_900_000_000);
const dateOf = (t: number) => new Date(t * 1000);
const date = (t = unixTime()) => dateOf(t).toISOString().slice(0, 10);
const time = (t = unixTime()) => dateOf(t).toISOString().slice(11, 19);
const b64url = (s: string) => Buffer.from(s).toString('base64url');

/** Luhn check digit of a card number's digits. */
function luhn(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i++) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return String((10 - (sum % 10)) % 10);
}

const GENERATORS: Record<string, () => string | number> = {
  latitude: () => Math.round((Math.random() * 180 - 90) * 1e6) / 1e6,
  longitude: () => Math.round((Math.random() * 360 - 180) * 1e6) / 1e6,
  unix_time: unixTime,
  date: () => date(),
  time_string: () => time(),
  month_name: () => pick(MONTHS),
  year_string: () => String(1970 + rand(60)),
  day_of_week: () => pick(DAYS),
  day_of_month: () => String(1 + rand(31)),
  timestamp: () => {
    const t = unixTime();
    return `${date(t)} ${time(t)}`;
  },
  century: () => pick(['I', 'II', 'V', 'X', 'XV', 'XIX', 'XX', 'XXI']),
  timezone: () => pick(ZONES),
  time_period: () => pick(['AM', 'PM']),
  email: () => `${username()}@${domain()}`,
  mac_address: () => hex(6).match(/../g)!.join(':'),
  domain_name: domain,
  url: () => `https://www.${domain()}/`,
  username,
  ipv4: () => Array.from({ length: 4 }, () => rand(256)).join('.'),
  ipv6: () => hex(16).match(/..../g)!.join(':'),
  password: () => nodeCrypto().randomBytes(24).toString('base64url').slice(0, 30),
  jwt: () =>
    `${b64url('{"alg":"HS256","typ":"JWT"}')}.${b64url(`{"sub":"${username()}","iat":${unixTime()}}`)}.${nodeCrypto().randomBytes(32).toString('base64url')}`,
  word,
  sentence,
  paragraph: () => Array.from({ length: 3 + rand(4) }, sentence).join(' '),
  cc_type: () => pick(CC_TYPES),
  cc_number: () => {
    const body = `4${digits(14)}`;
    return body + luhn(body);
  },
  currency: () => pick(CURRENCIES),
  amount_with_currency: () => `${pick(CURRENCIES)} ${(Math.random() * 1000).toFixed(2)}`,
  title_male: () => pick(['Mr.', 'Dr.', 'Prof.', 'Lord', 'King', 'Prince']),
  title_female: () => pick(['Mrs.', 'Ms.', 'Miss', 'Dr.', 'Prof.', 'Lady', 'Queen', 'Princess']),
  first_name: () => pick([...FIRST_MALE, ...FIRST_FEMALE]),
  first_name_male: () => pick(FIRST_MALE),
  first_name_female: () => pick(FIRST_FEMALE),
  last_name: () => pick(LAST),
  name: () =>
    `${pick(['Mr.', 'Mrs.', 'Ms.', 'Dr.'])} ${pick([...FIRST_MALE, ...FIRST_FEMALE])} ${pick(LAST)}`,
  gender: () => pick(['Male', 'Female', 'Prefer to skip']),
  chinese_first_name: () => pick(CHINESE_FIRST),
  chinese_last_name: () => pick(CHINESE_LAST),
  chinese_name: () => `${pick(CHINESE_LAST)}${pick(CHINESE_FIRST)}`,
  phone_number: () => `${digits(3)}-${digits(3)}-${digits(4)}`,
  toll_free_phone_number: () => `(${pick(['777', '888', '800'])}) ${digits(3)}-${digits(4)}`,
  e164_phone_number: () => `+${1 + rand(9)}${digits(10)}`,
  uuid_hyphenated: () => nodeCrypto().randomUUID(),
  uuid_digit: () => hex(16),
  '': word,
};

/** The faker function names, as the reference lists them. */
export const FAKE_FUNCTIONS = Object.keys(GENERATORS).filter((k) => k !== '');

registerFunction({
  name: 'fake',
  impure: true,
  params: [p.str('function', { default: '' })],
  impl(a) {
    const name = argString(a, 0);
    const generate = GENERATORS[name.toLowerCase()];
    if (!generate) throw fail(`invalid faker function: ${name}`);
    return generate();
  },
});
