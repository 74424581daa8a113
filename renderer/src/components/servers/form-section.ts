// What every section of the add/edit dialog receives from the dialog's shell, and the Authorization header rule the
// shell and the remote section share.
import type { EnvRow, ServerFormModel } from './server-form-model';

/** Props of one section of the server form: the model, a patch function and the errors by field. */
export interface FormSectionProps {
  /** The form's current fields. */
  model: ServerFormModel;
  /** Merges changed fields into the model. */
  patch: (p: Partial<ServerFormModel>) => void;
  /** Validation errors by field name. */
  errors: Record<string, string>;
}

const BEARER = /^\s*bearer\s+(\S+)\s*$/i;

/** An Authorization header among the rows: its index (-1 when none) and its token when it is `Bearer <token>`. */
export function authorizationHeader(headers: EnvRow[]): { index: number; bearer: string | undefined } {
  const index = headers.findIndex((h) => h.key.trim().toLowerCase() === 'authorization');
  return { index, bearer: index >= 0 ? BEARER.exec(headers[index]?.value ?? '')?.[1] : undefined };
}
