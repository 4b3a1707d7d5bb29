import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * CPU time of other processes, from Linux's /proc (issue #30: where a request's CPU goes). On a CPU-bound machine a
 * service's throughput is bounded by the CPU a request costs everywhere: in the service, and in the PostgreSQL
 * backends serving it. The reference's process and the embedded PostgreSQL's backends are measured this way; the
 * platform's own process by process.cpuUsage(). Elsewhere than Linux nothing is measured (undefined).
 */
const TICKS_PER_SECOND = 100; // USER_HZ: 100 on every Linux ABI Node.js runs on

/** user + system CPU of one process in µs, or undefined when it is gone or /proc is not there. */
export function processCpuUs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields are counted after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND; // utime, stime
  } catch {
    return undefined;
  }
}

/** The PostgreSQL server whose data directory is `dataDir`: its postmaster's pid (first line of postmaster.pid). */
export function postmasterPidOf(dataDir: string): number | undefined {
  try {
    return Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  } catch {
    return undefined;
  }
}

/**
 * CPU of a PostgreSQL server's backends and workers (the postmaster's children), in µs, by pid: a backend that exits
 * between two readings takes its time with it, so readings are compared per pid that lived through both.
 */
export function serverCpuUs(postmasterPid: number): Map<number, number> {
  const byPid = new Map<number, number>();
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return byPid;
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const pid = Number(entry);
      if (Number(fields[1]) !== postmasterPid && pid !== postmasterPid) continue; // ppid
      byPid.set(pid, ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / TICKS_PER_SECOND);
    } catch {
      // exited while we looked
    }
  }
  return byPid;
}

/** CPU spent between two serverCpuUs readings by the processes in both (new backends count from zero). */
export function serverCpuSpentUs(before: Map<number, number>, after: Map<number, number>): number {
  let spent = 0;
  for (const [pid, us] of after) spent += us - (before.get(pid) ?? 0);
  return spent;
}
