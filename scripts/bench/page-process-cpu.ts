/**
 * CPU time of a browser this process launched, read from Linux's `/proc`: every process below
 * this one (Chromium's browser, renderers, GPU and storage processes, all their threads) and,
 * apart, the dedicated worker threads. On a machine other jobs load, the wall clock counts
 * their time too; CPU-seconds still compare. Elsewhere than Linux the readings are `NaN`.
 */
import { readdirSync, readFileSync } from 'node:fs'

/** Clock ticks a second (`getconf CLK_TCK`): 100 on every Linux this runs on. */
const TICKS = 100

/** CPU-seconds so far: the whole browser, and its dedicated worker threads alone. */
export interface BrowserCpu {
  browser: number
  worker: number
}

/** utime + stime of a `/proc/.../stat` line: fields 14 and 15, after the parenthesised name. */
function ticksOf(stat: string): number {
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
  return Number(fields[11]) + Number(fields[12])
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return undefined
  }
}

/** The CPU the processes below `root` (this one by default) have used, in seconds. */
export function browserCpu(root = process.pid): BrowserCpu {
  let pids: string[]
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name))
  } catch {
    return { browser: Number.NaN, worker: Number.NaN }
  }
  const parent = new Map<number, number>()
  const stats = new Map<number, string>()
  for (const pid of pids) {
    const stat = read(`/proc/${pid}/stat`)
    if (!stat) continue
    stats.set(Number(pid), stat)
    parent.set(Number(pid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]))
  }
  const below = (pid: number) => {
    for (let at = parent.get(pid); at !== undefined && at > 1; at = parent.get(at)) {
      if (at === root) return true
    }
    return false
  }
  let browser = 0
  let worker = 0
  for (const [pid, stat] of stats) {
    if (!below(pid)) continue
    browser += ticksOf(stat)
    let tasks: string[] = []
    try {
      tasks = readdirSync(`/proc/${pid}/task`)
    } catch {}
    for (const tid of tasks) {
      if (read(`/proc/${pid}/task/${tid}/comm`)?.startsWith('DedicatedWorker')) {
        worker += ticksOf(read(`/proc/${pid}/task/${tid}/stat`) ?? '')
      }
    }
  }
  return { browser: browser / TICKS, worker: worker / TICKS }
}
