import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ChangeFeed } from '../../change-feed/change-feed.js';
import { changeItem } from '../../change-feed/change-item.js';
import { errorResponses, PUBLIC_READ_ERRORS } from '../../schemas/common.js';
import { ApiError } from '../../shared/api-error.js';
import type { Links } from '../../shared/links.js';
import { ChangePage, ChangeQuery } from './change-schemas.js';

const CURSOR = /^c2\.(\d{1,15})\.(\d{1,15})$/;
const encode = (epoch: number, position: number) => Buffer.from(`c2.${epoch}.${position}`).toString('base64url');

/** The copy of the data (epoch) and the position a cursor stands for; 400 for anything that is not one of ours. */
function decode(cursor: string): { epoch: number; position: number } {
  const match = CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match)
    throw new ApiError(
      'C0005',
      `Query parameter "after" is not a cursor of this feed: "${cursor.slice(0, 100)}"; pass a nextCursor as it was given`,
      'after',
    );
  return { epoch: Number(match[1]), position: Number(match[2]) };
}

const RESYNC = 'read the current state again through the API, then follow the feed from after=now';

export const changeRoutes: FastifyPluginAsyncTypebox<{ changes: ChangeFeed; links: Links }> = async (
  app,
  { changes, links },
) => {
  app.get(
    '/api/v1/changes',
    {
      config: { auth: 'apiKey' },
      schema: {
        tags: ['Changes'],
        operationId: 'listChanges',
        summary: 'Follow the changes of posts, jobs and events',
        description:
          'Every change to what the public API shows, in commit order, after a cursor: posts created, updated and deleted; jobs ' +
          'published, updated, closed and deleted; events created, updated (their tickets, sessions, FAQs and hosts too) and deleted. ' +
          'No change is skipped or repeated when writes commit at once on several instances. A cursor older than the retention ' +
          '(30 days by default) is 410 `C0013`: read the current state again, then follow from `after=now`.',
        security: [{ apiKey: [] }],
        querystring: ChangeQuery,
        response: { 200: ChangePage, ...errorResponses(400, 410, ...PUBLIC_READ_ERRORS) },
      },
    },
    async (request) => {
      const { after, types, companyId, pageSize } = request.query;
      const state = await changes.state();
      const { epoch, prunedBelow: oldest } = state;
      if (after === 'now') return { items: [], nextCursor: encode(epoch, state.last), hasMore: false };
      const cursor = after === undefined ? { epoch, position: Math.max(0, oldest - 1) } : decode(after);
      // Another copy of the data (restored from a backup): the positions the client saw may stand for other changes here.
      if (cursor.epoch !== epoch)
        throw new ApiError(
          'C0013',
          `The cursor belongs to another copy of the service's data (it was restored from a backup): ${RESYNC}`,
          'after',
        );
      if (cursor.position < oldest - 1) {
        throw new ApiError(
          'C0013',
          `The cursor is older than the changes kept (${Math.round(changes.retentionMs / 86_400_000)} days): ${RESYNC}`,
          'after',
        );
      }
      if (cursor.position > state.last)
        throw new ApiError('C0013', `The cursor is ahead of the feed: ${RESYNC}`, 'after');
      const from = cursor.position;
      const page = await changes.page(
        from,
        Math.min(Math.max(pageSize, 1), 500),
        { types: types && types.length > 0 ? types : null, company: companyId || null },
        { known: state },
      );
      return {
        items: page.rows.map((row) => changeItem(row, links) as never),
        nextCursor: encode(epoch, page.through),
        hasMore: page.more,
      };
    },
  );
};
