// Argument validators for authorization methods.
import { z } from 'zod';

const id = z.string().min(1).max(200);

/** Validators for auth.* arguments. */
export const authArgSchemas = {
  'auth.status': z.object({ id }).strict(),
  'auth.begin': z.object({ id }).strict(),
  'auth.complete': z.object({ id, redirectUrl: z.string().min(1).max(8192) }).strict(),
  'auth.signOut': z.object({ id }).strict(),
  'auth.deviceStart': z.object({ id }).strict(),
  'auth.deviceCancel': z.object({ id }).strict(),
  'auth.deviceOpen': z.object({ id }).strict(),
  'auth.setBearer': z
    .object({
      id,
      token: z
        .string()
        .min(1)
        .max(16384)
        .regex(/^[\x21-\x7e]+$/, 'A token is printable ASCII without spaces')
        .nullable(),
    })
    .strict(),
  'auth.setClient': z
    .object({
      id,
      client: z
        .object({
          grant: z.enum(['authorization_code', 'client_credentials', 'cross_app_access', 'device_code']),
          clientId: z.string().max(2048).optional(),
          clientSecret: z.string().max(8192).optional(),
          authMethod: z.enum(['client_secret_basic', 'client_secret_post', 'private_key_jwt']).optional(),
          privateKeyPem: z.string().max(32768).optional(),
          metadataUrl: z.string().url().max(2048).optional(),
          scopes: z.array(z.string().max(200)).max(100).optional(),
          issuer: z.string().url().max(2048).optional(),
          idpIssuer: z.string().url().max(2048).optional(),
          idpTokenEndpoint: z.string().url().max(2048).optional(),
          idpClientId: z.string().max(2048).optional(),
          idpClientSecret: z.string().max(8192).optional(),
          idToken: z
            .string()
            .max(16384)
            .regex(/^[A-Za-z0-9._~+/=-]*$/, 'An ID token is a JWT: letters, digits and . _ - only')
            .optional(),
        })
        .strict()
        .nullable(),
    })
    .strict(),
} as const;
