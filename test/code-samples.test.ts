/**
 * The reference's code samples (`x-codeSamples`: curl, JavaScript, Python, Java) run as written: every curl sample of
 * an operation an app key may call, with the demo's key put in, answers 200 from a listening demo; the post-writing
 * sample answers 201 with a user's token. Every operation under /api/v1 has all four.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startListeningApp, type ListeningApp } from './helpers/listening-app.js';
import type { TestContext } from './helpers/test-app.js';
import { accessToken } from './helpers/tokens.js';

interface Sample {
  lang: string;
  label: string;
  source: string;
}

describe('the code samples of the reference', () => {
  let t: ListeningApp;
  let doc: Record<string, any>;
  beforeAll(async () => {
    t = await startListeningApp('sqlite');
    doc = (await (await fetch(`${t.base}/openapi.json`)).json()) as Record<string, any>;
  });
  afterAll(async () => {
    await t?.close();
  });

  const operations = () =>
    Object.entries(
      doc.paths as Record<
        string,
        Record<string, { security?: Record<string, unknown>[]; 'x-codeSamples'?: Sample[]; operationId: string }>
      >,
    )
      .filter(([path]) => path.startsWith('/api/v1/'))
      .flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op })));
  // The service answers in this process: the command runs beside it, never blocking it.
  const run = async (command: string) =>
    (await promisify(execFile)('bash', ['-c', `${command} -s -o /dev/null -w '%{http_code}'`], { encoding: 'utf8' }))
      .stdout;

  it("gives every operation a sample in curl, JavaScript, Python and Java, for the service's own address", () => {
    for (const { op } of operations()) {
      expect(
        op['x-codeSamples']?.map((s) => s.label),
        op.operationId,
      ).toEqual(['curl', 'JavaScript', 'Python', 'Java']);
      for (const sample of op['x-codeSamples']!)
        expect(sample.source, `${op.operationId} ${sample.label}`).toContain(`${t.base}/api/v1/`);
    }
  });

  it("answers each app-key read's curl sample with 200, as written but for the key and an event's id", async () => {
    const reads = operations().filter(({ method, op }) => method === 'get' && op.security?.some((s) => 'apiKey' in s));
    expect(reads.length).toBeGreaterThan(15);
    for (const { op } of reads) {
      const curl = op['x-codeSamples']![0]!.source.replace('svck_…', t.demo.apiKey).replace(
        'EVENT_ID',
        t.demo.events.first,
      );
      expect(await run(curl), `${op.operationId}: ${curl}`).toBe('200');
    }
  });

  it('runs the JavaScript samples of a search, a read and a write in Node.js, as written but for the credential', async () => {
    const token = await accessToken({ app: t.app, demo: t.demo } as TestContext, 'post:write');
    for (const id of ['searchJobs', 'getPost', 'createPost']) {
      const { op } = operations().find(({ op: o }) => o.operationId === id)!;
      const source = op['x-codeSamples']![1]!.source.replace('svck_…', t.demo.apiKey).replace('ACCESS_TOKEN', token);
      const { stdout } = await promisify(execFile)(
        process.execPath,
        ['--input-type=module', '-e', `${source}\nconsole.log(response.status, JSON.stringify(data).length > 2);`],
        { encoding: 'utf8' },
      );
      expect(stdout.trim(), id).toBe(id === 'createPost' ? '201 true' : '200 true');
    }
  });

  it("writes a post with the curl sample of createPost and a user's token", async () => {
    const token = await accessToken({ app: t.app, demo: t.demo } as TestContext, 'post:write');
    const create = operations().find(({ op }) => op.operationId === 'createPost')!;
    expect(await run(create.op['x-codeSamples']![0]!.source.replace('ACCESS_TOKEN', token))).toBe('201');
  });
});
