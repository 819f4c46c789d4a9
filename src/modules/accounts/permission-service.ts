import type { Kysely } from 'kysely';
import type { DB } from '../../db/schema.js';
import { ApiError } from '../../shared/api-error.js';
import { COMPANY_ROLES, RESOURCE_ROLES, type Capability, type ResourceType } from './roles.js';

/** The capabilities of a user's company-wide roles. */
const ofCompanyRoles = (roles: Array<{ role: string }>): Set<Capability> =>
  new Set(roles.flatMap((r) => COMPANY_ROLES[r.role] ?? []));

/** What a user may do at a company, company-wide or on one job or event (docs/decisions.md Permissions). */
export class PermissionService {
  constructor(private readonly db: Kysely<DB>) {}

  async companyCapabilities(userId: number, companyId: number): Promise<Set<Capability>> {
    const rows = await this.db
      .selectFrom('company_roles')
      .select('role')
      .where('user_id', '=', userId)
      .where('company_id', '=', companyId)
      .execute();
    return ofCompanyRoles(rows);
  }

  /** The user's company-wide capabilities at the company of job `jobId` (read beside the job, not after it). */
  async companyCapabilitiesAtJob(userId: number, jobId: number): Promise<Set<Capability>> {
    const rows = await this.db
      .selectFrom('company_roles')
      .innerJoin('jobs', 'jobs.company_id', 'company_roles.company_id')
      .select('company_roles.role')
      .where('company_roles.user_id', '=', userId)
      .where('jobs.id', '=', jobId)
      .execute();
    return ofCompanyRoles(rows);
  }

  async resourceCapabilities(userId: number, type: ResourceType, resourceId: string): Promise<Set<Capability>> {
    const rows = await this.db
      .selectFrom('resource_roles')
      .select('role')
      .where('user_id', '=', userId)
      .where('resource_type', '=', type)
      .where('resource_id', '=', resourceId)
      .execute();
    return new Set(rows.flatMap((r) => RESOURCE_ROLES[r.role]?.capabilities ?? []));
  }

  /**
   * Throws 403 C0004 unless the user holds `capability` company-wide or on the resource. `companyWide`: the user's
   * company-wide capabilities there, when the caller has read them already.
   */
  async require(
    userId: number,
    company: { id: number; handle: string },
    capability: Capability,
    resource?: { type: ResourceType; id: string },
    companyWide?: Set<Capability>,
  ): Promise<void> {
    if ((companyWide ?? (await this.companyCapabilities(userId, company.id))).has(capability)) return;
    if (resource && (await this.resourceCapabilities(userId, resource.type, resource.id)).has(capability)) return;
    const where = resource
      ? `${resource.type.toLowerCase()} ${resource.id} of company ${company.handle}`
      : `company ${company.handle}`;
    throw new ApiError('C0004', `You need the capability ${capability} on ${where}`, 'capability');
  }

  /** Companies where the user holds company-wide roles, with the union of their capabilities. */
  async companiesOf(userId: number) {
    const rows = await this.db
      .selectFrom('company_roles')
      .innerJoin('companies', 'companies.id', 'company_roles.company_id')
      .select(['companies.id', 'companies.handle', 'companies.name', 'companies.logo_url', 'company_roles.role'])
      .where('company_roles.user_id', '=', userId)
      .orderBy('companies.handle')
      .execute();
    const byCompany = new Map<
      number,
      { handle: string; name: string; logoUrl: string | null; capabilities: Set<Capability> }
    >();
    for (const row of rows) {
      let entry = byCompany.get(row.id);
      if (!entry)
        byCompany.set(
          row.id,
          (entry = { handle: row.handle, name: row.name, logoUrl: row.logo_url, capabilities: new Set() }),
        );
      for (const c of COMPANY_ROLES[row.role] ?? []) entry.capabilities.add(c);
    }
    return [...byCompany.values()];
  }

  /** The user's resource roles at a company, one entry per resource with the union of its capabilities. */
  async resourceRolesAt(userId: number, companyId: number, type?: ResourceType, resourceId?: string) {
    let query = this.db
      .selectFrom('resource_roles')
      .select(['resource_type', 'resource_id', 'role'])
      .where('user_id', '=', userId)
      .where('company_id', '=', companyId);
    if (type) query = query.where('resource_type', '=', type);
    if (resourceId !== undefined) query = query.where('resource_id', '=', resourceId);
    const rows = await query.orderBy('resource_type').orderBy('resource_id').execute();
    const byResource = new Map<
      string,
      { resourceType: ResourceType; resourceId: string; capabilities: Set<Capability> }
    >();
    for (const row of rows) {
      const key = `${row.resource_type}:${row.resource_id}`;
      let entry = byResource.get(key);
      if (!entry)
        byResource.set(
          key,
          (entry = {
            resourceType: row.resource_type as ResourceType,
            resourceId: row.resource_id,
            capabilities: new Set(),
          }),
        );
      for (const c of RESOURCE_ROLES[row.role]?.capabilities ?? []) entry.capabilities.add(c);
    }
    return [...byResource.values()];
  }
}
