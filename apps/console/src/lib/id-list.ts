/** Ids typed into a text area, one per line or separated by commas or spaces, in the order given. */
export function idList(text: unknown): string[] {
  return String(text ?? '')
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}
