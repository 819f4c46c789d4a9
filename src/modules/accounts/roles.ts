/** Company-wide roles and the capabilities they grant (docs/decisions.md Permissions). */
export const JOB_CAPABILITIES = [
  'ENT_JOB_LIST',
  'ENT_JOB_VIEW',
  'ENT_JOB_CREATE',
  'ENT_JOB_UPDATE',
  'ENT_JOB_PUBLISH',
  'ENT_JOB_DISABLE',
  'ENT_JOB_DELETE',
] as const;
export const EVENT_CAPABILITIES = [
  'ENT_EVENT_CREATE',
  'ENT_EVENT_UPDATE',
  'ENT_EVENT_DELETE',
  'ENT_EVENT_SUB_MANAGE',
] as const;
export const COMPANY_CAPABILITIES = ['ENT_COMPANY_EDIT'] as const;
export const ALL_CAPABILITIES = [...JOB_CAPABILITIES, ...EVENT_CAPABILITIES, ...COMPANY_CAPABILITIES] as const;
export type Capability = (typeof ALL_CAPABILITIES)[number];

export const COMPANY_ROLES: Record<string, readonly Capability[]> = {
  OWNER: ALL_CAPABILITIES,
  ADMIN: ALL_CAPABILITIES,
  RECRUITER: JOB_CAPABILITIES,
  EVENT_MANAGER: EVENT_CAPABILITIES,
};

/** Roles on one job or event, and what they allow on it. */
export const RESOURCE_ROLES: Record<string, { resourceType: 'JOB' | 'EVENT'; capabilities: readonly Capability[] }> = {
  JOB_MANAGER: {
    resourceType: 'JOB',
    capabilities: ['ENT_JOB_VIEW', 'ENT_JOB_UPDATE', 'ENT_JOB_PUBLISH', 'ENT_JOB_DISABLE', 'ENT_JOB_DELETE'],
  },
  JOB_VIEWER: { resourceType: 'JOB', capabilities: ['ENT_JOB_VIEW'] },
  EVENT_MANAGER: {
    resourceType: 'EVENT',
    capabilities: ['ENT_EVENT_UPDATE', 'ENT_EVENT_DELETE', 'ENT_EVENT_SUB_MANAGE'],
  },
};

export const RESOURCE_TYPES = ['EVENT', 'JOB'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];
