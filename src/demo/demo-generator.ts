import type { Transaction } from 'kysely';
import type { Database } from '../db/database.js';
import type { DialectAdapter } from '../db/dialects/dialect-adapter.js';
import type { DB } from '../db/schema.js';
import { catalogCodes } from '../shared/catalog-data.js';
import { jobCodeColumns } from '../shared/job-codes.js';
import { registerClient } from '../modules/oauth/client-admin.js';
import { OAuthRepository } from '../modules/oauth/oauth-repository.js';
import { SUPPORTED_SCOPES } from '../modules/oauth/scopes.js';
import { recordSearchChanges } from '../search/search-changes.js';
import { timeOrderedId } from '../shared/ids.js';
import { hashSecret, secretHint } from '../shared/keys.js';
import { SeededRandom } from './random.js';
import { placeAndPayFor, placeAndPayRow } from './places.js';
import { DEFAULT_PASSWORD_COST, hashPassword, type PasswordCost } from '../shared/passwords.js';
import { DEMO_COMPANY_PROFILES, type DemoCompanyProfile } from './demo-companies.js';
import { demoProfile } from './demo-profiles.js';
import {
  CITIES,
  COMPANIES,
  EVENT_TEXTS,
  FAMILY_NAMES,
  fill,
  GIVEN_NAMES,
  JOB_TEXTS,
  LATIN_NAMES,
  POST_TEMPLATES,
  ROLES,
  TECHS,
  type Multilingual,
  type TextLanguage,
} from './vocabulary.js';

/** The fixed demo credentials (README and demo-credentials.json list them). */
export const DEMO_API_KEY = `svck_${'DemoKey'.padEnd(32, '0')}`;
export const DEMO_USER = {
  email: 'demo@example.com',
  password: 'demo-password-2026',
  handle: 'demo-user',
  name: '데모 사용자',
};
export const DEMO_COMPANY = 'acme-labs';
export const DEMO_CLIENT = {
  clientId: `svcc_${'DemoClient'.padEnd(24, '0')}`,
  clientSecret: `svcs_${'DemoSecret'.padEnd(32, '0')}`,
  redirectUri: 'http://127.0.0.1:8080/callback',
  scopes: SUPPORTED_SCOPES.filter((s) => s !== 'profile:read'),
};
export const DEMO_OTHER_COMPANY = 'nova-fintech';

/**
 * Where the demo client may send users back: the demo's callback page and the /docs page's OAuth redirect,
 * under the service's own address, so any PORT or PUBLIC_BASE_URL works (with localhost for 127.0.0.1).
 */
export function demoRedirectUris(publicBaseUrl: string): string[] {
  const bases = [publicBaseUrl];
  const url = new URL(publicBaseUrl);
  if (url.hostname === '127.0.0.1') bases.push(publicBaseUrl.replace('//127.0.0.1', '//localhost'));
  return bases.flatMap((base) => [`${base}/callback`, `${base}/docs/static/oauth2-redirect.html`]);
}

const DAY = 86_400_000;
const TRANSLATION_TARGETS = ['en', 'ja', 'zh-CN', 'zh-TW'] as const;

export interface DemoManifest {
  apiKey: string;
  client: { clientId: string; clientSecret: string; redirectUri: string; scopes: string[] };
  user: { id: number; email: string; password: string; handle: string };
  companyId: string;
  otherCompanyId: string;
  posts: {
    total: number;
    company: number;
    member: number;
    certificated: number;
    withImages: number;
    withOg: number;
    translated: number;
    mentions: number;
    repost: number;
    repostOfDeleted: number;
    deleted: number;
    byDemoUser: number[];
  };
  jobs: {
    hiring: number;
    alwaysOpen: number;
    expired: number;
    notStarted: number;
    finish: number;
    draft: number;
    deleted: number;
    outlink: number;
    withResourceRole: number;
    translated: number;
  };
  events: {
    published: number;
    draft: string;
    deleted: string;
    withResourceRole: string;
    online: string;
    hiddenLocation: string;
    first: string;
  };
}

export interface DemoOptions {
  now: number;
  seed?: number;
  posts?: number;
  jobs?: number;
  events?: number;
  /** The service's address, for the demo client's redirect URIs (default http://127.0.0.1:8080). */
  publicBaseUrl?: string;
  /** The cost of the demo user's password hash (default: the service's default). */
  passwordCost?: PasswordCost;
}

interface Ctx {
  trx: Transaction<DB>;
  adapter: DialectAdapter;
  rnd: SeededRandom;
  now: number;
}

function slotsFor(rnd: SeededRandom, companyName: string): (lang: TextLanguage) => Record<string, string> {
  const role = rnd.pick(ROLES);
  const tech = rnd.pick(TECHS);
  const city = rnd.pick(CITIES);
  return (lang) => ({ company: companyName, role: role.name[lang], tech, city: city[lang] });
}

function render(
  template: Multilingual,
  slots: (lang: TextLanguage) => Record<string, string>,
  lang: TextLanguage,
): string {
  return fill(template[lang], slots(lang));
}

/**
 * Fills an empty, migrated database with deterministic demo data covering every field and state of the
 * spec, and returns the ids a builder (or a test) can try.
 */
export async function generateDemoData(database: Database, options: DemoOptions): Promise<DemoManifest> {
  const passwordHash = await hashPassword(DEMO_USER.password, options.passwordCost ?? DEFAULT_PASSWORD_COST);
  return database.db.transaction().execute(async (trx) => {
    const publicBaseUrl = options.publicBaseUrl ?? 'http://127.0.0.1:8080';
    // Times at whole minutes, as the real service's data has them (list items then show `2026-08-23T15:00`).
    const ctx: Ctx = {
      trx,
      adapter: database.adapter,
      rnd: new SeededRandom(options.seed ?? 20261121),
      now: toMinute(options.now),
    };
    const { now } = ctx;

    // Companies.
    const companyIds = new Map<string, number>();
    for (const [i, c] of COMPANIES.entries()) {
      const profile: DemoCompanyProfile | undefined = DEMO_COMPANY_PROFILES[c.handle];
      const row = await trx
        .insertInto('companies')
        .values({
          handle: c.handle,
          name: c.name,
          industry: profile?.industries[0] ?? c.industry,
          size: c.size,
          certificated: c.certificated ? 1 : 0,
          logo_url: `demo/logos/${c.handle}.png`,
          // A day apart, in the list's order: RECENT and the index's order are the same on every run.
          created_at: now - (400 - i) * DAY,
          updated_at: now - (400 - i) * DAY,
          ...(profile && {
            description: profile.description.ko,
            language: 'ko',
            industries: JSON.stringify(profile.industries),
            employee_count: profile.employeeCount,
            founded_year: profile.foundedYear,
            funding_stage: profile.fundingStage,
            website: profile.website,
            links: JSON.stringify(profile.links),
            offices: JSON.stringify(profile.offices),
            location_country: profile.location.country,
            location_region: profile.location.region,
            location_locality: profile.location.locality,
            location_address: profile.location.address,
            location_latitude: profile.location.latitude,
            location_longitude: profile.location.longitude,
          }),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      companyIds.set(c.handle, row.id);
      if (profile) {
        await trx
          .insertInto('company_translations')
          .values({ company_id: row.id, language: 'en', description: profile.description.en })
          .execute();
      }
    }
    const companyList = COMPANIES.map((c) => ({ ...c, id: companyIds.get(c.handle)! }));

    // Members: the demo user first, then Korean and international members (some certificated).
    const demoUser = await trx
      .insertInto('users')
      .values({
        email: DEMO_USER.email,
        email_verified: 1,
        password_hash: passwordHash,
        name: DEMO_USER.name,
        handle: DEMO_USER.handle,
        image_url: 'demo/avatars/demo-user.png',
        certificated: 0,
        locale: 'ko',
        created_at: now - 300 * DAY,
        updated_at: now - 30 * DAY,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const members: Array<{ id: number; name: string; handle: string }> = [
      { id: demoUser.id, name: DEMO_USER.name, handle: DEMO_USER.handle },
    ];
    for (let i = 0; i < 24; i++) {
      const name =
        i < 18
          ? `${FAMILY_NAMES[i % FAMILY_NAMES.length]}${GIVEN_NAMES[(i * 5) % GIVEN_NAMES.length]}`
          : LATIN_NAMES[i - 18]!;
      const handle = `member-${String(i + 1).padStart(2, '0')}`;
      const row = await trx
        .insertInto('users')
        .values({
          email: `${handle}@example.com`,
          email_verified: 1,
          password_hash: null,
          name,
          handle,
          image_url: i % 4 === 3 ? null : `demo/avatars/${handle}.png`,
          certificated: i % 6 === 0 ? 1 : 0,
          locale: i < 18 ? 'ko' : 'en',
          created_at: now - 200 * DAY,
          updated_at: now - 10 * DAY,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      members.push({ id: row.id, name, handle });
    }

    // Roles: the demo user is RECRUITER and EVENT_MANAGER at acme-labs; a colleague OWNS it.
    const acme = companyIds.get(DEMO_COMPANY)!;
    const nova = companyIds.get(DEMO_OTHER_COMPANY)!;
    await trx
      .insertInto('company_roles')
      .values([
        { company_id: acme, user_id: demoUser.id, role: 'RECRUITER', created_at: now - 100 * DAY },
        { company_id: acme, user_id: demoUser.id, role: 'EVENT_MANAGER', created_at: now - 100 * DAY },
        { company_id: acme, user_id: members[1]!.id, role: 'OWNER', created_at: now - 300 * DAY },
        { company_id: nova, user_id: members[2]!.id, role: 'ADMIN', created_at: now - 300 * DAY },
      ])
      .execute();

    // The demo app and its fixed key.
    const app = await trx
      .insertInto('apps')
      .values({ name: 'Demo app', owner_user_id: demoUser.id, created_at: now - 30 * DAY })
      .returning('id')
      .executeTakeFirstOrThrow();
    await trx
      .insertInto('app_keys')
      .values({
        app_id: app.id,
        key_hash: hashSecret(DEMO_API_KEY),
        key_hint: secretHint(DEMO_API_KEY),
        created_at: now - 30 * DAY,
        revoked_at: null,
      })
      .execute();

    await registerClient(
      new OAuthRepository(trx),
      {
        name: 'Demo builder app',
        redirectUris: demoRedirectUris(publicBaseUrl),
        scopes: DEMO_CLIENT.scopes,
        public: false,
        clientId: DEMO_CLIENT.clientId,
        clientSecret: DEMO_CLIENT.clientSecret,
      },
      now - 30 * DAY,
    );

    for (const [n, member] of members.entries()) {
      const profile = demoProfile(n, members.length, member, n === 0 || n <= 18 ? 'ko' : 'en', companyIds, now);
      if (profile) await trx.insertInto('profiles').values(profile).execute();
    }
    await recordSearchChanges(
      trx,
      'profile',
      members.map((m) => m.id),
      now,
    );

    const posts = await generatePosts(ctx, options.posts ?? 300, companyList, members);
    const jobs = await generateJobs(ctx, options.jobs ?? 200, companyList, demoUser.id);
    const events = await generateEvents(ctx, options.events ?? 24, companyList, members);

    // Resource-level roles only at nova-fintech: one job and one event of it.
    await trx
      .insertInto('resource_roles')
      .values([
        {
          user_id: demoUser.id,
          company_id: nova,
          resource_type: 'JOB',
          resource_id: String(jobs.withResourceRole),
          role: 'JOB_MANAGER',
          created_at: now - 20 * DAY,
        },
        {
          user_id: demoUser.id,
          company_id: nova,
          resource_type: 'EVENT',
          resource_id: events.withResourceRole,
          role: 'EVENT_MANAGER',
          created_at: now - 20 * DAY,
        },
      ])
      .execute();

    return {
      apiKey: DEMO_API_KEY,
      client: { ...DEMO_CLIENT, redirectUri: `${publicBaseUrl}/callback` },
      user: { id: demoUser.id, email: DEMO_USER.email, password: DEMO_USER.password, handle: DEMO_USER.handle },
      companyId: DEMO_COMPANY,
      otherCompanyId: DEMO_OTHER_COMPANY,
      posts,
      jobs,
      events,
    };
  });
}

const toMinute = (time: number) => Math.floor(time / 60_000) * 60_000;

type CompanyInfo = (typeof COMPANIES)[number] & { id: number };
type Member = { id: number; name: string; handle: string };

async function insertPost(
  ctx: Ctx,
  post: {
    authorType: 'COMPANY' | 'MEMBER';
    userId: number | null;
    companyId: number | null;
    content: string | null;
    language: string;
    translations: Array<[string, string]>;
    images: Array<{ width: number | null; height: number | null }>;
    og: {
      link: string;
      title: string | null;
      source: string | null;
      image: string | null;
      description: string | null;
    } | null;
    mentions: Array<{ type: 'COMPANY' | 'MEMBER'; handle: string; name: string }>;
    repostOf: number | null;
    likes: number | null;
    comments: number | null;
    postedAt: number;
  },
): Promise<number> {
  const { trx } = ctx;
  const row = await trx
    .insertInto('posts')
    .values({
      author_type: post.authorType,
      author_user_id: post.userId,
      author_company_id: post.companyId,
      content: post.content,
      language: post.language,
      reposted_post_id: post.repostOf,
      image_count: post.images.length,
      has_og: post.og ? 1 : 0,
      like_count: post.likes,
      comment_count: post.comments,
      posted_at: post.postedAt,
      updated_at: post.postedAt + (ctx.rnd.chance(0.2) ? ctx.rnd.int(1, 48) * 3_600_000 : 0),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const id = row.id;
  if (post.images.length) {
    await trx
      .insertInto('post_images')
      .values(
        post.images.map((img, position) => ({
          post_id: id,
          position,
          media_key: `demo/posts/${id}-${position + 1}.png`,
          content_type: 'image/png',
          byte_size: 20_000 + position * 1_000,
          width: img.width,
          height: img.height,
        })),
      )
      .execute();
  }
  if (post.og)
    await trx
      .insertInto('post_og_cards')
      .values({ post_id: id, ...post.og, fetched_at: post.postedAt })
      .execute();
  if (post.mentions.length) {
    await trx
      .insertInto('post_mentions')
      .values(
        post.mentions.map((m, position) => ({
          post_id: id,
          position,
          mention_type: m.type,
          handle: m.handle,
          name: m.name,
        })),
      )
      .execute();
  }
  if (post.translations.length) {
    await trx
      .insertInto('post_translations')
      .values(post.translations.map(([language, content]) => ({ post_id: id, language, content })))
      .execute();
  }
  await recordSearchChanges(trx, 'post', [id], ctx.now);
  return id;
}

async function generatePosts(
  ctx: Ctx,
  count: number,
  companies: CompanyInfo[],
  members: Member[],
): Promise<DemoManifest['posts']> {
  const { rnd, now } = ctx;
  const times = Array.from({ length: count }, () => toMinute(now - rnd.int(60_000, 120 * DAY))).sort((a, b) => a - b);
  const ids: number[] = [];
  const byDemoUser: number[] = [];
  const manifest: Partial<DemoManifest['posts']> = {};

  for (let i = 0; i < count; i++) {
    const isCompany = i % 5 < 2;
    const company = rnd.pick(companies);
    const member = i % 12 === 5 ? members[0]! : rnd.pick(members.slice(1));
    const language: TextLanguage = rnd.chance(0.7) ? 'ko' : rnd.pick(['en', 'en', 'ja', 'zh-CN']);
    const template = rnd.pick(POST_TEMPLATES);
    const slots = slotsFor(rnd, isCompany ? company.name : rnd.pick(companies).name);
    const content = render(template, slots, language);
    const translated = rnd.chance(0.5);
    const translations = translated
      ? TRANSLATION_TARGETS.filter((l) => l !== language).map(
          (l) => [l, render(template, slots, l as TextLanguage)] as [string, string],
        )
      : [];
    const imageCount = rnd.chance(0.3) ? rnd.int(1, 3) : 0;
    const images = Array.from({ length: imageCount }, () =>
      rnd.chance(0.1)
        ? { width: null, height: null }
        : rnd.pick([
            { width: 1200, height: 630 },
            { width: 1080, height: 1080 },
            { width: 800, height: 600 },
          ]),
    );
    const og = rnd.chance(0.2)
      ? {
          link: `https://blog.${company.handle}.example/posts/${i + 1}`,
          title: rnd.chance(0.9) ? `${company.name} Tech Blog #${i + 1}` : null,
          source: rnd.chance(0.8) ? `${company.name} Blog` : null,
          image: rnd.chance(0.7) ? `https://blog.${company.handle}.example/og/${i + 1}.png` : null,
          description: rnd.chance(0.7) ? render(POST_TEMPLATES[1]!, slots, 'en') : null,
        }
      : null;
    const mentioned = rnd.chance(0.15) ? [rnd.pick(companies)] : [];
    const mentionedMember = rnd.chance(0.1) ? [rnd.pick(members.slice(1))] : [];
    const mentions = [
      ...mentioned.map((c) => ({ type: 'COMPANY' as const, handle: c.handle, name: c.name })),
      ...mentionedMember.map((m) => ({ type: 'MEMBER' as const, handle: m.handle, name: m.name })),
    ];
    const mentionText = mentions.map((m) => ` @${m.handle}`).join('');
    const repostOf = ids.length > 10 && rnd.chance(0.08) ? rnd.pick(ids) : null;
    const id = await insertPost(ctx, {
      authorType: isCompany ? 'COMPANY' : 'MEMBER',
      userId: isCompany ? null : member.id,
      companyId: isCompany ? company.id : null,
      content: content + mentionText,
      language,
      translations: translations.map(([l, c]) => [l, c + mentionText]),
      images,
      og,
      mentions,
      repostOf,
      likes: rnd.chance(0.05) ? null : rnd.int(0, 500),
      comments: rnd.chance(0.05) ? null : rnd.int(0, 80),
      postedAt: times[i]!,
    });
    ids.push(id);
    if (!isCompany && member.id === members[0]!.id) byDemoUser.push(id);
    if (isCompany) manifest.company ??= id;
    else manifest.member ??= id;
    if (isCompany && company.certificated) manifest.certificated ??= id;
    if (images.length) manifest.withImages ??= id;
    if (og) manifest.withOg ??= id;
    if (translated && language === 'ko') manifest.translated ??= id;
    if (mentions.length) manifest.mentions ??= id;
    if (repostOf !== null) manifest.repost ??= id;
  }

  // A repost whose source was then deleted.
  const source = await insertPost(ctx, {
    authorType: 'MEMBER',
    userId: members[3]!.id,
    companyId: null,
    content: '곧 삭제될 글입니다. 이 글을 공유해 주세요.',
    language: 'ko',
    translations: [],
    images: [],
    og: null,
    mentions: [],
    repostOf: null,
    likes: 3,
    comments: 0,
    postedAt: now - 3 * DAY,
  });
  const repostOfDeleted = await insertPost(ctx, {
    authorType: 'MEMBER',
    userId: members[0]!.id,
    companyId: null,
    content: '좋은 글이라 공유합니다.',
    language: 'ko',
    translations: [['en', 'Sharing this because it is a good read.']],
    images: [],
    og: null,
    mentions: [],
    repostOf: source,
    likes: 1,
    comments: 0,
    postedAt: now - 2 * DAY,
  });
  await ctx.trx.deleteFrom('posts').where('id', '=', source).execute();
  await recordSearchChanges(ctx.trx, 'post', [source], now);
  byDemoUser.push(repostOfDeleted);

  return {
    total: count + 1,
    company: manifest.company!,
    member: manifest.member!,
    certificated: manifest.certificated!,
    withImages: manifest.withImages!,
    withOg: manifest.withOg!,
    translated: manifest.translated!,
    mentions: manifest.mentions!,
    repost: manifest.repost!,
    repostOfDeleted,
    deleted: source,
    byDemoUser,
  };
}

type JobState = 'hiring' | 'alwaysOpen' | 'expired' | 'notStarted' | 'finish' | 'draft' | 'deleted';

function jobWindow(
  state: JobState,
  rnd: SeededRandom,
  now: number,
): { status: string; start: number; end: number | null } {
  switch (state) {
    case 'hiring':
      return { status: 'published', start: now - rnd.int(1, 60) * DAY, end: now + rnd.int(5, 90) * DAY };
    case 'alwaysOpen':
      return { status: 'published', start: now - rnd.int(1, 200) * DAY, end: null };
    case 'expired':
      return { status: 'published', start: now - rnd.int(60, 120) * DAY, end: now - rnd.int(1, 30) * DAY };
    case 'notStarted':
      return { status: 'published', start: now + rnd.int(2, 20) * DAY, end: now + rnd.int(30, 60) * DAY };
    case 'finish':
      return { status: 'finish', start: now - rnd.int(30, 90) * DAY, end: now + rnd.int(1, 30) * DAY };
    case 'draft':
      return { status: 'draft', start: now + 7 * DAY, end: now + 37 * DAY };
    case 'deleted':
      return { status: 'deleted', start: now - 40 * DAY, end: now + 20 * DAY };
  }
}

async function generateJobs(
  ctx: Ctx,
  count: number,
  companies: CompanyInfo[],
  demoUserId: number,
): Promise<DemoManifest['jobs']> {
  const { rnd, now, trx } = ctx;
  const states: JobState[] = [
    'hiring',
    'hiring',
    'hiring',
    'hiring',
    'hiring',
    'hiring',
    'alwaysOpen',
    'expired',
    'notStarted',
    'finish',
    'draft',
    'deleted',
  ];
  const employmentTypes = catalogCodes('employment-types');
  const seniorities = catalogCodes('seniorities');
  const workTypes = catalogCodes('work-types');
  const manifest: Partial<DemoManifest['jobs']> = {};
  // Places and pay from a generator of their own: the rest of the demo stays what it was before jobs had them.
  const placeRnd = new SeededRandom(20261202);

  for (let i = 0; i < count; i++) {
    const state = states[i % states.length]!;
    const company = i % 7 === 0 ? companies[0]! : i % 11 === 0 ? companies[1]! : rnd.pick(companies);
    const role = rnd.pick(ROLES);
    const tech = rnd.pick(TECHS);
    const city = rnd.pick(CITIES);
    const language: TextLanguage = rnd.chance(0.85) ? 'ko' : 'en';
    const slots = (lang: TextLanguage) => ({ company: company.name, role: role.name[lang], tech, city: city[lang] });
    const text = (lang: TextLanguage) => ({
      title: `${role.name[lang]} (${tech})`,
      subtitle: fill(JOB_TEXTS.subtitle[lang], slots(lang)),
      description: fill(JOB_TEXTS.description[lang], slots(lang)),
      duty: fill(JOB_TEXTS.duty[lang], slots(lang)),
      minimum_qualification: fill(JOB_TEXTS.minimumQualification[lang], slots(lang)),
      preferred_qualification: fill(JOB_TEXTS.preferredQualification[lang], slots(lang)),
      benefit: JOB_TEXTS.benefit[lang],
      hire_process: JOB_TEXTS.hireProcess[lang],
      hire_notes: JOB_TEXTS.hireNotes[lang],
    });
    const window = jobWindow(state, rnd, now);
    const workType = rnd.pick(workTypes);
    const outlink = rnd.chance(0.3);
    const original = text(language);
    const row = await trx
      .insertInto('jobs')
      .values({
        company_id: company.id,
        author_user_id: company.handle === DEMO_COMPANY ? demoUserId : null,
        job_type: outlink ? 'OUTLINK' : 'PLATFORM',
        status: window.status,
        ...original,
        job_category: role.category,
        work_type: workType,
        allow_remote: workType === 'ONSITE' ? 0 : 1,
        language,
        apply_type: outlink ? 'OUTLINK' : 'PLATFORM',
        apply_url: outlink ? `https://careers.${company.handle}.example/jobs/${i + 1}` : null,
        email: `recruit@${company.handle}.example`,
        notify_emails: JSON.stringify([`hr@${company.handle}.example`]),
        military: rnd.chance(0.1) ? 1 : 0,
        veteran: rnd.chance(0.1) ? 1 : 0,
        start_at: window.start,
        end_at: window.end,
        view_count: rnd.int(0, 5000),
        // A window that ended before the demo began closed then: the hiring sweep has nothing to report for it.
        closed_event_for: state === 'expired' ? window.end : null,
        created_at: window.start - DAY,
        updated_at: window.start - DAY,
        deleted_at: state === 'deleted' ? now - DAY : null,
        ...jobCodeColumns({
          seniorities: rnd.some(seniorities, rnd.int(1, 2)),
          employmentTypes: rnd.some(employmentTypes, rnd.int(1, 2)),
        }),
        ...placeAndPayRow(placeAndPayFor(placeRnd, city.ko, workType === 'REMOTE')),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const id = row.id;
    await trx
      .insertInto('job_settings')
      .values([
        { job_id: id, position: 0, title: '이력서', required: 1, upload_type: 'ANY' },
        { job_id: id, position: 1, title: '포트폴리오', required: 0, upload_type: 'ANY' },
      ])
      .execute();
    if (rnd.chance(0.3)) {
      await trx
        .insertInto('job_images')
        .values(
          [0, 1].slice(0, rnd.int(1, 2)).map((position) => ({
            job_id: id,
            position,
            media_key: `demo/jobs/${id}-${position + 1}.png`,
          })),
        )
        .execute();
    }
    const translated = rnd.chance(0.5);
    const translations = translated
      ? TRANSLATION_TARGETS.filter((l) => l !== language).map((l) => ({ job_id: id, language: l, ...text(l) }))
      : [];
    if (translations.length) await trx.insertInto('job_translations').values(translations).execute();
    await recordSearchChanges(trx, 'job', [id], now);
    manifest[state] ??= id;
    if (outlink && state === 'hiring') manifest.outlink ??= id;
    if (translated && language === 'ko' && state === 'hiring') manifest.translated ??= id;
    if (company.handle === DEMO_OTHER_COMPANY && state === 'hiring') manifest.withResourceRole ??= id;
  }
  return manifest as DemoManifest['jobs'];
}

async function generateEvents(
  ctx: Ctx,
  count: number,
  companies: CompanyInfo[],
  members: Member[],
): Promise<DemoManifest['events']> {
  const { rnd, now, trx } = ctx;
  const categories = catalogCodes('event-categories');
  const subjects = catalogCodes('event-subjects');
  const manifest: Partial<DemoManifest['events']> = {};
  let published = 0;

  for (let i = 0; i < count; i++) {
    const company = i % 4 === 0 ? companies[0]! : i % 5 === 1 ? companies[1]! : rnd.pick(companies);
    const tech = rnd.pick(TECHS);
    const city = rnd.pick(CITIES);
    const slots = (lang: TextLanguage) => ({ tech, city: city[lang], company: company.name, role: '' });
    const status = i === 3 ? 'draft' : i === 4 ? 'deleted' : 'published';
    const openType = i === 2 ? 'ONLINE' : rnd.pick(['OFFLINE', 'OFFLINE', 'ONLINE', 'ON_OFFLINE']);
    const createdAt = now - rnd.int(10, 90) * DAY;
    const start = now + rnd.int(-30, 60) * DAY;
    const id = timeOrderedId('evt', createdAt, () => rnd.next());
    const locationHidden = i === 6 ? 1 : 0;
    await trx
      .insertInto('events')
      .values({
        id,
        company_id: company.id,
        author_user_id: company.handle === DEMO_COMPANY ? members[0]!.id : null,
        status,
        event_name: fill(EVENT_TEXTS.name.ko, slots('ko')),
        description: fill(EVENT_TEXTS.description.ko, slots('ko')),
        event_open_type: openType,
        start_at: start,
        end_at: start + rnd.int(2, 8) * 3_600_000,
        online_link: openType === 'OFFLINE' ? null : `https://live.${company.handle}.example/${i + 1}`,
        country: openType === 'ONLINE' ? null : 'KR',
        region: openType === 'ONLINE' ? null : city.ko,
        locality: openType === 'ONLINE' ? null : `${city.ko} 강남구`,
        location_title: openType === 'ONLINE' ? null : `${company.name} 본사`,
        location_address: openType === 'ONLINE' ? null : '테헤란로 123',
        location_detail: openType === 'ONLINE' ? null : '5층 대강당',
        location_description: openType === 'ONLINE' ? null : '2호선 역삼역 3번 출구',
        latitude: openType === 'ONLINE' ? null : 37.5006,
        longitude: openType === 'ONLINE' ? null : 127.0364,
        location_hidden: locationHidden,
        guest_hidden: i % 6 === 5 ? 1 : 0,
        banner_key: `demo/events/${id}.png`,
        language: 'ko',
        view_count: rnd.int(0, 3000),
        guest_count: rnd.int(0, 300),
        created_at: createdAt,
        updated_at: createdAt + DAY,
        deleted_at: status === 'deleted' ? now - DAY : null,
      })
      .execute();
    await trx
      .insertInto('event_categories')
      .values(rnd.some(categories, rnd.int(1, 2)).map((category) => ({ event_id: id, category })))
      .execute();
    await trx
      .insertInto('event_subjects')
      .values(rnd.some(subjects, rnd.int(1, 3)).map((subject) => ({ event_id: id, subject })))
      .execute();
    await trx
      .insertInto('event_translations')
      .values(
        TRANSLATION_TARGETS.map((language) => ({
          event_id: id,
          language,
          event_name: fill(EVENT_TEXTS.name[language], slots(language)),
          description: fill(EVENT_TEXTS.description[language], slots(language)),
        })),
      )
      .execute();
    await trx
      .insertInto('event_tickets')
      .values([
        {
          event_id: id,
          ticket_type: 'FREE',
          ticket_name: '일반 참가',
          description: '누구나 참가할 수 있습니다.',
          approval_required: 0,
          waiting_required: 1,
          max_count: 200,
          sales_start_at: createdAt,
          sales_end_at: start,
          form_fields: '[]',
          created_at: createdAt,
          updated_at: createdAt,
        },
        ...(i % 2 === 0
          ? [
              {
                event_id: id,
                ticket_type: 'FREE',
                ticket_name: '현업자 네트워킹',
                description: '승인 후 참가가 확정됩니다.',
                approval_required: 1,
                waiting_required: 0,
                max_count: null,
                sales_start_at: null,
                sales_end_at: null,
                form_fields: JSON.stringify([{ fieldLabel: '회사명', fieldType: 'TEXT', required: true }]),
                created_at: createdAt,
                updated_at: createdAt,
              },
            ]
          : []),
      ])
      .execute();
    await trx
      .insertInto('event_sessions')
      .values(
        [0, 1, 2].map((position) => ({
          event_id: id,
          position,
          title: `${tech} 세션 ${position + 1}`,
          description: `${tech} 실전 사례 발표`,
          start_at: start + position * 3_600_000,
          end_at: start + (position + 1) * 3_600_000,
          speakers: JSON.stringify([{ speakerName: `${company.name} 발표자 ${position + 1}`, jobOrDept: '개발팀' }]),
        })),
      )
      .execute();
    await trx
      .insertInto('event_faqs')
      .values([
        {
          event_id: id,
          position: 0,
          question: '주차가 가능한가요?',
          answer: '건물 지하 주차장을 2시간 무료로 이용할 수 있습니다.',
        },
        {
          event_id: id,
          position: 1,
          question: '발표 자료를 받을 수 있나요?',
          answer: '행사 후 이메일로 보내드립니다.',
        },
      ])
      .execute();
    const speaker = rnd.pick(members.slice(1));
    await trx
      .insertInto('event_hosts')
      .values([
        {
          event_id: id,
          position: 0,
          host_type: 'COMPANY',
          user_id: null,
          company_id: company.id,
          roles: JSON.stringify(['ORGANIZER']),
        },
        {
          event_id: id,
          position: 1,
          host_type: 'MEMBER',
          user_id: speaker.id,
          company_id: null,
          roles: JSON.stringify(['SPEAKER']),
        },
      ])
      .execute();

    if (status === 'published') published++;
    if (status === 'draft') manifest.draft = id;
    if (status === 'deleted') manifest.deleted = id;
    if (status === 'published') manifest.first ??= id;
    if (status === 'published' && openType === 'ONLINE') manifest.online ??= id;
    if (locationHidden && status === 'published') manifest.hiddenLocation = id;
    if (company.handle === DEMO_OTHER_COMPANY && status === 'published') manifest.withResourceRole ??= id;
  }
  return { ...(manifest as DemoManifest['events']), published };
}
