import { AsyncResource } from "node:async_hooks";

/**
 * Runs `start` outside whichever request is being handled: in the context this module was
 * loaded in, where no request is current. For the timers that batch many requests' work (the
 * click flush, the workspaces' fold): a timer set while a request is handled runs its callback
 * as part of that request, so the batch's queries would show in that one request's trace, and
 * its logs carry that request's fields, long after it was answered.
 */
export const outsideRequests: <T>(start: () => T) => T = AsyncResource.bind(<T>(start: () => T): T => start());
