// Sends a JSON answer, checked against its contract schema first when `validate` is on
// (dev and tests): a daemon bug then surfaces as a logged 500 instead of a payload the SPA
// would reject.
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { z } from "zod";
import { ApiError } from "./api-error";

export type Responder = <T extends z.ZodType>(
  c: Context,
  schema: T,
  value: z.input<T>,
  status?: ContentfulStatusCode,
  /** A stricter schema to validate with than the one that types `value`. */
  strict?: z.ZodType,
) => Response;

export function createResponder(validate: boolean, log: (line: string) => void): Responder {
  return (c, schema, value, status = 200, strict = undefined) => {
    if (validate) {
      const result = (strict ?? schema).safeParse(value);
      if (!result.success) {
        log(
          `[http] ${c.req.method} ${c.req.path}: response breaks the contract: ${result.error.message}`,
        );
        throw new ApiError(500, "internal", "internal error");
      }
    }
    return c.json(value as object, status);
  };
}
