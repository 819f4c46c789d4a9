import { Type, type Static } from '@sinclair/typebox';
import { DateTimeUtc, Nullable, RequestId } from '../../schemas/common.js';
import { OpenGraph, PostImage } from './post-schemas.js';

export const POST_MAX_TEXT = 3000;

export const PostWriteRequest = Type.Object(
  {
    text: Type.Optional(
      Type.String({
        maxLength: POST_MAX_TEXT,
        description: `Post body, at most ${POST_MAX_TEXT} characters; @handle mentions a company or member`,
      }),
    ),
    og: Type.Optional(
      Nullable(
        Type.Object(
          {
            link: Type.String({
              minLength: 1,
              maxLength: 2048,
              description: 'http(s) link; the service fetches its Open Graph data',
            }),
          },
          { additionalProperties: false },
        ),
      ),
    ),
    repostedPostId: Type.Optional(RequestId({ description: 'Makes the post a repost of this post (create only)' })),
  },
  {
    additionalProperties: false,
    title: 'PostWriteRequest',
    examples: [
      { text: '판교에서 백엔드개발자를 찾습니다! @acme-labs', og: { link: 'https://blog.acme.example/hiring' } },
      { repostedPostId: 42 },
    ],
  },
);

export const PostWriteResponse = Type.Object(
  {
    postId: Type.Integer({ format: 'int64' }),
    content: Type.String({ description: 'Post body (empty for a repost without text)' }),
    images: Type.Array(PostImage, { maxItems: 10 }),
    webUrl: Type.String(),
    postedAt: DateTimeUtc(),
    updatedAt: DateTimeUtc(),
    og: Nullable(OpenGraph),
  },
  { title: 'PostWriteResponse' },
);

export type PostWriteInput = Static<typeof PostWriteRequest>;
export type PostWriteResponseDto = Static<typeof PostWriteResponse>;
