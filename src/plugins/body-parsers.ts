import querystring from 'node:querystring';
import fp from 'fastify-plugin';
import { ApiError } from '../shared/api-error.js';
import { jsonDepthExceeds, MAX_JSON_DEPTH, refuseNul } from '../shared/text-input.js';

/**
 * The JSON and form bodies every route reads, bounded before anything else sees them: JSON nests at most
 * MAX_JSON_DEPTH levels (checked without recursion, so no parser, validator or serializer runs out of stack),
 * and no string of either holds U+0000 (PostgreSQL cannot store it; both engines see the same input). Both
 * refusals are 400 C0002 (OAuth endpoints turn them into `invalid_request`). Other content types, text/plain
 * included, are 415 C0007.
 */
export const bodyParsersPlugin = fp(
  async (app) => {
    // No route reads plain text: a body sent as text/plain is the wrong content type (415 C0007), not a string.
    app.removeContentTypeParser('text/plain');
    const json = app.getDefaultJsonParser('error', 'ignore');
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
      const text = body as string;
      if (jsonDepthExceeds(text)) {
        done(new ApiError('C0002', `The JSON body nests deeper than ${MAX_JSON_DEPTH} levels`, 'body'), undefined);
        return;
      }
      json(request, text, (err, value) => {
        if (err) return done(err, undefined);
        try {
          if (text.includes('\\u0000')) refuseNul(value);
          done(null, value);
        } catch (refused) {
          done(refused as ApiError, undefined);
        }
      });
    });

    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_request, body, done) => {
      try {
        const form = querystring.parse(body as string);
        refuseNul(form);
        done(null, form);
      } catch (refused) {
        done(refused as ApiError, undefined);
      }
    });
  },
  { name: 'body-parsers' },
);
