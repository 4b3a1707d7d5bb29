import autocannon from 'autocannon';

/** What the orchestrator asks the load generator for (JSON in argv[2]). */
export interface LoadSpec {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** Request bodies, used in turn (e.g. transfers spread over many accounts). */
  bodies?: string[];
  durationS: number;
  connections: number;
}

export interface LoadResult {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * The load generator, in its own process (`node load.js '<LoadSpec>'`), so the platform under test and the client do
 * not share an event loop; prints one LoadResult as JSON on stdout.
 */
async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2]) as LoadSpec;
  let next = 0;
  const bodies = spec.bodies;
  const result = await autocannon({
    url: spec.url,
    method: spec.method ?? 'GET',
    headers: spec.headers,
    duration: spec.durationS,
    connections: spec.connections,
    ...(bodies?.length ? { requests: [{ setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }) }] } : {}),
  });
  const answer: LoadResult = {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
  process.stdout.write(JSON.stringify(answer));
}

main().catch((error) => {
  process.stderr.write(`load generator failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
