/**
 * The console's form bodies, one schema each, as every API body has: the types of the handlers come from them, and a
 * body they refuse (a field sent twice where one is read, say) is answered with the "invalid" page (console-guard.ts).
 * Fields are optional: what each must hold is the page's own rule, shown beside the field.
 */
import { Type, type Static, type TProperties } from '@sinclair/typebox';

const field = Type.Optional(Type.String());
/** A form with the form token and these fields. */
const form = <T extends TProperties>(fields: T) => Type.Object({ csrf_token: field, ...fields });

export const TokenOnlyForm = form({});
export const SignInForm = form({ email: field, password: field });
export const SignUpForm = form({ email: field, name: field, handle: field, password: field });
export const ForgotPasswordForm = form({ email: field });
export const ResetPasswordForm = form({ token: field, password: field });
export const PasswordForm = form({ current: field, password: field });
export const NewAppForm = form({ name: field, description: field });
export const AppProfileForm = form({
  name: field,
  description: field,
  homepage_url: field,
  privacy_url: field,
  web_origins: field,
});
/** What cannot be undone: the confirmation box ticked (`yes`). */
export const ConfirmForm = form({ confirm: field });
export const OverlapForm = form({ overlap: field });
/** An app's OAuth client: redirect URIs one a line, the scopes ticked, `public` or not. */
export const ClientForm = form({ redirect_uris: field, scopes: Type.Optional(Type.Array(Type.String())), type: field });

/** A webhook endpoint: its URL and the change types it wants. */
export const WebhookForm = form({ url: field, types: Type.Optional(Type.Array(Type.String())) });
/** A replay of the changes between two times (`YYYY-MM-DDTHH:mm`, UTC). */
export const ReplayForm = form({ from: field, to: field });
/** A test event of one change type. */
export const TestEventForm = form({ type: field });

export type FormOf<T extends ReturnType<typeof form>> = Static<T>;
