import type { ImageUploads } from '../../media/image-uploads.js';
import type { Links } from '../../shared/links.js';
import type { AccountsRepository } from '../accounts/accounts-repository.js';
import type { PermissionService } from '../accounts/permission-service.js';
import type { EventWriteRepository } from './event-write-repository.js';

/** What the event write services and their rules are built from (the events area, index.ts, assembles it once). */
export interface EventWriteDeps {
  writes: EventWriteRepository;
  accounts: AccountsRepository;
  permissions: PermissionService;
  uploads: ImageUploads;
  links: Links;
  clock: () => number;
  timeZone: string;
}
