/** Display of the API's values. */

/** An instant in the given IANA zone (the session's), or in the browser's when none is given. */
export function when(iso: string | null, timeZone?: string): string {
  if (iso === null) return '—';
  // dateStyle cannot be combined with timeZoneName, hence the parts.
  const options: Intl.DateTimeFormatOptions = {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZoneName: 'short',
  };
  try {
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat(undefined, options).format(new Date(iso));
  }
}

export const words = (value: string) => value.replace(/_/g, ' ');

/** A number as the API sent it, without trailing zeros (6.8, not 6.80). */
export const figure = (value: number) => String(Math.round(value * 100) / 100);
