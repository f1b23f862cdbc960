// The default answer to `session/request_permission` (acp-intake.md §1): the daemon has no
// one to ask, so it declines: the first `reject_*` option, else `cancelled`.
import type {
  RequestPermissionRequest,
  RequestPermissionResponse,
} from "@agentclientprotocol/sdk/unstable";

export function decidePermission(request: RequestPermissionRequest): RequestPermissionResponse {
  const reject = request.options.find((option) => option.kind.startsWith("reject_"));
  return reject === undefined
    ? { outcome: { outcome: "cancelled" } }
    : { outcome: { outcome: "selected", optionId: reject.optionId } };
}
