import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, extname, join, relative, sep } from 'node:path';

export interface ConsoleAsset {
  body: Buffer;
  type: string;
  /** Vite names what it builds under assets/ after its content: cached for good. index.html never. */
  immutable: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The console's built files (apps/console, `vite build` into dist/console), read once into memory: a few hundred
 * kilobytes, served without touching the disk again and without any path from a request reaching the file system.
 * CONSOLE_DIR overrides where they are; by default dist/console of the checkout or image this code runs from.
 */
export function loadConsoleAssets(dir = process.env.CONSOLE_DIR ?? defaultConsoleDir()): Map<string, ConsoleAsset> {
  const assets = new Map<string, ConsoleAsset>();
  if (!dir || !existsSync(join(dir, 'index.html'))) return assets;
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const path = join(at, name);
      if (statSync(path).isDirectory()) walk(path);
      else {
        const key = relative(dir, path).split(sep).join('/');
        assets.set(key, { body: readFileSync(path), type: TYPES[extname(name)] ?? 'application/octet-stream', immutable: key.startsWith('assets/') });
      }
    }
  };
  walk(dir);
  return assets;
}

/** dist/console under the nearest folder above this file that holds package.json (the checkout, or /app in the image). */
function defaultConsoleDir(): string | undefined {
  for (let at = __dirname; at !== dirname(at); at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return join(at, 'dist', 'console');
  }
  return undefined;
}
