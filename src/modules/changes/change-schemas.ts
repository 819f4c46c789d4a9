import { Type } from '@sinclair/typebox';
import { CHANGE_TYPES } from '../../change-feed/change-log.js';
import { DateTimeUtc, Handle, Nullable, StringEnum } from '../../schemas/common.js';
import { CompanyDetail } from '../companies/company-schemas.js';
import { EventDetail } from '../events/event-schemas.js';
import { JobDetail } from '../jobs/job-schemas.js';
import { PostDetail } from '../posts/post-schemas.js';
import { ProfileDetail } from '../profiles/profile-schemas.js';

export const ChangeQuery = Type.Object({
  after: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 100,
      description:
        'A `nextCursor` of an earlier page: the changes committed after it. Without it, from the oldest change kept; `now`: ' +
        'no changes, only the cursor of the latest (start following from here after reading the current state)',
    }),
  ),
  types: Type.Optional(
    Type.Array(StringEnum(CHANGE_TYPES), {
      maxItems: 20,
      description: 'Only changes of these types (repeat the parameter or give a comma list)',
    }),
  ),
  companyId: Type.Optional(
    Handle("Only changes of this company's resources (handle): its jobs, events and posts, and the company itself"),
  ),
  pageSize: Type.Integer({
    minimum: 1,
    maximum: 500,
    default: 100,
    format: 'int32',
    description: 'Changes per page, 1 to 500; values outside are brought into range',
  }),
});

export const ChangeResource = Type.Object(
  {
    type: StringEnum(['post', 'job', 'event', 'company', 'profile'] as const),
    id: Type.String({
      description:
        "The resource's id as its path takes it (postId, jobId, eventId, companyId: a company's handle; a profile: its member's handle), as a string",
    }),
    webUrl: Type.String({ description: 'Where people see it' }),
    companyId: Nullable(
      Type.String({
        description: "The handle of the company it belongs to (a company's own: its handle); null for a member's post",
      }),
    ),
  },
  { title: 'ChangeResource', additionalProperties: false },
);

export const ChangeEvent = Type.Object(
  {
    id: Type.String({
      description: 'Unique id of the change (`evt_…`); the same in every page that shows it',
      examples: ['evt_3bW1kq9Yv2LmX0aZ'],
    }),
    type: StringEnum(CHANGE_TYPES, {
      description: 'What happened: `job.closed` is a deactivation or the end of the recruiting window',
    }),
    occurredAt: DateTimeUtc('When the change was committed, ISO 8601 UTC'),
    resource: ChangeResource,
    data: Type.Union([PostDetail, JobDetail, EventDetail, CompanyDetail, ProfileDetail, Type.Null()], {
      description:
        'The resource as its public read showed it right after the change (Accept-Language `ko`); null for a deletion, ' +
        'and when the resource was no longer public by then (a later change follows)',
    }),
    test: Type.Optional(
      Type.Literal(true, {
        description:
          'Only on a test event sent from the developer console: not a change that happened (its `data` is the latest such change the feed keeps)',
      }),
    ),
  },
  { title: 'ChangeEvent', additionalProperties: false },
);

export const ChangePage = Type.Object(
  {
    items: Type.Array(ChangeEvent),
    nextCursor: Type.String({
      description: 'Pass as `after` for the changes after this page; also when `items` is empty',
    }),
    hasMore: Type.Boolean({
      description: 'Whether changes after `nextCursor` are already there: ask again at once; else poll later',
    }),
  },
  { title: 'ChangePage', additionalProperties: false },
);
