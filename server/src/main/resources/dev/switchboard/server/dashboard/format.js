// Formatting for people: money from the API's exact decimal strings (never through floating point), times in the
// browser's own zone, counts with separators.

const NANOS = 1000000000n;

/** Nano-dollars (BigInt) from an exact decimal string such as "12.5" or "-0.000021"; 0n for anything absent. */
export function toNanos(usd) {
  if (usd === undefined || usd === null || usd === '') return 0n;
  const s = String(usd).trim();
  const m = /^(-?)(\d*)(?:\.(\d*))?$/.exec(s);
  if (!m) throw new Error('not a decimal amount: ' + s);
  const frac = (m[3] || '').padEnd(9, '0').slice(0, 9);
  const v = BigInt(m[2] || '0') * NANOS + BigInt(frac || '0');
  return m[1] === '-' ? -v : v;
}

/** An exact decimal string of USD from nano-dollars. */
export function nanosToDecimal(nanos) {
  const neg = nanos < 0n;
  const abs = neg ? -nanos : nanos;
  const whole = abs / NANOS;
  const frac = (abs % NANOS).toString().padStart(9, '0').replace(/0+$/, '');
  return (neg ? '-' : '') + whole.toString() + (frac ? '.' + frac : '');
}

/**
 * "$1,234.50" for a balance; small amounts keep every significant digit ("$0.000021"), so a cost is never shown
 * as $0.00 when it is not zero. At least two decimals, never more than nine (the API's precision).
 */
export function money(usd) {
  const dec = typeof usd === 'bigint' ? nanosToDecimal(usd) : String(usd ?? '0');
  const m = /^(-?)(\d+)(?:\.(\d+))?$/.exec(dec.trim());
  if (!m) return String(usd);
  const whole = m[2].replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const frac = (m[3] || '').replace(/0+$/, '').padEnd(2, '0');
  return m[1] + '$' + whole + '.' + frac;
}

/** Chart values only (never summed or shown as money): dollars as a JavaScript number. */
export function usdNumber(usd) {
  return Number(toNanos(usd)) / 1e9;
}

const timeFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
const dayFmt = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });

/** An ISO instant (or epoch seconds) in the browser's zone; '' for nothing. */
export function time(value) {
  if (value === undefined || value === null || value === '') return '';
  const d = typeof value === 'number' ? new Date(value * 1000) : new Date(value);
  return isNaN(d) ? String(value) : timeFmt.format(d);
}

export function day(value) {
  if (!value) return '';
  const d = new Date(value.length === 10 ? value + 'T00:00:00' : value);
  return isNaN(d) ? String(value) : dayFmt.format(d);
}

/** The browser's time zone name, shown in the footer so "times in your zone" is never a guess. */
export function zone() {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time';
}

const intFmt = new Intl.NumberFormat();
export function count(n) {
  if (n === undefined || n === null || n === '') return '';
  return intFmt.format(n);
}

/** "1.2M" style, for context lengths. */
export function compact(n) {
  if (n === undefined || n === null) return '';
  return new Intl.NumberFormat(undefined, { notation: 'compact' }).format(n);
}
