import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { JobDetail, JobPage } from '../src/modules/jobs/job-schemas.js';
import { PostDetail, PostPage } from '../src/modules/posts/post-schemas.js';
import { Nullable } from '../src/schemas/common.js';
import { buildResponseSerializer, serializationSchema } from '../src/schemas/response-serializer.js';
import { createTestApp } from './helpers/test-app.js';

/** Every `anyOf` left in a schema whose branches include null. */
function nullUnions(schema: unknown, at = '#'): string[] {
  if (Array.isArray(schema)) return schema.flatMap((s, i) => nullUnions(s, `${at}/${i}`));
  if (typeof schema !== 'object' || schema === null) return [];
  const own =
    Array.isArray((schema as { anyOf?: unknown[] }).anyOf) &&
    (schema as { anyOf: Array<{ type?: unknown }> }).anyOf.some((b) => b.type === 'null')
      ? [at]
      : [];
  return [...own, ...Object.entries(schema).flatMap(([k, v]) => nullUnions(v, `${at}/${k}`))];
}

/**
 * Responses are serialized from their schemas with each nullable value as `nullable: true` instead of an
 * `anyOf` with null, which fast-json-stringify serializes by running a schema validator per branch (compiled at a
 * route's first response). The bytes are the same: test/read-bodies.test.ts holds 2,957 bodies to a fixture.
 */
describe('the schemas responses are serialized with', () => {
  it("turn each nullable value into the value's own schema with nullable: true, nested ones included", () => {
    const schema = Type.Object({
      a: Nullable(Type.String({ description: 'x' })),
      b: Nullable(Type.Object({ c: Nullable(Type.Integer()) })),
    });
    expect(serializationSchema(schema)).toEqual({
      type: 'object',
      required: ['a', 'b'],
      properties: {
        a: { type: 'string', description: 'x', nullable: true },
        b: { type: 'object', required: ['c'], properties: { c: { type: 'integer', nullable: true } }, nullable: true },
      },
    });
  });

  it('keep unions of several types, which need the anyOf', () => {
    const union = Type.Union([Type.String(), Type.Integer(), Type.Null()]);
    expect(serializationSchema(union)).toEqual(JSON.parse(JSON.stringify(union)));
  });

  it('leave no null union in the post and job responses, and write the same bytes as the schemas themselves', () => {
    for (const schema of [PostPage, PostDetail, JobPage, JobDetail])
      expect(nullUnions(serializationSchema(schema))).toEqual([]);
    const image = { id: 1, url: 'https://media.example/1.png', width: null, height: 20 };
    const post = {
      postId: 7,
      author: { type: 'COMPANY', id: null, name: '회사 "따옴표"', imageUrl: null, certificated: true },
      content: null,
      images: [image],
      og: { link: 'https://a.example', title: null, source: 's', image: null, description: 'd' },
      stats: { likeCount: null, commentCount: 3 },
      owned: false,
      webUrl: 'https://www.example/posts/7',
      postedAt: '2026-11-26T01:02:03.000Z',
      mentions: { companies: [], users: [{ name: 'n', id: 'h' }] },
      repostedPostDeleted: false,
      updatedAt: '2026-11-26T01:02:03.000Z',
      language: 'ko',
    };
    const detail = { ...post, repostedPost: { ...post, og: null, content: '본문', repostedPost: null } };
    const route = { method: 'GET', url: '/api/v1/posts/:postId', httpStatus: '200', schema: PostDetail };
    const plain = SerializerSelector()()(route);
    const fast = buildResponseSerializer()(route);
    expect(fast(detail)).toBe(plain(detail));
    expect(fast({ ...detail, repostedPost: null })).toBe(plain({ ...detail, repostedPost: null }));
  });

  it('leave the OpenAPI document as it was: nullable values stay an anyOf with null (OpenAPI 3.1 has no nullable)', async () => {
    const t = await createTestApp('sqlite', { seed: false });
    try {
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      expect(nullUnions(doc).length).toBeGreaterThan(50);
      expect(JSON.stringify(doc)).not.toContain('"nullable"');
    } finally {
      await t.close();
    }
  });
});
