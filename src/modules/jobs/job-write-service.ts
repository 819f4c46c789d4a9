import type { CheckedImage, ImageUploads } from '../../media/image-uploads.js';
import { ApiError, notFound } from '../../shared/api-error.js';
import { inIdOrder } from '../../shared/group.js';
import type { Links } from '../../shared/links.js';
import { dateBoundary, toListDateTime, toUtcIso } from '../../shared/time.js';
import { pageOf, type PageResult } from '../../schemas/common.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import type { PermissionService } from '../accounts/permission-service.js';
import type { CodeService } from '../codes/code-service.js';
import { jobCodeColumns, jobCodesOf } from '../../shared/job-codes.js';
import type { JobItemRow } from './job-reads.js';
import type { JobRepository } from './job-repository.js';
import type { JobChildren, JobWriteRepository } from './job-write-repository.js';
import type { JobCreateInput, JobUpdateInput, ManagedJobSummaryDto } from './job-write-schemas.js';
import { isHiring } from './job-document.js';
import { checkPlaceAndPay, placeAndPayColumns } from './job-place-and-pay.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Status = ManagedJobSummaryDto['status'];
type WorkType = ManagedJobSummaryDto['workType'];

export interface JobWriteDeps {
  writes: JobWriteRepository;
  reads: JobRepository;
  accounts: AccountsRepository;
  permissions: PermissionService;
  codes: CodeService;
  uploads: ImageUploads;
  links: Links;
  clock: () => number;
  timeZone: string;
}

const conflict = (message: string) => new ApiError('C0009', message, 'status');

/**
 * Job postings for their company (docs/decisions.md Job lifecycle): create makes a draft; publish takes a
 * draft or finished job to published; deactivate takes a published job to finish; delete is soft and
 * allowed from any state but deleted. Anything else is 409 C0009.
 */
export class JobWriteService {
  constructor(private readonly d: JobWriteDeps) {}

  async create(
    userId: number,
    companyHandle: string | undefined,
    input: JobCreateInput,
    images: CheckedImage[],
  ): Promise<ManagedJobSummaryDto> {
    if (!companyHandle)
      throw new ApiError('C0005', 'Query parameter "companyId" is required to create a job', 'companyId');
    this.checkFields(input);
    const startAt = input.startDate ? this.date('startDate', input.startDate, 'start') : null;
    const endAt = input.endDate ? this.date('endDate', input.endDate, 'end') : null;
    if (startAt !== null && endAt !== null && endAt < startAt)
      throw new ApiError('C0002', 'Field "request.endDate" must not be before startDate', 'request.endDate');
    const company = await this.company(companyHandle);
    await this.d.permissions.require(userId, company, 'ENT_JOB_CREATE');

    const stored = await this.d.uploads.storeAll('jobs', images, 'images');
    const now = this.d.clock();
    const workType = input.workType ?? 'ONSITE';
    const codes = { seniorities: '', employment_types: '', ...jobCodeColumns(input) };
    try {
      return await this.d.writes.transaction(async (repo) => {
        const id = await repo.insert(
          {
            company_id: company.id,
            author_user_id: userId,
            job_type: 'PLATFORM',
            status: 'draft',
            title: input.jobTitle,
            subtitle: input.jobSubtitle ?? '',
            job_category: input.jobCategory,
            work_type: workType,
            allow_remote: workType === 'ONSITE' ? 0 : 1,
            language: 'ko',
            description: input.jobBio,
            duty: input.jobResponse ?? '',
            minimum_qualification: input.jobMinimumQual ?? '',
            preferred_qualification: input.jobPreferQual ?? '',
            benefit: input.jobBenefit ?? '',
            hire_process: input.jobHireProcess ?? '',
            hire_notes: input.jobHireNotes ?? '',
            apply_type: 'PLATFORM',
            apply_url: null,
            email: input.email ?? null,
            notify_emails: JSON.stringify(input.notifyEmails ?? []),
            military: input.military ? 1 : 0,
            veteran: input.veteran ? 1 : 0,
            start_at: startAt,
            end_at: endAt,
            view_count: 0,
            created_at: now,
            updated_at: now,
            deleted_at: null,
            ...codes,
            ...placeAndPayColumns(input),
          },
          { settings: input.settings ?? [], imageKeys: stored.map((s) => s.mediaKey) },
        );
        const answer = this.summaryOf(
          {
            id,
            status: 'draft',
            title: input.jobTitle,
            subtitle: input.jobSubtitle ?? '',
            job_category: input.jobCategory,
            work_type: workType,
            start_at: startAt,
            end_at: endAt,
            ...codes,
          },
          now,
        );
        await repo.recordCreated(id, answer);
        return answer;
      });
    } catch (err) {
      await this.d.uploads.discard(stored.map((s) => s.mediaKey));
      throw err;
    }
  }

  /** The answer to a job create, for the job `jobId` (also for a retry whose first request crashed). */
  async created(jobId: number): Promise<ManagedJobSummaryDto> {
    return (await this.summaries([jobId]))[0]!;
  }

  async update(
    userId: number,
    jobId: number,
    companyHandle: string | undefined,
    input: JobUpdateInput,
    images: CheckedImage[],
  ): Promise<ManagedJobSummaryDto> {
    this.checkFields(input);
    const job = await this.authorize(userId, jobId, companyHandle, 'ENT_JOB_UPDATE');
    if (job.status === 'deleted') throw conflict(`Job ${jobId} is deleted and cannot be updated`);
    if (job.job_type !== 'PLATFORM')
      throw conflict(`Job ${jobId} is a ${job.job_type} posting; only PLATFORM jobs are updated through the API`);

    const stored = await this.d.uploads.storeAll('jobs', images, 'images');
    const workType = input.workType;
    const values = {
      ...(input.jobTitle !== undefined && { title: input.jobTitle }),
      ...(input.jobSubtitle !== undefined && { subtitle: input.jobSubtitle ?? '' }),
      ...(input.jobCategory !== undefined && { job_category: input.jobCategory }),
      ...(workType !== undefined && { work_type: workType, allow_remote: workType === 'ONSITE' ? 0 : 1 }),
      ...(input.jobBio !== undefined && { description: input.jobBio }),
      ...(input.jobResponse !== undefined && { duty: input.jobResponse }),
      ...(input.jobMinimumQual !== undefined && { minimum_qualification: input.jobMinimumQual ?? '' }),
      ...(input.jobPreferQual !== undefined && { preferred_qualification: input.jobPreferQual ?? '' }),
      ...(input.jobBenefit !== undefined && { benefit: input.jobBenefit ?? '' }),
      ...(input.jobHireProcess !== undefined && { hire_process: input.jobHireProcess ?? '' }),
      ...(input.jobHireNotes !== undefined && { hire_notes: input.jobHireNotes ?? '' }),
      ...(input.email !== undefined && { email: input.email }),
      ...(input.notifyEmails !== undefined && { notify_emails: JSON.stringify(input.notifyEmails) }),
      ...(input.military !== undefined && { military: input.military ? 1 : 0 }),
      ...(input.veteran !== undefined && { veteran: input.veteran ? 1 : 0 }),
      ...jobCodeColumns(input),
      ...placeAndPayColumns(input),
      updated_at: this.d.clock(),
    };
    const textChanged = [
      'jobTitle',
      'jobSubtitle',
      'jobBio',
      'jobResponse',
      'jobMinimumQual',
      'jobPreferQual',
      'jobBenefit',
      'jobHireProcess',
      'jobHireNotes',
    ].some((k) => k in input);
    const children: JobChildren = {
      ...(input.settings && { settings: input.settings }),
      ...(stored.length && { imageKeys: stored.map((s) => s.mediaKey) }),
    };
    let replaced: string[];
    try {
      replaced = await this.d.writes.transaction((repo) => repo.update(jobId, values, children, textChanged));
    } catch (err) {
      await this.d.uploads.discard(stored.map((s) => s.mediaKey));
      throw err;
    }
    await this.d.uploads.discard(replaced);
    return (await this.summaries([jobId]))[0]!;
  }

  async publish(
    userId: number,
    jobId: number,
    companyHandle: string | undefined,
    body: { startDate?: string | null; endDate?: string | null },
  ): Promise<ManagedJobSummaryDto> {
    const startAt = body.startDate ? this.date('startDate', body.startDate, 'start', '') : this.d.clock();
    const endAt = body.endDate ? this.date('endDate', body.endDate, 'end', '') : null;
    if (endAt !== null && endAt < startAt)
      throw new ApiError('C0002', 'Field "endDate" must not be before startDate', 'endDate');
    if (endAt !== null && endAt <= this.d.clock())
      throw new ApiError('C0002', `Field "endDate" is in the past: ${body.endDate}`, 'endDate');
    const job = await this.authorize(userId, jobId, companyHandle, 'ENT_JOB_PUBLISH');
    if (job.status !== 'draft' && job.status !== 'finish')
      throw conflict(`Job ${jobId} is ${job.status}; only draft and finished jobs can be published`);
    const now = this.d.clock();
    await this.changeState(job, { status: 'published', start_at: startAt, end_at: endAt, updated_at: now });
    return this.summaryOf({ ...job, status: 'published', start_at: startAt, end_at: endAt }, now);
  }

  async deactivate(userId: number, jobId: number, companyHandle: string | undefined): Promise<ManagedJobSummaryDto> {
    const job = await this.authorize(userId, jobId, companyHandle, 'ENT_JOB_DISABLE');
    if (job.status !== 'published')
      throw conflict(`Job ${jobId} is ${job.status}; only published jobs can be deactivated`);
    const now = this.d.clock();
    await this.changeState(job, { status: 'finish', updated_at: now });
    return this.summaryOf({ ...job, status: 'finish' }, now);
  }

  async remove(userId: number, jobId: number, companyHandle: string | undefined): Promise<void> {
    const job = await this.authorize(userId, jobId, companyHandle, 'ENT_JOB_DELETE');
    if (job.status === 'deleted') throw conflict(`Job ${jobId} is already deleted`);
    const now = this.d.clock();
    await this.changeState(job, { status: 'deleted', deleted_at: now, updated_at: now });
  }

  /**
   * Moves `job` from the status it was read in: 409 when another request changed that status in between (the
   * checks made on what was read would not hold, and the change would be recorded twice).
   */
  private async changeState(
    job: { id: number; status: string; company_id: number },
    values: Parameters<JobWriteRepository['setState']>[2],
  ): Promise<void> {
    const changed = await this.d.writes.transaction((repo) => repo.setState(job.id, job, values));
    if (!changed) throw conflict(`Job ${job.id} was changed by another request while this one ran; read it again`);
  }

  /** All company jobs with ENT_JOB_LIST; otherwise only those the user may view through a job role. */
  async accessible(
    userId: number,
    companyHandle: string,
    page: number,
    pageSize: number,
  ): Promise<PageResult<ManagedJobSummaryDto>> {
    const company = await this.company(companyHandle);
    const canList = (await this.d.permissions.companyCapabilities(userId, company.id)).has('ENT_JOB_LIST');
    const only = canList
      ? null
      : (await this.d.permissions.resourceRolesAt(userId, company.id, 'JOB'))
          .filter((r) => r.capabilities.has('ENT_JOB_VIEW'))
          .map((r) => Number(r.resourceId))
          .filter(Number.isInteger);
    const { total, ids } = await this.d.writes.companyJobs(company.id, only, pageSize, (page - 1) * pageSize);
    return pageOf(await this.summaries(ids, toListDateTime), total, page, pageSize);
  }

  /**
   * The job, once the user may act on it with `capability`: the job and the user's roles at its company are read
   * together (on PostgreSQL one turn of the event loop, not two).
   */
  private async authorize(
    userId: number,
    jobId: number,
    companyHandle: string | undefined,
    capability: Parameters<PermissionService['require']>[2],
  ) {
    const [job, companyWide] = await Promise.all([
      this.d.writes.find(jobId),
      this.d.permissions.companyCapabilitiesAtJob(userId, jobId),
    ]);
    if (!job || (companyHandle !== undefined && job.company_handle !== companyHandle)) throw notFound.job(jobId);
    await this.d.permissions.require(
      userId,
      { id: job.company_id, handle: job.company_handle },
      capability,
      { type: 'JOB', id: String(jobId) },
      companyWide,
    );
    return job;
  }

  private async company(handle: string) {
    const company = await this.d.accounts.findCompanyByHandle(handle);
    if (!company) throw new ApiError('C0008', `Company ${handle} does not exist`, 'companyId');
    return company;
  }

  private checkFields(input: JobUpdateInput): void {
    checkPlaceAndPay(input);
    if (input.jobCategory !== undefined)
      this.d.codes.requireCodes('body', 'request.jobCategory', 'job-categories', [input.jobCategory]);
    for (const [i, setting] of (input.settings ?? []).entries()) {
      if ((setting.type ?? 'CUSTOM') === 'CUSTOM' && !setting.title) {
        throw new ApiError(
          'C0002',
          `Field "request.settings.${i}.title" is required for a CUSTOM setting`,
          `request.settings.${i}.title`,
        );
      }
    }
    for (const [field, value] of [
      ['email', input.email],
      ...(input.notifyEmails ?? []).map((e) => ['notifyEmails', e]),
    ] as Array<[string, string | null | undefined]>) {
      if (value !== undefined && value !== null && !EMAIL.test(value))
        throw new ApiError(
          'C0002',
          `Field "request.${field}" must be an e-mail address, got ${JSON.stringify(value)}`,
          `request.${field}`,
        );
    }
  }

  private date(field: string, value: string, edge: 'start' | 'end', prefix = 'request.'): number {
    const ms = dateBoundary(value, edge, this.d.timeZone);
    if (ms === null)
      throw new ApiError(
        'C0002',
        `Field "${prefix}${field}" must be a date YYYY-MM-DD, got ${JSON.stringify(value)}`,
        `${prefix}${field}`,
      );
    return ms;
  }

  /** The jobs of `ids` as writes return them; `time` formats their times (ISO 8601 UTC, or the lists' form). */
  private async summaries(ids: number[], time: (ms: number) => string = toUtcIso): Promise<ManagedJobSummaryDto[]> {
    const rows = inIdOrder(ids, await this.d.reads.findByIds(ids));
    const now = this.d.clock();
    return rows.map((row) => this.summaryOf(row, now, time));
  }

  /** A job as writes return it, from its row's columns, at `now`. */
  private summaryOf(row: SummaryColumns, now: number, time: (ms: number) => string = toUtcIso): ManagedJobSummaryDto {
    return {
      jobId: row.id,
      status: row.status as Status,
      hiring: isHiring(row, now),
      title: row.title,
      ...jobCodesOf(row),
      webUrl: this.d.links.job(row.id),
      subtitle: row.subtitle,
      jobCategory: row.job_category,
      workType: row.work_type as WorkType,
      startAt: row.start_at === null ? null : time(row.start_at),
      endAt: row.end_at === null ? null : time(row.end_at),
    };
  }
}

/** The columns of a job a write's answer shows. */
type SummaryColumns = Pick<
  JobItemRow,
  | 'id'
  | 'status'
  | 'title'
  | 'subtitle'
  | 'job_category'
  | 'work_type'
  | 'start_at'
  | 'end_at'
  | 'seniorities'
  | 'employment_types'
>;
