/**
 * Lucene in `npm run bench:peers`: bench/LucenePeer.java run by Java 17 with Debian's liblucene8-java, kept running
 * while the other engines take their turns, so that its timed passes alternate with theirs (one `round` line each).
 * The documents and queries go to it as files; its answers (total and page of every query) come back as a file and
 * are checked like any engine's; its CPU per query is measured in the JVM (ThreadMXBean).
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { facetParts } from '../src/search/search-text.js';
import type { PeerAnswer, PeerQuery } from './peer-engines.js';

const JARS = '/usr/share/java';

/** The class path of Lucene's core, or why Lucene cannot run here. */
export function luceneClassPath(): { classPath: string } | { missing: string } {
  try {
    execFileSync('java', ['-version'], { stdio: 'ignore' });
  } catch {
    return { missing: 'no java on the PATH (Java 17: apt-get install -y openjdk-17-jdk-headless)' };
  }
  const core = fs.existsSync(JARS)
    ? fs.readdirSync(JARS).find((name) => /^lucene-core-8[\d.]*\.jar$/.test(name))
    : undefined;
  return core
    ? { classPath: path.join(JARS, core) }
    : { missing: `no Lucene 8 core in ${JARS} (apt-get install -y liblucene8-java)` };
}

const bound = (value: number, infinite: string) => (Number.isFinite(value) ? String(Math.trunc(value)) : infinite);

export class LucenePeer {
  private child!: ChildProcessWithoutNullStreams;
  private lines!: AsyncIterator<string>;
  private readonly dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lucene-peer-'));
  answers: PeerAnswer[] = [];
  buildMs = 0;
  heapBytes = 0;
  /** The bytes of its index (ByteBuffersDirectory). */
  indexBytes = 0;

  constructor(
    readonly name: string,
    private readonly variant: 'sorted' | 'default',
    private readonly classPath: string,
  ) {}

  /**
   * Starts the JVM on the documents (a file of `id TAB time TAB tokens` lines: peer-engines.ts writeCorpusFile) and
   * the queries; resolves once it has built its index and answered every query.
   */
  async start(corpus: string, queries: PeerQuery[]): Promise<void> {
    const questions = path.join(this.dir, 'queries.tsv');
    const answers = path.join(this.dir, 'answers.tsv');
    fs.writeFileSync(
      questions,
      queries
        .map((q) =>
          [
            q.recent ? 1 : 0,
            q.offset,
            q.limit,
            bound(q.from, '-9223372036854775808'),
            bound(q.to, '9223372036854775807'),
            q.required.filter((token) => !facetParts(token)).join(' '),
            q.required.filter((token) => facetParts(token)).join(' '),
            q.excluded.join(' '),
            q.fuzzy.map(([word, edits]) => `${word}:${edits}`).join(' '),
          ].join('\t'),
        )
        .join('\n'),
    );
    const source = path.resolve('bench/LucenePeer.java');
    this.child = spawn('java', [
      '-XX:+UseParallelGC',
      '-cp',
      this.classPath,
      source,
      corpus,
      questions,
      answers,
      this.variant,
    ]);
    this.child.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));
    // Stopped between its turns, it would not see its input close if this process ended early: end it then.
    process.once('exit', () => {
      if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    });
    this.lines = readline.createInterface({ input: this.child.stdout })[Symbol.asyncIterator]();
    const built = await this.next();
    const [, ms, heap, index] = built.split(' ');
    this.buildMs = Number(ms);
    this.heapBytes = Number(heap);
    this.indexBytes = Number(index);
    if ((await this.next()) !== 'answered') throw new Error('Lucene did not answer the queries');
    this.child.kill('SIGSTOP');
    this.answers = fs
      .readFileSync(answers, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [total, ids] = line.split('\t');
        return { total: Number(total), ids: ids ? ids.split(' ').map(Number) : [] };
      });
  }

  /** One timed pass over every query: the CPU microseconds of each. */
  round(): Promise<number[]> {
    return this.turn('round');
  }

  /** Query `i` timed `times` over: the CPU microseconds of each. */
  repeat(i: number, times: number): Promise<number[]> {
    return this.turn(`repeat ${i} ${times}`);
  }

  /**
   * The JVM runs only for its own turns: between them it is stopped (SIGSTOP), so that its compiler and collector
   * threads never take a core from another engine's timed turn (on a machine of two cores they did: the project's
   * broadest page took three times as long beside a running JVM as alone). Its own figures are its query thread's
   * CPU time, which a stop does not change.
   */
  private async turn(command: string): Promise<number[]> {
    this.child.kill('SIGCONT');
    this.child.stdin.write(`${command}\n`);
    const line = await this.next();
    this.child.kill('SIGSTOP');
    return line.split(' ').map((ns) => Number(ns) / 1000);
  }

  async stop(): Promise<void> {
    this.child.kill('SIGCONT');
    this.child.stdin.end();
    await new Promise((resolve) => this.child.once('exit', resolve));
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private async next(): Promise<string> {
    const { value, done } = await this.lines.next();
    if (done) throw new Error(`Lucene (${this.variant}) stopped`);
    return value;
  }
}
