/**
 * Whether this process traces, from the standard OpenTelemetry variables. Off unless asked for: an exporter named in
 * OTEL_TRACES_EXPORTER (other than `none`) or an OTLP endpoint; OTEL_SDK_DISABLED=true wins over both. Off, the SDK is
 * never loaded and every span below is the API's no-op.
 */
export function tracingRequested(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? '').split(',').map((e) => e.trim().toLowerCase()).filter(Boolean);
  if (exporters.length > 0) return exporters.some((e) => e !== 'none');
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** Service name of the resource when OTEL_SERVICE_NAME is unset (the launcher runs every app in one process). */
export const DEFAULT_SERVICE_NAME = 'payments-platform';
