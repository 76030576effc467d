/** A moment as the reader's locale writes it; "never" for none. */
export function when(iso: string | null | undefined): string {
  return iso ? new Date(iso).toLocaleString() : 'never';
}
