import { parseArgs, type ParseArgsConfig } from 'node:util';
import { announceRevocation, type Revocation } from '../cache/revocations.js';
import type { Config } from '../config.js';
import { databaseOptions, openDatabase, type Database } from '../db/database.js';
import { migrateToLatest } from '../db/migrate.js';

export interface Io {
  out(line: string): void;
  err(line: string): void;
}

export interface CliContext {
  io: Io;
  config: Config;
  /** The environment the settings were read from (a command may ask which were given). */
  env: Record<string, string | undefined>;
  /** Opens and migrates the database named by the settings (once). */
  database(): Promise<Database>;
  /** Ends a command that runs until stopped (`changes listen`); without it, such a command stops on SIGINT or SIGTERM. */
  signal?: AbortSignal;
}

export type Options = NonNullable<ParseArgsConfig['options']>;

export interface Command {
  name: string;
  summary: string;
  usage: string;
  options: Options;
  run(values: Record<string, string | boolean | undefined>, ctx: CliContext): Promise<void>;
}

/** A mistake in how the command was called: printed with the usage, exit code 2. */
export class UsageError extends Error {}

export function parse(command: Command, args: string[]) {
  try {
    return parseArgs({
      args,
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    throw new UsageError(err instanceof Error ? err.message : String(err));
  }
}

export function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}

export function oneOf(name: string, value: string, allowed: readonly string[]): string {
  if (!allowed.includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}; got "${value}"`);
  return value;
}

export function databaseOpener(config: Config): { get(): Promise<Database>; close(): Promise<void> } {
  let database: Database | null = null;
  return {
    async get() {
      if (!database) {
        database = openDatabase(databaseOptions(config));
        await migrateToLatest(database);
      }
      return database;
    },
    async close() {
      await database?.close();
      database = null;
    },
  };
}

/**
 * Tells the running instances that a credential ended (the revocation channel they listen to) and says how soon they
 * refuse it: `done` with at once, or within their caches' lifetime when no channel could be reached.
 */
export async function tellInstances(ctx: CliContext, revoked: Revocation, done: string): Promise<string> {
  const told = await announceRevocation(ctx.config.redisUrl, (await ctx.database()).notices, revoked);
  return told
    ? `${done}: running instances refuse it at once.`
    : `${done}: running instances refuse it within API_KEY_CACHE_SECONDS (no revocation channel reached).`;
}
