// Colours for the report, as the reference prints them, and only on a terminal (NO_COLOR honoured).

export interface Style {
  red(text: string): string;
  green(text: string): string;
  blue(text: string): string;
  yellow(text: string): string;
}

const paint = (code: number) => (text: string) => `\u001b[${code}m${text}\u001b[0m`;

export const COLOURED: Style = { red: paint(31), green: paint(32), blue: paint(34), yellow: paint(33) };
export const PLAIN: Style = { red: (t) => t, green: (t) => t, blue: (t) => t, yellow: (t) => t };

export function styleFor(stream: NodeJS.WriteStream): Style {
  return stream.isTTY && !process.env.NO_COLOR ? COLOURED : PLAIN;
}
