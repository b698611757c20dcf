// Number formats of the reference's benchmark log lines (Go's go-humanize Ftoa and Bytes), so the
// lines read the same: `rolling stats: 1234.5 msg/sec, 1.2 MB/sec`.

/** A float with up to six decimals and no trailing zeros: 100 → "100", 1/3 → "0.333333". */
export function formatRate(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (!Number.isFinite(value)) return value > 0 ? '+Inf' : '-Inf';
  const fixed = value.toFixed(6);
  return fixed.replace(/\.?0+$/, '');
}

const SIZES = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB'];

/** A byte count in SI units with one significant decimal below 10: 1234 → "1.2 kB", 82854982 → "83 MB". */
export function formatBytes(bytes: number): string {
  const whole = Number.isFinite(bytes) && bytes > 0 ? Math.floor(bytes) : 0;
  if (whole < 10) return `${whole} B`;
  const exponent = Math.min(Math.floor(Math.log(whole) / Math.log(1000)), SIZES.length - 1);
  const scaled = Math.floor((whole / 1000 ** exponent) * 10 + 0.5) / 10;
  const text = scaled < 10 ? scaled.toFixed(1) : roundHalfEven(scaled).toString();
  return `${text} ${SIZES[exponent]}`;
}

/** Go's %.0f rounds ties to even. */
function roundHalfEven(value: number): number {
  const floor = Math.floor(value);
  const diff = value - floor;
  if (diff > 0.5) return floor + 1;
  if (diff < 0.5) return floor;
  return floor % 2 === 0 ? floor : floor + 1;
}
