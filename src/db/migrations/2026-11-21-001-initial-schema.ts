import { type Kysely, type Migration } from 'kysely';
import type { DialectAdapter } from '../dialects/dialect-adapter.js';

/**
 * The whole data model: accounts and roles, apps and keys, posts, jobs, events and code catalogs.
 * Times are epoch milliseconds (bigint), booleans 0/1 integers, JSON values text.
 */
export function initialSchema(adapter: DialectAdapter): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const s = db.schema;

      await adapter
        .autoId(s.createTable('users'))
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('password_hash', 'text')
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('handle', 'text', (c) => c.notNull().unique())
        .addColumn('image_url', 'text')
        .addColumn('certificated', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('locale', 'text', (c) => c.notNull().defaultTo('ko'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();

      await adapter
        .autoId(s.createTable('companies'))
        .addColumn('handle', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('logo_url', 'text')
        .addColumn('industry', 'text', (c) => c.notNull())
        .addColumn('size', 'text', (c) => c.notNull())
        .addColumn('certificated', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await s.createIndex('companies_size').on('companies').columns(['size', 'id']).execute();

      await s
        .createTable('company_roles')
        .addColumn('company_id', 'bigint', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('company_roles_pk', ['company_id', 'user_id', 'role'])
        .execute();
      await s.createIndex('company_roles_user').on('company_roles').columns(['user_id', 'company_id']).execute();

      await s
        .createTable('resource_roles')
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('company_id', 'bigint', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('resource_type', 'text', (c) => c.notNull())
        .addColumn('resource_id', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('resource_roles_pk', ['user_id', 'resource_type', 'resource_id', 'role'])
        .execute();
      await s
        .createIndex('resource_roles_company')
        .on('resource_roles')
        .columns(['company_id', 'user_id', 'resource_type'])
        .execute();

      await adapter
        .autoId(s.createTable('apps'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('owner_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await adapter
        .autoId(s.createTable('app_keys'))
        .addColumn('app_id', 'bigint', (c) => c.notNull().references('apps.id').onDelete('cascade'))
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('key_hint', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('revoked_at', 'bigint')
        .execute();

      // Posts. A repost keeps the source's id even after the source is deleted (no foreign key), so
      // `repostedPostDeleted` can be told.
      await adapter
        .autoId(s.createTable('posts'))
        .addColumn('author_type', 'text', (c) => c.notNull())
        .addColumn('author_user_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('author_company_id', 'bigint', (c) => c.references('companies.id').onDelete('cascade'))
        .addColumn('content', 'text')
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('reposted_post_id', 'bigint')
        .addColumn('image_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('has_og', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('like_count', 'bigint')
        .addColumn('comment_count', 'bigint')
        .addColumn('posted_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await s.createIndex('posts_posted').on('posts').columns(['posted_at', 'id']).execute();
      await s
        .createIndex('posts_company_posted')
        .on('posts')
        .columns(['author_company_id', 'posted_at', 'id'])
        .execute();
      await s.createIndex('posts_user_posted').on('posts').columns(['author_user_id', 'posted_at', 'id']).execute();
      await s.createIndex('posts_og_posted').on('posts').columns(['has_og', 'posted_at', 'id']).execute();
      await s.createIndex('posts_images_posted').on('posts').columns(['image_count', 'posted_at', 'id']).execute();

      await adapter
        .autoId(s.createTable('post_images'))
        .addColumn('post_id', 'bigint', (c) => c.notNull().references('posts.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('media_key', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('byte_size', 'integer', (c) => c.notNull())
        .addColumn('width', 'integer')
        .addColumn('height', 'integer')
        .execute();
      await s.createIndex('post_images_post').on('post_images').columns(['post_id', 'position']).execute();

      await s
        .createTable('post_og_cards')
        .addColumn('post_id', 'bigint', (c) => c.primaryKey().references('posts.id').onDelete('cascade'))
        .addColumn('link', 'text', (c) => c.notNull())
        .addColumn('title', 'text')
        .addColumn('source', 'text')
        .addColumn('image', 'text')
        .addColumn('description', 'text')
        .addColumn('fetched_at', 'bigint')
        .execute();

      await s
        .createTable('post_mentions')
        .addColumn('post_id', 'bigint', (c) => c.notNull().references('posts.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('mention_type', 'text', (c) => c.notNull())
        .addColumn('handle', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('post_mentions_pk', ['post_id', 'position'])
        .execute();

      await s
        .createTable('post_translations')
        .addColumn('post_id', 'bigint', (c) => c.notNull().references('posts.id').onDelete('cascade'))
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('content', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('post_translations_pk', ['post_id', 'language'])
        .execute();

      // Jobs. `hiring` is derived from status and the recruiting window, never stored.
      await adapter
        .autoId(s.createTable('jobs'))
        .addColumn('company_id', 'bigint', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('author_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('job_type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('subtitle', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('job_category', 'text', (c) => c.notNull())
        .addColumn('work_type', 'text', (c) => c.notNull())
        .addColumn('allow_remote', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('duty', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('minimum_qualification', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('preferred_qualification', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('benefit', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('hire_process', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('hire_notes', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('apply_type', 'text', (c) => c.notNull())
        .addColumn('apply_url', 'text')
        .addColumn('email', 'text')
        .addColumn('notify_emails', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('military', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('veteran', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('start_at', 'bigint')
        .addColumn('end_at', 'bigint')
        .addColumn('view_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute();
      await s.createIndex('jobs_status_start').on('jobs').columns(['status', 'start_at', 'id']).execute();
      await s.createIndex('jobs_status_views').on('jobs').columns(['status', 'view_count', 'id']).execute();
      await s.createIndex('jobs_company_status').on('jobs').columns(['company_id', 'status', 'start_at']).execute();
      await s.createIndex('jobs_category_status').on('jobs').columns(['job_category', 'status', 'start_at']).execute();
      await s.createIndex('jobs_work_type_status').on('jobs').columns(['work_type', 'status', 'start_at']).execute();

      await s
        .createTable('job_seniorities')
        .addColumn('job_id', 'bigint', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
        .addColumn('seniority', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('job_seniorities_pk', ['job_id', 'seniority'])
        .execute();
      await s.createIndex('job_seniorities_value').on('job_seniorities').columns(['seniority', 'job_id']).execute();

      await s
        .createTable('job_employment_types')
        .addColumn('job_id', 'bigint', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
        .addColumn('employment_type', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('job_employment_types_pk', ['job_id', 'employment_type'])
        .execute();
      await s
        .createIndex('job_employment_types_value')
        .on('job_employment_types')
        .columns(['employment_type', 'job_id'])
        .execute();

      await s
        .createTable('job_images')
        .addColumn('job_id', 'bigint', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('media_key', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('job_images_pk', ['job_id', 'position'])
        .execute();

      await s
        .createTable('job_settings')
        .addColumn('job_id', 'bigint', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('required', 'integer', (c) => c.notNull())
        .addColumn('upload_type', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('job_settings_pk', ['job_id', 'position'])
        .execute();

      await s
        .createTable('job_translations')
        .addColumn('job_id', 'bigint', (c) => c.notNull().references('jobs.id').onDelete('cascade'))
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('subtitle', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('duty', 'text', (c) => c.notNull())
        .addColumn('minimum_qualification', 'text', (c) => c.notNull())
        .addColumn('preferred_qualification', 'text', (c) => c.notNull())
        .addColumn('benefit', 'text', (c) => c.notNull())
        .addColumn('hire_process', 'text', (c) => c.notNull())
        .addColumn('hire_notes', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('job_translations_pk', ['job_id', 'language'])
        .execute();

      // Events: string ids (`evt_…`), time-ordered.
      await s
        .createTable('events')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('company_id', 'bigint', (c) => c.notNull().references('companies.id').onDelete('cascade'))
        .addColumn('author_user_id', 'bigint', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('event_name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('event_open_type', 'text', (c) => c.notNull())
        .addColumn('start_at', 'bigint', (c) => c.notNull())
        .addColumn('end_at', 'bigint', (c) => c.notNull())
        .addColumn('online_link', 'text')
        .addColumn('country', 'text')
        .addColumn('region', 'text')
        .addColumn('locality', 'text')
        .addColumn('location_title', 'text')
        .addColumn('location_address', 'text')
        .addColumn('location_detail', 'text')
        .addColumn('location_description', 'text')
        .addColumn('location_hidden', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('guest_hidden', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('banner_key', 'text')
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('view_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('guest_count', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('deleted_at', 'bigint')
        .execute();
      await s.createIndex('events_status_start').on('events').columns(['status', 'start_at', 'id']).execute();
      await s.createIndex('events_company_status').on('events').columns(['company_id', 'status', 'start_at']).execute();

      for (const [table, column] of [
        ['event_categories', 'category'],
        ['event_subjects', 'subject'],
      ] as const) {
        await s
          .createTable(table)
          .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
          .addColumn(column, 'text', (c) => c.notNull())
          .addPrimaryKeyConstraint(`${table}_pk`, ['event_id', column])
          .execute();
        await s.createIndex(`${table}_value`).on(table).columns([column, 'event_id']).execute();
      }

      await s
        .createTable('event_translations')
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('language', 'text', (c) => c.notNull())
        .addColumn('event_name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('event_translations_pk', ['event_id', 'language'])
        .execute();

      await adapter
        .autoId(s.createTable('event_tickets'))
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('ticket_type', 'text', (c) => c.notNull())
        .addColumn('ticket_name', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('approval_required', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('waiting_required', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('max_count', 'integer')
        .addColumn('sales_start_at', 'bigint')
        .addColumn('sales_end_at', 'bigint')
        .addColumn('form_fields', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .execute();
      await s.createIndex('event_tickets_event').on('event_tickets').columns(['event_id', 'id']).execute();

      await adapter
        .autoId(s.createTable('event_sessions'))
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('start_at', 'bigint')
        .addColumn('end_at', 'bigint')
        .execute();
      await s.createIndex('event_sessions_event').on('event_sessions').columns(['event_id', 'position']).execute();

      await adapter
        .autoId(s.createTable('event_faqs'))
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('question', 'text', (c) => c.notNull())
        .addColumn('answer', 'text', (c) => c.notNull())
        .execute();
      await s.createIndex('event_faqs_event').on('event_faqs').columns(['event_id', 'position']).execute();

      await adapter
        .autoId(s.createTable('event_hosts'))
        .addColumn('event_id', 'text', (c) => c.notNull().references('events.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('host_type', 'text', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('company_id', 'bigint', (c) => c.references('companies.id').onDelete('cascade'))
        .addColumn('roles', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await s.createIndex('event_hosts_event').on('event_hosts').columns(['event_id', 'position']).execute();

      await s
        .createTable('code_entries')
        .addColumn('catalog', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('position', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('code_entries_pk', ['catalog', 'code'])
        .execute();

      await s
        .createTable('code_labels')
        .addColumn('catalog', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('locale', 'text', (c) => c.notNull())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('code_labels_pk', ['catalog', 'code', 'locale'])
        .addForeignKeyConstraint('code_labels_entry', ['catalog', 'code'], 'code_entries', ['catalog', 'code'], (fk) =>
          fk.onDelete('cascade'),
        )
        .execute();
    },
  };
}
