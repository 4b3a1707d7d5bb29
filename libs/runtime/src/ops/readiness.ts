/** A dependency probe: resolves when the dependency answers, rejects (or hangs) when it does not. */
export type ReadinessCheck = () => Promise<unknown>;
export type ReadinessChecks = Readonly<Record<string, ReadinessCheck>>;

export interface ReadinessReport {
  status: 'ready' | 'unavailable';
  /** `ok` or `error: <short reason>` per check name. */
  checks: Record<string, string>;
}

/** Long enough for a healthy database or broker round trip, short enough to answer a kubelet probe in time. */
export const READINESS_CHECK_TIMEOUT_MS = 2_000;
const REASON_LENGTH_MAX = 120;

/** Runs every check at once, each bounded by `timeoutMs`; one failure makes the whole report unavailable. */
export async function runReadinessChecks(checks: ReadinessChecks, timeoutMs = READINESS_CHECK_TIMEOUT_MS): Promise<ReadinessReport> {
  const names = Object.keys(checks);
  const outcomes = await Promise.all(names.map((name) => outcomeOf(checks[name], timeoutMs)));
  const report: ReadinessReport = { status: 'ready', checks: {} };
  names.forEach((name, i) => {
    report.checks[name] = outcomes[i];
    if (outcomes[i] !== 'ok') report.status = 'unavailable';
  });
  return report;
}

async function outcomeOf(check: ReadinessCheck, timeoutMs: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`timed out after ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    // Promise.resolve().then: a check that throws synchronously is reported like one that rejects.
    await Promise.race([Promise.resolve().then(check), deadline]);
    return 'ok';
  } catch (error) {
    return `error: ${shortReason(error)}`;
  } finally {
    clearTimeout(timer); // a settled check must not keep the process alive for the rest of the timeout
  }
}

/**
 * What a probe may show about a failure: the first line of the message, credentials in URLs masked, bounded in
 * length. Never the stack: readiness endpoints are unauthenticated.
 */
export function shortReason(error: unknown): string {
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : '';
  const firstLine = (message || (error as { code?: string })?.code || 'failed').split('\n')[0].trim();
  const masked = firstLine.replace(/([a-z][a-z0-9+.-]*:\/\/)[^@/\s]*@/gi, '$1***@');
  return masked.length > REASON_LENGTH_MAX ? `${masked.slice(0, REASON_LENGTH_MAX - 1)}…` : masked;
}
