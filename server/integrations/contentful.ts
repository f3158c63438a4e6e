import { z } from 'zod';
import { allOrNone, type Integration, isSet } from './integration.js';

// Contentful: the blog's posts from a Contentful space (Content Delivery API, read-only) instead of the
// markdown files in content/blog. On only when both the space id and the delivery token are set; half the pair
// stops the start. CONTENTFUL_BASE_URL moves the calls to another origin (the EU host, or the local fake in
// tests); plain http is allowed only on loopback, so a typo cannot send the token over the internet
// unencrypted. The token stays on the server: the browser asks this server, never Contentful.

const REQUIRED = ['CONTENTFUL_SPACE_ID', 'CONTENTFUL_ACCESS_TOKEN'] as const;

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

// Space and environment ids go into the request path: only the characters Contentful's ids use.
const PATH_ID = /^[A-Za-z0-9_.-]{1,64}$/;

const baseUrl = z
  .url({
    protocol: /^https?$/,
    error: 'CONTENTFUL_BASE_URL must be an http(s) URL (leave it unset for https://cdn.contentful.com)',
  })
  .refine((value) => {
    const url = new URL(value);
    return url.protocol === 'https:' || LOOPBACK.has(url.hostname);
  }, 'CONTENTFUL_BASE_URL may use plain http only on loopback (127.0.0.1, localhost, [::1])')
  .refine((value) => {
    const url = new URL(value);
    return (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
  }, 'CONTENTFUL_BASE_URL is an origin (scheme, host, port) without a path');

const contentfulEnv = z
  .object({
    CONTENTFUL_SPACE_ID: z
      .string()
      .refine(
        (v) => !isSet(v) || PATH_ID.test(v.trim()),
        'CONTENTFUL_SPACE_ID is a space id (letters, digits)',
      )
      .optional(),
    CONTENTFUL_ACCESS_TOKEN: z.string().optional(),
    CONTENTFUL_ENVIRONMENT: z
      .string()
      .refine((v) => !isSet(v) || PATH_ID.test(v.trim()), 'CONTENTFUL_ENVIRONMENT is an environment id')
      .optional(),
    CONTENTFUL_CONTENT_TYPE: z
      .string()
      .refine((v) => !isSet(v) || PATH_ID.test(v.trim()), 'CONTENTFUL_CONTENT_TYPE is a content type id')
      .optional(),
    CONTENTFUL_BASE_URL: baseUrl.optional(),
  })
  .superRefine(allOrNone('Contentful', REQUIRED))
  .transform((e) => ({
    contentful:
      isSet(e.CONTENTFUL_SPACE_ID) && isSet(e.CONTENTFUL_ACCESS_TOKEN)
        ? {
            spaceId: e.CONTENTFUL_SPACE_ID.trim(),
            accessToken: e.CONTENTFUL_ACCESS_TOKEN.trim(),
            environment: isSet(e.CONTENTFUL_ENVIRONMENT) ? e.CONTENTFUL_ENVIRONMENT.trim() : 'master',
            /** Only entries of this content type are asked for; null: every entry that has a post's fields. */
            contentType: isSet(e.CONTENTFUL_CONTENT_TYPE) ? e.CONTENTFUL_CONTENT_TYPE.trim() : null,
            baseUrl: (e.CONTENTFUL_BASE_URL ?? 'https://cdn.contentful.com').replace(/\/+$/, ''),
          }
        : null,
  }));

export type ContentfulConfig = z.output<typeof contentfulEnv>;
/** The settings the blog reads Contentful with (null: posts from the markdown folder). */
export type ContentfulSettings = NonNullable<ContentfulConfig['contentful']>;

export const contentful: Integration<ContentfulConfig> = {
  label: 'Contentful',
  required: REQUIRED,
  env: contentfulEnv,
  enabled: (config) => config.contentful !== null,
  unavailableText: "The blog shows the posts kept with this site's own files.",
};
