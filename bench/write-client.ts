/**
 * The writes of the mixed scenario, sent from a process of their own (bench/realistic.ts forks it): the load
 * generator keeps its own event loop full with 50 connections, and a write timed there would be timed behind
 * that queue, not the service's. Told its plan, it sends one post with an image, which loads the service's image
 * library (once in a process's life, at its first upload), and answers with that write's time; on `start` it sends
 * `perSecond` writes a second through the API, each timed from its request to the end of its answer; `count` starts
 * the count afresh (the writes sent from then on); on `stop` it waits for those in flight and answers with the
 * figures of the writes counted.
 *
 * Writing from before the measured run keeps the client's connections open into it, as an app writing steadily
 * has them. A new connection opened as 50 others start their load waits up to 1–2 s to be read (Node 20 and later
 * accept one connection per turn of a full event loop; bench/results/performance-history.md): that is the service at its
 * saturation point, measured by the read scenarios' first requests, not the time a write takes.
 */
import { randomBytes } from 'node:crypto';
import { solidPng } from '../src/media/png.js';
import { kindOf, noStats } from './write-stats.js';

export interface WritePlan {
  base: string;
  writeToken: string;
  perSecond: number;
  /** Jobs of the demo company to deactivate and publish in turn, with their current status. */
  jobs: { id: number; status: string }[];
}

export type WriteMessage = { plan: WritePlan } | 'start' | 'count' | 'stop';

/** The answer to a plan: the time of the first upload, in ms. */
export interface WriteReady {
  firstUploadMs: number;
}

/** Post creates (a third with an image) and job deactivate/publish pairs, in turn. */
function writer({ base, writeToken, jobs }: WritePlan): (turn: number) => Promise<Response> {
  const auth = { authorization: `Bearer ${writeToken}` };
  const png = solidPng(64, 48, [200, 80, 40]);
  return (turn) => {
    const kind = kindOf(turn, jobs.length);
    if (kind === 'job') {
      const job = jobs[turn % jobs.length]!;
      const url = `${base}/api/v1/jobs/${job.id}/active?companyId=acme-labs`;
      if (job.status === 'published') {
        job.status = 'finish';
        return fetch(url, { method: 'DELETE', headers: auth });
      }
      job.status = 'published';
      return fetch(url, {
        method: 'PUT',
        headers: { ...auth, 'content-type': 'application/json' },
        body: JSON.stringify({ startDate: new Date().toISOString().slice(0, 10) }),
      });
    }
    const form = new FormData();
    form.append(
      'request',
      JSON.stringify({ text: `벤치마크 ${randomBytes(3).toString('hex')} 개발자 채용 TypeScript 경험을 나눴습니다` }),
    );
    if (kind === 'post with image') form.append('images', new Blob([png], { type: 'image/png' }), 'a.png');
    return fetch(`${base}/api/v1/posts`, {
      method: 'POST',
      headers: { ...auth, 'idempotency-key': `bench-${randomBytes(8).toString('hex')}` },
      body: form,
    });
  };
}

let send: (turn: number) => Promise<Response> = () => Promise.reject(new Error('no plan'));
let jobCount = 0;
let perSecond = 0;
let turn = 0;
let timer: NodeJS.Timeout | undefined;
const inFlight = new Set<Promise<void>>();
let stats = noStats();

// The benchmark stopped without a `stop` (it failed, or was interrupted): nothing is left writing.
process.on('disconnect', () => process.exit(0));

process.on('message', async (message: WriteMessage) => {
  if (typeof message === 'object') {
    send = writer(message.plan);
    jobCount = message.plan.jobs.length;
    perSecond = message.plan.perSecond;
    const started = performance.now();
    const res = await send(3);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`the first upload failed: ${res.status}`);
    process.send!({ firstUploadMs: Math.round(performance.now() - started) } satisfies WriteReady);
  } else if (message === 'start') {
    timer = setInterval(() => {
      const started = performance.now();
      const counted = stats;
      const kind = kindOf(++turn, jobCount);
      const write = send(turn)
        .then(
          async (res) => {
            await res.arrayBuffer();
            counted.count++;
            if (!res.ok) counted.failed++;
            const ms = performance.now() - started;
            counted.latencies.push(ms);
            counted.byKind[kind].push(ms);
          },
          () => {
            counted.count++;
            counted.failed++;
          },
        )
        .finally(() => inFlight.delete(write));
      inFlight.add(write);
    }, 1000 / perSecond);
  } else if (message === 'count') {
    stats = noStats();
  } else {
    clearInterval(timer);
    await Promise.all(inFlight);
    process.send!(stats, () => process.exit(0));
  }
});
