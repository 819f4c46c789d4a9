import type { Kysely } from 'kysely';
import type { PreparedRead, PreparedReads } from '../../db/prepared-reads.js';
import type { DB } from '../../db/schema.js';

/** A public profile as a search page or a detail reads it: the member's public fields and every section's switch. */
export interface PublicProfileRow {
  id: number;
  handle: string;
  name: string;
  image_url: string | null;
  certificated: number;
  headline: string | null;
  skills: string;
  current_position: string | null;
  show_experiences: number;
  open_to_work: number;
  show_open_to_work: number;
  location_country: string | null;
  location_region: string | null;
  location_latitude: number | null;
  location_longitude: number | null;
  updated_at: number;
}

/** A detail's row: the summary's columns and the sections only a detail shows. */
export interface ProfileDetailRow extends PublicProfileRow {
  experiences: string;
  educations: string;
  show_educations: number;
  links: string;
  show_links: number;
}

const SUMMARY_COLUMNS = `u.id, u.handle, u.name, u.image_url, u.certificated, p.headline, p.skills, p.current_position,
  p.show_experiences, p.open_to_work, p.show_open_to_work, p.location_country, p.location_region, p.location_latitude,
  p.location_longitude, p.updated_at`;

/**
 * Only a public profile of a member whose account is in use is ever read for an app: a private, disabled or missing
 * one is the same absent row, found by the same statement.
 */
const PUBLIC = `p.visibility = 'PUBLIC' AND u.disabled_at IS NULL`;

/** The reads of public profiles (prepared statements) and of a member's own (any visibility). */
export class ProfileRepository {
  private readonly itemsRead: PreparedRead<PublicProfileRow>;
  private readonly handleRead: PreparedRead<ProfileDetailRow>;

  constructor(
    reads: PreparedReads,
    private readonly db: Kysely<DB>,
  ) {
    this.itemsRead = reads.prepare(
      'profile_items',
      (sql) =>
        `SELECT ${SUMMARY_COLUMNS} FROM profiles p JOIN users u ON u.id = p.user_id WHERE ${sql.inArray('p.user_id', 1, 'int8')} AND ${PUBLIC}`,
    );
    this.handleRead = reads.prepare(
      'profile_by_handle',
      (sql) =>
        `SELECT ${SUMMARY_COLUMNS}, p.experiences, p.educations, p.show_educations, p.links, p.show_links FROM users u JOIN profiles p ON p.user_id = u.id WHERE u.handle = ${sql.param(1)} AND ${PUBLIC}`,
    );
  }

  /** The public profiles of `ids` (in no order); those no longer public are left out. */
  async items(ids: number[]): Promise<PublicProfileRow[]> {
    return ids.length === 0 ? [] : this.itemsRead.all([ids]);
  }

  /** The public profile of `handle`; undefined when there is none to show (missing, private or disabled alike). */
  async byHandle(handle: string): Promise<ProfileDetailRow | undefined> {
    return (await this.handleRead.all([handle]))[0];
  }

  /** The member's own profile row, whatever its visibility (undefined: they never wrote one). */
  own(userId: number) {
    return this.db.selectFrom('profiles').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }
}
