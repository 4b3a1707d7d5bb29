import { createServer } from 'node:net';

/**
 * Ports below Linux's ephemeral range (32768-60999 by default): the OS never gives these to outgoing connections, so
 * a port found free here stays free until the server listens. A port from `listen(0)` is ephemeral, and any of the
 * many PostgreSQL and Kafka connections a test opens in between could take it (EADDRINUSE).
 */
const RANGE = { from: 20_000, to: 32_000 };
const handedOut = new Set<number>();

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A TCP port that was free a moment ago and is not handed out twice by this process, for servers that cannot listen on port 0. */
export async function freePort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = RANGE.from + Math.floor(Math.random() * (RANGE.to - RANGE.from));
    if (handedOut.has(port) || !(await canListen(port))) continue;
    handedOut.add(port);
    return port;
  }
  throw new Error(`no free port found in ${RANGE.from}-${RANGE.to}`);
}
