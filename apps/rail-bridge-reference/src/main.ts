import { ReferenceBridge } from './bridge-server';
import { bridgeConfigFrom } from './config';

/** `node dist/apps/rail-bridge-reference/src/main.js`: the reference bridge on PORT (README.md). */
async function main(): Promise<void> {
  const config = bridgeConfigFrom(process.env);
  const bridge = new ReferenceBridge(config);
  const port = await bridge.listen();
  // The one line a test waits for; never the key or the secret.
  process.stdout.write(`rail-bridge-reference listening on http://${config.host}:${port} (settles after ${config.settleAfterMs} ms)\n`);
  const stop = () => void bridge.close().then(() => process.exit(0));
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
