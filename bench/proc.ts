// CPU use from /proc (Linux; undefined elsewhere): of processes by pid, of a PostgreSQL cluster, and
// of this process's children once they have ended (a command run to the end, such as a batch).
import { readdirSync, readFileSync } from 'node:fs';

/** The fields of /proc/<pid>/stat after the command's name: [0] state, [1] ppid, [11] utime, [12] stime, [13] cutime, [14] cstime. */
function statFields(pid: number | string): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** CPU seconds a process (or several, summed) has used, from /proc (Linux; undefined elsewhere). USER_HZ is 100 on Linux. */
export function cpuSeconds(pid: number | number[] | undefined): number | undefined {
  if (pid === undefined) return undefined;
  let total = 0;
  for (const one of Array.isArray(pid) ? pid : [pid]) {
    const fields = statFields(one);
    if (!fields) return undefined;
    total += (Number(fields[11]) + Number(fields[12])) / 100;
  }
  return total;
}

/**
 * CPU seconds of a PostgreSQL cluster: the postmaster, the backends it has ended and reaped (its
 * cutime and cstime), and its children alive now (backends, checkpointer, autovacuum…).
 */
export function clusterCpuSeconds(postmaster: number | undefined): number | undefined {
  if (postmaster === undefined) return undefined;
  const own = statFields(postmaster);
  if (!own) return undefined;
  let ticks = Number(own[11]) + Number(own[12]) + Number(own[13]) + Number(own[14]);
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(entry);
    if (fields && Number(fields[1]) === postmaster) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / 100;
}

/**
 * The main threads of processes (by pid, summed), from /proc/<pid>/schedstat (the thread the pid
 * names): seconds on a core, and seconds runnable but waiting for one (the scheduler's run_delay). A
 * thread busy on-core plus waiting near 100% is saturated, whatever its CPU share says.
 */
export function mainThreadSeconds(pid: number | number[] | undefined): { onCore: number; waiting: number } | undefined {
  if (pid === undefined) return undefined;
  const total = { onCore: 0, waiting: 0 };
  for (const one of Array.isArray(pid) ? pid : [pid]) {
    let fields: string[];
    try {
      fields = readFileSync(`/proc/${one}/schedstat`, 'utf8').trim().split(' ');
    } catch {
      return undefined;
    }
    total.onCore += Number(fields[0]) / 1e9;
    total.waiting += Number(fields[1]) / 1e9;
  }
  return total;
}

/** CPU seconds of the children of this process that have ended and been waited for (cutime + cstime). */
export function endedChildrenCpuSeconds(): number | undefined {
  const fields = statFields('self');
  return fields ? (Number(fields[13]) + Number(fields[14])) / 100 : undefined;
}
