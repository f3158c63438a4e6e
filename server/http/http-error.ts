/**
 * An error meant for the user with an explicit HTTP status, for code that speaks HTTP itself (plugins, routes).
 * Features throw the DomainErrors of lib/errors.ts instead; biome.json keeps server/http/ out of features.
 */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly body: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const forbidden = (message: string) => new HttpError(403, message);
