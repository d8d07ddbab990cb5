/**
 * bench:load's load generator (bench/load.ts forks it: its CPU is not the instance's): one stage at a fixed rate,
 * open loop, every request timed from when it was due, over keep-alive connections.
 */
import http from 'node:http';

const TIMEOUT_MS = 30_000;

export interface Stage {
  origin: string;
  cookies: string[];
  urls: string[];
  perSecond: number;
  seconds: number;
}
export interface StageResult {
  sent: number;
  ok: number;
  shed: number;
  /** Neither 200 nor 503: other statuses, errors, timeouts. */
  other: number;
  okMs: number[];
  shedMs: number[];
  /** What the other answers were, and how many. */
  others: Record<string, number>;
  /** The most requests outstanding at once, and the generator's own lateness at its worst (ms). */
  peakOutstanding: number;
  lateMs: number;
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))] ?? 0;
};

/** The load generator (its own process): one stage at a fixed rate, every request timed from when it was due. */
function generate(stage: Stage): Promise<StageResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 256 });
  const result: StageResult = {
    sent: 0,
    ok: 0,
    shed: 0,
    other: 0,
    okMs: [],
    shedMs: [],
    others: {},
    peakOutstanding: 0,
    lateMs: 0,
  };
  const other = (what: string) => {
    result.other += 1;
    result.others[what] = (result.others[what] ?? 0) + 1;
  };
  const started = performance.now();
  const total = Math.round(stage.perSecond * stage.seconds);
  let answered = 0;
  return new Promise((resolve) => {
    const settle = () => {
      answered += 1;
      if (answered === total) {
        agent.destroy();
        resolve(result);
      }
    };
    const send = (index: number) => {
      const due = started + (index * 1000) / stage.perSecond;
      const cookie = stage.cookies[index % stage.cookies.length] ?? '';
      const url = stage.urls[(index + Math.floor(index / stage.urls.length)) % stage.urls.length] ?? '/api/session';
      const request = http.get(`${stage.origin}${url}`, { agent, headers: { cookie }, timeout: TIMEOUT_MS }, (res) => {
        res.resume();
        res.once('end', () => {
          const ms = performance.now() - due;
          if (res.statusCode === 200) {
            result.ok += 1;
            result.okMs.push(ms);
          } else if (res.statusCode === 503) {
            result.shed += 1;
            result.shedMs.push(ms);
          } else other(String(res.statusCode));
          settle();
        });
      });
      request.once('timeout', () => request.destroy(new Error('timeout')));
      request.once('error', (error) => {
        other(error.message === 'timeout' ? 'timeout' : 'error');
        settle();
      });
    };
    const tick = () => {
      const expected = started + (result.sent * 1000) / stage.perSecond;
      result.lateMs = Math.max(result.lateMs, performance.now() - expected);
      result.peakOutstanding = Math.max(result.peakOutstanding, result.sent - answered);
      const due = Math.min(total, Math.floor(((performance.now() - started) * stage.perSecond) / 1000) + 1);
      while (result.sent < due) send(result.sent++);
      if (result.sent < total) setTimeout(tick, 2);
    };
    tick();
  });
}

process.on('message', (stage: Stage) => {
  void generate(stage).then((result) => process.send?.(result));
});
