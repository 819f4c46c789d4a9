import { PostIndex, postIndexCopy } from '../../search/post-index.js';
import type { CliContext, Command } from '../command.js';

/** A progress bar, one line every tenth of the way (readable in a terminal and in a log). */
function progressBar(ctx: CliContext, label: string): (done: number, total: number) => void {
  const started = Date.now();
  let shown = -1;
  return (done, total) => {
    const tenth = total === 0 ? 10 : Math.floor((done / total) * 10);
    if (tenth === shown) return;
    shown = tenth;
    const filled = Math.round((Math.min(done, total) / Math.max(total, 1)) * 30);
    ctx.io.out(`${label} [${'#'.repeat(filled)}${'.'.repeat(30 - filled)}] ${done}/${total}  ${((Date.now() - started) / 1000).toFixed(0)} s`);
  };
}

export const searchRebuildCommand: Command = {
  name: 'search rebuild',
  summary: 'Build the post search index from the tables and save it where instances load it at start',
  usage: 'search rebuild',
  options: {},
  async run(_values, ctx) {
    const index = new PostIndex((await ctx.database()).db, undefined, postIndexCopy(ctx.config.dataDir));
    await index.rebuild(progressBar(ctx, 'posts'));
    const stats = index.stats();
    ctx.io.out(`Built: ${stats.items} posts, ${stats.tokens} tokens, ${(stats.bytes / 1e6).toFixed(1)} MB of bitmaps, in ${(stats.readyInMs / 1000).toFixed(1)} s.`);
    ctx.io.out(`Saved to ${postIndexCopy(ctx.config.dataDir)}; instances started from now on load it and the changes since.`);
  },
};

export const searchCheckCommand: Command = {
  name: 'search check',
  summary: 'Compare what the post index would serve (its saved copy and the changes since) with a build from the tables',
  usage: 'search check',
  options: {},
  async run(_values, ctx) {
    const index = new PostIndex((await ctx.database()).db, undefined, postIndexCopy(ctx.config.dataDir));
    const result = await index.check(progressBar(ctx, 'posts'));
    if (!result) {
      ctx.io.out(`No saved copy at ${postIndexCopy(ctx.config.dataDir)} to check (instances build from the tables; \`search rebuild\` saves one).`);
      return;
    }
    if (result.differing.length === 0) {
      ctx.io.out(`OK: the saved copy and the changes since equal a build from the tables (${result.items} posts).`);
      return;
    }
    ctx.io.err(`DIVERGED: ${result.differing.length} of ${result.items} posts differ, e.g. post ${result.differing.slice(0, 10).join(', ')}.`);
    ctx.io.err('Run `search rebuild` and restart the instances.');
    throw new Error('the post index diverged from the tables');
  },
};
