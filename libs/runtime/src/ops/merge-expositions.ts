/**
 * Several Prometheus text expositions (one per app registry) as one: the embedded mode serves every app's metrics
 * on one ops port. The format allows one HELP and TYPE per metric family, its samples together, so families of the
 * same name (every app has the process and RPC families) are merged: the first HELP and TYPE, then every app's
 * samples, which differ by their `app` label. prom-client writes a family as its HELP, TYPE and sample lines.
 */
export function mergeExpositions(texts: readonly string[]): string {
  const families = new Map<string, { header: string[]; samples: string[] }>();
  for (const text of texts) {
    let current: { header: string[]; samples: string[] } | undefined;
    for (const line of text.split('\n')) {
      if (line === '') continue;
      const header = /^# (HELP|TYPE) (\S+)/.exec(line);
      if (header) {
        const name = header[2];
        let family = families.get(name);
        if (!family) families.set(name, (family = { header: [], samples: [] }));
        if (family.header.length < 2 && !family.header.some((h) => h.startsWith(`# ${header[1]} `))) family.header.push(line);
        current = family;
      } else if (!line.startsWith('#') && current) {
        current.samples.push(line);
      }
    }
  }
  return [...families.values()].map((f) => [...f.header, ...f.samples].join('\n')).join('\n\n') + '\n';
}
