import type { Updateable } from 'kysely';
import type { CompaniesTable } from '../../db/schema.js';
import type { CheckedImage, ImageUploads } from '../../media/image-uploads.js';
import { ApiError } from '../../shared/api-error.js';
import type { Links } from '../../shared/links.js';
import type { PermissionService } from '../accounts/permission-service.js';
import type { CodeService } from '../codes/code-service.js';
import { checkPlaceAndPay, placeAndPayColumns } from '../jobs/job-place-and-pay.js';
import type { CompanyUpdateInput } from './company-write-schemas.js';
import type { CompanyWriteRepository } from './company-write-repository.js';

/** A company kept by its people (scope company:write, capability ENT_COMPANY_EDIT: OWNER and ADMIN). */
export class CompanyWriteService {
  constructor(
    private readonly writes: CompanyWriteRepository,
    private readonly permissions: PermissionService,
    private readonly codes: CodeService,
    private readonly uploads: ImageUploads,
    private readonly links: Links,
    private readonly clock: () => number,
  ) {}

  async update(
    userId: number,
    handle: string,
    input: CompanyUpdateInput,
    logo: CheckedImage | undefined,
  ): Promise<{ companyId: string; webUrl: string }> {
    const company = await this.writes.find(handle);
    if (!company) throw new ApiError('C0008', `Company ${handle} does not exist`, 'companyId');
    await this.permissions.require(userId, { id: company.id, handle }, 'ENT_COMPANY_EDIT');
    this.codes.requireCodes('body', 'request.industries', 'job-industries', input.industries);
    if (input.location) checkPlaceAndPay({ location: input.location });
    const change: Updateable<CompaniesTable> = {
      ...(input.description !== undefined && { description: input.description }),
      ...(input.language !== undefined && { language: input.language }),
      ...(input.industries !== undefined && {
        industry: input.industries[0]!,
        industries: JSON.stringify(input.industries),
      }),
      ...(input.size !== undefined && { size: input.size }),
      ...(input.employeeCount !== undefined && { employee_count: input.employeeCount }),
      ...(input.foundedYear !== undefined && { founded_year: input.foundedYear }),
      ...(input.fundingStage !== undefined && { funding_stage: input.fundingStage }),
      ...(input.website !== undefined && { website: input.website }),
      ...(input.links !== undefined && { links: JSON.stringify(input.links) }),
      ...(input.offices !== undefined && { offices: JSON.stringify(input.offices) }),
      ...placeAndPayColumns({ location: input.location }),
      updated_at: this.clock(),
    };
    const [stored] = await this.uploads.storeAll('companies', logo ? [logo] : [], 'logo');
    if (stored) change.logo_url = stored.mediaKey;
    try {
      await this.writes.transaction((repo) => repo.update(company.id, change, input.description !== undefined));
    } catch (err) {
      await this.uploads.discard(stored ? [stored.mediaKey] : []);
      throw err;
    }
    if (stored && company.logo_url && !/^https?:\/\//.test(company.logo_url))
      await this.uploads.discard([company.logo_url]);
    return { companyId: handle, webUrl: this.links.company(handle) };
  }
}
