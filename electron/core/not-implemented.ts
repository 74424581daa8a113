import { AppError } from '../../shared/errors.js';

/** A handler for a contract method whose capability is not built yet. */
export function notImplemented(method: string): () => Promise<never> {
  return async () => {
    throw new AppError('internal', `${method} is not available in this build yet`);
  };
}
