// Sends a JSON answer, checked against its contract schema first when `validate` is on
// (dev and tests): a daemon bug then surfaces as a logged 500 instead of a payload the SPA
// would reject.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "../../src/contract/zod";
import { ApiError } from "./api-error";

export type Responder = (<T extends z.ZodMiniType>(
  c: Context,
  schema: T,
  value: z.input<T>,
  status?: ContentfulStatusCode,
  /** A stricter schema to validate with than the one that types `value`. */
  strict?: z.ZodMiniType,
) => Response) & {
  /**
   * Sends JSON text built elsewhere (e.g. spliced from stored JSON) as it is. With
   * `validate` on it is parsed and checked against `schema` first; off, it is not parsed.
   */
  json(c: Context, schema: z.ZodMiniType, json: string, status?: ContentfulStatusCode): Response;
  /**
   * Checks one piece of an answer sent in parts (a streamed body) against `schema` when
   * `validate` is on: a breach is logged and thrown, and the caller ends the body.
   */
  check(c: Context, schema: z.ZodMiniType, value: unknown): void;
};

export function createResponder(validate: boolean, log: (line: string) => void): Responder {
  function check(c: Context, schema: z.ZodMiniType, value: unknown): void {
    const result = schema.safeParse(value);
    if (!result.success) {
      log(
        `[http] ${c.req.method} ${c.req.path}: response breaks the contract: ${result.error.message}`,
      );
      throw new ApiError(500, "internal", "internal error");
    }
  }
  const respond = <T extends z.ZodMiniType>(
    c: Context,
    schema: T,
    value: z.input<T>,
    status: ContentfulStatusCode = 200,
    strict: z.ZodMiniType | undefined = undefined,
  ): Response => {
    if (validate) check(c, strict ?? schema, value);
    return c.json(value as object, status);
  };
  return Object.assign(respond, {
    check(c: Context, schema: z.ZodMiniType, value: unknown) {
      if (validate) check(c, schema, value);
    },
    json(c: Context, schema: z.ZodMiniType, json: string, status: ContentfulStatusCode = 200) {
      if (validate) check(c, schema, JSON.parse(json));
      // The header c.json sets, so both paths answer alike.
      return c.body(json, status, { "Content-Type": "application/json" });
    },
  });
}
