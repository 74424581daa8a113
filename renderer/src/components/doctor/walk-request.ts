// What the add/edit dialog's walk tests: the form as it is now (unsaved), with placeholders for an id or name not yet
// typed, and the saved server it edits (so stored secrets and its sign-in are used).
import type { ServerConfigView } from '../../../../shared/contract';
import { modelToInput, type ServerFormModel } from '../servers/server-form-model';
import type { WalkRequest } from './DoctorWalkPanel';

/** The walk request for a form, or why it cannot run yet. */
export function formWalkRequest(m: ServerFormModel, existing?: ServerConfigView): WalkRequest | string {
  if (m.type === 'stdio' ? m.command.trim() === '' : m.url.trim() === '') {
    return m.type === 'stdio' ? 'Give a command to test.' : 'Give a URL to test.';
  }
  const config = modelToInput({ ...m, id: m.id.trim() || 'connection-test', name: m.name.trim() || 'Connection test' }, existing);
  return { config, ...(existing !== undefined ? { id: existing.id } : {}) };
}
