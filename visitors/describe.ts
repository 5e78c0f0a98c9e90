import type { IncomingMessage } from "node:http";
import { clientAddress } from "../limits/client-address";
import { countryOf } from "./countries";
import { hourOf, joinDetails } from "./dimensions";
import { referrerOf } from "./referrers";
import { agentOf } from "./user-agents";

/**
 * What the lookup answering `req` records of its click, as the click counter keeps it
 * (dimensions.ts): the hour, the referrer's host, the country of the client's address
 * (the one `trustProxy` decides, as for every limit by address), and what its
 * User-Agent says. Costs well under a microsecond per click once its agent, address
 * and referrer were seen (each is remembered: user-agents.ts, countries.ts, referrers.ts).
 */
export function describeClick(req: IncomingMessage, trustProxy: boolean, now = Date.now()): string {
  const userAgent = req.headers["user-agent"];
  const referer = req.headers.referer;
  const address = clientAddress(req, trustProxy);
  const hour = hourOf(now);
  // A client on a kept-alive connection sends request after request with the same
  // headers: the last click's details are given again, as the same string, which the
  // click counter's maps then need not hash again (comparing these few short strings
  // costs less than a cache lookup for each).
  const last = lastClick;
  if (last.userAgent === userAgent && last.referer === referer && last.address === address && last.hour === hour) return last.details;
  const details = joinDetails(hour, referrerOf(referer), countryOf(address), agentOf(userAgent).part);
  lastClick = { userAgent, referer, address, hour, details };
  return details;
}

let lastClick: { userAgent?: string; referer?: string; address?: string; hour: number; details: string } = { hour: -1, details: "" };
