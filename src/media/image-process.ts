import { fork, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyBaseLogger } from 'fastify';
import type { ImageJob, ImageJobAnswer } from './image-process-main.js';
import type { ImageLimits, ImageRefusal, ProcessedImage } from './image-processing.js';

/** The program beside this file: compiled JavaScript in dist/, TypeScript under tsx and Vitest (run with tsx's loader). */
const PROGRAM = fileURLToPath(
  new URL(`./image-process-main${path.extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);
const PROGRAM_ARGS = PROGRAM.endsWith('.ts') ? ['--import', 'tsx'] : [];

/**
 * The only settings the image process gets: none of the service's (database addresses, signing secrets, tokens), so
 * a decoder exploited by a crafted file finds no credential in its environment.
 */
function imageProcessEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of ['PATH', 'TMPDIR', 'LANG']) if (process.env[name] !== undefined) env[name] = process.env[name];
  return env;
}

/** An upload the image process did not answer: it ended (crashed, killed, out of memory) or ran out of time. */
export class ImageProcessFailed extends Error {}

export interface ImageProcessOptions {
  /** An image not answered in this time, counted from when the process is ready, stops it (failing the images it held). */
  timeoutMs: number;
  /** The process ends after this long without work, giving back libvips and what decoding held. */
  idleMs: number;
}

interface Pending {
  resolve(result: ProcessedImage | ImageRefusal): void;
  reject(err: Error): void;
  /** Set once the process is ready: its time runs from then. */
  timer?: NodeJS.Timeout;
}

interface Running {
  child: ChildProcess;
  pending: Map<number, Pending>;
  /** Whether it has loaded the image library. */
  ready: boolean;
  /** Why this process is being stopped by us, when it is. */
  stopping?: string;
  exited: Promise<void>;
}

/**
 * Decodes uploads in a separate process: libvips parses whatever a client sends, so a crash in it (or a decode
 * that never ends) costs the uploads it held, answered 502 P0013, not the service; and the memory decoding
 * takes (hundreds of megabytes for the largest images), with libvips itself, never joins the serving process's.
 * The process starts with the first upload and ends after `idleMs` without one; one that ended is started again
 * by the next upload. How many images it decodes at once is the decode gate's (decode-gate.ts).
 */
export class ImageProcess {
  private running: Running | null = null;
  private lastId = 0;
  private idle: NodeJS.Timeout | null = null;

  constructor(
    private readonly log: FastifyBaseLogger,
    private readonly options: ImageProcessOptions = { timeoutMs: 30_000, idleMs: 60_000 },
  ) {}

  /** The process id while it runs (tests and the benchmark read its memory). */
  get pid(): number | undefined {
    return this.running?.child.pid;
  }

  process(bytes: Buffer, limits: ImageLimits): Promise<ProcessedImage | ImageRefusal> {
    // One being stopped (idle, or out of time) takes nothing more: it is about to fail what it holds.
    const running = this.running && !this.running.stopping ? this.running : this.start();
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const id = ++this.lastId;
    return new Promise((resolve, reject) => {
      const pending: Pending = { resolve, reject };
      running.pending.set(id, pending);
      if (running.ready) this.time(running, pending);
      const job: ImageJob = { id, bytes, limits };
      running.child.send(job, (err) => {
        if (err) void this.stop(running, `the image could not be sent: ${err.message}`);
      });
    });
  }

  /** Stops the process, failing what it holds; resolves once it has ended. */
  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    const running = this.running;
    if (running) await this.stop(running, 'the service is closing');
  }

  private time(running: Running, pending: Pending): void {
    pending.timer = setTimeout(
      () => void this.stop(running, `an image took more than ${this.options.timeoutMs} ms`),
      this.options.timeoutMs,
    );
  }

  private start(): Running {
    const child = fork(PROGRAM, [], {
      execArgv: PROGRAM_ARGS,
      env: imageProcessEnv(),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    const pending = new Map<number, Pending>();
    // 'error' without 'exit' when it could not be started at all (no pid).
    const exited = new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.on('error', () => {
        if (child.pid === undefined) resolve();
      });
    });
    const running: Running = { child, pending, ready: false, exited };
    this.running = running;

    child.on('message', (answer: ImageJobAnswer) => {
      if ('ready' in answer) {
        running.ready = true;
        for (const job of pending.values()) this.time(running, job);
        return;
      }
      const job = pending.get(answer.id);
      if (!job) return;
      pending.delete(answer.id);
      clearTimeout(job.timer);
      if ('failed' in answer) job.reject(new ImageProcessFailed(answer.failed));
      else
        job.resolve(
          typeof answer.result === 'string'
            ? answer.result
            : { ...answer.result, bytes: asBuffer(answer.result.bytes) },
        );
      if (pending.size === 0 && this.running === running)
        this.idle = setTimeout(() => void this.stop(running, 'idle'), this.options.idleMs).unref();
    });
    // Every 'error' is handled (an unhandled one would end the server): one without a pid means it never started.
    child.on('error', (err) => {
      if (child.pid === undefined) this.ended(running, `it could not be started: ${err.message}`);
      else this.log.warn({ err }, 'the image process reported an error');
    });
    child.once('exit', (code, signal) =>
      this.ended(running, signal ? `it was ended by ${signal}` : `it exited with code ${code}`),
    );
    return running;
  }

  private stop(running: Running, reason: string): Promise<void> {
    running.stopping ??= reason;
    if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill('SIGKILL');
    return running.exited;
  }

  private ended(running: Running, how: string): void {
    if (this.running === running) this.running = null;
    const reason = running.stopping ?? how;
    if (running.pending.size > 0)
      this.log.error({ images: running.pending.size, reason }, 'the image process ended with images unanswered');
    else if (!running.stopping) this.log.warn({ reason }, 'the image process ended');
    for (const job of running.pending.values()) {
      clearTimeout(job.timer);
      job.reject(new ImageProcessFailed(`The image process ended before answering: ${reason}`));
    }
    running.pending.clear();
  }
}

/** Bytes as the channel delivers them (a Uint8Array), as a Buffer over the same memory. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
