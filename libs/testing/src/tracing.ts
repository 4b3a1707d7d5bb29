import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join } from 'node:path';
import { TraceFlags } from '@opentelemetry/api';
import type { ReadableSpan, SpanProcessor } from '@opentelemetry/sdk-trace';
import type { Instrumentation } from '@payments/observability';

/** What an instrumentation declares it patches (InstrumentationModuleDefinition of @opentelemetry/instrumentation). */
interface ModuleDefinition {
  name: string;
  moduleExports?: unknown;
  moduleVersion?: string;
  patch?: (exports: unknown, version?: string) => unknown;
  files: { name: string; moduleExports?: unknown; patch: (exports: unknown, version?: string) => unknown }[];
}

/**
 * Jest loads modules with its own loader, which the instrumentations' require hook never sees, so in a test the
 * SDK's instrumentations (http, Nest, pg) would patch nothing. This applies their patches by hand to the
 * module instances jest hands out (the ones the platform under test uses); the SDK's shutdown removes them.
 */
export function instrumentUnderJest(instrumentations: readonly Instrumentation[]): void {
  for (const instrumentation of instrumentations) {
    const definitions = (instrumentation as unknown as { getModuleDefinitions(): ModuleDefinition[] }).getModuleDefinitions();
    for (const definition of definitions) {
      const exports = load(definition.name);
      if (exports === undefined) continue;
      const version = packageVersion(definition.name);
      if (definition.patch) {
        definition.moduleExports = exports;
        definition.moduleVersion = version;
        definition.patch(exports, version);
      }
      for (const file of definition.files) {
        const fileExports = load(file.name);
        if (fileExports === undefined) continue;
        file.moduleExports = fileExports;
        file.patch(fileExports, version);
      }
    }
  }
}

function load(name: string): unknown {
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    return require(name);
  } catch {
    return undefined; // an optional part (pg's native client) that is not installed
  }
}

/** The version of an installed package, found from its entry file (some packages do not export package.json). */
function packageVersion(name: string): string | undefined {
  if (builtinModules.includes(name)) return undefined;
  for (let dir = dirname(require.resolve(name)); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) {
      const parsed = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string };
      if (parsed.name === name) return parsed.version;
    }
  }
  return undefined;
}

/**
 * A span processor that keeps every sampled span the moment it ends, for assertions (pass it to startTracing's
 * spanProcessors). Not InMemorySpanExporter behind a SimpleSpanProcessor: since sdk-trace 3 that processor exports
 * on a later tick, so a test reading the exporter right after the work would find the last spans missing.
 */
export class SpanRecorder implements SpanProcessor {
  private spans: ReadableSpan[] = [];

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if (span.spanContext().traceFlags & TraceFlags.SAMPLED) this.spans.push(span);
  }

  getFinishedSpans(): ReadableSpan[] {
    return [...this.spans];
  }

  reset(): void {
    this.spans = [];
  }

  async forceFlush(): Promise<void> {}

  async shutdown(): Promise<void> {}
}
