// Go's strconv.ParseBool: the exact spellings it reads as true or false (nothing else).
const GO_BOOLS: Readonly<Record<string, boolean>> = {
  '1': true,
  t: true,
  T: true,
  TRUE: true,
  true: true,
  True: true,
  '0': false,
  f: false,
  F: false,
  FALSE: false,
  false: false,
  False: false,
};

/** The bool Go's ParseBool reads from `text`, or undefined where it would fail. */
export function parseGoBool(text: string): boolean | undefined {
  return Object.hasOwn(GO_BOOLS, text) ? GO_BOOLS[text] : undefined;
}
