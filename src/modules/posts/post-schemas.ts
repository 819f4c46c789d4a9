import { Type, type Static } from '@sinclair/typebox';
import {
  CorrectedPage,
  DateTimeUtc,
  FacetsQuery,
  Handle,
  ListDateTime,
  Nullable,
  Page,
  PageQuery,
  Highlights,
  KeywordQuery,
  RequestId,
  StringEnum,
} from '../../schemas/common.js';
import { FACET_TOP } from '../../search/facet-counts.js';
import { POST_FACETS } from './post-index.js';

export const PostAuthor = Type.Object(
  {
    type: StringEnum(['COMPANY', 'MEMBER']),
    id: Nullable(Type.String({ description: 'Author handle' })),
    name: Type.String(),
    imageUrl: Nullable(Type.String({ description: 'Company logo for COMPANY, profile image for MEMBER' })),
    certificated: Type.Boolean({ description: 'Influencer verification status' }),
  },
  { title: 'PostAuthor' },
);

export const PostImage = Type.Object(
  {
    id: Type.Integer({ format: 'int32', description: 'Media identifier' }),
    url: Type.String({ description: 'Absolute image URL' }),
    width: Nullable(Type.Integer({ format: 'int32', description: 'Pixels; null if measurement failed' })),
    height: Nullable(Type.Integer({ format: 'int32', description: 'Pixels; null if measurement failed' })),
  },
  { title: 'PostImage' },
);

export const OpenGraph = Type.Object(
  {
    link: Type.String({ description: 'Source link' }),
    title: Nullable(Type.String()),
    source: Nullable(Type.String()),
    image: Nullable(Type.String({ description: 'External absolute URL' })),
    description: Nullable(Type.String()),
  },
  { title: 'OpenGraph' },
);

export const PostStats = Type.Object(
  {
    likeCount: Nullable(Type.Integer({ format: 'int64' })),
    commentCount: Nullable(Type.Integer({ format: 'int64' })),
  },
  { title: 'PostStats' },
);

const summaryFields = {
  postId: Type.Integer({ format: 'int64' }),
  author: PostAuthor,
  content: Nullable(
    Type.String({
      description:
        'Post body, translated when Accept-Language asks for en, ja, zh-CN or zh-TW and a translation exists',
    }),
  ),
  images: Type.Array(PostImage),
  og: Nullable(OpenGraph),
  stats: PostStats,
  owned: Type.Boolean({
    description: 'True when the post belongs to the authenticated user; always false without a Bearer token',
  }),
  webUrl: Type.String(),
};

export const PostSummary = Type.Object(
  {
    ...summaryFields,
    postedAt: ListDateTime('When it was posted'),
    highlights: Highlights,
  },
  { title: 'PostSummary' },
);

export const Mention = Type.Object(
  { name: Type.String(), id: Type.String({ description: 'Handle' }) },
  { title: 'Mention' },
);

const detailFields = {
  ...summaryFields,
  postedAt: DateTimeUtc(),
  mentions: Type.Object({ companies: Type.Array(Mention), users: Type.Array(Mention) }, { title: 'Mentions' }),
  repostedPostDeleted: Type.Boolean({ description: 'Whether the repost source was deleted' }),
  updatedAt: DateTimeUtc(),
  language: Type.String({ description: "Language of `content` as returned (the translation's when translated)" }),
};

export const RepostedPost = Type.Object(
  {
    ...detailFields,
    repostedPost: Type.Null({ description: 'Always null: reposts are expanded one level only' }),
  },
  { title: 'RepostedPost' },
);

export const PostDetail = Type.Object(
  {
    ...detailFields,
    repostedPost: Nullable(RepostedPost),
  },
  { title: 'PostDetail' },
);

export const PostSearchQuery = Type.Object({
  keyword: Type.Optional(
    Type.String({ maxLength: 100, description: 'Words in the body or its translations; every word must match' }),
  ),
  companyId: Type.Optional(Handle('Posts by this company (handle)')),
  hasImages: Type.Optional(Type.Boolean({ description: 'Only posts with images' })),
  hasOg: Type.Optional(Type.Boolean({ description: 'Only posts with Open Graph data' })),
  postedAfter: Type.Optional(
    Type.String({
      description:
        'Posted at or after: an ISO 8601 date-time (with Z or an offset, that instant; without a zone, UTC, as list items print times) or a date (its start in the service time zone), such as `2026-11-01T00:00:00Z`',
    }),
  ),
  postedBefore: Type.Optional(
    Type.String({
      description:
        'Posted at or before: an ISO 8601 date-time (with Z or an offset, that instant; without a zone, UTC) or a date (its start in the service time zone)',
    }),
  ),
  ...PageQuery,
  sort: Type.Optional(
    StringEnum(['RELEVANCE', 'RECENT'], {
      default: 'RELEVANCE',
      description: 'RELEVANCE ranks keyword matches (newest first without keyword); RECENT is newest first',
    }),
  ),
  facets: FacetsQuery(POST_FACETS, FACET_TOP),
  ...KeywordQuery,
});

export const PostIdParams = Type.Object({ postId: RequestId({ description: 'Post id' }) });

export const PostPage = CorrectedPage(Page(PostSummary, 'PostPage', POST_FACETS));

export type PostSummaryDto = Static<typeof PostSummary>;
export type PostDetailDto = Static<typeof PostDetail>;
export type RepostedPostDto = Static<typeof RepostedPost>;
export type PostSearchQueryInput = Static<typeof PostSearchQuery>;
