import type { IslandMessages } from '../../i18n/island.ts';
import { POLICY_KEYS } from './policy.ts';

/** The locale keys the account island shows (see src/i18n/island.ts), the policy messages included. */
export const MESSAGE_KEYS = [
  'account.loading', 'account.error.title', 'account.error.details', 'account.internal.title', 'account.internal.text',
  'account.profile.title', 'account.profile.requiredHint', 'account.userName', 'account.firstName', 'account.lastName', 'account.company', 'account.email',
  'account.telephone', 'account.address', 'account.postalCode', 'account.city', 'account.country', 'account.language', 'account.selectPlaceholder',
  'account.firstNameRequired', 'account.lastNameRequired', 'account.profile.save', 'account.profile.saving', 'account.profile.saved', 'account.profile.failed',
  'account.profile.unknownOutcome',
  'account.profile.invalid', 'account.password.title', 'account.password.current', 'account.password.new', 'account.password.confirm',
  'account.password.currentRequired', 'account.password.newRequired', 'account.password.confirmRequired', 'account.password.mismatch',
  'account.password.currentWrong', 'account.password.submit', 'account.password.changing', 'account.password.changed', 'account.password.failed',
  'account.mfa.title', 'account.mfa.text', 'account.mfa.devices', 'account.mfa.reset', 'account.mfa.confirmTitle', 'account.mfa.confirmText',
  'account.mfa.confirm', 'account.mfa.resetting', 'account.mfa.done', 'account.mfa.failed', 'account.delete.title', 'account.delete.text',
  'account.delete.button', 'account.delete.confirmTitle', 'account.delete.confirmText', 'account.delete.confirm', 'account.delete.deleting',
  'account.delete.failed', 'account.cancel', 'flash.success', 'flash.error', 'flash.dismiss',
  ...POLICY_KEYS,
] as const;

export type AccountMessages = IslandMessages<typeof MESSAGE_KEYS>;

/** An option of a select: code and its name in the page's language. */
export interface Option {
  code: string;
  name: string;
}
