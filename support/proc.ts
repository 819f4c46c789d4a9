import fs from 'node:fs';

/*
 * What Linux says of a process in /proc: the tests and the benchmark measure the service's processes (the server
 * and its image process) from outside them.
 */

/** /proc/<pid>/stat's fields after the process's name: [11] utime, [12] stime, [13] cutime, [14] cstime, in ticks of 10 ms. */
export function statFields(pid: number): number[] {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number);
}

/** CPU time (user + system) the process itself has used so far, in ms. */
export function processCpuMs(pid: number): number {
  const fields = statFields(pid);
  return (fields[11]! + fields[12]!) * 10;
}

/** The processes `pid` started that still run; none when `pid` has ended. */
export function childrenOf(pid: number): number[] {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** A memory figure of /proc/<pid>/status (`VmHWM`, `RssAnon`, …) in MB; 0 when the process has ended. */
function statusMb(pid: number, field: string): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

/** The most resident memory the process has held (VmHWM), in MB. */
export const peakRssMb = (pid: number): number => statusMb(pid, 'VmHWM');

/**
 * The process's anonymous resident memory in MB (RssAnon: its heaps and its own allocations): what it holds, where
 * RSS also counts the pages of mapped files it has touched (the binary, and the SQLite file read through its memory
 * map), which are the system's file cache.
 */
export const anonymousRssMb = (pid: number): number => statusMb(pid, 'RssAnon');
