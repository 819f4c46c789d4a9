/**
 * Fills the database DATABASE_URL names with deterministic benchmark data at scale:
 *   npm run bench:data -- --companies 200000 --posts 1000000 --jobs 200000 --events 20000 [--seed 7]
 * Companies come first, with full profiles but a tenth without the optional fields; jobs are drawn from the whole
 * directory (a few companies posting most), posts and events from the demo's companies. They use the demo vocabulary (Korean-heavy, with en/ja/zh-CN/zh-TW translations, images,
 * Open Graph cards, reposts and every job state), written in batched multi-row inserts.
 */
import { parseArgs } from 'node:util';
import type { Insertable, Kysely } from 'kysely';
import { loadConfig } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/database.js';
import { migrateToLatest } from '../src/db/migrate.js';
import type { DB } from '../src/db/schema.js';
import { generateDemoData } from '../src/demo/demo-generator.js';
import { FUNDING_STAGES } from '../src/modules/companies/company-schemas.js';
import { placeAndPayFor, placeAndPayRow } from '../src/demo/places.js';
import { SeededRandom } from '../src/demo/random.js';
import {
  CITIES,
  EVENT_TEXTS,
  fill,
  JOB_TEXTS,
  POST_TEMPLATES,
  ROLES,
  TECHS,
  type TextLanguage,
} from '../src/demo/vocabulary.js';
import { currentPosition } from '../src/modules/profiles/profile-service.js';
import { catalogCodes } from '../src/shared/catalog-data.js';
import { jobCodeColumns } from '../src/shared/job-codes.js';
import { timeOrderedId } from '../src/shared/ids.js';

const BATCH = 500;
const DAY = 86_400_000;
const TARGETS = ['en', 'ja', 'zh-CN', 'zh-TW'] as const;

/** The tenth of the way each label last reported, when the output is not a terminal. */
const reported = new Map<string, number>();

/** A progress bar redrawn in place on a terminal; elsewhere (a log, a pipe) a plain line every tenth of the way. */
function progress(label: string, done: number, total: number, started: number): void {
  const elapsed = (Date.now() - started) / 1000;
  const rate = done / Math.max(elapsed, 0.001);
  const eta = rate > 0 ? (total - done) / rate : 0;
  const width = 30;
  const filled = Math.round((done / total) * width);
  const line = `${label.padEnd(9)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(done).padStart(8)}/${total} ${rate.toFixed(0).padStart(6)}/s ETA ${eta.toFixed(0)}s`;
  if (process.stdout.isTTY) {
    process.stdout.write(`\r${line}   ${done >= total ? '\n' : ''}`);
    return;
  }
  const tenth = Math.floor((done * 10) / total);
  if (reported.get(label) === tenth) return;
  reported.set(label, tenth);
  process.stdout.write(`${line}\n`);
}

async function maxId(db: Kysely<DB>, table: 'posts' | 'jobs' | 'post_images' | 'users'): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.max('id').as('m'))
    .executeTakeFirst();
  return Number(row?.m ?? 0);
}

/**
 * An index of 0..n-1 drawn with a long tail, as jobs are spread over a directory: half of the draws fall in the first
 * n/256 (P(index < x) = (x/n)^(1/8)).
 */
const skewed = (rnd: SeededRandom, n: number): number => Math.min(n - 1, Math.floor(n * rnd.next() ** 8));

/** The words generated company names are made of: Korean and English, as the network's companies are named. */
export const NAME_STARTS = [
  '한빛',
  '푸른',
  '새벽',
  '누리',
  '다온',
  'Blue',
  'Nova',
  'Bright',
  'Kite',
  'Orbit',
  '해온',
  'Pine',
];
export const NAME_ENDS = [
  '랩스',
  '소프트',
  '테크',
  '바이오',
  '커머스',
  ' Labs',
  ' Systems',
  ' Data',
  ' Works',
  ' AI',
  '모빌리티',
];
export const FUNDING = FUNDING_STAGES.filter((stage) => stage !== 'ACQUIRED');
const SIZES = ['TINY', 'SMALL', 'MEDIUM', 'LARGE', 'HUGE'];

/** Companies with profiles (a tenth with none of the optional fields), a Korean description, and a third translated. */
async function companies(database: Database, count: number, rnd: SeededRandom, now: number) {
  const { db } = database;
  const industries = catalogCodes('job-industries');
  const first = (
    await db
      .selectFrom('companies')
      .select((eb) => eb.fn.max('id').as('m'))
      .executeTakeFirst()
  )?.m;
  const started = Date.now();
  for (let done = 0; done < count; done += BATCH) {
    const n = Math.min(BATCH, count - done);
    const rows: Insertable<DB['companies']>[] = [];
    for (let i = 0; i < n; i++) {
      const number = Number(first ?? 0) + done + i + 1;
      const tech = rnd.pick(TECHS);
      const city = rnd.pick(CITIES);
      const created = now - rnd.int(1, 3650) * DAY;
      const own = rnd.some(industries, rnd.int(1, 3));
      const bare = rnd.chance(0.1);
      const place = placeAndPayFor(rnd, city.ko, false).location;
      rows.push({
        handle: `co-${number}`,
        name: `${rnd.pick(NAME_STARTS)}${rnd.pick(NAME_ENDS)} ${number}`,
        logo_url: null,
        industry: own[0]!,
        industries: JSON.stringify(own),
        size: rnd.pick(SIZES),
        certificated: rnd.chance(0.2) ? 1 : 0,
        created_at: created,
        updated_at: created,
        ...(!bare && {
          description: `${tech} 기반 서비스를 만드는 ${city.ko}의 회사입니다. ${rnd.pick(ROLES).name.ko} 팀이 ${tech}로 제품을 만듭니다.`,
          language: 'ko',
          employee_count: rnd.int(2, 20_000),
          founded_year: rnd.int(1970, 2026),
          funding_stage: rnd.pick(FUNDING),
          website: `https://co-${number}.example.com`,
          links: JSON.stringify([{ type: 'LINKEDIN', url: `https://www.linkedin.com/company/co-${number}` }]),
          offices: '[]',
          ...(place && {
            location_country: place.country,
            location_region: place.region,
            location_locality: place.locality,
            location_address: place.address,
            location_latitude: place.latitude,
            location_longitude: place.longitude,
          }),
        }),
      });
    }
    await db.transaction().execute(async (trx) => {
      const ids = await trx.insertInto('companies').values(rows).returning(['id', 'description']).execute();
      const translated = ids.filter((row) => row.description !== null && rnd.chance(0.33));
      if (translated.length)
        await trx
          .insertInto('company_translations')
          .values(
            translated.map((row) => ({
              company_id: row.id,
              language: 'en',
              description: `A company building services on ${rnd.pick(TECHS)}.`,
            })),
          )
          .execute();
    });
    progress('companies', done + n, count, started);
  }
}

/** The skills generated profiles list (as members write them), besides the demo's technologies. */
export const SKILLS = [
  ...TECHS,
  'Python',
  'Java',
  'SQL',
  'AWS',
  'Docker',
  'Swift',
  'Node.js',
  'GraphQL',
  'TensorFlow',
  'Excel',
  'SEO',
  '데이터 분석',
  '기획',
  '리더십',
  '커뮤니케이션',
  'UX 리서치',
  '영업',
  '회계',
];
const FAMILY = ['김', '이', '박', '최', '정', '강', '조', '윤', '장', '임'];
const GIVEN = ['민준', '서연', '도윤', '하은', '지호', '수아', '예준', '지유', '현우', '채원', '건우', '다은'];

/**
 * `count` members with profiles (docs/profiles.md): names in Korean and English, skills, one to three experiences at
 * companies of the directory (the first current), a school, a place (most with a town's coordinates), 85% public,
 * each section hidden by one in ten. Drawn from a generator of its own, so the rest of a data set is the same with
 * or without them.
 */
async function profiles(
  database: Database,
  count: number,
  seed: number,
  now: number,
  companies: Array<{ id: number; name: string; handle: string }>,
) {
  const { db } = database;
  const rnd = new SeededRandom(seed + 3);
  const first = await maxId(db, 'users');
  const started = Date.now();
  for (let done = 0; done < count; done += BATCH) {
    const n = Math.min(BATCH, count - done);
    const members: Insertable<DB['users']>[] = [];
    const details: Array<Omit<Insertable<DB['profiles']>, 'user_id'>> = [];
    for (let i = 0; i < n; i++) {
      const number = first + done + i + 1;
      const korean = rnd.chance(0.8);
      const handle = `pf-${number}`;
      const created = now - rnd.int(1, 2000) * DAY;
      members.push({
        email: `${handle}@bench.example`,
        email_verified: 1,
        password_hash: null,
        name: korean
          ? `${rnd.pick(FAMILY)}${rnd.pick(GIVEN)}`
          : `${rnd.pick(['Alex', 'Sam', 'Mina', 'Jun'])} ${rnd.pick(['Kim', 'Lee', 'Park', 'Choi'])}`,
        handle,
        image_url: null,
        certificated: rnd.chance(0.05) ? 1 : 0,
        locale: korean ? 'ko' : 'en',
        created_at: created,
        updated_at: created,
      });
      const role = rnd.pick(ROLES).name[korean ? 'ko' : 'en'];
      const at = Array.from({ length: rnd.int(1, 3) }, () => companies[skewed(rnd, companies.length)]!);
      const jobs = at.map((company, k) => {
        const start = now - (k + 1) * rnd.int(200, 900) * DAY;
        return {
          companyName: company.name,
          companyId: company.handle,
          title: role,
          startDate: new Date(start).toISOString().slice(0, 7),
          endDate: k === 0 ? null : new Date(start + 180 * DAY).toISOString().slice(0, 7),
          description: null,
        };
      });
      const place = placeAndPayFor(rnd, rnd.pick(CITIES).ko, false).location;
      const coarse = (degrees: number) => Math.round(degrees * 10) / 10;
      const updated = created + rnd.int(0, 300) * DAY;
      details.push({
        headline: `${role} · ${jobs[0]!.companyName}`,
        skills: JSON.stringify(rnd.some(SKILLS, rnd.int(2, 6))),
        experiences: JSON.stringify(jobs),
        educations: JSON.stringify([
          {
            school: rnd.pick(['서울대학교', 'KAIST', '부산대학교']),
            degree: null,
            fieldOfStudy: null,
            startDate: null,
            endDate: null,
          },
        ]),
        links: '[]',
        location_country: place?.country ?? null,
        location_region: place?.region ?? null,
        location_latitude: place?.latitude != null && rnd.chance(0.6) ? coarse(place.latitude) : null,
        location_longitude: null,
        open_to_work: rnd.chance(0.2) ? 1 : 0,
        visibility: rnd.chance(0.85) ? 'PUBLIC' : 'PRIVATE',
        show_experiences: rnd.chance(0.9) ? 1 : 0,
        show_educations: rnd.chance(0.9) ? 1 : 0,
        show_links: 1,
        show_open_to_work: rnd.chance(0.9) ? 1 : 0,
        current_position: currentPosition(jobs),
        current_company_id: at[0]!.id,
        created_at: created,
        updated_at: Math.min(updated, now),
      });
      const last = details.at(-1)!;
      if (last.location_latitude != null && place?.longitude != null) last.location_longitude = coarse(place.longitude);
    }
    await db.transaction().execute(async (trx) => {
      const ids = await trx.insertInto('users').values(members).returning('id').execute();
      await trx
        .insertInto('profiles')
        .values(ids.map(({ id }, i) => ({ user_id: id, ...details[i]! })))
        .execute();
    });
    progress('profiles', done + n, count, started);
  }
}

async function posts(
  database: Database,
  count: number,
  rnd: SeededRandom,
  now: number,
  authors: { users: number[]; companies: Array<{ id: number; name: string; size: string }> },
) {
  const { db, adapter } = database;
  let nextId = (await maxId(db, 'posts')) + 1;
  let nextImage = (await maxId(db, 'post_images')) + 1;
  const first = nextId;
  const started = Date.now();
  const span = 730 * DAY;
  for (let done = 0; done < count; done += BATCH) {
    const n = Math.min(BATCH, count - done);
    const rows: Array<Insertable<DB['posts']>> = [];
    const images: Array<Insertable<DB['post_images']>> = [];
    const cards: DB['post_og_cards'][] = [];
    const translations: DB['post_translations'][] = [];
    for (let i = 0; i < n; i++) {
      const id = nextId++;
      const isCompany = rnd.chance(0.35);
      const company = rnd.pick(authors.companies);
      const language: TextLanguage = rnd.chance(0.75) ? 'ko' : rnd.pick(['en', 'en', 'ja', 'zh-CN'] as const);
      const template = rnd.pick(POST_TEMPLATES);
      const role = rnd.pick(ROLES);
      const tech = rnd.pick(TECHS);
      const city = rnd.pick(CITIES);
      const slots = (l: TextLanguage) => ({ company: company.name, role: role.name[l], tech, city: city[l] });
      const content = fill(template[language], slots(language));
      const own = rnd.chance(0.4)
        ? TARGETS.filter((l) => l !== language).map((l) => ({
            post_id: id,
            language: l,
            content: fill(template[l], slots(l)),
          }))
        : [];
      const imageCount = rnd.chance(0.3) ? rnd.int(1, 3) : 0;
      const postedAt = now - span + Math.floor(((done + i) / count) * span);
      rows.push({
        id,
        author_type: isCompany ? 'COMPANY' : 'MEMBER',
        author_user_id: isCompany ? null : rnd.pick(authors.users),
        author_company_id: isCompany ? company.id : null,
        content,
        language,
        reposted_post_id: id - first > 100 && rnd.chance(0.05) ? first + rnd.int(0, id - first - 1) : null,
        image_count: imageCount,
        has_og: 0,
        like_count: rnd.int(0, 500),
        comment_count: rnd.int(0, 50),
        posted_at: postedAt,
        updated_at: postedAt,
      });
      for (let k = 0; k < imageCount; k++) {
        images.push({
          id: nextImage++,
          post_id: id,
          position: k,
          media_key: `bench/posts/${id}-${k}.png`,
          content_type: 'image/png',
          byte_size: 20_000,
          width: 1200,
          height: 630,
        });
      }
      if (rnd.chance(0.2)) {
        rows[rows.length - 1]!.has_og = 1;
        cards.push({
          post_id: id,
          link: `https://blog.example.com/${id}`,
          title: `${company.name} ${tech}`,
          source: `${company.name} Blog`,
          image: null,
          description: null,
          fetched_at: postedAt,
        });
      }
      translations.push(...own);
    }
    await db.transaction().execute(async (trx) => {
      await trx.insertInto('posts').values(rows).execute();
      if (images.length) await trx.insertInto('post_images').values(images).execute();
      if (cards.length) await trx.insertInto('post_og_cards').values(cards).execute();
      for (let k = 0; k < translations.length; k += BATCH)
        await trx
          .insertInto('post_translations')
          .values(translations.slice(k, k + BATCH))
          .execute();
    });
    progress('posts', done + n, count, started);
  }
  await adapter.syncIdSequence(db, 'posts');
  await adapter.syncIdSequence(db, 'post_images');
}

async function jobs(
  database: Database,
  count: number,
  rnd: SeededRandom,
  now: number,
  companies: Array<{ id: number; name: string; size: string }>,
  /** Which company posts a job: a long tail over a directory, or any of a few alike. */
  owner: (rnd: SeededRandom, n: number) => number = (r, n) => r.int(0, n - 1),
) {
  const { db, adapter } = database;
  let nextId = (await maxId(db, 'jobs')) + 1;
  const seniorities = catalogCodes('seniorities');
  const types = catalogCodes('employment-types');
  const workTypes = catalogCodes('work-types');
  // Places and pay from a generator of their own, so the rest of the data is what it was before jobs had them.
  const placeRnd = new SeededRandom(20261202 + nextId);
  const started = Date.now();
  for (let done = 0; done < count; done += BATCH) {
    const n = Math.min(BATCH, count - done);
    const rows: Array<Insertable<DB['jobs']>> = [];
    const translations: DB['job_translations'][] = [];
    for (let i = 0; i < n; i++) {
      const id = nextId++;
      const company = companies[owner(rnd, companies.length)]!;
      const role = rnd.pick(ROLES);
      const tech = rnd.pick(TECHS);
      const city = rnd.pick(CITIES);
      const language: TextLanguage = rnd.chance(0.85) ? 'ko' : 'en';
      const slots = (l: TextLanguage) => ({ company: company.name, role: role.name[l], tech, city: city[l] });
      const text = (l: TextLanguage) => ({
        title: `${role.name[l]} (${tech})`,
        subtitle: fill(JOB_TEXTS.subtitle[l], slots(l)),
        description: fill(JOB_TEXTS.description[l], slots(l)),
        duty: fill(JOB_TEXTS.duty[l], slots(l)),
        minimum_qualification: fill(JOB_TEXTS.minimumQualification[l], slots(l)),
        preferred_qualification: JOB_TEXTS.preferredQualification[l],
        benefit: JOB_TEXTS.benefit[l],
        hire_process: JOB_TEXTS.hireProcess[l],
        hire_notes: JOB_TEXTS.hireNotes[l],
      });
      const state = rnd.next();
      const status = state < 0.7 ? 'published' : state < 0.8 ? 'finish' : state < 0.9 ? 'draft' : 'deleted';
      const start = now - rnd.int(1, 300) * DAY;
      const end = state < 0.6 ? now + rnd.int(1, 90) * DAY : state < 0.65 ? null : now - rnd.int(1, 30) * DAY;
      const workType = rnd.pick(workTypes);
      const original = text(language);
      const views = rnd.int(0, 10_000);
      rows.push({
        id,
        company_id: company.id,
        author_user_id: null,
        job_type: 'PLATFORM',
        status,
        ...original,
        job_category: role.category,
        work_type: workType,
        allow_remote: workType === 'ONSITE' ? 0 : 1,
        language,
        apply_type: 'PLATFORM',
        apply_url: null,
        email: null,
        notify_emails: '[]',
        military: 0,
        veteran: 0,
        start_at: start,
        end_at: end,
        view_count: views,
        created_at: start - DAY,
        updated_at: start - DAY,
        deleted_at: status === 'deleted' ? now - DAY : null,
        ...jobCodeColumns({
          seniorities: rnd.some(seniorities, rnd.int(1, 2)),
          employmentTypes: rnd.some(types, rnd.int(1, 2)),
        }),
        ...placeAndPayRow(placeAndPayFor(placeRnd, city.ko, workType === 'REMOTE')),
      });
      const own = rnd.chance(0.4)
        ? TARGETS.filter((l) => l !== language).map((l) => ({ job_id: id, language: l, ...text(l) }))
        : [];
      translations.push(...own);
    }
    await db.transaction().execute(async (trx) => {
      for (let k = 0; k < rows.length; k += 250)
        await trx
          .insertInto('jobs')
          .values(rows.slice(k, k + 250))
          .execute();
      for (let k = 0; k < translations.length; k += 200)
        await trx
          .insertInto('job_translations')
          .values(translations.slice(k, k + 200))
          .execute();
    });
    progress('jobs', done + n, count, started);
  }
  await adapter.syncIdSequence(db, 'jobs');
}

async function events(
  database: Database,
  count: number,
  rnd: SeededRandom,
  now: number,
  companies: Array<{ id: number; name: string; size: string }>,
) {
  const { db } = database;
  const categories = catalogCodes('event-categories');
  const subjects = catalogCodes('event-subjects');
  const started = Date.now();
  for (let done = 0; done < count; done += BATCH) {
    const n = Math.min(BATCH, count - done);
    const rows: Insertable<DB['events']>[] = [];
    const categoryRows: DB['event_categories'][] = [];
    const subjectRows: DB['event_subjects'][] = [];
    for (let i = 0; i < n; i++) {
      const company = rnd.pick(companies);
      const tech = rnd.pick(TECHS);
      const city = rnd.pick(CITIES);
      const created = now - rnd.int(1, 365) * DAY;
      const id = timeOrderedId('evt', created, () => rnd.next());
      const start = now + rnd.int(-200, 100) * DAY;
      rows.push({
        id,
        company_id: company.id,
        author_user_id: null,
        status: 'published',
        event_name: fill(EVENT_TEXTS.name.ko, { tech, city: city.ko }),
        description: fill(EVENT_TEXTS.description.ko, { tech }),
        event_open_type: rnd.pick(['ONLINE', 'OFFLINE', 'ON_OFFLINE']),
        start_at: start,
        end_at: start + 7_200_000,
        online_link: null,
        country: 'KR',
        region: city.ko,
        locality: null,
        location_title: null,
        location_address: null,
        location_detail: null,
        location_description: null,
        location_hidden: 0,
        guest_hidden: 0,
        latitude: null,
        longitude: null,
        banner_key: null,
        language: 'ko',
        view_count: rnd.int(0, 3000),
        guest_count: rnd.int(0, 300),
        created_at: created,
        updated_at: created,
        deleted_at: null,
      });
      for (const c of rnd.some(categories, rnd.int(1, 2))) categoryRows.push({ event_id: id, category: c });
      for (const s of rnd.some(subjects, rnd.int(1, 2))) subjectRows.push({ event_id: id, subject: s });
    }
    await db.transaction().execute(async (trx) => {
      for (let k = 0; k < rows.length; k += 250)
        await trx
          .insertInto('events')
          .values(rows.slice(k, k + 250))
          .execute();
      await trx.insertInto('event_categories').values(categoryRows).execute();
      await trx.insertInto('event_subjects').values(subjectRows).execute();
    });
    progress('events', done + n, count, started);
  }
}

/** Adds `counts` of rows (on top of the demo data, which is created first on an empty database). */
export async function generateBenchData(
  database: Database,
  counts: { companies?: number; posts: number; jobs: number; events: number; profiles?: number },
  seed = 7,
  now = Date.now(),
): Promise<void> {
  const empty = (await database.db.selectFrom('users').select('id').limit(1).execute()).length === 0;
  if (empty) await generateDemoData(database, { now });
  const users = (await database.db.selectFrom('users').select('id').execute()).map((u) => u.id);
  const rnd = new SeededRandom(seed);
  const demo = await database.db.selectFrom('companies').select(['id', 'name', 'size']).orderBy('id').execute();
  if (counts.companies) await companies(database, counts.companies, rnd, now);
  const owners = await database.db.selectFrom('companies').select(['id', 'name', 'size']).orderBy('id').execute();
  // Posts and events are the demo companies' (and members'), as in the data sets before the directory; jobs come from
  // the whole directory, a few companies posting most of them (companies[skewed]).
  if (counts.posts) await posts(database, counts.posts, rnd, now, { users, companies: demo });
  if (counts.jobs) await jobs(database, counts.jobs, rnd, now, owners, counts.companies ? skewed : undefined);
  if (counts.events) await events(database, counts.events, rnd, now, demo);
  if (counts.profiles) {
    const directory = await database.db
      .selectFrom('companies')
      .select(['id', 'name', 'handle'])
      .orderBy('id')
      .execute();
    await profiles(database, counts.profiles, seed, now, directory);
  }
  // Statistics for the planner, and on PostgreSQL the visibility map a steady-state database has (autovacuum
  // would set it some time after a bulk load; until then every index read visits the heap).
  const settle = database.adapter.name === 'postgres' ? 'VACUUM (ANALYZE)' : 'ANALYZE';
  await database.db.executeQuery({
    sql: settle,
    parameters: [],
    query: { kind: 'RawNode' } as never,
    queryId: { queryId: 'settle' },
  });
}

if (process.argv[1]?.endsWith('generate-data.ts')) {
  const { values } = parseArgs({
    options: {
      companies: { type: 'string', default: '0' },
      posts: { type: 'string', default: '0' },
      jobs: { type: 'string', default: '0' },
      events: { type: 'string', default: '0' },
      profiles: { type: 'string', default: '0' },
      seed: { type: 'string', default: '7' },
    },
  });
  const config = loadConfig();
  const database = openDatabase({ kind: config.databaseKind, url: config.databaseUrl });
  await migrateToLatest(database);
  const started = Date.now();
  await generateBenchData(
    database,
    {
      companies: Number(values.companies),
      posts: Number(values.posts),
      jobs: Number(values.jobs),
      events: Number(values.events),
      profiles: Number(values.profiles),
    },
    Number(values.seed),
  );
  await database.close();
  console.log(`Done in ${((Date.now() - started) / 1000).toFixed(1)} s (${config.databaseKind}).`);
}
