/**
 * The value of the one sample of `name` carrying all of `labels` in a Prometheus text exposition (label order is
 * not fixed); undefined when no sample, or more than one, matches. Test helper: assertions on what /metrics serves.
 */
export function sampleOf(exposition: string, name: string, labels: Record<string, string> = {}): number | undefined {
  const wanted = Object.entries(labels).map(([k, v]) => `${k}="${v}"`);
  const matches = exposition.split('\n').filter((line) => {
    if (line.startsWith(`${name} `)) return wanted.length === 0;
    if (!line.startsWith(`${name}{`)) return false;
    const pairs = line.slice(name.length + 1, line.lastIndexOf('}')).split(',');
    return wanted.every((pair) => pairs.includes(pair));
  });
  if (matches.length !== 1) return undefined;
  return Number(matches[0].slice(matches[0].lastIndexOf(' ') + 1));
}
