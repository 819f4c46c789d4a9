import { newFeedEpoch } from '../../change-feed/change-log.js';
import type { Command } from '../command.js';

export const changesNewEpochCommand: Command = {
  name: 'changes new-epoch',
  summary:
    'After restoring PostgreSQL from a backup: give the change feed a new epoch, so every earlier cursor gets 410 and its client reads the state again',
  usage: 'changes new-epoch',
  options: {},
  async run(_values, ctx) {
    const database = await ctx.database();
    const epoch = newFeedEpoch();
    await database.db.updateTable('change_feed_state').set({ value: epoch }).where('name', '=', 'epoch').execute();
    ctx.io.out('The change feed has a new epoch: cursors handed out before are answered 410 C0013 (docs/changes.md).');
  },
};
