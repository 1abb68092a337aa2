/*
 * `Retry-After` as RFC 9110 section 10.2.3 defines it: delay-seconds (digits only) or an HTTP-date,
 * which a recipient must read in all three of section 5.6.7's forms. Only those shapes reach
 * `Date.parse`, which on its own would read "1.5" or "120" as calendar dates.
 */

const DELAY_SECONDS = /^\d+$/;
const DAY = '(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)';
const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** `Sun, 06 Nov 1994 08:49:37 GMT`, the form senders use. */
const IMF_FIXDATE = new RegExp(`^${DAY}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT$`);
/** `Sunday, 06-Nov-94 08:49:37 GMT`. */
const RFC850_DATE = new RegExp(
  `^(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT$`,
);
/** `Sun Nov  6 08:49:37 1994`, which is UTC although it does not say so. */
const ASCTIME_DATE = new RegExp(`^${DAY} ${MONTH} [ \\d]\\d ${TIME} \\d{4}$`);

/**
 * Milliseconds from `nowMs` until the endpoint accepts another request, or undefined when the
 * header is absent or not one of the RFC's forms. A date in the past means "now" (0).
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value == null) return undefined;
  const text = value.trim();
  if (DELAY_SECONDS.test(text)) return Number(text) * 1_000;
  let at: number;
  if (IMF_FIXDATE.test(text) || RFC850_DATE.test(text)) at = Date.parse(text);
  else if (ASCTIME_DATE.test(text)) at = Date.parse(`${text} GMT`);
  else return undefined;
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}
