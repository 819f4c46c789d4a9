import type { Database } from '../../db/database.js';
import { CompanyIndex, companyIndexCopy } from '../../modules/companies/company-index.js';
import { EventIndex, eventIndexCopy } from '../../modules/events/event-index.js';
import { JobIndex, jobIndexCopy } from '../../modules/jobs/job-index.js';
import { PostIndex, postIndexCopy } from '../../modules/posts/post-index.js';
import { ProfileIndex, profileIndexCopy } from '../../modules/profiles/profile-index.js';
import type { CliContext, Command } from '../command.js';

/** The search indexes, each with where instances keep its saved copy and what its items are called. */
const INDEXES = [
  {
    plural: 'posts',
    singular: 'post',
    copy: postIndexCopy,
    open: (database: Database, file: string) => new PostIndex(database, undefined, file),
  },
  {
    plural: 'jobs',
    singular: 'job',
    copy: jobIndexCopy,
    open: (database: Database, file: string) => new JobIndex(database, undefined, file),
  },
  {
    plural: 'events',
    singular: 'event',
    copy: eventIndexCopy,
    open: (database: Database, file: string) => new EventIndex(database, undefined, file),
  },
  {
    plural: 'companies',
    singular: 'company',
    copy: companyIndexCopy,
    open: (database: Database, file: string) => new CompanyIndex(database, undefined, file),
  },
  {
    plural: 'profiles',
    singular: 'profile',
    copy: profileIndexCopy,
    open: (database: Database, file: string) => new ProfileIndex(database, undefined, file),
  },
] as const;

/** A progress bar, one line every tenth of the way (readable in a terminal and in a log). */
function progressBar(ctx: CliContext, label: string): (done: number, total: number) => void {
  const started = Date.now();
  let shown = -1;
  return (done, total) => {
    const tenth = total === 0 ? 10 : Math.floor((done / total) * 10);
    if (tenth === shown) return;
    shown = tenth;
    const filled = Math.round((Math.min(done, total) / Math.max(total, 1)) * 30);
    ctx.io.out(
      `${label} [${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${done}/${total}  ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
  };
}

export const searchRebuildCommand: Command = {
  name: 'search rebuild',
  summary:
    'Build the search indexes (posts, jobs, events) from the tables and save them where instances load them at start',
  usage: 'search rebuild',
  options: {},
  async run(_values, ctx) {
    const database = await ctx.database();
    for (const kind of INDEXES) {
      const file = kind.copy(ctx.config.dataDir);
      const index = kind.open(database, file);
      await index.rebuild(progressBar(ctx, kind.plural));
      const stats = index.stats();
      ctx.io.out(
        `Built: ${stats.items} ${kind.plural}, ${stats.tokens} tokens, ${(stats.bytes / 1e6).toFixed(1)} MB of bitmaps, in ${(stats.readyInMs / 1000).toFixed(1)} s.`,
      );
      ctx.io.out(`Saved to ${file}; instances started from now on load it and the changes since.`);
    }
  },
};

export const searchCheckCommand: Command = {
  name: 'search check',
  summary:
    'Compare what the search indexes would serve (their saved copies and the changes since) with a build from the tables',
  usage: 'search check',
  options: {},
  async run(_values, ctx) {
    const database = await ctx.database();
    const diverged: string[] = [];
    for (const kind of INDEXES) {
      const file = kind.copy(ctx.config.dataDir);
      const result = await kind.open(database, file).check(progressBar(ctx, kind.plural));
      if (!result) {
        ctx.io.out(
          `No saved copy at ${file} to check (instances build from the tables; \`search rebuild\` saves one).`,
        );
      } else if (result.differing.length === 0) {
        ctx.io.out(
          `OK: the saved copy and the changes since equal a build from the tables (${result.items} ${kind.plural}).`,
        );
      } else {
        ctx.io.err(
          `DIVERGED: ${result.differing.length} of ${result.items} ${kind.plural} differ, e.g. ${kind.singular} ${result.differing.slice(0, 10).join(', ')}.`,
        );
        diverged.push(kind.plural);
      }
    }
    if (diverged.length === 0) return;
    ctx.io.err('Run `search rebuild` and restart the instances.');
    throw new Error(`the ${diverged.join(' and ')} index diverged from the tables`);
  },
};
